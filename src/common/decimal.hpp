#pragma once
/// Exact decimal helpers: powers of ten, formatting and parsing of scaled integers (int64 and int128).

#include <optional>
#include <string>
#include <string_view>

#include "common/types.hpp"

namespace kestrel {

/// 10^exponent as int128, exponent 0..38.
int128_t pow10_i128(int exponent);

/// Decimal digits of an int128 (with a leading '-').
std::string int128_to_string(int128_t value);

/// Formats an unscaled decimal value with `scale` digits after the point: (12345, 2) -> "123.45".
std::string format_decimal(int128_t unscaled, int scale);

/// Parses "-123.45" into the unscaled value at `scale` (rounding half away from zero past the scale); nullopt when
/// malformed or when the value does not fit `precision` digits.
std::optional<int128_t> parse_decimal(std::string_view text, int precision, int scale);

}  // namespace kestrel
