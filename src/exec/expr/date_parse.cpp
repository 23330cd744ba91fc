// date_parse: reading a timestamp with MySQL format specifiers, as Presto does (numbers take up to their field's
// width of digits, names are matched without regard to case, the whole text must be consumed).

#include <optional>
#include <string>

#include "common/error.hpp"
#include "exec/expr/datetime_fields.hpp"
#include "exec/expr/datetime_format.hpp"

namespace kestrel::exec {

namespace {

/// The fields read so far; unset ones take their defaults (1970-01-01 00:00:00).
struct ParsedFields {
  int64_t year = 1970;
  int64_t month = 1;
  int64_t day = 1;
  std::optional<int64_t> day_of_year;
  std::optional<int64_t> week_year;
  std::optional<int64_t> week;
  std::optional<int64_t> weekday;  ///< ISO 1..7, from a weekday name
  int64_t hour = 0;
  std::optional<int64_t> hour12;
  bool pm = false;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t micros = 0;
};

class DateReader {
 public:
  DateReader(std::string_view text, std::string_view format) : text_(text), format_(format) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw InvalidInput("date_parse: cannot read '" + std::string(text_) + "' with the format '" + std::string(format_) +
                           "': " + why,
                       "22007");
  }
  [[noreturn]] void malformed() const { fail("malformed at '" + std::string(text_.substr(pos_)) + "'"); }

  /// 1 to `max_digits` digits.
  int64_t number(size_t max_digits, int64_t low, int64_t high, const char* field) {
    size_t n = 0;
    int64_t value = 0;
    while (n < max_digits && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + (text_[pos_++] - '0');
      ++n;
    }
    if (n == 0) malformed();
    if (value < low || value > high) {
      fail("value " + std::to_string(value) + " for " + field + " is not in [" + std::to_string(low) + ", " +
           std::to_string(high) + "]");
    }
    return value;
  }

  /// Microseconds from 1 to 9 fraction digits (digits past the sixth are dropped).
  int64_t fraction() {
    const size_t start = pos_;
    int64_t micros = 0;
    while (pos_ < text_.size() && pos_ - start < 9 && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (pos_ - start < 6) micros = micros * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) malformed();
    for (size_t d = pos_ - start; d < 6; ++d) micros *= 10;
    return micros;
  }

  /// The index of the name in `names` (full, or its first three letters when `abbreviated`) that the text starts
  /// with, ignoring case.
  template <size_t N>
  int64_t name(const std::string_view (&names)[N], bool abbreviated) {
    for (size_t k = 0; k < N; ++k) {
      const std::string_view want = abbreviated ? names[k].substr(0, 3) : names[k];
      if (starts_with_ignoring_case(want)) {
        pos_ += want.size();
        return static_cast<int64_t>(k);
      }
    }
    malformed();
  }

  void literal(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) malformed();
    pos_ += s.size();
  }

  /// AM (false) or PM (true).
  bool am_pm() {
    const bool am = starts_with_ignoring_case("AM");
    if (!am && !starts_with_ignoring_case("PM")) malformed();
    pos_ += 2;
    return !am;
  }

  bool at_end() const { return pos_ == text_.size(); }

 private:
  bool starts_with_ignoring_case(std::string_view want) const {
    if (text_.size() - pos_ < want.size()) return false;
    for (size_t i = 0; i < want.size(); ++i) {
      const char a = text_[pos_ + i];
      const char b = want[i];
      if ((a | 0x20) != (b | 0x20) || !((a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z'))) return false;
    }
    return true;
  }

  std::string_view text_;
  std::string_view format_;
  size_t pos_ = 0;
};

void read_field(DateReader& r, char spec, ParsedFields& f) {
  switch (spec) {
    case 'a': f.weekday = r.name(kWeekdayNames, true) + 1; break;
    case 'W': f.weekday = r.name(kWeekdayNames, false) + 1; break;
    case 'b': f.month = r.name(kMonthNames, true) + 1; break;
    case 'M': f.month = r.name(kMonthNames, false) + 1; break;
    case 'c':
    case 'm': f.month = r.number(2, 1, 12, "month"); break;
    case 'd':
    case 'e': f.day = r.number(2, 1, 31, "day"); break;
    case 'f': f.micros = r.fraction(); break;
    case 'H':
    case 'k': f.hour = r.number(2, 0, 23, "hour"); break;
    case 'h':
    case 'I':
    case 'l': f.hour12 = r.number(2, 1, 12, "hour"); break;
    case 'i': f.minute = r.number(2, 0, 59, "minute"); break;
    case 'j': f.day_of_year = r.number(3, 1, 366, "day of year"); break;
    case 'p': f.pm = r.am_pm(); break;
    case 'r':
      f.hour12 = r.number(2, 1, 12, "hour");
      r.literal(":");
      f.minute = r.number(2, 0, 59, "minute");
      r.literal(":");
      f.second = r.number(2, 0, 59, "second");
      r.literal(" ");
      f.pm = r.am_pm();
      break;
    case 'S':
    case 's': f.second = r.number(2, 0, 59, "second"); break;
    case 'T':
      f.hour = r.number(2, 0, 23, "hour");
      r.literal(":");
      f.minute = r.number(2, 0, 59, "minute");
      r.literal(":");
      f.second = r.number(2, 0, 59, "second");
      break;
    case 'v': f.week = r.number(2, 1, 53, "week"); break;
    case 'x': f.week_year = r.number(4, 0, 9999, "week year"); break;
    case 'Y': f.year = r.number(4, 0, 9999, "year"); break;
    case 'y': {
      // Two digits: 70..99 are 1970..1999, 00..69 are 2000..2069.
      const int64_t yy = r.number(2, 0, 99, "year");
      f.year = yy >= 70 ? 1900 + yy : 2000 + yy;
      break;
    }
    default: break;
  }
}

/// The day number the fields name.
int32_t day_of(const DateReader& r, const ParsedFields& f) {
  const int32_t year = static_cast<int32_t>(f.year);
  if (f.week_year || f.week) {
    // ISO week date: week 1 holds January 4th.
    const int32_t y = static_cast<int32_t>(f.week_year.value_or(f.year));
    const int32_t jan4 = days_from_civil(y, 1, 4);
    const int32_t monday = jan4 - datetime::iso_weekday(jan4) + 1;
    return monday + static_cast<int32_t>((f.week.value_or(1) - 1) * 7 + (f.weekday.value_or(1) - 1));
  }
  if (f.day_of_year) {
    if (*f.day_of_year > (is_leap_year(year) ? 366 : 365)) {
      r.fail("day of year " + std::to_string(*f.day_of_year) + " is past the end of " + std::to_string(year));
    }
    return days_from_civil(year, 1, 1) + static_cast<int32_t>(*f.day_of_year - 1);
  }
  const int32_t month = static_cast<int32_t>(f.month);
  if (f.day > days_in_month(year, month)) {
    r.fail("day " + std::to_string(f.day) + " is past the end of month " + std::to_string(month) + " of " +
           std::to_string(year));
  }
  return days_from_civil(year, month, static_cast<int32_t>(f.day));
}

}  // namespace

int64_t parse_mysql_format(std::string_view text, const std::vector<FormatPiece>& format,
                           std::string_view format_text) {
  DateReader reader(text, format_text);
  ParsedFields f;
  for (const FormatPiece& p : format) {
    if (p.field == 0) {
      reader.literal(p.literal);
    } else {
      read_field(reader, p.field, f);
    }
  }
  if (!reader.at_end()) reader.malformed();
  // %p applies to the 12-hour fields; a 24-hour %H wins over it.
  const int64_t hour = f.hour12 ? *f.hour12 % 12 + (f.pm ? 12 : 0) : f.hour;
  const int64_t seconds = (hour * 60 + f.minute) * 60 + f.second;
  return static_cast<int64_t>(day_of(reader, f)) * kMicrosPerDay + seconds * kMicrosPerSecond + f.micros;
}

}  // namespace kestrel::exec
