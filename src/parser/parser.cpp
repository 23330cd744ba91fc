// Entry points, the token cursor, error reporting and name helpers of the SQL parser.

#include "parser/parser.hpp"

#include "parser/sql_parser.hpp"

namespace kestrel {

SqlParser::SqlParser(std::string_view sql) : sql_(sql), tokens_(tokenize(sql)) {}

SqlParser::DepthGuard::DepthGuard(SqlParser& parser) : parser_(parser) { deepen(); }

void SqlParser::DepthGuard::deepen() {
  ++parser_.depth_;
  ++added_;
  if (parser_.depth_ > kMaxParseDepth) {
    throw SyntaxError("statement is nested too deeply (more than " + std::to_string(kMaxParseDepth) + " levels)",
                      parser_.peek().position);
  }
}

const Token& SqlParser::peek(size_t ahead) const {
  size_t i = index_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& SqlParser::advance() {
  const Token& token = tokens_[index_];
  if (index_ + 1 < tokens_.size()) ++index_;
  return token;
}

bool SqlParser::match_keyword(std::string_view keyword) {
  if (!at_keyword(keyword)) return false;
  advance();
  return true;
}

bool SqlParser::match_operator(std::string_view symbol) {
  if (!at_operator(symbol)) return false;
  advance();
  return true;
}

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string join_context(std::string what, std::string_view context) {
  if (!context.empty()) {
    what += ' ';
    what += context;
  }
  return what;
}

}  // namespace

const Token& SqlParser::expect_keyword(std::string_view keyword, std::string_view context) {
  if (!at_keyword(keyword)) fail_expected(join_context(upper(keyword), context));
  return advance();
}

const Token& SqlParser::expect_operator(std::string_view symbol, std::string_view context) {
  if (!at_operator(symbol)) fail_expected(join_context("'" + std::string(symbol) + "'", context));
  return advance();
}

std::string SqlParser::describe(const Token& token) {
  if (token.type == TokenType::kEnd) return "end of input";
  std::string_view raw = token.raw;
  if (raw.size() > 40) return "'" + std::string(raw.substr(0, 37)) + "...'";
  return "'" + std::string(raw) + "'";
}

void SqlParser::fail_expected(std::string_view what) const {
  fail_at(peek(), "expected " + std::string(what) + ", found " + describe(peek()));
}

void SqlParser::fail_at(const Token& token, const std::string& message) const {
  throw SyntaxError(message, token.position);
}

std::string SqlParser::expect_name(std::string_view what) {
  const Token& token = peek();
  if (!token.is_name()) {
    if (token.type == TokenType::kWord) {
      fail_at(token, "expected " + std::string(what) + ", found reserved keyword " + describe(token) +
                         " (quote it to use it as a name)");
    }
    fail_expected(what);
  }
  return advance().text;
}

std::string SqlParser::expect_label(std::string_view what) {
  const Token& token = peek();
  if (token.type != TokenType::kWord && token.type != TokenType::kQuotedIdentifier) fail_expected(what);
  return advance().text;
}

ast::QualifiedName SqlParser::parse_qualified_name(std::string_view what) {
  ast::QualifiedName name;
  name.position = peek().position;
  name.parts.push_back(expect_name(what));
  while (at_operator(".")) {
    advance();
    name.parts.push_back(expect_label("a name after '.'"));
  }
  return name;
}

std::vector<std::string> SqlParser::parse_name_list(std::string_view what) {
  std::vector<std::string> names;
  expect_operator("(", "before the " + std::string(what) + " list");
  do {
    names.push_back(expect_name(what));
  } while (match_operator(","));
  expect_operator(")", "after the " + std::string(what) + " list");
  return names;
}

bool SqlParser::at_query_start(size_t ahead) const {
  return at_keyword("select", ahead) || at_keyword("with", ahead) || at_keyword("values", ahead);
}

bool SqlParser::at_statement_end() const { return peek().type == TokenType::kEnd || at_operator(";"); }

std::vector<ast::StatementPtr> SqlParser::parse_script() {
  std::vector<ast::StatementPtr> statements;
  while (true) {
    while (match_operator(";")) {
    }
    if (peek().type == TokenType::kEnd) return statements;
    statements.push_back(parse_statement());
    if (!at_statement_end()) fail_expected("';' or the end of input after the statement");
  }
}

ast::StatementPtr SqlParser::parse_single_statement() {
  if (peek().type == TokenType::kEnd || at_operator(";")) fail_expected("a statement");
  ast::StatementPtr statement = parse_statement();
  bool semicolon = match_operator(";");
  while (match_operator(";")) {
  }
  if (peek().type != TokenType::kEnd) {
    if (semicolon) fail_at(peek(), "expected one statement, found a second one starting at " + describe(peek()));
    fail_expected("the end of the statement");
  }
  return statement;
}

ast::ExprPtr SqlParser::parse_single_expression() {
  ast::ExprPtr expr = parse_expr();
  if (peek().type != TokenType::kEnd) fail_expected("the end of the expression");
  return expr;
}

ast::StatementPtr parse_statement(std::string_view sql) { return SqlParser(sql).parse_single_statement(); }

std::vector<ast::StatementPtr> parse_script(std::string_view sql) { return SqlParser(sql).parse_script(); }

ast::ExprPtr parse_expression(std::string_view sql) { return SqlParser(sql).parse_single_expression(); }

}  // namespace kestrel
