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

}  // namespace datetime
}  // namespace kestrel
