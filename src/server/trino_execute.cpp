#include "server/trino_execute.hpp"

#include <cctype>
#include <vector>

#include "common/error.hpp"

namespace kestrel::server::trino {

namespace {

bool word_at(std::string_view s, size_t i, std::string_view word) {
  if (s.size() - i < word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (std::tolower(static_cast<unsigned char>(s[i + k])) != word[k]) return false;
  }
  const size_t end = i + word.size();
  return end == s.size() || !(std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_');
}

void skip_space(std::string_view s, size_t& i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
}

/// Past the quoted text that starts at s[i] (quote `q`, doubled to escape); false when it does not end.
bool skip_quoted(std::string_view s, size_t& i, char q) {
  for (++i; i < s.size(); ++i) {
    if (s[i] != q) continue;
    if (i + 1 < s.size() && s[i + 1] == q) {
      ++i;
      continue;
    }
    ++i;
    return true;
  }
  return false;
}

[[noreturn]] void fail(const std::string& why) { throw InvalidInput("EXECUTE IMMEDIATE: " + why, "42601"); }

}  // namespace

std::optional<std::string> expand_execute_immediate(std::string_view sql) {
  size_t i = 0;
  skip_space(sql, i);
  if (!word_at(sql, i, "execute")) return std::nullopt;
  i += 7;
  skip_space(sql, i);
  if (!word_at(sql, i, "immediate")) return std::nullopt;
  i += 9;
  skip_space(sql, i);
  if (i >= sql.size() || sql[i] != '\'') fail("the statement must be a string literal");
  const size_t start = i;
  if (!skip_quoted(sql, i, '\'')) fail("the statement's string literal does not end");
  std::string statement;
  for (size_t k = start + 1; k + 1 < i; ++k) {
    statement += sql[k];
    if (sql[k] == '\'') ++k;  // '' stands for '
  }
  // The values: top-level comma-separated expressions after USING.
  std::vector<std::string> values;
  skip_space(sql, i);
  if (i < sql.size() && sql[i] != ';') {
    if (!word_at(sql, i, "using")) fail("expected USING after the statement");
    i += 5;
    size_t value_start = i;
    int depth = 0;
    for (; i <= sql.size(); ++i) {
      const bool end = i == sql.size() || (depth == 0 && sql[i] == ';');
      if (end || (depth == 0 && sql[i] == ',')) {
        std::string_view v = sql.substr(value_start, i - value_start);
        while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
        while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
        if (v.empty()) fail("an empty value in USING");
        values.emplace_back(v);
        value_start = i + 1;
        if (end) break;
        continue;
      }
      if (sql[i] == '(') ++depth;
      if (sql[i] == ')') --depth;
      if (sql[i] == '\'' || sql[i] == '"') {
        if (!skip_quoted(sql, i, sql[i])) fail("a value's quoted text does not end");
        --i;
      }
    }
  }
  // The placeholders: `?` outside quotes and comments.
  std::string out;
  size_t next = 0;
  for (size_t k = 0; k < statement.size();) {
    const char c = statement[k];
    if (c == '\'' || c == '"') {
      const size_t from = k;
      if (!skip_quoted(statement, k, c)) k = statement.size();
      out.append(statement, from, k - from);
    } else if (c == '-' && k + 1 < statement.size() && statement[k + 1] == '-') {
      const size_t from = k;
      while (k < statement.size() && statement[k] != '\n') ++k;
      out.append(statement, from, k - from);
    } else if (c == '?') {
      if (next == values.size()) fail("more ? placeholders than the " + std::to_string(values.size()) + " values");
      out += values[next++];
      ++k;
    } else {
      out += c;
      ++k;
    }
  }
  if (next != values.size()) {
    fail(std::to_string(values.size()) + " values for " + std::to_string(next) + " ? placeholders");
  }
  return out;
}

}  // namespace kestrel::server::trino
