#include "common/zone_rules.hpp"

#include <algorithm>
#include <cctype>

#include "common/datetime_ops.hpp"
#include "common/error.hpp"
#include "common/temporal.hpp"

namespace kestrel::tz {

namespace {

/// A cursor over the bytes of a TZif file that fails with the zone's name when the file ends early.
class TzifReader {
 public:
  TzifReader(std::string_view name, std::string_view bytes) : name_(name), bytes_(bytes) {}

  std::string_view take(size_t n) {
    if (n > bytes_.size() - pos_) fail("the file ends early");
    std::string_view out = bytes_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  int64_t big_endian(size_t width) {
    std::string_view b = take(width);
    uint64_t v = 0;
    for (char c : b) v = (v << 8) | static_cast<uint8_t>(c);
    if (width == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
  }
  std::string_view rest() const { return bytes_.substr(pos_); }
  [[noreturn]] void fail(const std::string& why) const {
    throw InvalidInput("time zone file for '" + std::string(name_) + "' is malformed: " + why);
  }

 private:
  std::string_view name_;
  std::string_view bytes_;
  size_t pos_ = 0;
};

/// The counts of a TZif header, in the order of the file.
struct TzifCounts {
  int64_t isut = 0, isstd = 0, leap = 0, time = 0, type = 0, chars = 0;
};

TzifCounts read_header(TzifReader& in, char* version) {
  if (in.take(4) != "TZif") in.fail("no TZif signature");
  *version = in.take(1)[0];
  in.take(15);
  TzifCounts c;
  c.isut = in.big_endian(4);
  c.isstd = in.big_endian(4);
  c.leap = in.big_endian(4);
  c.time = in.big_endian(4);
  c.type = in.big_endian(4);
  c.chars = in.big_endian(4);
  if (c.isut < 0 || c.isstd < 0 || c.leap < 0 || c.time < 0 || c.type < 1 || c.type > 256 || c.chars < 0) {
    in.fail("bad counts in the header");
  }
  return c;
}

size_t data_block_size(const TzifCounts& c, size_t time_width) {
  return static_cast<size_t>(c.time) * (time_width + 1) + static_cast<size_t>(c.type) * 6 +
         static_cast<size_t>(c.chars) + static_cast<size_t>(c.leap) * (time_width + 4) +
         static_cast<size_t>(c.isstd) + static_cast<size_t>(c.isut);
}

// --- POSIX TZ strings ---

bool parse_number(std::string_view s, size_t& pos, int32_t& out) {
  size_t start = pos;
  int64_t v = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && pos - start < 6) {
    v = v * 10 + (s[pos++] - '0');
  }
  out = static_cast<int32_t>(v);
  return pos > start;
}

/// [+-]hh[:mm[:ss]] as seconds.
bool parse_clock(std::string_view s, size_t& pos, int32_t& seconds) {
  int sign = 1;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) sign = s[pos++] == '-' ? -1 : 1;
  int32_t h = 0, m = 0, sec = 0;
  if (!parse_number(s, pos, h)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!parse_number(s, pos, m)) return false;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!parse_number(s, pos, sec)) return false;
    }
  }
  seconds = sign * (h * 3600 + m * 60 + sec);
  return true;
}

bool parse_abbreviation(std::string_view s, size_t& pos) {
  size_t start = pos;
  if (pos < s.size() && s[pos] == '<') {
    pos = s.find('>', pos);
    if (pos == std::string_view::npos) return false;
    ++pos;
    return true;
  }
  while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos]))) ++pos;
  return pos - start >= 3;
}

bool parse_change(std::string_view s, size_t& pos, PosixRule::Change& c) {
  using Kind = PosixRule::Change::Kind;
  if (pos < s.size() && s[pos] == 'M') {
    ++pos;
    c.kind = Kind::kMonthWeekDay;
    if (!parse_number(s, pos, c.month) || pos >= s.size() || s[pos++] != '.') return false;
    if (!parse_number(s, pos, c.week) || pos >= s.size() || s[pos++] != '.') return false;
    if (!parse_number(s, pos, c.weekday)) return false;
    if (c.month < 1 || c.month > 12 || c.week < 1 || c.week > 5 || c.weekday > 6) return false;
  } else if (pos < s.size() && s[pos] == 'J') {
    ++pos;
    c.kind = Kind::kJulianNoLeap;
    if (!parse_number(s, pos, c.day) || c.day < 1 || c.day > 365) return false;
  } else {
    c.kind = Kind::kZeroBased;
    if (!parse_number(s, pos, c.day) || c.day > 365) return false;
  }
  c.seconds = 7200;
  if (pos < s.size() && s[pos] == '/') {
    ++pos;
    if (!parse_clock(s, pos, c.seconds)) return false;
  }
  return true;
}

/// The local-time second (since 1970) at which `c` happens in `year`.
int64_t change_local_seconds(const PosixRule::Change& c, int32_t year) {
  using Kind = PosixRule::Change::Kind;
  int32_t days = 0;
  switch (c.kind) {
    case Kind::kMonthWeekDay: {
      const int32_t first = days_from_civil(year, c.month, 1);
      const int32_t first_weekday = datetime::iso_weekday(first) % 7;  // 0 = Sunday
      days = first + (c.weekday - first_weekday + 7) % 7 + (c.week - 1) * 7;
      const int32_t last = first + days_in_month(year, c.month) - 1;
      while (days > last) days -= 7;
      break;
    }
    case Kind::kJulianNoLeap:
      days = days_from_civil(year, 1, 1) + c.day - 1 + (is_leap_year(year) && c.day >= 60 ? 1 : 0);
      break;
    case Kind::kZeroBased: days = days_from_civil(year, 1, 1) + c.day; break;
  }
  return static_cast<int64_t>(days) * 86400 + c.seconds;
}

}  // namespace

std::optional<PosixRule> PosixRule::parse(std::string_view s) {
  PosixRule rule;
  size_t pos = 0;
  int32_t west = 0;
  if (!parse_abbreviation(s, pos) || !parse_clock(s, pos, west)) return std::nullopt;
  rule.std_offset = -west;
  if (pos == s.size()) return rule;
  if (!parse_abbreviation(s, pos)) return std::nullopt;
  rule.has_dst = true;
  rule.dst_offset = rule.std_offset + 3600;
  if (pos < s.size() && s[pos] != ',') {
    if (!parse_clock(s, pos, west)) return std::nullopt;
    rule.dst_offset = -west;
  }
  if (pos >= s.size() || s[pos++] != ',' || !parse_change(s, pos, rule.start)) return std::nullopt;
  if (pos >= s.size() || s[pos++] != ',' || !parse_change(s, pos, rule.end)) return std::nullopt;
  if (pos != s.size()) return std::nullopt;
  return rule;
}

int32_t PosixRule::offset_at(int64_t utc_seconds) const {
  if (!has_dst) return std_offset;
  const int64_t local_day = datetime::floor_div64(utc_seconds + std_offset, 86400);
  const int32_t year = civil_from_days(static_cast<int32_t>(local_day)).year;
  const int64_t start = change_local_seconds(this->start, year) - std_offset;
  const int64_t end = change_local_seconds(this->end, year) - dst_offset;
  if (start < end) return utc_seconds >= start && utc_seconds < end ? dst_offset : std_offset;
  // Southern hemisphere: daylight time spans the turn of the year.
  return utc_seconds >= end && utc_seconds < start ? std_offset : dst_offset;
}

ZoneRules ZoneRules::parse(std::string_view name, std::string_view bytes) {
  TzifReader in(name, bytes);
  char version = 0;
  TzifCounts counts = read_header(in, &version);
  size_t time_width = 4;
  if (version >= '2') {
    in.take(data_block_size(counts, 4));  // the 32-bit data of version 1 readers
    counts = read_header(in, &version);
    time_width = 8;
  }
  ZoneRules rules;
  rules.transitions_.resize(static_cast<size_t>(counts.time));
  for (auto& t : rules.transitions_) t = in.big_endian(time_width);
  std::vector<uint8_t> type_of(static_cast<size_t>(counts.time));
  for (auto& t : type_of) t = static_cast<uint8_t>(in.take(1)[0]);
  std::vector<int32_t> type_offsets(static_cast<size_t>(counts.type));
  for (auto& o : type_offsets) {
    o = static_cast<int32_t>(in.big_endian(4));
    in.take(2);  // isdst, abbreviation index
    if (o < -26 * 3600 || o > 26 * 3600) in.fail("an offset beyond 26 hours");
  }
  rules.offsets_.reserve(type_of.size());
  for (uint8_t t : type_of) {
    if (t >= type_offsets.size()) in.fail("a transition to an undefined local time type");
    rules.offsets_.push_back(type_offsets[t]);
  }
  if (!std::is_sorted(rules.transitions_.begin(), rules.transitions_.end())) in.fail("unsorted transitions");
  rules.initial_offset_ = type_offsets[0];
  in.take(static_cast<size_t>(counts.chars) + static_cast<size_t>(counts.leap) * (time_width + 4) +
          static_cast<size_t>(counts.isstd) + static_cast<size_t>(counts.isut));
  if (time_width == 8) {
    std::string_view footer = in.rest();
    if (footer.size() >= 2 && footer[0] == '\n') {
      size_t end = footer.find('\n', 1);
      if (end != std::string_view::npos && end > 1) rules.footer_ = PosixRule::parse(footer.substr(1, end - 1));
    }
  }
  return rules;
}

int32_t ZoneRules::offset_at(int64_t utc_seconds) const {
  if (transitions_.empty() || utc_seconds < transitions_.front()) {
    return transitions_.empty() && footer_ ? footer_->offset_at(utc_seconds) : initial_offset_;
  }
  if (utc_seconds >= transitions_.back() && footer_) return footer_->offset_at(utc_seconds);
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  return offsets_[static_cast<size_t>(it - transitions_.begin()) - 1];
}

}  // namespace kestrel::tz
