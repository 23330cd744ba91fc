#include <cmath>

#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

std::vector<Value> cast_values(LogicalType from, const std::vector<Value>& values, LogicalType to) {
  return eval(cast(ref(0, from), to), make_batch({column(from, values)}));
}

std::string cast_error(LogicalType from, const Value& v, LogicalType to) {
  return invalid_input_message([&] { cast_values(from, {v}, to); });
}

TEST(CastNumeric, IntegersWithRangeChecks) {
  EXPECT_EQ(cast_values(kBig, {i64(127), i64(-128), null_of(kBig)}, kTiny),
            (std::vector<Value>{Value::tinyint(127), Value::tinyint(-128), null_of(kTiny)}));
  EXPECT_EQ(cast_error(kBig, i64(128), kTiny), "cannot cast BIGINT 128 to TINYINT: out of range");
  EXPECT_EQ(cast_error(kInt, i32(-40000), kSmall), "cannot cast INTEGER -40000 to SMALLINT: out of range");
  EXPECT_EQ(cast_values(kTiny, {Value::tinyint(-5)}, kBig), (std::vector<Value>{i64(-5)}));
  // A NULL row holding an out-of-range value raises nothing.
  EXPECT_EQ(cast_values(kBig, {null_of(kBig)}, kTiny), (std::vector<Value>{null_of(kTiny)}));
}

TEST(CastNumeric, FloatToIntegerRoundsHalfAwayFromZero) {
  EXPECT_EQ(cast_values(kDouble, {f64(2.5), f64(-2.5), f64(2.4999), f64(-0.5)}, kInt),
            (std::vector<Value>{i32(3), i32(-3), i32(2), i32(-1)}));
  EXPECT_EQ(cast_error(kDouble, f64(3e9), kInt), "cannot cast DOUBLE 3000000000.0 to INTEGER: out of range");
  EXPECT_NE(cast_error(kDouble, f64(std::nan("")), kBig), "");
  EXPECT_NE(cast_error(kDouble, f64(9.3e18), kBig), "");
  EXPECT_EQ(cast_values(kInt, {i32(16777217)}, kDouble), (std::vector<Value>{f64(16777217.0)}));
}

TEST(CastDecimal, RescaleRoundsHalfAwayFromZero) {
  // DECIMAL(10,4) -> DECIMAL(8,2): 1.2350 -> 1.24, -1.2350 -> -1.24, 1.2349 -> 1.23
  EXPECT_EQ(cast_values(dec(10, 4), {decv(12350, 10, 4), decv(-12350, 10, 4), decv(12349, 10, 4)}, dec(8, 2)),
            (std::vector<Value>{decv(124, 8, 2), decv(-124, 8, 2), decv(123, 8, 2)}));
  // Up-scaling into int128 storage: 123.45 as DECIMAL(38,20).
  EXPECT_EQ(cast_values(dec(5, 2), {decv(12345, 5, 2)}, dec(38, 20)),
            (std::vector<Value>{decv(int128_t{12345} * pow10_i128(18), 38, 20)}));
  // int128 down to int64 storage: 12345678.9500000000 -> 12345679.0
  EXPECT_EQ(cast_values(dec(38, 10), {decv(int128_t{123456789} * pow10_i128(9) + 5 * pow10_i128(8), 38, 10)},
                        dec(12, 1)),
            (std::vector<Value>{decv(123456790, 12, 1)}));
  EXPECT_EQ(cast_error(dec(5, 2), decv(99999, 5, 2), dec(4, 2)),
            "cannot cast DECIMAL(5,2) 999.99 to DECIMAL(4,2): out of range");
  // Rounding can carry into a new digit: 9.995 -> 10.00 fits DECIMAL(4,2) but not DECIMAL(3,2).
  EXPECT_EQ(cast_values(dec(4, 3), {decv(9995, 4, 3)}, dec(4, 2)), (std::vector<Value>{decv(1000, 4, 2)}));
  EXPECT_NE(cast_error(dec(4, 3), decv(9995, 4, 3), dec(3, 2)), "");
}

TEST(CastDecimal, ToAndFromIntegersAndFloats) {
  EXPECT_EQ(cast_values(dec(6, 2), {decv(250, 6, 2), decv(-250, 6, 2), decv(249, 6, 2)}, kInt),
            (std::vector<Value>{i32(3), i32(-3), i32(2)}));
  EXPECT_EQ(cast_values(kBig, {i64(-42)}, dec(5, 2)), (std::vector<Value>{decv(-4200, 5, 2)}));
  EXPECT_EQ(cast_error(kInt, i32(1000), dec(5, 2)), "cannot cast INTEGER 1000 to DECIMAL(5,2): out of range");
  EXPECT_EQ(cast_values(kDouble, {f64(0.125), f64(-0.125), f64(1.0 / 3)}, dec(10, 2)),
            (std::vector<Value>{decv(13, 10, 2), decv(-13, 10, 2), decv(33, 10, 2)}));
  EXPECT_EQ(cast_values(dec(10, 3), {decv(-1500, 10, 3)}, kDouble), (std::vector<Value>{f64(-1.5)}));
  EXPECT_EQ(cast_values(kBig, {i64(INT64_MAX)}, dec(38, 0)), (std::vector<Value>{decv(INT64_MAX, 38, 0)}));
  EXPECT_EQ(cast_values(dec(38, 0), {decv(pow10_i128(20), 38, 0)}, kDouble), (std::vector<Value>{f64(1e20)}));
  EXPECT_NE(cast_error(dec(38, 0), decv(pow10_i128(20), 38, 0), kBig), "");
}

TEST(CastString, ParsesEveryType) {
  EXPECT_EQ(cast_values(kVarchar, {str(" 42 "), str("-7"), str("+3"), null_of(kVarchar)}, kInt),
            (std::vector<Value>{i32(42), i32(-7), i32(3), null_of(kInt)}));
  EXPECT_EQ(cast_values(kVarchar, {str("1.5e3"), str("-0.25"), str("NaN")}, kDouble)[0], f64(1500));
  EXPECT_EQ(cast_values(kVarchar, {str("12.345"), str("-0.5")}, dec(6, 2)),
            (std::vector<Value>{decv(1235, 6, 2), decv(-50, 6, 2)}));
  EXPECT_EQ(cast_values(kVarchar, {str("1998-12-01"), str("2000-02-29 13:00:00")}, kDate),
            (std::vector<Value>{date("1998-12-01"), date("2000-02-29")}));
  EXPECT_EQ(cast_values(kVarchar, {str("2001-02-03 04:05:06.5")}, kTs),
            (std::vector<Value>{ts("2001-02-03 04:05:06.5")}));
  EXPECT_EQ(cast_values(kVarchar, {str("true"), str("F"), str("yes"), str("0")}, kBool),
            (std::vector<Value>{b(true), b(false), b(true), b(false)}));
  EXPECT_EQ(cast_values(kVarchar, {str("1 year 2 mons 3 days 04:05:06"), str("90 days"), str("-1 month")}, kInterval),
            (std::vector<Value>{interval(14, 3, (4 * 3600 + 5 * 60 + 6) * kMicrosPerSecond), interval(0, 90),
                                interval(-1, 0)}));
}

TEST(CastString, FailuresNameValueAndType) {
  EXPECT_EQ(cast_error(kVarchar, str("abc"), kDate), "cannot cast 'abc' to DATE");
  EXPECT_EQ(cast_error(kVarchar, str("1995-02-30"), kDate), "cannot cast '1995-02-30' to DATE");
  EXPECT_EQ(cast_error(kVarchar, str("12x"), kInt), "cannot cast '12x' to INTEGER");
  EXPECT_EQ(cast_error(kVarchar, str("300"), kTiny), "cannot cast '300' to TINYINT");
  EXPECT_EQ(cast_error(kVarchar, str("1.5"), kBig), "cannot cast '1.5' to BIGINT");
  EXPECT_EQ(cast_error(kVarchar, str("123.4"), dec(4, 2)), "cannot cast '123.4' to DECIMAL(4,2)");
  EXPECT_EQ(cast_error(kVarchar, str("maybe"), kBool), "cannot cast 'maybe' to BOOLEAN");
  EXPECT_EQ(cast_error(kVarchar, str("3 fortnights"), kInterval), "cannot cast '3 fortnights' to INTERVAL");
  EXPECT_EQ(cast_error(kVarchar, str(""), kDouble), "cannot cast '' to DOUBLE");
}

TEST(CastString, FormatsLikeValueToString) {
  const std::vector<std::pair<LogicalType, Value>> samples = {
      {kBool, b(true)},
      {kTiny, Value::tinyint(-8)},
      {kBig, i64(INT64_MIN)},
      {kReal, Value::real(0.5f)},
      {kDouble, f64(0.1)},
      {kDouble, f64(3)},
      {dec(15, 2), decv(-5, 15, 2)},
      {dec(38, 10), decv(pow10_i128(37) + 1, 38, 10)},
      {kDate, date("1992-01-01")},
      {kTs, ts("1970-01-01 00:00:00.25")},
      {kInterval, interval(13, -2, 3 * kMicrosPerSecond)},
  };
  for (const auto& [type, v] : samples) {
    SCOPED_TRACE(type.to_string());
    EXPECT_EQ(cast_values(type, {v, null_of(type)}, kVarchar), (std::vector<Value>{str(v.to_string()), null_of(kVarchar)}));
  }
  // Spelled out, so a change of Value::to_string cannot hide a change here.
  EXPECT_EQ(cast_values(dec(15, 2), {decv(-5, 15, 2)}, kVarchar)[0], str("-0.05"));
  EXPECT_EQ(cast_values(kDate, {date("1992-01-01")}, kVarchar)[0], str("1992-01-01"));
  EXPECT_EQ(cast_values(kDouble, {f64(3)}, kVarchar)[0], str("3.0"));
}

TEST(CastTemporal, DateTimestampAndBoolean) {
  EXPECT_EQ(cast_values(kDate, {date("1998-12-01"), null_of(kDate)}, kTs),
            (std::vector<Value>{ts("1998-12-01 00:00:00"), null_of(kTs)}));
  EXPECT_EQ(cast_values(kTs, {ts("1998-12-01 23:59:59"), ts("1969-12-31 12:00:00")}, kDate),
            (std::vector<Value>{date("1998-12-01"), date("1969-12-31")}));
  EXPECT_EQ(cast_values(kBool, {b(true), b(false)}, kInt), (std::vector<Value>{i32(1), i32(0)}));
  EXPECT_EQ(cast_values(kBig, {i64(0), i64(-3)}, kBool), (std::vector<Value>{b(false), b(true)}));
  // A NULL constant casts to a NULL of any type.
  EXPECT_EQ(eval(cast(lit(Value()), kDate), make_batch({}, 2)), (std::vector<Value>(2, null_of(kDate))));
}

TEST(CastDictionary, DecodesBeforeParsing) {
  Batch batch = make_batch({dictionary_column({"1", "22", "x"}, {0, 1, 1, -1})});
  EXPECT_EQ(eval(cast(ref(0, kVarchar), kInt), batch), (std::vector<Value>{i32(1), i32(22), i32(22), null_of(kInt)}));
}

}  // namespace
}  // namespace kestrel::exec::testing
