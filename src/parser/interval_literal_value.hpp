#pragma once
/// The values of interval literals, PostgreSQL style.

#include <optional>
#include <string_view>

#include "common/types.hpp"
#include "parser/ast/literal.hpp"

namespace kestrel {

/// The Interval an IntervalLiteral stands for, or nullopt when its text does not fit (the binder reports that at
/// the literal's position). With one unit the text is a number, fractions carried down (INTERVAL '1.5' DAY is
/// 1 day 12 hours; a fraction of a month counts 30 days); with a range the text has the range's shape
/// (YEAR TO MONTH: '1-2'; DAY TO SECOND: '1 02:03:04.5'; HOUR TO MINUTE: '02:03'); without units the text carries
/// them (see parse_interval_text).
std::optional<Interval> interval_literal_value(const ast::IntervalLiteral& literal);

/// Parses interval text with units: "2 days", "1 year 3 mons", "-1 week", "3 hours 30 minutes", "1 day 02:03:04",
/// "10:00", "1.5 seconds", "@ 3 days ago". Unit words may be singular, plural or abbreviated (y, mon, w, d, h,
/// min, s, ms, us); a number without a unit is seconds. nullopt when malformed or out of range.
std::optional<Interval> parse_interval_text(std::string_view text);

}  // namespace kestrel
