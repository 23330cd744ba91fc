#pragma once
/// Time zones for TIMESTAMP WITH TIME ZONE: zone keys, names and the UTC offset of a zone at an instant, read from
/// the system's IANA database (TZif files under /usr/share/zoneinfo, Debian's `tzdata`; `KESTREL_ZONEINFO` names
/// another folder).
///
/// A value keeps its zone as a 32-bit key, so the key must mean the same zone in every process that reads the
/// value (workers of a cluster, a later process reading a stored column), whatever order zones were first used in:
/// - 0 is UTC (and every alias of it: `Etc/UTC`, `GMT`, `Z`, `+00:00`, ...);
/// - a fixed offset is its offset in minutes, -840 (-14:00) to 840 (+14:00), zero excluded, so a device kernel
///   can read the offset of such a zone from the key alone;
/// - a named zone is a hash of its lower-case name at or above kFirstNamedZoneKey; loading the database checks that
///   no two names share a key.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/temporal.hpp"

namespace kestrel::tz {

using ZoneKey = int32_t;

inline constexpr ZoneKey kUtc = 0;
/// Fixed offsets are limited to +-14:00, the range of offsets in use.
inline constexpr int32_t kMaxOffsetMinutes = 14 * 60;
inline constexpr ZoneKey kFirstNamedZoneKey = 4096;

/// Whether `key` is UTC or a fixed offset (its offset is then `key` minutes).
KESTREL_HD constexpr bool is_fixed_offset(ZoneKey key) {
  return key >= -kMaxOffsetMinutes && key <= kMaxOffsetMinutes;
}

/// The key of the zone named `name`: an IANA name (case-insensitive: `america/new_york` is `America/New_York`),
/// a UTC alias, or an offset `+05:30`, `-08:00`, `+0530`, `+05` (also after `UTC` or `GMT`: `UTC+05:30`).
/// nullopt when there is no such zone.
std::optional<ZoneKey> find_zone(std::string_view name);
/// find_zone, or InvalidInput "unknown time zone 'name'".
ZoneKey zone_key(std::string_view name);
/// The key of the fixed offset of `offset_minutes` (0 gives UTC); InvalidInput past +-14:00.
ZoneKey offset_zone_key(int64_t offset_minutes);

/// How a zone is written: its IANA name as the database spells it, `UTC`, or `+05:30` for a fixed offset.
std::string zone_name(ZoneKey key);

/// The offset from UTC, in seconds, of zone `key` at the instant `utc_micros`.
int32_t offset_seconds(ZoneKey key, int64_t utc_micros);
/// The local wall-clock time (microseconds, as a TIMESTAMP) of the instant `utc_micros` in zone `key`.
int64_t utc_to_local(ZoneKey key, int64_t utc_micros);
/// The instant at which zone `key` shows the wall-clock time `local_micros`. A time skipped by a forward shift (a
/// DST gap) moves forward by the length of the gap (02:30 on a spring-forward night is 03:30 daylight time); a time
/// that occurs twice (a DST overlap) is the earlier instant, the one with the larger offset.
int64_t local_to_utc(ZoneKey key, int64_t local_micros);

/// A TIMESTAMP WITH TIME ZONE as text: `2020-03-08 01:30:00.000 America/Los_Angeles` (milliseconds always, the
/// microseconds too when there are any; the zone as zone_name writes it).
std::string format_timestamp_tz(const TimestampTz& value);
/// Reads `YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]]` followed by an optional zone (` America/New_York`, `+05:30`, ` UTC`,
/// `Z`); text without a zone is a wall-clock time in `default_zone`. nullopt when the date or time is malformed;
/// InvalidInput "unknown time zone 'x'" when the zone is not known.
std::optional<TimestampTz> parse_timestamp_tz(std::string_view text, ZoneKey default_zone);

/// The offset of zone `key` at `utc_micros` as ISO 8601 writes it: `Z` when it is zero, else `+05:30`.
std::string iso_offset(ZoneKey key, int64_t utc_micros);

/// Whether timestamp text names a zone after its date and time (`2020-01-01 00:00 UTC`, `...T00:00:00+05:30`).
bool has_zone_suffix(std::string_view text);

/// Where the zone database is read from.
std::string zoneinfo_dir();

}  // namespace kestrel::tz
