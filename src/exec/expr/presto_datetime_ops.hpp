#pragma once
/// Per-row rules of Presto's date functions as the GPU evaluates them (datetime_fields_gpu.cu): KESTREL_HD functions
/// over DATE days and TIMESTAMP microseconds written to give exactly the results and errors of the CPU kernels
/// (datetime.cpp, presto_more_funcs.cpp, presto_datetime_funcs.cpp); test/unit/expr/presto_gpu_ops_test.cpp checks
/// them against those on the host. The calendar itself is common/datetime_ops.hpp's.

#include <cmath>
#include <cstdint>

#include "common/datetime_ops.hpp"
#include "common/numeric_ops.hpp"

namespace kestrel::exec::presto_ops {

/// The day number of a timestamp.
KESTREL_HD inline int32_t day_of_timestamp(int64_t micros) {
  return static_cast<int32_t>(datetime::floor_div64(micros, kMicrosPerDay));
}

/// year_of_week: the ISO week-numbering year, the year of the Thursday of the day's week.
KESTREL_HD inline int64_t year_of_week(int32_t days) { return civil_from_days(days - datetime::iso_weekday(days) + 4).year; }

/// last_day_of_month: the day number of the last day of the day's month.
KESTREL_HD inline int32_t last_day_of_month(int32_t days) {
  const CivilDate c = civil_from_days(days);
  return days_from_civil(c.year, c.month, days_in_month(c.year, c.month));
}

/// date_add(unit, amount, date) into `r`; true when the result leaves the range (an error). `months_per` and
/// `unit_micros` are datetime::months_per_unit and micros_per_unit of the unit (day, week, month, quarter, year).
KESTREL_HD inline bool date_add_date(int64_t months_per, int64_t unit_micros, int64_t amount, int32_t d, int32_t& r) {
  if (months_per != 0) return !datetime::date_add_months(d, amount, months_per, r);
  int64_t delta = 0, sum = 0;
  if (numeric::mul_overflow(amount, unit_micros / kMicrosPerDay, &delta) ||
      numeric::add_overflow(delta, static_cast<int64_t>(d), &sum) || sum < -2147483647 - 1 || sum > 2147483647) {
    return true;
  }
  r = static_cast<int32_t>(sum);
  return false;
}

/// date_add(unit, amount, timestamp) into `r`; true when the result leaves the range. Month units move the calendar
/// day (clamped to the month's end) and keep the time of day.
KESTREL_HD inline bool date_add_timestamp(int64_t months_per, int64_t unit_micros, int64_t amount, int64_t t,
                                          int64_t& r) {
  if (months_per != 0) {
    const datetime::DayTime dt = datetime::day_time_of_timestamp(t);
    int32_t day = 0;
    int64_t micros = 0;
    return !datetime::date_add_months(static_cast<int32_t>(dt.day), amount, months_per, day) ||
           numeric::mul_overflow(static_cast<int64_t>(day), kMicrosPerDay, &micros) ||
           numeric::add_overflow(micros, dt.micros, &r);
  }
  int64_t delta = 0;
  return numeric::mul_overflow(amount, unit_micros, &delta) || numeric::add_overflow(t, delta, &r);
}

/// to_unixtime: seconds since 1970 (one correctly rounded division).
KESTREL_HD inline double to_unixtime(int64_t micros) { return static_cast<double>(micros) / 1e6; }

/// from_unixtime: seconds to microseconds rounded half up, floor(seconds * 1e6 + 0.5) with each step rounded (no
/// fused multiply-add on the device, as on the host); true when that is not finite or not below 9.2e18 in size.
KESTREL_HD inline bool from_unixtime(double seconds, int64_t& r) {
#if defined(__CUDA_ARCH__)
  const double micros = floor(__dadd_rn(__dmul_rn(seconds, 1e6), 0.5));
  if (!isfinite(micros) || fabs(micros) >= 9.2e18) return true;
#else
  const double micros = std::floor(seconds * 1e6 + 0.5);
  if (!std::isfinite(micros) || std::fabs(micros) >= 9.2e18) return true;
#endif
  r = static_cast<int64_t>(micros);
  return false;
}

}  // namespace kestrel::exec::presto_ops
