#include <gtest/gtest.h>

#include "parser/interval_literal_value.hpp"
#include "parser/parser.hpp"

namespace kestrel {
namespace {

constexpr int64_t kHour = 3600LL * 1000000;

std::optional<Interval> literal(std::string_view sql) {
  auto expr = parse_expression(sql);
  return interval_literal_value(expr->as<ast::IntervalLiteral>());
}

TEST(ParserInterval, SingleUnit) {
  EXPECT_EQ(literal("INTERVAL '3' DAY"), (Interval{0, 3, 0}));
  EXPECT_EQ(literal("INTERVAL '1' YEAR"), (Interval{12, 0, 0}));
  EXPECT_EQ(literal("INTERVAL '-2' MONTH"), (Interval{-2, 0, 0}));
  EXPECT_EQ(literal("INTERVAL 90 DAYS"), (Interval{0, 90, 0}));
  EXPECT_EQ(literal("INTERVAL '1.5' DAY"), (Interval{0, 1, 12 * kHour}));
  EXPECT_EQ(literal("INTERVAL '2' HOUR"), (Interval{0, 0, 2 * kHour}));
  EXPECT_EQ(literal("INTERVAL '1.25' SECOND"), (Interval{0, 0, 1250000}));
  EXPECT_FALSE(literal("INTERVAL 'x' DAY").has_value());
}

TEST(ParserInterval, Ranges) {
  EXPECT_EQ(literal("INTERVAL '1-2' YEAR TO MONTH"), (Interval{14, 0, 0}));
  EXPECT_EQ(literal("INTERVAL '-1-2' YEAR TO MONTH"), (Interval{-14, 0, 0}));
  EXPECT_EQ(literal("INTERVAL '1 02:30:00' DAY TO SECOND"), (Interval{0, 1, 2 * kHour + 30 * 60000000LL}));
  EXPECT_EQ(literal("INTERVAL '02:30' HOUR TO MINUTE"), (Interval{0, 0, 2 * kHour + 30 * 60000000LL}));
  EXPECT_EQ(literal("INTERVAL '3 4' DAY TO HOUR"), (Interval{0, 3, 4 * kHour}));
  EXPECT_FALSE(literal("INTERVAL '1' YEAR TO MONTH").has_value());
}

TEST(ParserInterval, TextWithUnits) {
  EXPECT_EQ(literal("INTERVAL '2 days'"), (Interval{0, 2, 0}));
  EXPECT_EQ(parse_interval_text("1 year 3 mons"), (Interval{15, 0, 0}));
  EXPECT_EQ(parse_interval_text("-1 week"), (Interval{0, -7, 0}));
  EXPECT_EQ(parse_interval_text("3 hours 30 minutes"), (Interval{0, 0, 3 * kHour + 30 * 60000000LL}));
  EXPECT_EQ(parse_interval_text("1 day 02:00:00"), (Interval{0, 1, 2 * kHour}));
  EXPECT_EQ(parse_interval_text("@ 3 days ago"), (Interval{0, -3, 0}));
  EXPECT_EQ(parse_interval_text("10 ms"), (Interval{0, 0, 10000}));
  EXPECT_FALSE(parse_interval_text("3 fortnights").has_value());
  EXPECT_FALSE(parse_interval_text("").has_value());
  EXPECT_FALSE(parse_interval_text("99999999999 years").has_value());
}

}  // namespace
}  // namespace kestrel
