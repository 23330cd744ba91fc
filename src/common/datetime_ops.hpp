#pragma once
/// Per-value date and time arithmetic shared by the CPU kernels and their GPU twins: EXTRACT fields, date_trunc
/// units and DATE/TIMESTAMP +/- INTERVAL. Header-only, KESTREL_HD functions (the name parsing is host-only).

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/temporal.hpp"
#include "common/types.hpp"

namespace kestrel {

/// A field of EXTRACT / date_part, also a unit of date_trunc.
enum class DatePart : uint8_t {
  kMillennium,
  kCentury,
  kDecade,
  kYear,
  kQuarter,
  kMonth,
  kWeek,       ///< ISO 8601 week number (1..53); date_trunc: the Monday of the week
  kDay,        ///< day of month
  kDayOfWeek,  ///< PostgreSQL `dow`: 0 = Sunday .. 6 = Saturday
  kIsoDayOfWeek,  ///< 1 = Monday .. 7 = Sunday
  kDayOfYear,  ///< 1..366
  kHour,
  kMinute,
  kSecond,       ///< whole seconds 0..59 (EXTRACT returns BIGINT)
  kMillisecond,  ///< the millisecond part 0..999 (Presto), not including the seconds
  kMicrosecond,  ///< the microsecond part 0..999999
  kEpoch,        ///< whole seconds since 1970-01-01 00:00:00 (floor)
};

/// The DatePart named `name` (case-insensitive; plural and short spellings accepted: years, mon, dow, doy...),
/// or nullopt. Host only.
inline std::optional<DatePart> parse_date_part(std::string_view name) {
  char buf[16];
  if (name.size() >= sizeof(buf)) return std::nullopt;
  size_t n = 0;
  for (char c : name) buf[n++] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  std::string_view s(buf, n);
  struct Entry {
    std::string_view name;
    DatePart part;
  };
  static constexpr Entry kNames[] = {
      {"millennium", DatePart::kMillennium}, {"millennia", DatePart::kMillennium},
      {"century", DatePart::kCentury},       {"centuries", DatePart::kCentury},
      {"decade", DatePart::kDecade},         {"decades", DatePart::kDecade},
      {"year", DatePart::kYear},             {"years", DatePart::kYear},
      {"y", DatePart::kYear},                {"quarter", DatePart::kQuarter},
      {"month", DatePart::kMonth},           {"months", DatePart::kMonth},
      {"mon", DatePart::kMonth},             {"week", DatePart::kWeek},
      {"weeks", DatePart::kWeek},            {"day", DatePart::kDay},
      {"days", DatePart::kDay},              {"d", DatePart::kDay},
      {"dow", DatePart::kDayOfWeek},         {"dayofweek", DatePart::kDayOfWeek},
      {"day_of_week", DatePart::kDayOfWeek}, {"isodow", DatePart::kIsoDayOfWeek},
      {"doy", DatePart::kDayOfYear},         {"dayofyear", DatePart::kDayOfYear},
      {"day_of_year", DatePart::kDayOfYear}, {"hour", DatePart::kHour},
      {"hours", DatePart::kHour},            {"h", DatePart::kHour},
      {"minute", DatePart::kMinute},         {"minutes", DatePart::kMinute},
      {"m", DatePart::kMinute},              {"second", DatePart::kSecond},
      {"seconds", DatePart::kSecond},        {"s", DatePart::kSecond},
      {"millisecond", DatePart::kMillisecond}, {"milliseconds", DatePart::kMillisecond},
      {"ms", DatePart::kMillisecond},        {"microsecond", DatePart::kMicrosecond},
      {"microseconds", DatePart::kMicrosecond}, {"us", DatePart::kMicrosecond},
      {"epoch", DatePart::kEpoch},
  };
  for (const Entry& e : kNames) {
    if (e.name == s) return e.part;
  }
  return std::nullopt;
}

/// True when date_trunc accepts `part` as a unit (the calendar and clock units, not dow/doy/epoch).
constexpr bool is_trunc_unit(DatePart part) {
  return part != DatePart::kDayOfWeek && part != DatePart::kIsoDayOfWeek && part != DatePart::kDayOfYear &&
         part != DatePart::kEpoch;
}

/// True when date_add / date_diff accept `part` as a unit on a DATE (day, week, month, quarter, year) or, with
/// `timestamp`, also on a TIMESTAMP (hour, minute, second, millisecond), as Presto.
constexpr bool is_date_add_unit(DatePart part, bool timestamp) {
  switch (part) {
    case DatePart::kDay:
    case DatePart::kWeek:
    case DatePart::kMonth:
    case DatePart::kQuarter:
    case DatePart::kYear: return true;
    case DatePart::kHour:
    case DatePart::kMinute:
    case DatePart::kSecond:
    case DatePart::kMillisecond: return timestamp;
    default: return false;
  }
}

namespace datetime {

KESTREL_HD constexpr int64_t floor_div64(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
KESTREL_HD constexpr int64_t floor_mod64(int64_t a, int64_t b) { return a - floor_div64(a, b) * b; }

/// ISO weekday of a day number: 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday).
KESTREL_HD constexpr int32_t iso_weekday(int32_t days) {
  return static_cast<int32_t>(floor_mod64(static_cast<int64_t>(days) + 3, 7)) + 1;
}

/// ISO 8601 week number of a day number.
KESTREL_HD constexpr int32_t iso_week(int32_t days) {
  const int32_t thursday = days - iso_weekday(days) + 4;
  const CivilDate c = civil_from_days(thursday);
  return (thursday - days_from_civil(c.year, 1, 1)) / 7 + 1;
}

/// floor(y / n) for the century-like fields.
KESTREL_HD constexpr int32_t year_group(int32_t year, int32_t n) {
  return year > 0 ? (year - 1) / n + 1 : -((-year) / n + 1);
}

/// EXTRACT(part FROM date); clock fields are 0.
KESTREL_HD constexpr int64_t extract_from_date(DatePart part, int32_t days) {
  const CivilDate c = civil_from_days(days);
  switch (part) {
    case DatePart::kMillennium: return year_group(c.year, 1000);
    case DatePart::kCentury: return year_group(c.year, 100);
    case DatePart::kDecade: return floor_div64(c.year, 10);
    case DatePart::kYear: return c.year;
    case DatePart::kQuarter: return (c.month - 1) / 3 + 1;
    case DatePart::kMonth: return c.month;
    case DatePart::kWeek: return iso_week(days);
    case DatePart::kDay: return c.day;
    case DatePart::kDayOfWeek: return iso_weekday(days) % 7;
    case DatePart::kIsoDayOfWeek: return iso_weekday(days);
    case DatePart::kDayOfYear: return days - days_from_civil(c.year, 1, 1) + 1;
    case DatePart::kEpoch: return static_cast<int64_t>(days) * 86400;
    default: return 0;
  }
}

/// EXTRACT(part FROM timestamp).
KESTREL_HD constexpr int64_t extract_from_timestamp(DatePart part, int64_t micros) {
  const int64_t day = floor_div64(micros, kMicrosPerDay);
  const int64_t in_day = micros - day * kMicrosPerDay;
  switch (part) {
    case DatePart::kHour: return in_day / (3600 * kMicrosPerSecond);
    case DatePart::kMinute: return in_day / (60 * kMicrosPerSecond) % 60;
    case DatePart::kSecond: return in_day / kMicrosPerSecond % 60;
    case DatePart::kMillisecond: return in_day / 1000 % 1000;
    case DatePart::kMicrosecond: return in_day % kMicrosPerSecond;
    case DatePart::kEpoch: return floor_div64(micros, kMicrosPerSecond);
    default: return extract_from_date(part, static_cast<int32_t>(day));
  }
}

/// EXTRACT(part FROM interval), PostgreSQL style: year = months / 12, month = months % 12, day = days, clock
/// fields from the microseconds; epoch counts a month as 30 days.
KESTREL_HD constexpr int64_t extract_from_interval(DatePart part, Interval iv) {
  switch (part) {
    case DatePart::kMillennium: return iv.months / 12000;
    case DatePart::kCentury: return iv.months / 1200;
    case DatePart::kDecade: return iv.months / 120;
    case DatePart::kYear: return iv.months / 12;
    case DatePart::kQuarter: return iv.months % 12 / 3 + 1;
    case DatePart::kMonth: return iv.months % 12;
    case DatePart::kDay: return iv.days;
    case DatePart::kHour: return iv.micros / (3600 * kMicrosPerSecond);
    case DatePart::kMinute: return iv.micros / (60 * kMicrosPerSecond) % 60;
    case DatePart::kSecond: return iv.micros / kMicrosPerSecond % 60;
    case DatePart::kMillisecond: return iv.micros / 1000 % 1000;
    case DatePart::kMicrosecond: return iv.micros % kMicrosPerSecond;
    case DatePart::kEpoch:
      return (static_cast<int64_t>(iv.months) * 30 + iv.days) * 86400 + iv.micros / kMicrosPerSecond;
    default: return 0;
  }
}

/// date_trunc(unit, date) as a date; clock units leave the date unchanged.
KESTREL_HD constexpr int32_t trunc_date(DatePart unit, int32_t days) {
  const CivilDate c = civil_from_days(days);
  switch (unit) {
    case DatePart::kMillennium: return days_from_civil((year_group(c.year, 1000) - 1) * 1000 + 1, 1, 1);
    case DatePart::kCentury: return days_from_civil((year_group(c.year, 100) - 1) * 100 + 1, 1, 1);
    case DatePart::kDecade: return days_from_civil(static_cast<int32_t>(floor_div64(c.year, 10) * 10), 1, 1);
    case DatePart::kYear: return days_from_civil(c.year, 1, 1);
    case DatePart::kQuarter: return days_from_civil(c.year, (c.month - 1) / 3 * 3 + 1, 1);
    case DatePart::kMonth: return days_from_civil(c.year, c.month, 1);
    case DatePart::kWeek: return days - iso_weekday(days) + 1;
    default: return days;
  }
}

/// date_trunc(unit, timestamp).
KESTREL_HD constexpr int64_t trunc_timestamp(DatePart unit, int64_t micros) {
  switch (unit) {
    case DatePart::kHour: return micros - floor_mod64(micros, 3600 * kMicrosPerSecond);
    case DatePart::kMinute: return micros - floor_mod64(micros, 60 * kMicrosPerSecond);
    case DatePart::kSecond: return micros - floor_mod64(micros, kMicrosPerSecond);
    case DatePart::kMillisecond: return micros - floor_mod64(micros, 1000);
    case DatePart::kMicrosecond: return micros;
    default: {
      const int64_t day = floor_div64(micros, kMicrosPerDay);
      return static_cast<int64_t>(trunc_date(unit, static_cast<int32_t>(day))) * kMicrosPerDay;
    }
  }
}

/// date + interval as a DATE: months first (day clamped to the month's end), then days, then the microseconds
/// part rounded down to whole days (a DATE has no time of day; Kestrel truncates it, see planner/functions).
KESTREL_HD constexpr int32_t date_add_interval(int32_t days, Interval iv) {
  int32_t d = iv.months != 0 ? add_months(days, iv.months) : days;
  return d + iv.days + static_cast<int32_t>(floor_div64(iv.micros, kMicrosPerDay));
}

/// timestamp + interval: months (clamped), then days, then microseconds.
KESTREL_HD constexpr int64_t timestamp_add_interval(int64_t micros, Interval iv) {
  if (iv.months != 0) {
    const int64_t day = floor_div64(micros, kMicrosPerDay);
    const int64_t in_day = micros - day * kMicrosPerDay;
    micros = static_cast<int64_t>(add_months(static_cast<int32_t>(day), iv.months)) * kMicrosPerDay + in_day;
  }
  return micros + static_cast<int64_t>(iv.days) * kMicrosPerDay + iv.micros;
}

/// -interval, part by part.
KESTREL_HD constexpr Interval negate_interval(Interval iv) { return Interval{-iv.months, -iv.days, -iv.micros}; }

/// Months in one date_add / date_diff unit (year 12, quarter 3, month 1), 0 for the fixed-length units.
KESTREL_HD constexpr int64_t months_per_unit(DatePart unit) {
  return unit == DatePart::kYear ? 12 : unit == DatePart::kQuarter ? 3 : unit == DatePart::kMonth ? 1 : 0;
}

/// Microseconds in one fixed-length date_add / date_diff unit (week .. millisecond), 0 for the month units.
KESTREL_HD constexpr int64_t micros_per_unit(DatePart unit) {
  switch (unit) {
    case DatePart::kWeek: return 7 * kMicrosPerDay;
    case DatePart::kDay: return kMicrosPerDay;
    case DatePart::kHour: return 3600 * kMicrosPerSecond;
    case DatePart::kMinute: return 60 * kMicrosPerSecond;
    case DatePart::kSecond: return kMicrosPerSecond;
    case DatePart::kMillisecond: return 1000;
    default: return 0;
  }
}

/// Years a date_add may move a value by: beyond it the day count of a DATE could leave int32.
inline constexpr int64_t kMaxDateAddYears = 5'000'000;

/// date_add(unit, n, date) for a month unit (day clamped to the month's end, as Presto); false when the result
/// leaves the supported range.
KESTREL_HD constexpr bool date_add_months(int32_t days, int64_t n, int64_t months_per, int32_t& out) {
  if (n > kMaxDateAddYears * 12 || n < -kMaxDateAddYears * 12) return false;
  const CivilDate c = civil_from_days(days);
  const int64_t total = static_cast<int64_t>(c.year) * 12 + (c.month - 1) + n * months_per;
  if (total > kMaxDateAddYears * 12 || total < -kMaxDateAddYears * 12) return false;
  out = add_months(days, static_cast<int32_t>(n * months_per));
  return true;
}

/// A point in time as whole days and the microseconds into the day (0 for a DATE), so that date_diff of DATEs
/// never needs days * kMicrosPerDay (which leaves int64 for far dates).
struct DayTime {
  int64_t day;
  int64_t micros;  ///< 0 .. kMicrosPerDay - 1
};

KESTREL_HD constexpr DayTime day_time_of_timestamp(int64_t micros) {
  const int64_t day = floor_div64(micros, kMicrosPerDay);
  return DayTime{day, micros - day * kMicrosPerDay};
}

KESTREL_HD constexpr bool day_time_less(DayTime a, DayTime b) {
  return a.day < b.day || (a.day == b.day && a.micros < b.micros);
}

/// Whole months from `a` to `b` (b >= a), Joda's rule that Presto uses: the month difference, less one when b's
/// remainder in its month is before a's; when b is the last day of its month, a's day of month is capped to it
/// (date_diff('month', 2024-01-31, 2024-02-29) = 1).
KESTREL_HD constexpr int64_t months_between_ordered(DayTime a, DayTime b) {
  const CivilDate ca = civil_from_days(static_cast<int32_t>(a.day));
  const CivilDate cb = civil_from_days(static_cast<int32_t>(b.day));
  int64_t diff = (static_cast<int64_t>(cb.year) - ca.year) * 12 + (cb.month - ca.month);
  int32_t a_day = ca.day;
  if (cb.day == days_in_month(cb.year, cb.month) && a_day > cb.day) a_day = cb.day;
  if (cb.day < a_day || (cb.day == a_day && b.micros < a.micros)) --diff;
  return diff;
}

/// Whole years from `a` to `b` (b >= a), Joda's rule: a February 29 counts as February 28 against a year without
/// one, and a day after February 28 in a leap year as one day earlier against a common year's start.
KESTREL_HD constexpr int64_t years_between_ordered(DayTime a, DayTime b) {
  const CivilDate ca = civil_from_days(static_cast<int32_t>(a.day));
  const CivilDate cb = civil_from_days(static_cast<int32_t>(b.day));
  constexpr int64_t kFeb29 = 31 + 28;  // 0-based day of the year of February 29
  int64_t a_rem = a.day - days_from_civil(ca.year, 1, 1);
  int64_t b_rem = b.day - days_from_civil(cb.year, 1, 1);
  if (a_rem >= kFeb29) {
    if (is_leap_year(ca.year)) {
      if (!is_leap_year(cb.year)) --a_rem;
    } else if (b_rem >= kFeb29 && is_leap_year(cb.year)) {
      --b_rem;
    }
  }
  int64_t diff = static_cast<int64_t>(cb.year) - ca.year;
  if (b_rem < a_rem || (b_rem == a_rem && b.micros < a.micros)) --diff;
  return diff;
}

/// date_diff(unit, a, b): whole units from a to b, negative when b is before a (truncated toward zero).
KESTREL_HD constexpr int64_t date_diff(DatePart unit, DayTime a, DayTime b) {
  const int64_t months_per = months_per_unit(unit);
  if (months_per != 0) {
    const bool negative = day_time_less(b, a);
    const DayTime lo = negative ? b : a, hi = negative ? a : b;
    const int64_t n = unit == DatePart::kYear ? years_between_ordered(lo, hi)
                                               : months_between_ordered(lo, hi) / months_per;
    return negative ? -n : n;
  }
  const int64_t unit_micros = micros_per_unit(unit);
  if (unit_micros % kMicrosPerDay == 0) {
    // Whole days: the day difference, less one toward zero when the clock parts leave a day incomplete.
    const int64_t unit_days = unit_micros / kMicrosPerDay;
    int64_t days = b.day - a.day;
    if (days > 0 && b.micros < a.micros) --days;
    if (days < 0 && b.micros > a.micros) ++days;
    return days / unit_days;
  }
  // Clock units on timestamps: the values are within int64 microseconds, so is their difference's day part.
  const int64_t micros = (b.day - a.day) * kMicrosPerDay + (b.micros - a.micros);
  return micros / unit_micros;
}

}  // namespace datetime
}  // namespace kestrel
