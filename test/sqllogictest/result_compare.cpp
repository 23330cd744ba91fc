#include "result_compare.hpp"

#include <md5.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace kestrel::slt {

namespace {

std::string int128_to_string(int128_t v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Work on the unsigned magnitude so the most negative value does not overflow.
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

int128_t pow10_128(int scale) {
  int128_t p = 1;
  for (int k = 0; k < scale; ++k) p *= 10;
  return p;
}

bool is_integral_id(TypeId id) {
  return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInteger || id == TypeId::kBigInt;
}

bool is_float_id(TypeId id) { return id == TypeId::kReal || id == TypeId::kDouble; }

/// The numeric value of a number or boolean as a double (callers check the type first).
double numeric_as_double(const Value& value) {
  TypeId id = value.type().id();
  if (is_float_id(id)) return value.as_double();
  if (id == TypeId::kDecimal) {
    return static_cast<double>(static_cast<long double>(value.as_int128()) /
                               static_cast<long double>(pow10_128(value.type().scale())));
  }
  return static_cast<double>(value.as_int64());
}

bool is_number_or_bool(TypeId id) {
  return is_integral_id(id) || is_float_id(id) || id == TypeId::kDecimal || id == TypeId::kBoolean;
}

std::string render_integer(const Value& value) {
  TypeId id = value.type().id();
  if (is_integral_id(id)) return std::to_string(value.as_int64());
  if (id == TypeId::kBoolean) return value.as_bool() ? "1" : "0";
  if (id == TypeId::kDecimal) return int128_to_string(value.as_int128() / pow10_128(value.type().scale()));
  double d = std::trunc(value.as_double());
  if (std::isnan(d)) return "0";
  // Out-of-range values saturate, as a cast to a 64-bit integer does in SQLite.
  if (d >= 9.2233720368547758e18) return std::to_string(std::numeric_limits<int64_t>::max());
  if (d <= -9.2233720368547758e18) return std::to_string(std::numeric_limits<int64_t>::min());
  return std::to_string(static_cast<int64_t>(d));
}

std::string render_real(const Value& value) {
  const double d = numeric_as_double(value);
  // SQL has one NaN: its sign bit (which the host's and the device's math libraries set differently) is not shown,
  // as in Kestrel's own output.
  if (std::isnan(d)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", d);
  return buf;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

bool is_md5_hex(std::string_view text) {
  if (text.size() != 32) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// Splits `line` at tabs.
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    if (tab == std::string::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
}

/// Groups row-major values into rows of `columns`; nullopt when they do not divide evenly.
std::optional<TextRows> group_rows(const std::vector<std::string>& values, size_t columns) {
  if (columns == 0 || values.size() % columns != 0) return std::nullopt;
  TextRows rows;
  for (size_t k = 0; k < values.size(); k += columns) {
    rows.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(k),
                      values.begin() + static_cast<std::ptrdiff_t>(k + columns));
  }
  return rows;
}

/// Formats values for a report: rows of tab-separated values when `row_wise`, else one value per line.
std::vector<std::string> format_values(const std::vector<std::string>& values, size_t columns, bool row_wise) {
  if (!row_wise || columns <= 1) return values;
  std::vector<std::string> lines;
  for (size_t k = 0; k < values.size(); k += columns) {
    std::string line;
    for (size_t c = k; c < std::min(values.size(), k + columns); ++c) {
      if (c > k) line += '\t';
      line += values[c];
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string hash_line(size_t count, const std::string& hash) {
  return std::to_string(count) + " values hashing to " + hash;
}

/// Category names of other engines that mean the same as one of Kestrel's.
std::vector<std::string> category_aliases(std::string_view category_name) {
  std::vector<std::string> names{lowercase(category_name)};
  const std::string name = names.front();
  if (name == "syntax error") names.push_back("parser error");
  if (name == "binder error") names.push_back("catalog error");
  if (name == "invalid input error") {
    names.insert(names.end(), {"conversion error", "out of range error", "invalid input"});
  }
  if (name == "not implemented error") names.push_back("not implemented");
  if (name == "resource exhausted error") names.push_back("out of memory error");
  return names;
}

std::string finish_md5(MD5_CTX& context) {
  uint8_t digest[MD5_DIGEST_LENGTH];
  MD5Final(digest, &context);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t byte : digest) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 15]);
  }
  return out;
}

}  // namespace

std::string render_value(const Value& value, char type_letter) {
  if (value.is_null()) return "NULL";
  TypeId id = value.type().id();
  if (value.type().is_variable_width() && value.as_string().empty()) return "(empty)";
  switch (type_letter) {
    case 'I':
      if (is_number_or_bool(id)) return render_integer(value);
      break;
    case 'R':
      if (is_number_or_bool(id)) return render_real(value);
      break;
    case 'B':
      if (id == TypeId::kBoolean) return value.as_bool() ? "true" : "false";
      if (is_number_or_bool(id)) return numeric_as_double(value) != 0 ? "true" : "false";
      break;
    default: break;
  }
  return value.to_string();
}

std::string md5_hex(std::string_view data) {
  MD5_CTX context;
  MD5Init(&context);
  MD5Update(&context, reinterpret_cast<const uint8_t*>(data.data()), data.size());
  return finish_md5(context);
}

std::string hash_values(const std::vector<std::string>& values) {
  MD5_CTX context;
  MD5Init(&context);
  for (const auto& v : values) {
    MD5Update(&context, reinterpret_cast<const uint8_t*>(v.data()), v.size());
    MD5Update(&context, reinterpret_cast<const uint8_t*>("\n"), 1);
  }
  return finish_md5(context);
}

std::vector<std::string> sorted_values(TextRows rows, SortMode mode) {
  if (mode == SortMode::kRowSort) std::sort(rows.begin(), rows.end());
  std::vector<std::string> values;
  for (auto& row : rows) {
    for (auto& v : row) values.push_back(std::move(v));
  }
  if (mode == SortMode::kValueSort) std::sort(values.begin(), values.end());
  return values;
}

ExpectedResult parse_expected(const std::vector<std::string>& lines, size_t columns) {
  ExpectedResult expected;
  if (lines.size() == 1) {
    const std::string& line = lines.front();
    const std::string marker = " values hashing to ";
    size_t at = line.find(marker);
    if (at != std::string::npos && at > 0 &&
        std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(at),
                    [](char c) { return c >= '0' && c <= '9'; }) &&
        is_md5_hex(line.substr(at + marker.size()))) {
      expected.is_hash = true;
      expected.hash_count = std::stoull(line.substr(0, at));
      expected.hash = line.substr(at + marker.size());
      return expected;
    }
  }
  bool row_wise = columns > 1 && !lines.empty();
  for (const auto& line : lines) {
    if (split_tabs(line).size() != columns) {
      row_wise = false;
      break;
    }
  }
  expected.row_wise = row_wise;
  for (const auto& line : lines) {
    if (row_wise) {
      for (auto& v : split_tabs(line)) expected.values.push_back(std::move(v));
    } else {
      expected.values.push_back(line);
    }
  }
  return expected;
}

Comparison compare_query_result(const Record& record, const TextRows& actual, size_t column_count,
                                int64_t hash_threshold) {
  Comparison result;
  const size_t columns = record.types.size();
  ExpectedResult expected = parse_expected(record.expected_lines, columns);
  std::vector<std::string> actual_values = sorted_values(actual, record.sort_mode);
  const std::string actual_hash = hash_values(actual_values);
  const bool show_hash =
      expected.is_hash || (hash_threshold > 0 && actual_values.size() > static_cast<size_t>(hash_threshold));

  result.expected_lines = record.expected_lines;
  const bool show_rows = expected.row_wise || expected.values.empty();
  result.actual_lines = show_hash ? std::vector<std::string>{hash_line(actual_values.size(), actual_hash)}
                                  : format_values(actual_values, column_count, show_rows);

  if (column_count != columns) {
    result.reason = "expected " + std::to_string(columns) + " column(s) (types '" + record.types + "'), got " +
                    std::to_string(column_count);
    return result;
  }
  if (expected.is_hash) {
    if (expected.hash_count != actual_values.size()) {
      result.reason = "expected " + std::to_string(expected.hash_count) + " values, got " +
                      std::to_string(actual_values.size());
    } else if (expected.hash != actual_hash) {
      result.reason = "hash mismatch";
    } else {
      result.ok = true;
    }
    return result;
  }

  std::vector<std::string> expected_values = expected.values;
  if (record.sort_mode != SortMode::kNoSort) {
    auto rows = group_rows(expected_values, columns);
    if (rows) expected_values = sorted_values(std::move(*rows), record.sort_mode);
  }
  if (expected_values.size() != actual_values.size()) {
    result.reason = "expected " + std::to_string(expected_values.size()) + " values, got " +
                    std::to_string(actual_values.size());
    return result;
  }
  for (size_t k = 0; k < expected_values.size(); ++k) {
    if (expected_values[k] != actual_values[k]) {
      result.reason = "value " + std::to_string(k + 1) + " (row " + std::to_string(k / columns + 1) + ", column " +
                      std::to_string(k % columns + 1) + "): expected '" + expected_values[k] + "', got '" +
                      actual_values[k] + "'";
      return result;
    }
  }
  result.ok = true;
  return result;
}

bool error_matches(std::string_view expected, std::string_view message, std::string_view category_name) {
  std::string_view want = trim(expected);
  if (want.empty()) return true;
  if (message.find(want) != std::string_view::npos) return true;
  const std::string want_lower = lowercase(want);
  for (const auto& name : category_aliases(category_name)) {
    if (want_lower.compare(0, name.size(), name) != 0) continue;
    std::string_view rest = trim(want.substr(name.size()));
    if (!rest.empty() && rest.front() == ':') rest = trim(rest.substr(1));
    if (rest.empty() || message.find(rest) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace kestrel::slt
