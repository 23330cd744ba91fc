#include "exec/expr/interval_parse.hpp"

#include <cctype>
#include <string>

#include "common/temporal.hpp"

namespace kestrel::exec {

namespace {

struct Cursor {
  std::string_view s;
  size_t pos = 0;

  void skip_space() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool done() const { return pos >= s.size(); }
};

bool read_int(Cursor& c, int64_t& out, size_t* digits = nullptr) {
  size_t start = c.pos;
  out = 0;
  while (c.pos < c.s.size() && std::isdigit(static_cast<unsigned char>(c.s[c.pos]))) {
    if (out > 100'000'000'000'000LL) return false;
    out = out * 10 + (c.s[c.pos++] - '0');
  }
  if (digits) *digits = c.pos - start;
  return c.pos > start;
}

std::string read_word(Cursor& c) {
  std::string w;
  while (c.pos < c.s.size() && std::isalpha(static_cast<unsigned char>(c.s[c.pos]))) {
    w += static_cast<char>(std::tolower(static_cast<unsigned char>(c.s[c.pos++])));
  }
  return w;
}

/// `[-]H+:MM[:SS[.ffffff]]` starting at the cursor (after the sign); adds to micros.
bool read_clock(Cursor& c, bool negative, int64_t& micros) {
  int64_t h, m, s = 0, frac = 0;
  if (!read_int(c, h) || c.done() || c.s[c.pos++] != ':' || !read_int(c, m)) return false;
  if (!c.done() && c.s[c.pos] == ':') {
    ++c.pos;
    if (!read_int(c, s)) return false;
    if (!c.done() && c.s[c.pos] == '.') {
      ++c.pos;
      size_t digits;
      if (!read_int(c, frac, &digits) || digits > 6) return false;
      for (size_t i = digits; i < 6; ++i) frac *= 10;
    }
  }
  const int64_t v = ((h * 60 + m) * 60 + s) * kMicrosPerSecond + frac;
  micros += negative ? -v : v;
  return true;
}

bool apply_unit(const std::string& unit, int64_t n, int64_t frac_micros_per_unit, Interval& out) {
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* name : names) {
      if (unit == name) return true;
    }
    return false;
  };
  if (is({"year", "years", "y", "yr", "yrs"})) {
    out.months += static_cast<int32_t>(n * 12);
  } else if (is({"month", "months", "mon", "mons"})) {
    out.months += static_cast<int32_t>(n);
  } else if (is({"week", "weeks", "w"})) {
    out.days += static_cast<int32_t>(n * 7);
  } else if (is({"day", "days", "d"})) {
    out.days += static_cast<int32_t>(n);
  } else if (is({"hour", "hours", "h", "hr", "hrs"})) {
    out.micros += n * 3600 * kMicrosPerSecond;
  } else if (is({"minute", "minutes", "min", "mins", "m"})) {
    out.micros += n * 60 * kMicrosPerSecond;
  } else if (is({"second", "seconds", "sec", "secs", "s"})) {
    out.micros += n * kMicrosPerSecond + frac_micros_per_unit;
  } else if (is({"millisecond", "milliseconds", "ms"})) {
    out.micros += n * 1000;
  } else if (is({"microsecond", "microseconds", "us"})) {
    out.micros += n;
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::optional<Interval> parse_interval(std::string_view text) {
  Cursor c{text};
  Interval out;
  bool any = false;
  c.skip_space();
  while (!c.done()) {
    bool negative = false;
    if (c.s[c.pos] == '-' || c.s[c.pos] == '+') negative = c.s[c.pos++] == '-';
    const size_t number_start = c.pos;
    int64_t n;
    if (!read_int(c, n)) return std::nullopt;
    if (!c.done() && c.s[c.pos] == ':') {
      c.pos = number_start;
      if (!read_clock(c, negative, out.micros)) return std::nullopt;
      any = true;
      c.skip_space();
      continue;
    }
    int64_t frac_micros = 0;
    if (!c.done() && c.s[c.pos] == '.') {
      ++c.pos;
      size_t digits;
      int64_t frac;
      if (!read_int(c, frac, &digits) || digits > 6) return std::nullopt;
      for (size_t i = digits; i < 6; ++i) frac *= 10;
      frac_micros = frac;
    }
    c.skip_space();
    std::string unit = read_word(c);
    if (unit.empty()) unit = "day";
    if (frac_micros != 0 && unit.rfind("s", 0) != 0) return std::nullopt;
    if (negative) {
      n = -n;
      frac_micros = -frac_micros;
    }
    if (!apply_unit(unit, n, frac_micros, out)) return std::nullopt;
    any = true;
    c.skip_space();
  }
  if (!any) return std::nullopt;
  return out;
}

}  // namespace kestrel::exec
