#include <gtest/gtest.h>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "common/temporal.hpp"
#include "common/binary_encoding.hpp"
#include "common/value.hpp"
#include "common/xxhash64.hpp"

namespace kestrel {
namespace {

TEST(Temporal, CivilRoundTrip) {
  for (int32_t d = -800000; d <= 800000; d += 37) {
    CivilDate c = civil_from_days(d);
    EXPECT_EQ(days_from_civil(c.year, c.month, c.day), d);
  }
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(format_date(days_from_civil(1998, 9, 2)), "1998-09-02");
}

TEST(Temporal, ParseAndFormat) {
  EXPECT_EQ(parse_date("1995-03-15"), days_from_civil(1995, 3, 15));
  EXPECT_FALSE(parse_date("1995-02-30").has_value());
  EXPECT_FALSE(parse_date("1995-3").has_value());
  auto ts = parse_timestamp("2001-02-03 04:05:06.5");
  ASSERT_TRUE(ts.has_value());
  EXPECT_EQ(format_timestamp(*ts), "2001-02-03 04:05:06.5");
  EXPECT_EQ(format_timestamp(-1), "1969-12-31 23:59:59.999999");
}

TEST(Temporal, AddMonthsClampsDay) {
  EXPECT_EQ(format_date(add_months(days_from_civil(2000, 1, 31), 1)), "2000-02-29");
  EXPECT_EQ(format_date(add_months(days_from_civil(2000, 3, 31), -13)), "1999-02-28");
}

TEST(Decimal, FormatAndParse) {
  EXPECT_EQ(format_decimal(12345, 2), "123.45");
  EXPECT_EQ(format_decimal(-5, 3), "-0.005");
  EXPECT_EQ(parse_decimal("123.456", 10, 2), int128_t{12346});
  EXPECT_EQ(parse_decimal("-0.5", 3, 1), int128_t{-5});
  EXPECT_FALSE(parse_decimal("1234", 5, 2).has_value());
  EXPECT_FALSE(parse_decimal("1.2.3", 5, 2).has_value());
  int128_t big = pow10_i128(37) * 9;
  EXPECT_EQ(int128_to_string(big), "9" + std::string(37, '0'));
}

TEST(Errors, SyntaxErrorCarriesPosition) {
  SyntaxError e("unexpected 'SELEC'", SourcePosition{1, 1, 0});
  EXPECT_EQ(e.code(), "42601");
  EXPECT_NE(std::string(e.what()).find("line 1, column 1"), std::string::npos);
  std::string text = format_error(e, "SELEC 1");
  EXPECT_NE(text.find("SELEC 1\n  ^"), std::string::npos);
}

TEST(Values, ToString) {
  EXPECT_EQ(Value::integer(3).to_string(), "3");
  EXPECT_EQ(Value::null(TypeId::kInteger).to_string(), "NULL");
  EXPECT_EQ(Value::decimal(-1234, 10, 3).to_string(), "-1.234");
  EXPECT_EQ(Value::double_value(0.1).to_string(), "0.1");
  EXPECT_EQ(Value::double_value(2).to_string(), "2.0");
  EXPECT_EQ(Value::interval(Interval{14, 3, 0}).to_string(), "1 year 2 mons 3 days");
}

TEST(XxHash64, KnownValues) {
  // Expected values from the system's libxxhash (XXH64) over bytes (7i + 3) mod 256: every path of the algorithm
  // (the 32-byte stripes, 8-byte, 4-byte and single-byte tails) with seeds 0 and 42.
  struct Case {
    size_t size;
    uint64_t seed0, seed42;
  };
  const Case cases[] = {{1, 0x1F25C8D0BC1F4BB6, 0x4D71BEF0290052DB},  {4, 0x9BB64B7D66EE9FDA, 0xBCB54295AB591E0D},
                        {7, 0x9A7B149959CE60D8, 0x9CE59C3AC76FFC9D},  {8, 0xDAB99D95C6F90092, 0x9FE8789AC2A1A649},
                        {31, 0xA2AA5F33CC4A6119, 0x10AB8A7706D8BA37}, {32, 0x23C3C17EF790FD97, 0x232E8071E826D4BF},
                        {33, 0x50A7CFC7BA588784, 0x9D08407E35697B1F}, {63, 0x5E3E54B431C7493C, 0x052FA6D3609A695F},
                        {64, 0x0EB64B3EF6EEB01F, 0xDF21B2DD545076E0}, {100, 0xA61F8D4C170FE531, 0x7DD00BE8513C25A2}};
  std::string bytes;
  for (size_t i = 0; i < 100; ++i) bytes.push_back(static_cast<char>((i * 7 + 3) & 255));
  EXPECT_EQ(xxhash64("", 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(xxhash64("abc", 3), 0x44BC2CF5AD770999ULL);
  for (const Case& c : cases) {
    EXPECT_EQ(xxhash64(bytes.data(), c.size), c.seed0) << c.size;
    EXPECT_EQ(xxhash64(bytes.data(), c.size, 42), c.seed42) << c.size;
  }
}

TEST(BinaryEncoding, HexAndBase64) {
  std::string out;
  append_hex(out, std::string("\x00\xff\x1a", 3), true);
  EXPECT_EQ(out, "00FF1A");
  out.clear();
  append_hex(out, std::string("\x00\xff\x1a", 3), false);
  EXPECT_EQ(out, "00ff1a");
  const std::pair<std::string, std::string> base64[] = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}};  // RFC 4648's test vectors
  for (const auto& [plain, encoded] : base64) {
    out.clear();
    append_base64(out, plain, false);
    EXPECT_EQ(out, encoded);
    out.clear();
    append_from_base64(out, encoded, false, "from_base64");
    EXPECT_EQ(out, plain);
  }
  out.clear();
  append_base64(out, "\xfb\xff", true);
  EXPECT_EQ(out, "-_8=");
  out.clear();
  append_from_base64(out, "-_8", true, "from_base64url");  // padding left out
  EXPECT_EQ(out, "\xfb\xff");
  EXPECT_THROW(append_from_base64(out, "Zm9v!", false, "from_base64"), InvalidInput);
  EXPECT_THROW(append_from_base64(out, "Zg=", false, "from_base64"), InvalidInput);
  EXPECT_THROW(append_from_base64(out, "Zm9vY", false, "from_base64"), InvalidInput);
  EXPECT_THROW(append_from_base64(out, "-_8=", false, "from_base64"), InvalidInput);
}

TEST(Values, Varbinary) {
  EXPECT_EQ(Value::varbinary(std::string("\x00\xff\x10", 3)).to_string(), "00 ff 10");
  EXPECT_EQ(Value::varbinary("").to_string(), "");
  EXPECT_EQ(Value::varbinary("a").type().to_string(), "VARBINARY");
  EXPECT_FALSE(Value::varbinary("a") == Value::varchar("a"));
}

}  // namespace
}  // namespace kestrel
