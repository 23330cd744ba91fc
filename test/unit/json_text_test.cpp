#include <gtest/gtest.h>

#include "common/json_text.hpp"

namespace kestrel {
namespace {

TEST(JsonText, CanonicalForm) {
  EXPECT_EQ(canonical_json(" { \"b\" : [1, 2.50, true, null], \"a\" : {} } "), "{\"a\":{},\"b\":[1,2.5,true,null]}");
  EXPECT_EQ(canonical_json("{\"k\": 1, \"k\": 2}"), "{\"k\":2}");  // the last of duplicate keys
  EXPECT_EQ(canonical_json("\"\\u00e9\\ud83d\\ude00\""), "\"\xc3\xa9\xf0\x9f\x98\x80\"");
  EXPECT_EQ(canonical_json("\"tab\\t \\u0001 \\/\""), "\"tab\\t \\u0001 /\"");
  EXPECT_EQ(canonical_json("18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(canonical_json("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(canonical_json("1e400"), std::nullopt);  // beyond a double
}

TEST(JsonText, ErrorsNameLineAndColumn) {
  JsonSyntaxError error;
  EXPECT_EQ(canonical_json("[1,\n  2,,]", &error), std::nullopt);
  EXPECT_EQ(error.line, 2u);
  EXPECT_EQ(error.column, 5u);
  EXPECT_EQ(error.offset, 8u);
  EXPECT_NE(error.describe().find("at line 2, column 5"), std::string::npos) << error.describe();
  EXPECT_EQ(error.describe().find("last read"), std::string::npos) << error.describe();
  EXPECT_EQ(canonical_json("", &error), std::nullopt);
  EXPECT_EQ(error.line, 1u);
  EXPECT_EQ(error.column, 1u);
  EXPECT_EQ(canonical_json("[1,\n 1e400]", &error), std::nullopt);
  EXPECT_EQ(error.describe(), "number overflow parsing '1e400' at line 2, column 2");
  EXPECT_EQ(canonical_json("[1] [2]"), std::nullopt);
  EXPECT_EQ(canonical_json("{\"a\": 1"), std::nullopt);
}

TEST(JsonText, Strings) {
  std::string out;
  append_json_string(out, "say \"hi\"\\\n");
  EXPECT_EQ(out, "\"say \\\"hi\\\"\\\\\\n\"");
  out.clear();
  append_json_string(out, "caf\xc3\xa9");
  EXPECT_EQ(out, "\"caf\xc3\xa9\"");
}

}  // namespace
}  // namespace kestrel
