// The SQL lexer.

#include "parser/lexer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace kestrel {
namespace {

/// Reserved keywords, sorted: words that end or structure clauses, so they cannot be bare names.
constexpr std::array<std::string_view, 77> kReservedKeywords = {
    "all",       "and",        "any",          "array",       "as",        "asc",
    "between",   "both",       "case",         "cast",        "check",     "collate",
    "column",    "constraint", "create",       "cross",       "current_date", "current_time",
    "current_timestamp", "default", "desc",    "distinct",    "do",        "else",
    "end",       "except",     "false",        "fetch",       "for",       "foreign",
    "from",      "full",       "grant",        "group",       "having",    "ilike",
    "in",        "inner",      "intersect",    "into",        "is",        "isnull",
    "join",      "lateral",    "leading",      "left",        "like",      "limit",
    "natural",   "not",        "notnull",      "null",        "offset",    "on",
    "only",      "or",         "order",        "outer",       "primary",   "references",
    "returning", "right",      "select",       "similar",     "some",      "symmetric",
    "table",     "then",       "to",           "trailing",    "true",      "union",
    "unique",    "using",      "values",       "when",        "where",
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_word_char(char c) { return is_word_start(c) || is_digit(c) || c == '$'; }
char to_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Scans one input; `pos_` tracks line, column (in characters) and byte offset.
class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    SourcePosition last_end = pos_;  // just past the last token: where "end of input" is reported
    while (true) {
      skip_space_and_comments();
      Token token;
      token.position = pos_;
      if (at_end()) {
        token.type = TokenType::kEnd;
        token.position = last_end;
        token.end_offset = last_end.offset;
        tokens.push_back(std::move(token));
        return tokens;
      }
      scan_token(token);
      last_end = pos_;
      token.end_offset = pos_.offset;
      token.raw = sql_.substr(token.position.offset, token.end_offset - token.position.offset);
      tokens.push_back(std::move(token));
    }
  }

 private:
  bool at_end() const { return pos_.offset >= sql_.size(); }
  char peek(size_t ahead = 0) const {
    size_t i = pos_.offset + ahead;
    return i < sql_.size() ? sql_[i] : '\0';
  }
  void advance() {
    char c = sql_[pos_.offset++];
    if (c == '\n') {
      ++pos_.line;
      pos_.column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++pos_.column;  // count characters, not UTF-8 continuation bytes
    }
  }
  [[noreturn]] void fail(const std::string& message, SourcePosition at) const { throw SyntaxError(message, at); }

  void skip_space_and_comments() {
    while (!at_end()) {
      if (is_space(peek())) {
        advance();
      } else if (peek() == '-' && peek(1) == '-') {
        while (!at_end() && peek() != '\n') advance();
      } else if (peek() == '/' && peek(1) == '*') {
        skip_block_comment();
      } else {
        return;
      }
    }
  }

  void skip_block_comment() {
    SourcePosition start = pos_;
    int depth = 0;
    while (!at_end()) {
      if (peek() == '/' && peek(1) == '*') {
        advance();
        advance();
        ++depth;
      } else if (peek() == '*' && peek(1) == '/') {
        advance();
        advance();
        if (--depth == 0) return;
      } else {
        advance();
      }
    }
    fail("unterminated /* comment", start);
  }

  void scan_token(Token& token) {
    char c = peek();
    if ((c == 'e' || c == 'E') && peek(1) == '\'') {
      advance();
      scan_string(token, /*backslash_escapes=*/true);
    } else if ((c == 'x' || c == 'X') && peek(1) == '\'') {
      scan_binary_string(token);
    } else if (is_word_start(c)) {
      scan_word(token);
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      scan_number(token);
    } else if (c == '\'') {
      scan_string(token, /*backslash_escapes=*/false);
    } else if (c == '"') {
      scan_quoted_identifier(token);
    } else if (c == '$' && is_digit(peek(1))) {
      advance();
      token.type = TokenType::kParameter;
      while (is_digit(peek())) {
        token.text += peek();
        advance();
      }
    } else if (c == '?') {
      advance();
      token.type = TokenType::kParameter;
    } else {
      scan_operator(token);
    }
  }

  void scan_word(Token& token) {
    token.type = TokenType::kWord;
    while (!at_end() && is_word_char(peek())) {
      token.text += to_lower(peek());
      advance();
    }
    token.reserved = is_reserved_keyword(token.text);
  }

  void scan_number(Token& token) {
    token.type = TokenType::kInteger;
    size_t begin = pos_.offset;
    while (is_digit(peek())) advance();
    if (peek() == '.' && peek(1) != '.') {
      token.type = TokenType::kDecimal;
      advance();
      while (is_digit(peek())) advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      token.type = TokenType::kFloat;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (is_digit(peek())) advance();
    }
    token.text = std::string(sql_.substr(begin, pos_.offset - begin));
    if (is_word_char(peek())) {
      size_t junk = pos_.offset;
      while (junk < sql_.size() && is_word_char(sql_[junk])) ++junk;
      fail("trailing junk after numeric literal '" + std::string(sql_.substr(begin, junk - begin)) + "'",
           token.position);
    }
  }

  void scan_string(Token& token, bool backslash_escapes) {
    token.type = TokenType::kString;
    while (true) {
      advance();  // opening quote
      while (true) {
        if (at_end()) fail("unterminated quoted string", token.position);
        char c = peek();
        if (c == '\'') {
          if (peek(1) == '\'') {
            token.text += '\'';
            advance();
            advance();
            continue;
          }
          advance();
          break;
        }
        if (c == '\\' && backslash_escapes) {
          scan_escape(token.text);
          continue;
        }
        token.text += c;
        advance();
      }
      // SQL joins string constants separated by whitespace that contains a newline: 'ab'\n'cd' is 'abcd'.
      if (backslash_escapes || !continues_on_next_line()) return;
    }
  }

  /// X'00ff': hex digits in either case, two per byte; white space between digits is ignored.
  void scan_binary_string(Token& token) {
    advance();  // the X
    scan_string(token, /*backslash_escapes=*/false);
    token.type = TokenType::kBinaryString;
    std::string bytes;
    int high = -1;
    for (const char c : token.text) {
      if (is_space(c)) continue;
      const char h = to_lower(c);
      const int digit = is_digit(h) ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10 : -1;
      if (digit < 0) {
        fail("invalid hexadecimal digit '" + std::string(1, c) + "' in binary literal", token.position);
      }
      if (high < 0) {
        high = digit;
      } else {
        bytes.push_back(static_cast<char>(high * 16 + digit));
        high = -1;
      }
    }
    if (high >= 0) fail("binary literal must have an even number of hexadecimal digits", token.position);
    token.text = std::move(bytes);
  }

  /// Skips to a continuation quote when whitespace with a newline separates it from the closed string.
  bool continues_on_next_line() {
    size_t i = pos_.offset;
    bool newline = false;
    while (i < sql_.size() && is_space(sql_[i])) newline |= sql_[i++] == '\n';
    if (!newline || i >= sql_.size() || sql_[i] != '\'') return false;
    while (pos_.offset < i) advance();
    return true;
  }

  /// One backslash escape of an E'' string: \n \t \r \b \f \\ \' \xHH \ooo; other characters stand for themselves.
  void scan_escape(std::string& out) {
    advance();  // the backslash
    if (at_end()) return;
    char c = peek();
    advance();
    switch (c) {
      case 'n': out += '\n'; return;
      case 't': out += '\t'; return;
      case 'r': out += '\r'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'x': {
        int value = 0, digits = 0;
        while (digits < 2 && std::isxdigit(static_cast<unsigned char>(peek()))) {
          char h = to_lower(peek());
          value = value * 16 + (is_digit(h) ? h - '0' : h - 'a' + 10);
          advance();
          ++digits;
        }
        out += digits == 0 ? 'x' : static_cast<char>(value);
        return;
      }
      default:
        if (c >= '0' && c <= '7') {
          int value = c - '0';
          for (int digits = 1; digits < 3 && peek() >= '0' && peek() <= '7'; ++digits) {
            value = value * 8 + (peek() - '0');
            advance();
          }
          out += static_cast<char>(value & 0xFF);
          return;
        }
        out += c;
    }
  }

  void scan_quoted_identifier(Token& token) {
    token.type = TokenType::kQuotedIdentifier;
    advance();
    while (true) {
      if (at_end()) fail("unterminated quoted identifier", token.position);
      if (peek() == '"') {
        if (peek(1) == '"') {
          token.text += '"';
          advance();
          advance();
          continue;
        }
        advance();
        break;
      }
      token.text += peek();
      advance();
    }
    if (token.text.empty()) fail("zero-length quoted identifier", token.position);
  }

  void scan_operator(Token& token) {
    static constexpr std::array<std::string_view, 8> kTwoChar = {"::", "<=", ">=", "<>", "!=", "||", "=>", "->"};
    token.type = TokenType::kOperator;
    for (std::string_view op : kTwoChar) {
      if (peek() == op[0] && peek(1) == op[1]) {
        token.text = op == "!=" ? "<>" : std::string(op);
        advance();
        advance();
        return;
      }
    }
    static constexpr std::string_view kOneChar = "+-*/%=<>(),.;[]";
    char c = peek();
    if (kOneChar.find(c) == std::string_view::npos) {
      char shown[8];
      std::snprintf(shown, sizeof shown, static_cast<unsigned char>(c) < 0x20 ? "\\x%02x" : "%c", c);
      fail(std::string("unexpected character '") + shown + "'", pos_);
    }
    token.text = std::string(1, c);
    advance();
  }

  std::string_view sql_;
  SourcePosition pos_{1, 1, 0};
};

}  // namespace

bool is_reserved_keyword(std::string_view word) {
  return std::binary_search(kReservedKeywords.begin(), kReservedKeywords.end(), word);
}

std::vector<Token> tokenize(std::string_view sql) { return Lexer(sql).run(); }

}  // namespace kestrel
