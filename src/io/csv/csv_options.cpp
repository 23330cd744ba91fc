#include "io/csv/csv_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/error.hpp"

namespace kestrel {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper_collapsed(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : trim(s)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty() && c != '(' && out.back() != '(' && out.back() != ',' && c != ',' && c != ')') {
      out += ' ';
    }
    space = false;
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

[[noreturn]] void bad_value(std::string_view name, std::string_view value, const std::string& why) {
  throw InvalidInput("CSV option '" + std::string(name) + "': invalid value '" + std::string(value) + "' (" + why +
                     ")");
}

char parse_char(std::string_view name, std::string_view value) {
  if (value == "\\t") return '\t';
  if (value.size() != 1) bad_value(name, value, "expected one character");
  return value[0];
}

bool parse_bool(std::string_view name, std::string_view value) {
  std::string v = lower(trim(value));
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad_value(name, value, "expected true or false");
}

size_t parse_count(std::string_view name, std::string_view value) {
  std::string_view v = trim(value);
  size_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size()) bad_value(name, value, "expected a count");
  return out;
}

/// Splits at commas that are not inside parentheses.
std::vector<std::string_view> split_top_level(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      std::string_view part = trim(text.substr(start, i - start));
      if (!part.empty()) parts.push_back(part);
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return parts;
}

}  // namespace

LogicalType parse_csv_type_name(std::string_view text) {
  std::string t = upper_collapsed(text);
  std::string base = t.substr(0, t.find('('));
  while (!base.empty() && base.back() == ' ') base.pop_back();
  std::vector<int> args;
  if (size_t open = t.find('('); open != std::string::npos) {
    size_t close = t.find(')', open);
    if (close == std::string::npos || close + 1 != t.size()) {
      throw InvalidInput("unknown type '" + std::string(text) + "'");
    }
    for (std::string_view arg : split_top_level(std::string_view(t).substr(open + 1, close - open - 1))) {
      int v = 0;
      auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
      if (ec != std::errc() || end != arg.data() + arg.size()) {
        throw InvalidInput("unknown type '" + std::string(text) + "'");
      }
      args.push_back(v);
    }
  }
  auto no_args = [&](LogicalType type) {
    if (!args.empty()) throw InvalidInput("type '" + std::string(text) + "' takes no arguments");
    return type;
  };
  if (base == "BOOLEAN" || base == "BOOL") return no_args(TypeId::kBoolean);
  if (base == "TINYINT" || base == "INT1") return no_args(TypeId::kTinyInt);
  if (base == "SMALLINT" || base == "INT2") return no_args(TypeId::kSmallInt);
  if (base == "INTEGER" || base == "INT" || base == "INT4") return no_args(TypeId::kInteger);
  if (base == "BIGINT" || base == "INT8") return no_args(TypeId::kBigInt);
  if (base == "REAL" || base == "FLOAT4" || base == "FLOAT") return no_args(TypeId::kReal);
  if (base == "DOUBLE" || base == "FLOAT8" || base == "DOUBLE PRECISION") return no_args(TypeId::kDouble);
  if (base == "DATE") return no_args(TypeId::kDate);
  if (base == "TIMESTAMP") return no_args(TypeId::kTimestamp);
  if (base == "INTERVAL") return no_args(TypeId::kInterval);
  if (base == "VARCHAR" || base == "TEXT" || base == "STRING" || base == "CHAR" || base == "CHARACTER VARYING") {
    if (args.size() > 1) throw InvalidInput("type '" + std::string(text) + "' takes at most one argument");
    return TypeId::kVarchar;
  }
  if (base == "DECIMAL" || base == "NUMERIC") {
    if (args.empty()) return LogicalType::decimal(18, 3);
    if (args.size() == 1) return LogicalType::decimal(args[0], 0);
    if (args.size() == 2) return LogicalType::decimal(args[0], args[1]);
    throw InvalidInput("type '" + std::string(text) + "' takes at most two arguments");
  }
  throw InvalidInput("unknown type '" + std::string(text) + "'");
}

std::vector<Field> parse_csv_column_list(std::string_view text) {
  std::vector<Field> fields;
  for (std::string_view part : split_top_level(text)) {
    std::string_view name, type;
    if (part.front() == '"' || part.front() == '\'') {
      size_t close = part.find(part.front(), 1);
      if (close == std::string_view::npos) {
        throw InvalidInput("unterminated column name in '" + std::string(part) + "'");
      }
      name = part.substr(1, close - 1);
      type = trim(part.substr(close + 1));
    } else {
      size_t sep = part.find_first_of(" \t:");
      if (sep == std::string_view::npos) {
        throw InvalidInput("column '" + std::string(part) + "' has no type; expected 'name TYPE'");
      }
      name = trim(part.substr(0, sep));
      type = trim(part.substr(sep + 1));
    }
    if (!type.empty() && type.front() == ':') type = trim(type.substr(1));
    if (name.empty() || type.empty()) {
      throw InvalidInput("column '" + std::string(part) + "': expected 'name TYPE'");
    }
    fields.push_back(Field{std::string(name), parse_csv_type_name(type), true});
  }
  return fields;
}

void CsvOptions::set(std::string_view name, std::string_view value) {
  std::string key = lower(trim(name));
  if (key == "delim" || key == "sep" || key == "delimiter") {
    delimiter = parse_char(name, value);
  } else if (key == "quote") {
    has_quote = !value.empty();
    if (has_quote) quote = parse_char(name, value);
  } else if (key == "escape") {
    escape = parse_char(name, value);
  } else if (key == "header") {
    header = parse_bool(name, value);
  } else if (key == "nullstr" || key == "null") {
    null_string = std::string(value);
  } else if (key == "skip") {
    skip_rows = parse_count(name, value);
  } else if (key == "columns") {
    columns = parse_csv_column_list(value);
    if (columns.empty()) bad_value(name, value, "no columns");
  } else if (key == "types") {
    column_types = parse_csv_column_list(value);
  } else if (key == "names") {
    names.clear();
    for (std::string_view n : split_top_level(value)) names.emplace_back(n);
  } else if (key == "sample_size") {
    sample_size = parse_count(name, value);
  } else if (key == "trailing_delimiter") {
    std::string v = lower(trim(value));
    if (v == "auto") {
      trailing_delimiter = CsvTrailingDelimiter::kAuto;
    } else {
      trailing_delimiter = parse_bool(name, value) ? CsvTrailingDelimiter::kYes : CsvTrailingDelimiter::kNo;
    }
  } else if (key == "batch_size") {
    batch_size = parse_count(name, value);
  } else if (key == "threads") {
    threads = parse_count(name, value);
  } else if (key == "block_size") {
    block_size = parse_count(name, value);
  } else {
    throw InvalidInput("unknown CSV option '" + std::string(name) + "'");
  }
}

void CsvOptions::validate() const {
  auto bad = [](const std::string& why) { throw InvalidInput("CSV options: " + why); };
  if (delimiter == '\n' || delimiter == '\r') bad("the delimiter cannot be a line break");
  if (has_quote && quote == delimiter) bad("the quote and the delimiter are the same character");
  if (has_quote && (quote == '\n' || quote == '\r')) bad("the quote cannot be a line break");
  if (escape && (*escape == '\n' || *escape == '\r' || *escape == delimiter)) {
    bad("the escape cannot be a line break or the delimiter");
  }
  if (batch_size == 0) bad("batch_size must be positive");
  if (batch_size > (size_t{1} << 30)) bad("batch_size must be at most 2^30");
  if (block_size < 1024) bad("block_size must be at least 1024 bytes");
  if (block_size > (size_t{512} << 20)) bad("block_size must be at most 512 MiB");
  if (threads > 1024) bad("threads must be at most 1024");
  if (!columns.empty() && !column_types.empty()) bad("give either columns or types, not both");
}

}  // namespace kestrel
