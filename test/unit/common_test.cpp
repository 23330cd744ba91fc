#include <gtest/gtest.h>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "common/temporal.hpp"
#include "common/value.hpp"

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

}  // namespace
}  // namespace kestrel
