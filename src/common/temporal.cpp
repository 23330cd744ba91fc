#include "common/temporal.hpp"

#include <cctype>
#include <cstdio>

namespace kestrel {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool parse_digits(std::string_view text, size_t& pos, size_t min_digits, size_t max_digits, int64_t& out) {
  size_t start = pos;
  out = 0;
  while (pos < text.size() && pos - start < max_digits && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    out = out * 10 + (text[pos] - '0');
    ++pos;
  }
  return pos - start >= min_digits;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int32_t> parse_date_prefix(std::string_view text, size_t& pos) {
  bool negative = false;
  if (pos < text.size() && text[pos] == '-') {
    negative = true;
    ++pos;
  }
  int64_t y, m, d;
  if (!parse_digits(text, pos, 1, 7, y) || pos >= text.size() || text[pos++] != '-') return std::nullopt;
  if (!parse_digits(text, pos, 1, 2, m) || pos >= text.size() || text[pos++] != '-') return std::nullopt;
  if (!parse_digits(text, pos, 1, 2, d)) return std::nullopt;
  if (negative) y = -y;
  if (m < 1 || m > 12 || d < 1 || d > days_in_month(static_cast<int32_t>(y), static_cast<int32_t>(m))) {
    return std::nullopt;
  }
  return days_from_civil(static_cast<int32_t>(y), static_cast<int32_t>(m), static_cast<int32_t>(d));
}

}  // namespace

std::string format_date(int32_t days) {
  CivilDate c = civil_from_days(days);
  char buf[32];
  if (c.year >= 0 && c.year <= 9999) {
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d", c.year, c.month, c.day);
  } else {
    std::snprintf(buf, sizeof(buf), "%d-%02d-%02d", c.year, c.month, c.day);
  }
  return buf;
}

std::string format_timestamp(int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  std::string out = format_date(static_cast<int32_t>(days));
  int64_t secs = rest / kMicrosPerSecond;
  int64_t frac = rest % kMicrosPerSecond;
  char buf[48];
  std::snprintf(buf, sizeof(buf), " %02d:%02d:%02d", static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60));
  out += buf;
  if (frac != 0) {
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(frac));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out;
}

std::string format_interval(const Interval& iv) {
  std::string out;
  auto part = [&](int64_t n, const char* one, const char* many) {
    if (n == 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(n) + ' ' + (n == 1 || n == -1 ? one : many);
  };
  part(iv.months / 12, "year", "years");
  part(iv.months % 12, "mon", "mons");
  part(iv.days, "day", "days");
  if (iv.micros != 0 || out.empty()) {
    int64_t us = iv.micros < 0 ? -iv.micros : iv.micros;
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%s%02lld:%02lld:%02lld", iv.micros < 0 ? "-" : "",
                  static_cast<long long>(us / 3'600'000'000LL), static_cast<long long>(us / 60'000'000 % 60),
                  static_cast<long long>(us / 1'000'000 % 60));
    std::string t = buf;
    if (us % 1'000'000 != 0) {
      std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(us % 1'000'000));
      std::string f = buf;
      while (f.back() == '0') f.pop_back();
      t += f;
    }
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

std::optional<int32_t> parse_date(std::string_view text) {
  text = trim(text);
  size_t pos = 0;
  auto days = parse_date_prefix(text, pos);
  if (!days || pos != text.size()) return std::nullopt;
  return days;
}

std::optional<int64_t> parse_timestamp(std::string_view text) {
  text = trim(text);
  size_t pos = 0;
  auto days = parse_date_prefix(text, pos);
  if (!days) return std::nullopt;
  int64_t micros = static_cast<int64_t>(*days) * kMicrosPerDay;
  if (pos == text.size()) return micros;
  if (text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  ++pos;
  int64_t h, m, s = 0;
  if (!parse_digits(text, pos, 1, 2, h) || pos >= text.size() || text[pos++] != ':') return std::nullopt;
  if (!parse_digits(text, pos, 2, 2, m)) return std::nullopt;
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!parse_digits(text, pos, 2, 2, s)) return std::nullopt;
  }
  int64_t frac = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t start = pos;
    int64_t digits;
    if (!parse_digits(text, pos, 1, 9, digits)) return std::nullopt;
    size_t n = pos - start;
    for (size_t i = n; i < 6; ++i) digits *= 10;
    for (size_t i = 6; i < n; ++i) digits /= 10;
    frac = digits;
  }
  if (pos != text.size() || h > 23 || m > 59 || s > 59) return std::nullopt;
  return micros + (h * 3600 + m * 60 + s) * kMicrosPerSecond + frac;
}

}  // namespace kestrel
