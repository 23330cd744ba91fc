#include "io/csv/csv_value_parsers.hpp"

#include <charconv>
#include <cstring>

#include "common/decimal.hpp"
#include "common/temporal.hpp"

namespace kestrel::csv {

namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t'; }
inline bool is_digit(char c) { return static_cast<unsigned>(c - '0') < 10; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_lower(std::string_view text, std::string_view word) {
  if (text.size() != word.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (lower(text[i]) != word[i]) return false;
  }
  return true;
}

constexpr int64_t kPow10[19] = {1,
                                10,
                                100,
                                1000,
                                10000,
                                100000,
                                1000000,
                                10000000,
                                100000000,
                                1000000000,
                                10000000000,
                                100000000000,
                                1000000000000,
                                10000000000000,
                                100000000000000,
                                1000000000000000,
                                10000000000000000,
                                100000000000000000,
                                1000000000000000000};

}  // namespace

bool parse_int64(std::string_view text, int64_t& out) {
  text = trim(text);
  if (text.empty()) return false;
  bool negative = false;
  size_t i = 0;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return false;
  uint64_t value = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (!is_digit(c)) return false;
    if (value > (UINT64_MAX - 9) / 10) return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (negative) {
    if (value > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    out = static_cast<int64_t>(0 - value);
  } else {
    if (value > static_cast<uint64_t>(INT64_MAX)) return false;
    out = static_cast<int64_t>(value);
  }
  return true;
}

template <typename T>
static bool parse_floating(std::string_view text, T& out) {
  text = trim(text);
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) return false;
  }
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, std::chars_format::general);
  // Out-of-range values read as infinity/zero would silently change the data: reject them.
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_double(std::string_view text, double& out) { return parse_floating(text, out); }
bool parse_float(std::string_view text, float& out) { return parse_floating(text, out); }

bool parse_bool(std::string_view text, bool& out) {
  text = trim(text);
  if (equals_lower(text, "true") || equals_lower(text, "t") || text == "1" || equals_lower(text, "yes") ||
      equals_lower(text, "y")) {
    out = true;
    return true;
  }
  if (equals_lower(text, "false") || equals_lower(text, "f") || text == "0" || equals_lower(text, "no") ||
      equals_lower(text, "n")) {
    out = false;
    return true;
  }
  return false;
}

bool is_strict_bool(std::string_view text) {
  text = trim(text);
  return equals_lower(text, "true") || equals_lower(text, "false");
}

bool parse_decimal_value(std::string_view text, int precision, int scale, bool allow_rounding, int128_t& out) {
  // Fast path: plain notation, no rounding, at most 18 significant digits (int64 arithmetic).
  size_t i = 0;
  const size_t n = text.size();
  bool negative = false;
  if (i < n && (text[i] == '-' || text[i] == '+')) {
    negative = text[i] == '-';
    ++i;
  }
  int64_t value = 0;
  int int_digits = 0, frac_digits = 0;
  bool any_digit = false;
  while (i < n && text[i] == '0') {
    ++i;
    any_digit = true;
  }
  while (i < n && is_digit(text[i])) {
    if (int_digits == 18) break;
    value = value * 10 + (text[i] - '0');
    ++int_digits;
    ++i;
    any_digit = true;
  }
  bool fast = int_digits < 18 || (i == n || !is_digit(text[i]));
  if (fast && i < n && text[i] == '.') {
    ++i;
    while (i < n && is_digit(text[i]) && frac_digits < scale && int_digits + frac_digits < 18) {
      value = value * 10 + (text[i] - '0');
      ++frac_digits;
      ++i;
      any_digit = true;
    }
  }
  if (fast && i == n && any_digit && int_digits <= precision - scale) {
    const int exponent = scale - frac_digits;
    out = static_cast<int128_t>(value) * (exponent <= 18 ? int128_t{kPow10[exponent]} : pow10_i128(exponent));
    if (negative) out = -out;
    return true;
  }
  // Everything else (spaces, rounding, more than 18 digits, malformed text) takes the common parser.
  if (!allow_rounding) {
    std::string_view t = trim(text);
    size_t point = t.find('.');
    if (point != std::string_view::npos && t.size() - point - 1 > static_cast<size_t>(scale)) return false;
  }
  auto parsed = parse_decimal(text, precision, scale);
  if (!parsed) return false;
  out = *parsed;
  return true;
}

bool parse_date_value(std::string_view text, int32_t& out) {
  if (text.size() == 10 && text[4] == '-' && text[7] == '-') {
    const char* s = text.data();
    bool digits = true;
    for (int k : {0, 1, 2, 3, 5, 6, 8, 9}) digits &= is_digit(s[k]);
    if (digits) {
      int32_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
      int32_t m = (s[5] - '0') * 10 + (s[6] - '0');
      int32_t d = (s[8] - '0') * 10 + (s[9] - '0');
      if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, m)) return false;
      out = days_from_civil(y, m, d);
      return true;
    }
  }
  auto parsed = parse_date(text);
  if (!parsed) return false;
  out = *parsed;
  return true;
}

bool parse_timestamp_value(std::string_view text, int64_t& out) {
  auto parsed = parse_timestamp(text);
  if (!parsed) return false;
  out = *parsed;
  return true;
}

bool decimal_shape(std::string_view text, DecimalShape& shape) {
  text = trim(text);
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  shape = DecimalShape{};
  bool any_digit = false, leading = true;
  for (; i < text.size() && is_digit(text[i]); ++i) {
    any_digit = true;
    if (leading && text[i] == '0') continue;
    leading = false;
    ++shape.integer_digits;
  }
  if (i < text.size() && text[i] == '.') {
    shape.has_point = true;
    for (++i; i < text.size() && is_digit(text[i]); ++i) {
      any_digit = true;
      ++shape.fraction_digits;
    }
  }
  return any_digit && i == text.size();
}

bool has_iso_date_prefix(std::string_view text) {
  text = trim(text);
  if (text.size() < 10) return false;
  for (int k = 0; k < 10; ++k) {
    if (k == 4 || k == 7) {
      if (text[k] != '-') return false;
    } else if (!is_digit(text[k])) {
      return false;
    }
  }
  return true;
}

bool is_valid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    // Skip ASCII eight bytes at a time.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

}  // namespace kestrel::csv
