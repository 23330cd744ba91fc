// parse_datetime: reading a TIMESTAMP WITH TIME ZONE with a Joda-Time pattern (compile_joda_pattern of
// datetime_format.cpp), as Presto does: numbers take up to their field's width of digits, names match without
// regard to case, the whole text must be consumed, fields that are not in the pattern take 1970-01-01 00:00:00, and
// the zone is the one the text names (Z, ZZ, ZZZ, z) or else the session's.

#include <optional>
#include <string>

#include "common/time_zone.hpp"
#include "exec/expr/datetime_fields.hpp"
#include "exec/expr/datetime_format.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

class JodaReader {
 public:
  JodaReader(std::string_view text, std::string_view pattern) : text_(text), pattern_(pattern) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw InvalidInput("parse_datetime: cannot read '" + std::string(text_) + "' with the pattern '" +
                           std::string(pattern_) + "': " + why,
                       "22007");
  }
  [[noreturn]] void malformed() const { fail("malformed at '" + std::string(text_.substr(pos_)) + "'"); }

  bool done() const { return pos_ == text_.size(); }

  void literal(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) malformed();
    pos_ += s.size();
  }

  /// A number of 1 to `max_digits` digits (with a sign when `signed_value`).
  int64_t number(size_t max_digits, bool signed_value = false) {
    bool negative = false;
    if (signed_value && pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      negative = text_[pos_++] == '-';
    }
    size_t n = 0;
    int64_t value = 0;
    while (n < max_digits && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + (text_[pos_++] - '0');
      ++n;
    }
    if (n == 0) malformed();
    return negative ? -value : value;
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

  /// The index of the name in `names` (in full, or its first three letters) that the text starts with.
  template <size_t N>
  int64_t name(const std::string_view (&names)[N]) {
    for (bool full : {true, false}) {
      for (size_t k = 0; k < N; ++k) {
        const std::string_view want = full ? names[k] : names[k].substr(0, 3);
        if (starts_with_ignoring_case(want)) {
          pos_ += want.size();
          return static_cast<int64_t>(k);
        }
      }
    }
    malformed();
  }

  /// One of `words`, ignoring case: its index.
  size_t word(std::initializer_list<std::string_view> words) {
    size_t k = 0;
    for (std::string_view w : words) {
      if (starts_with_ignoring_case(w)) {
        pos_ += w.size();
        return k;
      }
      ++k;
    }
    malformed();
  }

  /// A zone offset: `Z`, `+05:30`, `-0800`, `+05`.
  tz::ZoneKey offset() {
    if (pos_ < text_.size() && (text_[pos_] == 'Z' || text_[pos_] == 'z')) {
      ++pos_;
      return tz::offset_zone_key(0);
    }
    if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) malformed();
    const bool negative = text_[pos_++] == '-';
    const int64_t hours = number(2);
    int64_t minutes = 0;
    if (pos_ < text_.size() && text_[pos_] == ':') ++pos_;
    if (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') minutes = number(2);
    if (hours > 14 || minutes > 59) fail("offset out of range");
    return tz::offset_zone_key((negative ? -1 : 1) * (hours * 60 + minutes));
  }

  /// A zone id: the longest run of the characters zone names use (`America/New_York`, `UTC`, `Etc/GMT+5`).
  tz::ZoneKey zone_id() {
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      const bool part = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                        c == '_' || c == '-' || c == '+';
      if (!part) break;
      ++pos_;
    }
    if (pos_ == start) malformed();
    const std::string_view id = text_.substr(start, pos_ - start);
    const std::optional<tz::ZoneKey> key = tz::find_zone(id);
    if (!key) fail("unknown time zone '" + std::string(id) + "'");
    return *key;
  }

 private:
  bool starts_with_ignoring_case(std::string_view want) const {
    if (text_.size() - pos_ < want.size()) return false;
    for (size_t i = 0; i < want.size(); ++i) {
      const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
      if (lower(text_[pos_ + i]) != lower(want[i])) return false;
    }
    return true;
  }

  std::string_view text_;
  std::string_view pattern_;
  size_t pos_ = 0;
};

/// The fields read so far; unset ones take their defaults.
struct JodaFields {
  int64_t year = 1970, month = 1, day = 1;
  std::optional<int64_t> day_of_year;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  std::optional<int64_t> hour12;  ///< h or K, combined with the half of the day
  bool pm = false;
  bool bc = false;
  std::optional<tz::ZoneKey> zone;
};

void read_piece(JodaReader& r, const FormatPiece& p, JodaFields& f) {
  switch (p.field) {
    case 0: r.literal(p.literal); break;
    case 'G': f.bc = r.word({"AD", "BC"}) == 1; break;
    case 'y':
    case 'Y':
      if (p.count == 2) {
        // Two digits name a year within 50 years of 2000 (Joda's pivot).
        const int64_t v = r.number(2);
        f.year = v < 50 ? 2000 + v : 1900 + v;
      } else {
        f.year = r.number(9, p.field == 'y');
      }
      break;
    case 'M': f.month = p.count >= 3 ? r.name(kMonthNames) + 1 : r.number(2); break;
    case 'd': f.day = r.number(2); break;
    case 'D': f.day_of_year = r.number(3); break;
    case 'E': r.name(kWeekdayNames); break;  // read, but the date decides the weekday
    case 'a': f.pm = r.word({"AM", "PM"}) == 1; break;
    case 'H': f.hour = r.number(2); break;
    case 'k': f.hour = r.number(2) % 24; break;
    case 'h': f.hour12 = r.number(2) % 12; break;
    case 'K': f.hour12 = r.number(2); break;
    case 'm': f.minute = r.number(2); break;
    case 's': f.second = r.number(2); break;
    case 'S': f.micros = r.fraction(); break;
    case 'Z': f.zone = p.count >= 3 ? r.zone_id() : r.offset(); break;
    case 'z': f.zone = r.zone_id(); break;
    default:
      r.fail(std::string("the pattern letter '") + p.field + "' is not supported for parsing");
  }
}

/// The wall-clock microseconds of the fields; an error for a field out of range.
int64_t local_micros(const JodaReader& r, JodaFields& f) {
  if (f.hour12) {
    if (*f.hour12 > 11) r.fail("hour of the half day out of range");
    f.hour = *f.hour12 + (f.pm ? 12 : 0);
  } else if (f.pm && f.hour < 12) {
    f.hour += 12;
  }
  if (f.bc) f.year = 1 - f.year;
  if (f.month < 1 || f.month > 12) r.fail("month " + std::to_string(f.month) + " is not in [1, 12]");
  if (f.year < -290000 || f.year > 290000) r.fail("year " + std::to_string(f.year) + " is out of range");
  const auto year = static_cast<int32_t>(f.year);
  int64_t days;
  if (f.day_of_year) {
    const int64_t length = is_leap_year(year) ? 366 : 365;
    if (*f.day_of_year < 1 || *f.day_of_year > length) r.fail("day of year out of range");
    days = days_from_civil(year, 1, 1) + *f.day_of_year - 1;
  } else {
    if (f.day < 1 || f.day > days_in_month(year, static_cast<int32_t>(f.month))) {
      r.fail("day " + std::to_string(f.day) + " is not in month " + std::to_string(f.month));
    }
    days = days_from_civil(year, static_cast<int32_t>(f.month), static_cast<int32_t>(f.day));
  }
  if (f.hour > 23 || f.minute > 59 || f.second > 59) r.fail("time of day out of range");
  return days * kMicrosPerDay + ((f.hour * 60 + f.minute) * 60 + f.second) * kMicrosPerSecond + f.micros;
}

}  // namespace

Operand parse_datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]), pattern(args[1]), session_zone(args[2]);
  std::vector<FormatPiece> compiled;
  std::string compiled_for;
  bool have_compiled = false;
  return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
    const std::string_view p = pattern[i];
    if (!have_compiled || p != compiled_for) {
      compiled = compile_joda_pattern(p, "parse_datetime");
      compiled_for.assign(p);
      have_compiled = true;
    }
    JodaReader reader(text[i], p);
    JodaFields fields;
    for (const FormatPiece& piece : compiled) read_piece(reader, piece, fields);
    if (!reader.done()) reader.malformed();
    const int64_t local = local_micros(reader, fields);
    const tz::ZoneKey zone = fields.zone ? *fields.zone : tz::zone_key(session_zone[i]);
    out = TimestampTz{tz::local_to_utc(zone, local), zone, 0};
    return true;
  });
}

}  // namespace kestrel::exec
