#pragma once
/// Text-to-value parsers for CSV fields: fast paths for the common spellings, and the common layer's parsers
/// (parse_decimal, parse_date, parse_timestamp) for everything else, so that the results always equal theirs.
/// Each returns false when the text is not a value of the type; surrounding spaces and tabs are allowed.

#include <cstdint>
#include <string_view>

#include "common/types.hpp"

namespace kestrel::csv {

/// `[+-]digits` within int64.
bool parse_int64(std::string_view text, int64_t& out);
/// Decimal or scientific notation, `inf`, `nan` (std::from_chars' general format, with an optional '+').
bool parse_double(std::string_view text, double& out);
bool parse_float(std::string_view text, float& out);
/// `true/false/t/f/1/0/yes/no` (any case).
bool parse_bool(std::string_view text, bool& out);
/// Only `true` or `false` (any case): what the sniffer calls BOOLEAN, so that 0/1 columns stay integers.
bool is_strict_bool(std::string_view text);
/// A decimal at (precision, scale), exactly as `parse_decimal` reads it (rounding half away from zero past the
/// scale); with `allow_rounding` false, text with more fraction digits than `scale` is rejected instead.
bool parse_decimal_value(std::string_view text, int precision, int scale, bool allow_rounding, int128_t& out);
/// DATE (days since the epoch) as `parse_date` reads it, with a fast path for `YYYY-MM-DD`.
bool parse_date_value(std::string_view text, int32_t& out);
/// TIMESTAMP (microseconds) as `parse_timestamp` reads it.
bool parse_timestamp_value(std::string_view text, int64_t& out);

/// The shape of a number written in plain decimal notation (`-12.340`): used by the type sniffer.
struct DecimalShape {
  int integer_digits = 0;   ///< significant digits before the point (leading zeros not counted)
  int fraction_digits = 0;  ///< digits after the point (trailing zeros counted: they state the scale)
  bool has_point = false;
};
/// True when `text` is `[+-]digits[.digits]` (or `.digits`), filling `shape`.
bool decimal_shape(std::string_view text, DecimalShape& shape);
/// True when `text` starts with `YYYY-MM-DD` (four-digit year, two-digit month and day).
bool has_iso_date_prefix(std::string_view text);

/// True when `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text);

}  // namespace kestrel::csv
