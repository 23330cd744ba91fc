#include "common/decimal.hpp"

#include <algorithm>
#include <cctype>

#include "common/check.hpp"

namespace kestrel {

int128_t pow10_i128(int exponent) {
  KESTREL_CHECK_GE(exponent, 0);
  KESTREL_CHECK_LE(exponent, 38);
  int128_t result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

std::string int128_to_string(int128_t value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  // Work on the unsigned magnitude so that the minimum value does not overflow.
  unsigned __int128 mag = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : value;
  std::string digits;
  while (mag > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::string format_decimal(int128_t unscaled, int scale) {
  if (scale == 0) return int128_to_string(unscaled);
  bool negative = unscaled < 0;
  std::string digits = int128_to_string(unscaled);
  if (negative) digits.erase(0, 1);
  if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, scale + 1 - digits.size(), '0');
  digits.insert(digits.size() - scale, 1, '.');
  return negative ? "-" + digits : digits;
}

std::optional<int128_t> parse_decimal(std::string_view text, int precision, int scale) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int128_t value = 0;
  int int_digits = 0, frac_digits = 0;
  bool seen_point = false, any_digit = false, round_up = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (seen_point) return std::nullopt;
      seen_point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    any_digit = true;
    if (seen_point) {
      if (frac_digits == scale) {
        // First digit past the scale decides rounding; the rest only need to be digits.
        round_up = c >= '5';
        for (size_t j = i + 1; j < text.size(); ++j) {
          if (!std::isdigit(static_cast<unsigned char>(text[j]))) return std::nullopt;
        }
        break;
      }
      ++frac_digits;
    } else {
      if (value == 0 && c == '0') continue;
      ++int_digits;
    }
    if (int_digits > precision - scale) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (!any_digit) return std::nullopt;
  for (int i = frac_digits; i < scale; ++i) value *= 10;
  if (round_up) value += 1;
  if (value >= pow10_i128(precision)) return std::nullopt;
  return negative ? -value : value;
}

}  // namespace kestrel
