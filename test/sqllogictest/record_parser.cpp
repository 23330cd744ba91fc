#include "record_parser.hpp"

#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace kestrel::slt {

namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (end == text.size()) break;
    start = end + 1;
  }
  // A final newline does not start another line.
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

/// The text of `line` after its first `count` words, without the blanks around it; spacing inside is kept.
std::string text_after_words(std::string_view line, size_t count) {
  size_t i = 0;
  for (size_t word = 0; word < count; ++word) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
  }
  size_t first = line.find_first_not_of(" \t", i);
  if (first == std::string_view::npos) return {};
  size_t last = line.find_last_not_of(" \t");
  return std::string(line.substr(first, last - first + 1));
}

std::optional<int64_t> parse_int(const std::string& text) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

/// A parsed record or a loop marker, before loops are expanded.
struct Item {
  enum class Kind : uint8_t { kRecord, kLoopBegin, kLoopEnd };
  Kind kind = Kind::kRecord;
  Record record;
  std::string variable;             ///< kLoopBegin: the loop variable
  std::vector<std::string> values;  ///< kLoopBegin: the values it takes, in order
};

/// Reads the lines of a record body starting at `i` up to a blank line or, when `stop_at_separator`, a `----` line.
std::vector<std::string> take_block(const std::vector<std::string>& lines, size_t& i, bool stop_at_separator) {
  std::vector<std::string> out;
  while (i < lines.size() && !is_blank(lines[i])) {
    if (stop_at_separator && lines[i] == "----") break;
    out.push_back(lines[i]);
    ++i;
  }
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k > 0) out += '\n';
    out += lines[k];
  }
  return out;
}

void skip_to_blank(const std::vector<std::string>& lines, size_t& i) {
  while (i < lines.size() && !is_blank(lines[i])) ++i;
}

/// Parses the statement record whose header line is `header` (split into `words`); `i` points after the header line.
/// The expected error text of `statement error` is the rest of the header line or the lines after `----`.
void parse_statement(const std::string& header, const std::vector<std::string>& words,
                     const std::vector<std::string>& lines, size_t& i, Record& record) {
  if (words.size() < 2 || (words[1] != "ok" && words[1] != "error")) {
    record.kind = RecordKind::kInvalid;
    record.error = "expected 'statement ok' or 'statement error'";
    skip_to_blank(lines, i);
    return;
  }
  record.kind = RecordKind::kStatement;
  record.expect_error = words[1] == "error";
  std::string header_text = text_after_words(header, 2);
  if (!record.expect_error && !header_text.empty()) {
    record.kind = RecordKind::kInvalid;
    record.error = "unexpected text '" + header_text + "' after 'statement ok'";
    skip_to_blank(lines, i);
    return;
  }
  record.expected_error = header_text;
  record.sql = join(take_block(lines, i, true));
  if (i < lines.size() && lines[i] == "----") {
    ++i;
    auto expected = take_block(lines, i, false);
    if (!record.expect_error) {
      record.kind = RecordKind::kInvalid;
      record.error = "'statement ok' cannot have an expected result after '----'";
      return;
    }
    if (!header_text.empty()) {
      record.kind = RecordKind::kInvalid;
      record.error = "the expected error is given twice, on the 'statement error' line and after '----'";
      return;
    }
    record.expected_error = join(expected);
  }
  if (record.sql.empty()) {
    record.kind = RecordKind::kInvalid;
    record.error = "statement without SQL";
  }
}

void parse_query(const std::vector<std::string>& words, const std::vector<std::string>& lines, size_t& i,
                 Record& record) {
  record.kind = RecordKind::kQuery;
  if (words.size() < 2) {
    record.kind = RecordKind::kInvalid;
    record.error = "query without column types";
    skip_to_blank(lines, i);
    return;
  }
  if (words[1] == "error") {
    record.kind = RecordKind::kInvalid;
    record.error = "'query error' is not supported: write 'statement error' for SQL that must fail";
    skip_to_blank(lines, i);
    return;
  }
  record.types = words[1];
  for (char c : record.types) {
    if (c != 'I' && c != 'R' && c != 'T' && c != 'B') {
      record.kind = RecordKind::kInvalid;
      record.error = std::string("unknown column type '") + c + "' (expected I, R, T or B)";
      skip_to_blank(lines, i);
      return;
    }
  }
  size_t next = 2;
  if (words.size() > next) {
    if (words[next] == "nosort") {
      record.sort_mode = SortMode::kNoSort;
      ++next;
    } else if (words[next] == "rowsort") {
      record.sort_mode = SortMode::kRowSort;
      ++next;
    } else if (words[next] == "valuesort") {
      record.sort_mode = SortMode::kValueSort;
      ++next;
    }
  }
  if (words.size() > next) record.label = words[next++];
  if (words.size() > next) {
    record.kind = RecordKind::kInvalid;
    record.error = "unexpected word '" + words[next] + "' after the query header";
    skip_to_blank(lines, i);
    return;
  }
  record.sql = join(take_block(lines, i, true));
  if (i < lines.size() && lines[i] == "----") {
    ++i;
    record.expected_lines = take_block(lines, i, false);
  }
  if (record.sql.empty()) {
    record.kind = RecordKind::kInvalid;
    record.error = "query without SQL";
  }
}

/// Parses one directive or record at `i` (a non-blank, non-comment line) into `item`.
void parse_item(const std::vector<std::string>& lines, size_t& i, Item& item) {
  Record& record = item.record;
  record.line = static_cast<uint32_t>(i + 1);
  // Conditions come first, one per line.
  std::vector<std::string> words = split_words(lines[i]);
  while (!words.empty() && (words[0] == "skipif" || words[0] == "onlyif")) {
    if (words.size() < 2) {
      record.kind = RecordKind::kInvalid;
      record.error = words[0] + " without an engine name";
      ++i;
      skip_to_blank(lines, i);
      return;
    }
    record.conditions.push_back(Condition{words[0] == "onlyif", words[1]});
    ++i;
    words = i < lines.size() ? split_words(lines[i]) : std::vector<std::string>{};
  }
  if (words.empty()) {
    record.kind = RecordKind::kInvalid;
    record.error = "condition without a record";
    return;
  }
  const std::string& header = lines[i];
  ++i;  // past the header line
  const std::string& head = words[0];
  if (head == "statement") {
    parse_statement(header, words, lines, i, record);
  } else if (head == "query") {
    parse_query(words, lines, i, record);
  } else if (head == "hash-threshold") {
    auto n = words.size() == 2 ? parse_int(words[1]) : std::nullopt;
    if (n && *n >= 0) {
      record.kind = RecordKind::kHashThreshold;
      record.hash_threshold = *n;
    } else {
      record.kind = RecordKind::kInvalid;
      record.error = "hash-threshold needs one non-negative integer";
    }
  } else if (head == "halt") {
    record.kind = RecordKind::kHalt;
  } else if (head == "mode" || head == "require") {
    if (words.size() < 2) {
      record.kind = RecordKind::kInvalid;
      record.error = head + " needs an argument";
      return;
    }
    record.kind = head == "mode" ? RecordKind::kMode : RecordKind::kRequire;
    record.argument = words[1];
  } else if (head == "loop") {
    auto from = words.size() == 4 ? parse_int(words[2]) : std::nullopt;
    auto to = words.size() == 4 ? parse_int(words[3]) : std::nullopt;
    if (!from || !to) {
      record.kind = RecordKind::kInvalid;
      record.error = "expected 'loop <variable> <from> <to>'";
      return;
    }
    item.kind = Item::Kind::kLoopBegin;
    item.variable = words[1];
    for (int64_t v = *from; v < *to; ++v) item.values.push_back(std::to_string(v));
  } else if (head == "foreach") {
    if (words.size() < 3) {
      record.kind = RecordKind::kInvalid;
      record.error = "expected 'foreach <variable> <value>...'";
      return;
    }
    item.kind = Item::Kind::kLoopBegin;
    item.variable = words[1];
    item.values.assign(words.begin() + 2, words.end());
  } else if (head == "endloop") {
    item.kind = Item::Kind::kLoopEnd;
  } else {
    record.kind = RecordKind::kInvalid;
    record.error = "unknown record type '" + head + "'";
    skip_to_blank(lines, i);
  }
}

std::string substitute(std::string text, const std::string& variable, const std::string& value) {
  const std::string pattern = "${" + variable + "}";
  size_t pos = 0;
  while ((pos = text.find(pattern, pos)) != std::string::npos) {
    text.replace(pos, pattern.size(), value);
    pos += value.size();
  }
  return text;
}

Record substitute(Record record, const std::string& variable, const std::string& value) {
  record.sql = substitute(std::move(record.sql), variable, value);
  record.expected_error = substitute(std::move(record.expected_error), variable, value);
  for (auto& line : record.expected_lines) line = substitute(std::move(line), variable, value);
  return record;
}

/// Expands items[i..] up to the matching endloop (or the end) into `out`; returns the index after it and sets
/// `closed` when an endloop ended the expansion.
size_t expand(const std::vector<Item>& items, size_t i, std::vector<Record>& out, bool inside_loop, bool& closed) {
  closed = false;
  while (i < items.size()) {
    const Item& item = items[i];
    if (item.kind == Item::Kind::kLoopEnd) {
      if (inside_loop) {
        closed = true;
        return i + 1;
      }
      Record invalid = item.record;
      invalid.kind = RecordKind::kInvalid;
      invalid.error = "endloop without loop";
      out.push_back(std::move(invalid));
      ++i;
    } else if (item.kind == Item::Kind::kLoopBegin) {
      std::vector<Record> body;
      bool body_closed = false;
      size_t after = expand(items, i + 1, body, true, body_closed);
      if (!body_closed) {
        Record invalid = item.record;
        invalid.kind = RecordKind::kInvalid;
        invalid.error = "loop without endloop";
        out.push_back(std::move(invalid));
      }
      for (const auto& value : item.values) {
        for (const auto& record : body) out.push_back(substitute(record, item.variable, value));
      }
      i = after;
    } else {
      out.push_back(item.record);
      ++i;
    }
  }
  return i;
}

}  // namespace

const char* sort_mode_name(SortMode mode) {
  switch (mode) {
    case SortMode::kNoSort: return "nosort";
    case SortMode::kRowSort: return "rowsort";
    case SortMode::kValueSort: return "valuesort";
  }
  return "?";
}

TestFile parse_test_file(std::string_view text, std::string path) {
  std::vector<std::string> lines = split_lines(text);
  std::vector<Item> items;
  size_t i = 0;
  while (i < lines.size()) {
    if (is_blank(lines[i]) || lines[i][0] == '#') {
      ++i;
      continue;
    }
    Item item;
    parse_item(lines, i, item);
    items.push_back(std::move(item));
  }
  TestFile file;
  file.path = std::move(path);
  bool closed = false;
  expand(items, 0, file.records, false, closed);
  return file;
}

TestFile read_test_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read test file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_test_file(text.str(), path);
}

size_t count_runnable_records(const TestFile& file) {
  size_t n = 0;
  for (const auto& record : file.records) {
    if (record.kind == RecordKind::kStatement || record.kind == RecordKind::kQuery) ++n;
  }
  return n;
}

}  // namespace kestrel::slt
