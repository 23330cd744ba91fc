#include "common/datetime_ops.hpp"
#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

std::vector<Value> extract(const char* field, LogicalType type, const std::vector<Value>& values) {
  return eval(fn(F::kExtract, kBig, {lit(str(field)), ref(0, type)}), make_batch({column(type, values)}));
}

TEST(ExprDatetime, ExtractFromDates) {
  // 1998-12-01 is a Tuesday, day 335 of the year, ISO week 49; 2021-01-03 is a Sunday in ISO week 53 of 2020.
  const std::vector<Value> dates = {date("1998-12-01"), date("2021-01-03"), date("1969-12-31"), null_of(kDate)};
  EXPECT_EQ(extract("year", kDate, dates), (std::vector<Value>{i64(1998), i64(2021), i64(1969), null_of(kBig)}));
  EXPECT_EQ(extract("MONTH", kDate, dates), (std::vector<Value>{i64(12), i64(1), i64(12), null_of(kBig)}));
  EXPECT_EQ(extract("day", kDate, dates), (std::vector<Value>{i64(1), i64(3), i64(31), null_of(kBig)}));
  EXPECT_EQ(extract("quarter", kDate, dates), (std::vector<Value>{i64(4), i64(1), i64(4), null_of(kBig)}));
  EXPECT_EQ(extract("dow", kDate, dates), (std::vector<Value>{i64(2), i64(0), i64(3), null_of(kBig)}));
  EXPECT_EQ(extract("isodow", kDate, dates), (std::vector<Value>{i64(2), i64(7), i64(3), null_of(kBig)}));
  EXPECT_EQ(extract("doy", kDate, dates), (std::vector<Value>{i64(335), i64(3), i64(365), null_of(kBig)}));
  EXPECT_EQ(extract("week", kDate, dates), (std::vector<Value>{i64(49), i64(53), i64(1), null_of(kBig)}));
  EXPECT_EQ(extract("epoch", kDate, dates), (std::vector<Value>{i64(912470400), i64(1609632000), i64(-86400), null_of(kBig)}));
  EXPECT_EQ(extract("century", kDate, dates), (std::vector<Value>{i64(20), i64(21), i64(20), null_of(kBig)}));
  EXPECT_EQ(extract("hour", kDate, dates), (std::vector<Value>{i64(0), i64(0), i64(0), null_of(kBig)}));
}

TEST(ExprDatetime, ExtractFromTimestampsAndIntervals) {
  const std::vector<Value> stamps = {ts("2001-02-16 20:38:40.123456"), ts("1969-12-31 23:59:59.5")};
  EXPECT_EQ(extract("hour", kTs, stamps), (std::vector<Value>{i64(20), i64(23)}));
  EXPECT_EQ(extract("minute", kTs, stamps), (std::vector<Value>{i64(38), i64(59)}));
  EXPECT_EQ(extract("second", kTs, stamps), (std::vector<Value>{i64(40), i64(59)}));
  EXPECT_EQ(extract("millisecond", kTs, stamps), (std::vector<Value>{i64(123), i64(500)}));
  EXPECT_EQ(extract("microsecond", kTs, stamps), (std::vector<Value>{i64(123456), i64(500000)}));
  EXPECT_EQ(extract("epoch", kTs, stamps), (std::vector<Value>{i64(982355920), i64(-1)}));
  EXPECT_EQ(extract("year", kTs, stamps), (std::vector<Value>{i64(2001), i64(1969)}));
  const std::vector<Value> ivs = {interval(14, 3, (4 * 3600 + 5 * 60 + 6) * kMicrosPerSecond)};
  EXPECT_EQ(extract("year", kInterval, ivs), (std::vector<Value>{i64(1)}));
  EXPECT_EQ(extract("month", kInterval, ivs), (std::vector<Value>{i64(2)}));
  EXPECT_EQ(extract("day", kInterval, ivs), (std::vector<Value>{i64(3)}));
  EXPECT_EQ(extract("minute", kInterval, ivs), (std::vector<Value>{i64(5)}));
  EXPECT_EQ(invalid_input_message([&] { extract("fortnight", kDate, {date("2000-01-01")}); }),
            "unknown date part 'fortnight'");
}

TEST(ExprDatetime, DateTrunc) {
  Batch batch = make_batch({column(kDate, {date("1998-12-01"), date("2021-01-03"), date("2000-02-29")}),
                            column(kTs, {ts("2001-02-16 20:38:40.5"), ts("1969-12-31 23:59:59"), ts("2000-01-01")})});
  auto trunc_date = [&](const char* unit) {
    return eval(fn(F::kDateTrunc, kDate, {lit(str(unit)), ref(0, kDate)}), batch);
  };
  auto trunc_ts = [&](const char* unit) { return eval(fn(F::kDateTrunc, kTs, {lit(str(unit)), ref(1, kTs)}), batch); };
  EXPECT_EQ(trunc_date("month"), (std::vector<Value>{date("1998-12-01"), date("2021-01-01"), date("2000-02-01")}));
  EXPECT_EQ(trunc_date("year"), (std::vector<Value>{date("1998-01-01"), date("2021-01-01"), date("2000-01-01")}));
  EXPECT_EQ(trunc_date("quarter"), (std::vector<Value>{date("1998-10-01"), date("2021-01-01"), date("2000-01-01")}));
  EXPECT_EQ(trunc_date("week"), (std::vector<Value>{date("1998-11-30"), date("2020-12-28"), date("2000-02-28")}));
  EXPECT_EQ(trunc_date("day"), (std::vector<Value>{date("1998-12-01"), date("2021-01-03"), date("2000-02-29")}));
  EXPECT_EQ(trunc_date("decade"), (std::vector<Value>{date("1990-01-01"), date("2020-01-01"), date("2000-01-01")}));
  EXPECT_EQ(trunc_date("century"), (std::vector<Value>{date("1901-01-01"), date("2001-01-01"), date("1901-01-01")}));
  EXPECT_EQ(trunc_ts("hour"),
            (std::vector<Value>{ts("2001-02-16 20:00:00"), ts("1969-12-31 23:00:00"), ts("2000-01-01")}));
  EXPECT_EQ(trunc_ts("minute"),
            (std::vector<Value>{ts("2001-02-16 20:38:00"), ts("1969-12-31 23:59:00"), ts("2000-01-01")}));
  EXPECT_EQ(trunc_ts("second"),
            (std::vector<Value>{ts("2001-02-16 20:38:40"), ts("1969-12-31 23:59:59"), ts("2000-01-01")}));
  EXPECT_EQ(trunc_ts("month"), (std::vector<Value>{ts("2001-02-01"), ts("1969-12-01"), ts("2000-01-01")}));
  EXPECT_EQ(invalid_input_message([&] { trunc_date("dow"); }), "date_trunc does not support unit 'dow'");
}

TEST(ExprDatetime, IntervalArithmetic) {
  Batch batch = make_batch({column(kDate, {date("1998-12-01"), date("2000-01-31"), date("2000-03-31"), null_of(kDate)}),
                            column(kTs, {ts("2000-01-31 10:00:00"), ts("1999-12-31 23:30:00"), ts("2000-02-29 00:00:00"),
                                         ts("2000-01-01")})});
  EXPECT_EQ(eval(fn(F::kDateSubtractInterval, kDate, {ref(0, kDate), lit(interval(0, 90))}), batch),
            (std::vector<Value>{date("1998-09-02"), date("1999-11-02"), date("2000-01-01"), null_of(kDate)}));
  // Months clamp to the end of the month.
  EXPECT_EQ(eval(fn(F::kDateAddInterval, kDate, {ref(0, kDate), lit(interval(1, 0))}), batch),
            (std::vector<Value>{date("1999-01-01"), date("2000-02-29"), date("2000-04-30"), null_of(kDate)}));
  EXPECT_EQ(eval(fn(F::kDateAddInterval, kDate, {lit(interval(12, 1)), ref(0, kDate)}), batch),
            (std::vector<Value>{date("1999-12-02"), date("2001-02-01"), date("2001-04-01"), null_of(kDate)}));
  // The time part of an interval added to a DATE is rounded down to whole days.
  EXPECT_EQ(eval(fn(F::kDateAddInterval, kDate, {ref(0, kDate), lit(interval(0, 0, -kMicrosPerSecond))}), batch)[0],
            date("1998-11-30"));
  EXPECT_EQ(eval(fn(F::kDateAddInterval, kTs, {ref(1, kTs), lit(interval(1, 1, 3600 * kMicrosPerSecond))}), batch),
            (std::vector<Value>{ts("2000-03-01 11:00:00"), ts("2000-02-02 00:30:00"), ts("2000-03-30 01:00:00"),
                                ts("2000-02-02 01:00:00")}));
  EXPECT_EQ(eval(fn(F::kDateSubtractInterval, kTs, {ref(1, kTs), lit(interval(0, 0, 30 * 60 * kMicrosPerSecond))}),
                 batch)[1],
            ts("1999-12-31 23:00:00"));
  EXPECT_EQ(eval(fn(F::kIntervalAdd, kInterval, {lit(interval(1, 2, 3)), lit(interval(4, 5, 6))}), batch)[0],
            interval(5, 7, 9));
  EXPECT_EQ(eval(fn(F::kIntervalNegate, kInterval, {lit(interval(1, -2, 3))}), batch)[0], interval(-1, 2, -3));
}

TEST(ExprDatetime, DayArithmetic) {
  Batch batch = make_batch({column(kDate, {date("1998-12-01"), date("2000-03-01")}), column(kInt, {i32(-90), i32(1)})});
  EXPECT_EQ(eval(fn(F::kDateAddDays, kDate, {ref(0, kDate), ref(1, kInt)}), batch),
            (std::vector<Value>{date("1998-09-02"), date("2000-03-02")}));
  EXPECT_EQ(eval(fn(F::kDateAddDays, kDate, {lit(i32(30)), ref(0, kDate)}), batch),
            (std::vector<Value>{date("1998-12-31"), date("2000-03-31")}));
  EXPECT_EQ(eval(fn(F::kDateSubtractDays, kDate, {ref(0, kDate), lit(i32(1))}), batch),
            (std::vector<Value>{date("1998-11-30"), date("2000-02-29")}));
  EXPECT_EQ(eval(fn(F::kDateDiffDays, kInt, {ref(0, kDate), lit(date("1998-01-01"))}), batch),
            (std::vector<Value>{i32(334), i32(790)}));
}

TEST(ExprDatetime, OpsAgreeWithCalendarLoop) {
  // Reference: walk the calendar day by day with civil dates and compare every helper.
  int32_t day = days_from_civil(1899, 12, 25);
  int32_t expected_dow = 1;  // 1899-12-25 was a Monday
  for (int i = 0; i < 80000; ++i, ++day) {
    const CivilDate c = civil_from_days(day);
    ASSERT_EQ(datetime::extract_from_date(DatePart::kYear, day), c.year);
    ASSERT_EQ(datetime::extract_from_date(DatePart::kIsoDayOfWeek, day), expected_dow) << format_date(day);
    ASSERT_EQ(datetime::trunc_date(DatePart::kMonth, day), day - (c.day - 1));
    ASSERT_EQ(datetime::trunc_date(DatePart::kWeek, day), day - (expected_dow - 1));
    expected_dow = expected_dow % 7 + 1;
  }
}

}  // namespace
}  // namespace kestrel::exec::testing
