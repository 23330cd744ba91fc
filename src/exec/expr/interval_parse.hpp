#pragma once
/// Parsing of INTERVAL text for CAST(varchar AS INTERVAL).

#include <optional>
#include <string_view>

#include "common/types.hpp"

namespace kestrel::exec {

/// Parses PostgreSQL-style interval text: a sequence of `<number> <unit>` (year, month/mon, week, day, hour,
/// minute, second, millisecond, microsecond, singular, plural or abbreviated) and an optional `[-]HH:MM[:SS[.f]]`
/// clock part, as `Value::to_string` prints intervals (`1 year 2 mons 3 days 04:05:06`). A bare number is days.
/// Fractional seconds are allowed; other fractions are not. nullopt when malformed.
std::optional<Interval> parse_interval(std::string_view text);

}  // namespace kestrel::exec
