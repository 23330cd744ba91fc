// TIMESTAMP WITH TIME ZONE values as text: the output form and the input forms of literals and casts.

#include <cctype>
#include <cstdio>

#include "common/datetime_ops.hpp"
#include "common/error.hpp"
#include "common/time_zone.hpp"

namespace kestrel::tz {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// Where the date and time of `s` end and its zone (if any) begins.
size_t zone_start(std::string_view s) {
  size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  int dashes = 0;
  for (; i < s.size() && dashes < 2; ++i) {
    if (s[i] == '-') {
      ++dashes;
    } else if (!is_digit(s[i])) {
      return i;
    }
  }
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i + 1 < s.size() && (s[i] == ' ' || s[i] == 'T') && is_digit(s[i + 1])) {
    size_t j = i + 1;
    bool colon = false;
    while (j < s.size() && (is_digit(s[j]) || s[j] == ':' || s[j] == '.')) colon |= s[j++] == ':';
    if (colon) i = j;
  }
  return i;
}

}  // namespace

std::string format_timestamp_tz(const TimestampTz& value) {
  const int64_t local = utc_to_local(value.zone, value.micros);
  const int64_t days = datetime::floor_div64(local, kMicrosPerDay);
  const int64_t in_day = local - days * kMicrosPerDay;
  const int64_t secs = in_day / kMicrosPerSecond;
  const int64_t frac = in_day % kMicrosPerSecond;
  char buf[48];
  std::snprintf(buf, sizeof(buf), " %02d:%02d:%02d.%03d", static_cast<int>(secs / 3600),
                static_cast<int>(secs / 60 % 60), static_cast<int>(secs % 60), static_cast<int>(frac / 1000));
  std::string out = format_date(static_cast<int32_t>(days)) + buf;
  if (frac % 1000 != 0) {
    std::snprintf(buf, sizeof(buf), "%03d", static_cast<int>(frac % 1000));
    out += buf;
  }
  return out + " " + zone_name(value.zone);
}

std::string iso_offset(ZoneKey key, int64_t utc_micros) {
  const int32_t offset = offset_seconds(key, utc_micros);
  if (offset == 0) return "Z";
  return zone_name(static_cast<ZoneKey>(offset / 60));
}

bool has_zone_suffix(std::string_view text) {
  text = trim(text);
  return !trim(text.substr(zone_start(text))).empty();
}

std::optional<TimestampTz> parse_timestamp_tz(std::string_view text, ZoneKey default_zone) {
  text = trim(text);
  const size_t split = zone_start(text);
  auto local = parse_timestamp(text.substr(0, split));
  if (!local) return std::nullopt;
  std::string_view zone_text = trim(text.substr(split));
  const ZoneKey zone = zone_text.empty() ? default_zone : zone_key(zone_text);
  return TimestampTz{local_to_utc(zone, *local), zone, 0};
}

}  // namespace kestrel::tz
