#pragma once
/// The offset rules of one named time zone, read from a TZif file (RFC 8536): the explicit transitions, and the
/// POSIX TZ string of the file's footer for instants after the last one (slim files stop their transitions in 2007,
/// fat ones in 2037). Internal to common/time_zone.cpp.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::tz {

/// A POSIX TZ rule: standard time, and daylight time between two yearly dates when `has_dst`.
struct PosixRule {
  /// A yearly date of a DST change: Mm.w.d (month, week 1-5 with 5 = last, weekday 0 = Sunday), Jn (day 1-365,
  /// February 29 never counted) or n (day 0-365 counting February 29), and the local time of the change.
  struct Change {
    enum class Kind : uint8_t { kMonthWeekDay, kJulianNoLeap, kZeroBased } kind = Kind::kMonthWeekDay;
    int32_t month = 0;
    int32_t week = 0;
    int32_t weekday = 0;
    int32_t day = 0;
    int32_t seconds = 7200;  ///< local time of day of the change, may be negative or past 24 hours
  };
  int32_t std_offset = 0;  ///< seconds east of UTC
  int32_t dst_offset = 0;
  bool has_dst = false;
  Change start;  ///< the change to daylight time, in standard time
  Change end;    ///< the change back, in daylight time

  /// Parses a TZ string such as `EST5EDT,M3.2.0,M11.1.0` or `<+0530>-5:30`; nullopt when malformed.
  static std::optional<PosixRule> parse(std::string_view text);
  /// The offset (seconds east of UTC) in effect at `utc_seconds`.
  int32_t offset_at(int64_t utc_seconds) const;
};

/// The rules of one zone.
class ZoneRules {
 public:
  /// Reads TZif `bytes`; InvalidInput naming `name` when they are malformed.
  static ZoneRules parse(std::string_view name, std::string_view bytes);

  /// The offset (seconds east of UTC) in effect at `utc_seconds`.
  int32_t offset_at(int64_t utc_seconds) const;

 private:
  std::vector<int64_t> transitions_;  ///< UTC seconds, ascending
  std::vector<int32_t> offsets_;      ///< the offset from each transition on
  int32_t initial_offset_ = 0;        ///< before the first transition
  std::optional<PosixRule> footer_;   ///< after the last transition
};

}  // namespace kestrel::tz
