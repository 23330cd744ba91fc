#pragma once
/// Calendar arithmetic for DATE (days since the epoch), TIMESTAMP (microseconds) and INTERVAL, proleptic
/// Gregorian like PostgreSQL. Functions are constexpr and usable from device code through the KESTREL_HD macro.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/types.hpp"

#ifdef __CUDACC__
#define KESTREL_HD __host__ __device__
#else
#define KESTREL_HD
#endif

namespace kestrel {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerDay = 86'400LL * kMicrosPerSecond;

/// A calendar date split into its parts.
struct CivilDate {
  int32_t year;
  int32_t month;  ///< 1..12
  int32_t day;    ///< 1..31
};

/// Days since 1970-01-01 of a calendar date (Howard Hinnant's algorithm).
KESTREL_HD constexpr int32_t days_from_civil(int32_t y, int32_t m, int32_t d) {
  y -= m <= 2;
  const int32_t era = (y >= 0 ? y : y - 399) / 400;
  const uint32_t yoe = static_cast<uint32_t>(y - era * 400);
  const uint32_t doy = (153 * static_cast<uint32_t>(m > 2 ? m - 3 : m + 9) + 2) / 5 + static_cast<uint32_t>(d) - 1;
  const uint32_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int32_t>(doe) - 719468;
}

/// The calendar date of a day number.
KESTREL_HD constexpr CivilDate civil_from_days(int32_t z) {
  z += 719468;
  const int32_t era = (z >= 0 ? z : z - 146096) / 146097;
  const uint32_t doe = static_cast<uint32_t>(z - era * 146097);
  const uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int32_t y = static_cast<int32_t>(yoe) + era * 400;
  const uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const uint32_t mp = (5 * doy + 2) / 153;
  const uint32_t d = doy - (153 * mp + 2) / 5 + 1;
  const uint32_t m = mp < 10 ? mp + 3 : mp - 9;
  return CivilDate{y + (m <= 2), static_cast<int32_t>(m), static_cast<int32_t>(d)};
}

KESTREL_HD constexpr bool is_leap_year(int32_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

KESTREL_HD constexpr int32_t days_in_month(int32_t y, int32_t m) {
  constexpr int32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

/// date + n months, clamping the day to the end of the target month (PostgreSQL semantics).
KESTREL_HD constexpr int32_t add_months(int32_t days, int32_t months) {
  CivilDate c = civil_from_days(days);
  int64_t total = static_cast<int64_t>(c.year) * 12 + (c.month - 1) + months;
  int32_t y = static_cast<int32_t>(total >= 0 ? total / 12 : (total - 11) / 12);
  int32_t m = static_cast<int32_t>(total - static_cast<int64_t>(y) * 12) + 1;
  int32_t dim = days_in_month(y, m);
  return days_from_civil(y, m, c.day > dim ? dim : c.day);
}

/// `YYYY-MM-DD`; years before 1 or after 9999 get a sign or more digits.
std::string format_date(int32_t days);
/// `YYYY-MM-DD HH:MM:SS[.ffffff]` (fraction only when non-zero, trailing zeros trimmed to micro precision).
std::string format_timestamp(int64_t micros);
/// PostgreSQL style: `1 year 2 mons 3 days 04:05:06`.
std::string format_interval(const Interval& interval);

/// Parses `YYYY-MM-DD`; nullopt when malformed or out of range.
std::optional<int32_t> parse_date(std::string_view text);
/// Parses `YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]` (also with `T`); nullopt when malformed.
std::optional<int64_t> parse_timestamp(std::string_view text);

}  // namespace kestrel
