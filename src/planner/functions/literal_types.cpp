#include "planner/functions/literal_types.hpp"

#include <cstdlib>
#include <limits>
#include <string>

#include "common/decimal.hpp"

namespace kestrel::plan {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Value numeric_literal(std::string_view text, std::optional<SourcePosition> pos) {
  const std::string spelled(text);
  size_t i = 0;
  size_t int_digits = 0, frac_digits = 0;
  while (i < text.size() && is_digit(text[i])) ++i, ++int_digits;
  const bool has_point = i < text.size() && text[i] == '.';
  if (has_point) {
    ++i;
    while (i < text.size() && is_digit(text[i])) ++i, ++frac_digits;
  }
  const bool has_exponent = i < text.size() && (text[i] == 'e' || text[i] == 'E');
  if (int_digits + frac_digits == 0) throw BinderError("invalid numeric literal '" + spelled + "'", pos, "22P02");
  if (has_exponent) {
    char* end = nullptr;
    double v = std::strtod(spelled.c_str(), &end);
    if (end != spelled.c_str() + spelled.size()) {
      throw BinderError("invalid numeric literal '" + spelled + "'", pos, "22P02");
    }
    return Value::double_value(v);
  }
  if (i != text.size()) throw BinderError("invalid numeric literal '" + spelled + "'", pos, "22P02");
  // Leading zeros of the integer part do not count toward the precision.
  size_t lead = 0;
  while (lead + 1 < int_digits && text[lead] == '0') ++lead;
  const size_t significant = int_digits - lead;
  if (significant + frac_digits > static_cast<size_t>(kMaxDecimalPrecision)) {
    throw BinderError("numeric literal '" + spelled + "' has more than 38 digits", pos, "22003");
  }
  if (!has_point) {
    const int128_t v = *parse_decimal(text, kMaxDecimalPrecision, 0);
    if (v <= std::numeric_limits<int32_t>::max()) return Value::integer(static_cast<int32_t>(v));
    if (v <= std::numeric_limits<int64_t>::max()) return Value::bigint(static_cast<int64_t>(v));
    return Value::decimal(v, static_cast<int>(significant), 0);
  }
  const int scale = static_cast<int>(frac_digits);
  const int precision = std::max(1, static_cast<int>(significant == 1 && text[lead] == '0' ? 0 : significant) + scale);
  const int128_t v = *parse_decimal(text, kMaxDecimalPrecision, scale);
  return Value::decimal(v, std::max(precision, scale == 0 ? 1 : scale), scale);
}

}  // namespace kestrel::plan
