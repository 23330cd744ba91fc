#pragma once
/// The calendar and clock fields of a timestamp and the English month and weekday names, shared by the
/// date_format / date_parse / format_datetime code (datetime_format.cpp, date_parse.cpp).

#include <cstdint>
#include <string_view>

#include "common/datetime_ops.hpp"

namespace kestrel::exec {

inline constexpr std::string_view kMonthNames[] = {"January", "February", "March",     "April",
                                                   "May",     "June",     "July",      "August",
                                                   "September", "October", "November", "December"};
/// Monday first, as ISO day numbers 1..7.
inline constexpr std::string_view kWeekdayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                     "Friday", "Saturday", "Sunday"};

/// A UTC timestamp split into fields.
struct TimeFields {
  int32_t days;  ///< days since 1970-01-01
  CivilDate date;
  int32_t hour, minute, second;
  int32_t micros;        ///< within the second
  int32_t iso_weekday;   ///< 1 = Monday .. 7 = Sunday
  int32_t day_of_year;   ///< 1..366
  int32_t iso_week;      ///< 1..53
  int32_t iso_week_year;
};

inline TimeFields time_fields(int64_t micros) {
  TimeFields f{};
  f.days = static_cast<int32_t>(datetime::floor_div64(micros, kMicrosPerDay));
  const int64_t in_day = datetime::floor_mod64(micros, kMicrosPerDay);
  f.date = civil_from_days(f.days);
  f.hour = static_cast<int32_t>(in_day / (3600 * kMicrosPerSecond));
  f.minute = static_cast<int32_t>(in_day / (60 * kMicrosPerSecond) % 60);
  f.second = static_cast<int32_t>(in_day / kMicrosPerSecond % 60);
  f.micros = static_cast<int32_t>(in_day % kMicrosPerSecond);
  f.iso_weekday = datetime::iso_weekday(f.days);
  f.day_of_year = f.days - days_from_civil(f.date.year, 1, 1) + 1;
  f.iso_week = datetime::iso_week(f.days);
  // The ISO week year is the year of the week's Thursday.
  f.iso_week_year = civil_from_days(f.days - f.iso_weekday + 4).year;
  return f;
}

}  // namespace kestrel::exec
