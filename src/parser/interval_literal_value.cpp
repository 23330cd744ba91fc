// The values of interval literals.

#include "parser/interval_literal_value.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kestrel {
namespace {

using ast::IntervalField;

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

/// An interval being summed in wide integers, checked against the Interval ranges at the end.
struct WideInterval {
  __int128 months = 0;
  __int128 days = 0;
  __int128 micros = 0;

  std::optional<Interval> finish() const {
    if (months > std::numeric_limits<int32_t>::max() || months < std::numeric_limits<int32_t>::min() ||
        days > std::numeric_limits<int32_t>::max() || days < std::numeric_limits<int32_t>::min() ||
        micros > std::numeric_limits<int64_t>::max() || micros < std::numeric_limits<int64_t>::min()) {
      return std::nullopt;
    }
    return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days), static_cast<int64_t>(micros)};
  }
};

/// A signed decimal number scaled by 10^6 (digits past the sixth decimal are dropped); nullopt when malformed.
std::optional<__int128> parse_scaled(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  __int128 whole = 0;
  __int128 fraction = 0;
  int fraction_digits = 0;
  bool seen_point = false;
  bool any_digit = false;
  for (char c : text) {
    if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (c >= '0' && c <= '9') {
      any_digit = true;
      if (seen_point) {
        if (fraction_digits < 6) {
          fraction = fraction * 10 + (c - '0');
          ++fraction_digits;
        }
      } else {
        whole = whole * 10 + (c - '0');
        if (whole > (static_cast<__int128>(1) << 80)) return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
  }
  if (!any_digit) return std::nullopt;
  while (fraction_digits++ < 6) fraction *= 10;
  __int128 scaled = whole * kMicrosPerSecond + fraction;
  return negative ? -scaled : scaled;
}

/// Adds `scaled` (a number times 10^6) units of `unit` to `sum`, carrying fractions to smaller parts.
void add_units(WideInterval& sum, __int128 scaled, IntervalField unit) {
  switch (unit) {
    case IntervalField::kYear: sum.months += scaled * 12 / kMicrosPerSecond; return;
    case IntervalField::kMonth:
      sum.months += scaled / kMicrosPerSecond;
      sum.days += (scaled % kMicrosPerSecond) * 30 / kMicrosPerSecond;
      return;
    case IntervalField::kDay:
      sum.days += scaled / kMicrosPerSecond;
      sum.micros += (scaled % kMicrosPerSecond) * kMicrosPerDay / kMicrosPerSecond;
      return;
    case IntervalField::kHour: sum.micros += scaled * kMicrosPerHour / kMicrosPerSecond; return;
    case IntervalField::kMinute: sum.micros += scaled * kMicrosPerMinute / kMicrosPerSecond; return;
    case IntervalField::kSecond: sum.micros += scaled; return;
  }
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t begin = 0;
  while (true) {
    size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// "[-]H:M[:S]" (or from `first` = kMinute, "M:S") added to `sum`; false when malformed.
bool add_clock(WideInterval& sum, std::string_view text, IntervalField first) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  std::vector<std::string_view> parts = split(text, ':');
  int unit = static_cast<int>(first);
  if (parts.size() < 2 || unit + parts.size() - 1 > static_cast<int>(IntervalField::kSecond)) return false;
  WideInterval clock;
  for (std::string_view part : parts) {
    if (part.empty() || part[0] == '-' || part[0] == '+') return false;
    std::optional<__int128> scaled = parse_scaled(part);
    if (!scaled || (unit != static_cast<int>(IntervalField::kSecond) && *scaled % kMicrosPerSecond != 0)) return false;
    add_units(clock, *scaled, static_cast<IntervalField>(unit++));
  }
  sum.micros += negative ? -clock.micros : clock.micros;
  return true;
}

std::optional<IntervalField> unit_of(std::string_view word, int64_t* multiplier) {
  *multiplier = 1;
  std::string lower;
  for (char c : word) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (lower.size() > 2 && lower.back() == 's') lower.pop_back();
  if (lower == "year" || lower == "y" || lower == "yr") return IntervalField::kYear;
  if (lower == "month" || lower == "mon") return IntervalField::kMonth;
  if (lower == "week" || lower == "w") {
    *multiplier = 7;
    return IntervalField::kDay;
  }
  if (lower == "day" || lower == "d") return IntervalField::kDay;
  if (lower == "hour" || lower == "h" || lower == "hr") return IntervalField::kHour;
  if (lower == "minute" || lower == "min" || lower == "m") return IntervalField::kMinute;
  if (lower == "second" || lower == "sec" || lower == "s") return IntervalField::kSecond;
  return std::nullopt;
}

}  // namespace

std::optional<Interval> parse_interval_text(std::string_view text) {
  std::vector<std::string_view> words;
  for (std::string_view word : split(trim(text), ' ')) {
    if (!word.empty()) words.push_back(word);
  }
  if (!words.empty() && words.front() == "@") words.erase(words.begin());
  bool ago = !words.empty() && (words.back() == "ago" || words.back() == "AGO");
  if (ago) words.pop_back();
  if (words.empty()) return std::nullopt;
  WideInterval sum;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string_view word = words[i];
    if (word.find(':') != std::string_view::npos) {
      if (!add_clock(sum, word, IntervalField::kHour)) return std::nullopt;
      continue;
    }
    std::optional<__int128> scaled = parse_scaled(word);
    if (!scaled) return std::nullopt;
    if (i + 1 == words.size()) {
      add_units(sum, *scaled, IntervalField::kSecond);  // a bare number is seconds
      continue;
    }
    std::string_view unit_word = words[++i];
    std::string lower;
    for (char c : unit_word) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower == "millisecond" || lower == "milliseconds" || lower == "ms") {
      sum.micros += *scaled / 1000;
      continue;
    }
    if (lower == "microsecond" || lower == "microseconds" || lower == "us") {
      sum.micros += *scaled / kMicrosPerSecond;
      continue;
    }
    int64_t multiplier = 1;
    std::optional<IntervalField> unit = unit_of(unit_word, &multiplier);
    if (!unit) return std::nullopt;
    add_units(sum, *scaled * multiplier, *unit);
  }
  if (ago) sum = WideInterval{-sum.months, -sum.days, -sum.micros};
  return sum.finish();
}

std::optional<Interval> interval_literal_value(const ast::IntervalLiteral& literal) {
  std::string_view text = trim(literal.value);
  if (!literal.leading) return parse_interval_text(text);
  IntervalField leading = *literal.leading;
  WideInterval sum;
  if (!literal.trailing) {
    std::optional<__int128> scaled = parse_scaled(text);
    if (!scaled) return parse_interval_text(text);  // '2 days' with a redundant unit
    add_units(sum, *scaled, leading);
    return sum.finish();
  }
  if (leading == IntervalField::kYear) {  // YEAR TO MONTH: 'Y-M'
    bool negative = !text.empty() && text[0] == '-';
    if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
    std::vector<std::string_view> parts = split(text, '-');
    std::optional<__int128> years = parts.size() == 2 ? parse_scaled(parts[0]) : std::nullopt;
    std::optional<__int128> months = parts.size() == 2 ? parse_scaled(parts[1]) : std::nullopt;
    if (!years || !months || *years % kMicrosPerSecond != 0 || *months % kMicrosPerSecond != 0) return std::nullopt;
    __int128 total = *years / kMicrosPerSecond * 12 + *months / kMicrosPerSecond;
    sum.months = negative ? -total : total;
    return sum.finish();
  }
  if (leading == IntervalField::kDay) {  // DAY TO HOUR/MINUTE/SECOND: 'D H[:M[:S]]'
    std::vector<std::string_view> parts = split(text, ' ');
    if (parts.size() != 2) return std::nullopt;
    std::optional<__int128> days = parse_scaled(parts[0]);
    if (!days || *days % kMicrosPerSecond != 0) return std::nullopt;
    sum.days = *days / kMicrosPerSecond;
    std::string clock(parts[1]);
    if (clock.find(':') == std::string::npos) clock += ":0";  // DAY TO HOUR: 'D H'
    if (!add_clock(sum, clock, IntervalField::kHour)) return std::nullopt;  // '-1 02:00' is -1 days +02:00
    return sum.finish();
  }
  if (!add_clock(sum, text, leading)) return std::nullopt;
  return sum.finish();
}

}  // namespace kestrel
