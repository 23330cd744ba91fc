#include "exec/expr/datetime_format.hpp"

#include <cstdlib>

#include "common/error.hpp"
#include "exec/expr/datetime_fields.hpp"

namespace kestrel::exec {

namespace {

/// Appends `value` with at least `digits` digits (zero padded; a minus sign before them).
void append_number(std::string& out, int64_t value, int digits) {
  if (value < 0) {
    out.push_back('-');
    value = -value;
  }
  const std::string text = std::to_string(value);
  if (static_cast<int>(text.size()) < digits) out.append(static_cast<size_t>(digits) - text.size(), '0');
  out.append(text);
}

/// The first `digits` digits of the fraction of a second (microseconds; digits past 6 are 0).
void append_fraction(std::string& out, int32_t micros, int digits) {
  std::string six = std::to_string(micros);
  six.insert(0, 6 - six.size(), '0');
  for (int i = 0; i < digits; ++i) out.push_back(i < 6 ? six[static_cast<size_t>(i)] : '0');
}

int32_t hour12(int32_t hour) { return hour % 12 == 0 ? 12 : hour % 12; }

void append_literal(std::vector<FormatPiece>& pieces, char c) {
  if (pieces.empty() || pieces.back().field != 0) pieces.emplace_back();
  pieces.back().literal.push_back(c);
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::vector<FormatPiece> compile_mysql_format(std::string_view format, const char* function) {
  static constexpr std::string_view kSupported = "abcdefHhIijklMmprSsTvWxYy";
  static constexpr std::string_view kUnsupported = "DUuVwX";
  std::vector<FormatPiece> pieces;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      append_literal(pieces, format[i]);
      continue;
    }
    const char spec = format[++i];
    if (kUnsupported.find(spec) != std::string_view::npos) {
      throw InvalidInput(std::string(function) + ": %" + spec + " is not supported in the format '" +
                             std::string(format) + "'",
                         "22023");
    }
    if (kSupported.find(spec) == std::string_view::npos) {
      append_literal(pieces, spec);  // %% and %c for any other c: the character itself
    } else {
      pieces.push_back({{}, spec, 0});
    }
  }
  return pieces;
}

void append_mysql_format(std::string& out, int64_t micros, const std::vector<FormatPiece>& format) {
  const TimeFields f = time_fields(micros);
  const std::string_view month = kMonthNames[f.date.month - 1];
  const std::string_view weekday = kWeekdayNames[f.iso_weekday - 1];
  for (const FormatPiece& p : format) {
    switch (p.field) {
      case 0: out.append(p.literal); break;
      case 'a': out.append(weekday.substr(0, 3)); break;
      case 'b': out.append(month.substr(0, 3)); break;
      case 'c': append_number(out, f.date.month, 1); break;
      case 'd': append_number(out, f.date.day, 2); break;
      case 'e': append_number(out, f.date.day, 1); break;
      case 'f': append_fraction(out, f.micros, 6); break;
      case 'H': append_number(out, f.hour, 2); break;
      case 'h':
      case 'I': append_number(out, hour12(f.hour), 2); break;
      case 'i': append_number(out, f.minute, 2); break;
      case 'j': append_number(out, f.day_of_year, 3); break;
      case 'k': append_number(out, f.hour, 1); break;
      case 'l': append_number(out, hour12(f.hour), 1); break;
      case 'M': out.append(month); break;
      case 'm': append_number(out, f.date.month, 2); break;
      case 'p': out.append(f.hour < 12 ? "AM" : "PM"); break;
      case 'r':
        append_number(out, hour12(f.hour), 2);
        out.push_back(':');
        append_number(out, f.minute, 2);
        out.push_back(':');
        append_number(out, f.second, 2);
        out.append(f.hour < 12 ? " AM" : " PM");
        break;
      case 'S':
      case 's': append_number(out, f.second, 2); break;
      case 'T':
        append_number(out, f.hour, 2);
        out.push_back(':');
        append_number(out, f.minute, 2);
        out.push_back(':');
        append_number(out, f.second, 2);
        break;
      case 'v': append_number(out, f.iso_week, 2); break;
      case 'W': out.append(weekday); break;
      case 'x': append_number(out, f.iso_week_year, 4); break;
      case 'Y': append_number(out, f.date.year, 4); break;
      case 'y': append_number(out, std::abs(f.date.year) % 100, 2); break;
      default: break;
    }
  }
}

std::vector<FormatPiece> compile_joda_pattern(std::string_view pattern, const char* function) {
  static constexpr std::string_view kFields = "GCYxweEyDMdaKhHkmsSzZ";
  std::vector<FormatPiece> pieces;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      // 'text' is copied; '' is one quote, inside or outside quoted text.
      if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        append_literal(pieces, '\'');
        i += 2;
        continue;
      }
      size_t j = i + 1;
      for (;; ++j) {
        if (j >= pattern.size()) {
          throw InvalidInput(std::string(function) + ": unclosed quote in the pattern '" + std::string(pattern) + "'",
                             "22023");
        }
        if (pattern[j] != '\'') {
          append_literal(pieces, pattern[j]);
        } else if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
          append_literal(pieces, '\'');
          ++j;
        } else {
          break;
        }
      }
      i = j + 1;
    } else if (!is_letter(c)) {
      append_literal(pieces, c);
      ++i;
    } else {
      if (kFields.find(c) == std::string_view::npos) {
        throw InvalidInput(std::string(function) + ": illegal pattern letter '" + std::string(1, c) + "' in '" +
                               std::string(pattern) + "'",
                           "22023");
      }
      size_t j = i;
      while (j < pattern.size() && pattern[j] == c) ++j;
      pieces.push_back({{}, c, static_cast<int>(j - i)});
      i = j;
    }
  }
  return pieces;
}

void append_joda_format(std::string& out, int64_t micros, const std::vector<FormatPiece>& pattern,
                        const FormatZone& zone) {
  const TimeFields f = time_fields(micros);
  const int32_t year_of_era = f.date.year > 0 ? f.date.year : 1 - f.date.year;
  auto append_year = [&](int64_t year, int count) {
    if (count == 2) {
      append_number(out, (year % 100 + 100) % 100, 2);
    } else {
      append_number(out, year, count);
    }
  };
  for (const FormatPiece& p : pattern) {
    const int n = p.count;
    switch (p.field) {
      case 0: out.append(p.literal); break;
      case 'G': out.append(f.date.year > 0 ? "AD" : "BC"); break;
      case 'C': append_number(out, year_of_era / 100, n); break;
      case 'Y': append_year(year_of_era, n); break;
      case 'y': append_year(f.date.year, n); break;
      case 'x': append_year(f.iso_week_year, n); break;
      case 'w': append_number(out, f.iso_week, n); break;
      case 'e': append_number(out, f.iso_weekday, n); break;
      case 'E': {
        const std::string_view name = kWeekdayNames[f.iso_weekday - 1];
        out.append(n >= 4 ? name : name.substr(0, 3));
        break;
      }
      case 'D': append_number(out, f.day_of_year, n); break;
      case 'M':
        if (n >= 3) {
          const std::string_view name = kMonthNames[f.date.month - 1];
          out.append(n >= 4 ? name : name.substr(0, 3));
        } else {
          append_number(out, f.date.month, n);
        }
        break;
      case 'd': append_number(out, f.date.day, n); break;
      case 'a': out.append(f.hour < 12 ? "AM" : "PM"); break;
      case 'K': append_number(out, f.hour % 12, n); break;
      case 'h': append_number(out, hour12(f.hour), n); break;
      case 'H': append_number(out, f.hour, n); break;
      case 'k': append_number(out, f.hour == 0 ? 24 : f.hour, n); break;
      case 'm': append_number(out, f.minute, n); break;
      case 's': append_number(out, f.second, n); break;
      case 'S': append_fraction(out, f.micros, n); break;
      case 'z': out.append(zone.name); break;
      case 'Z': {
        if (n >= 3) {
          out.append(zone.name);
          break;
        }
        const int32_t minutes = (zone.offset_seconds < 0 ? -zone.offset_seconds : zone.offset_seconds) / 60;
        out.push_back(zone.offset_seconds < 0 ? '-' : '+');
        append_number(out, minutes / 60, 2);
        if (n == 2) out.push_back(':');
        append_number(out, minutes % 60, 2);
        break;
      }
      default: break;
    }
  }
}

}  // namespace kestrel::exec
