// Special expression forms: CASE, CAST, EXTRACT, SUBSTRING, TRIM, POSITION, EXISTS, INTERVAL and typed literals.

#include <optional>

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

template <typename T>
std::unique_ptr<T> make_node(SourcePosition position) {
  return std::make_unique<T>(position);
}

std::unique_ptr<FunctionCall> make_call(SourcePosition position, SourcePosition paren, std::string name) {
  auto node = make_node<FunctionCall>(position);
  node->operator_position = paren;
  node->name = std::move(name);
  return node;
}

/// The interval unit a word names, singular or plural; nullopt for other words.
std::optional<IntervalField> interval_field_of(const Token& token) {
  if (token.type != TokenType::kWord) return std::nullopt;
  std::string_view word = token.text;
  if (word.size() > 1 && word.back() == 's') word.remove_suffix(1);
  if (word == "year") return IntervalField::kYear;
  if (word == "month") return IntervalField::kMonth;
  if (word == "day") return IntervalField::kDay;
  if (word == "hour") return IntervalField::kHour;
  if (word == "minute") return IntervalField::kMinute;
  if (word == "second") return IntervalField::kSecond;
  return std::nullopt;
}

}  // namespace

ExprPtr SqlParser::parse_case() {
  auto node = make_node<Case>(advance().position);
  if (!at_keyword("when")) node->operand = parse_expr();
  if (!at_keyword("when")) fail_expected("WHEN in CASE");
  while (match_keyword("when")) {
    WhenClause when;
    when.condition = parse_expr();
    expect_keyword("then", "after the WHEN condition");
    when.result = parse_expr();
    node->whens.push_back(std::move(when));
  }
  if (match_keyword("else")) node->else_result = parse_expr();
  expect_keyword("end", "to close CASE");
  return node;
}

ExprPtr SqlParser::parse_cast() {
  const Token& keyword = advance();
  auto node = make_node<Cast>(keyword.position);
  node->try_cast = keyword.text == "try_cast";
  expect_operator("(", "after CAST");
  node->operand = parse_expr();
  expect_keyword("as", "in CAST (expected CAST(value AS type))");
  node->type = parse_type();
  expect_operator(")", "after the CAST type");
  return node;
}

ExprPtr SqlParser::parse_extract() {
  auto node = make_node<Extract>(advance().position);
  expect_operator("(", "after EXTRACT");
  const Token& field = peek();
  if (field.type != TokenType::kWord && field.type != TokenType::kString &&
      field.type != TokenType::kQuotedIdentifier) {
    fail_expected("a field name (YEAR, MONTH, DAY, ...) in EXTRACT");
  }
  advance();
  node->operator_position = field.position;
  node->field = field.text;
  for (char& c : node->field) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  expect_keyword("from", "after the EXTRACT field");
  node->operand = parse_expr();
  expect_operator(")", "after the EXTRACT argument");
  return node;
}

ExprPtr SqlParser::parse_substring() {
  SourcePosition start = advance().position;
  auto node = make_call(start, expect_operator("(", "after SUBSTRING").position, "substring");
  node->args.push_back(parse_expr());
  if (match_operator(",")) {
    node->args.push_back(parse_expr());
    if (match_operator(",")) node->args.push_back(parse_expr());
  } else if (at_keyword("from") || at_keyword("for")) {
    if (match_keyword("from")) {
      node->args.push_back(parse_expr());
    } else {
      auto one = make_node<Literal>(peek().position);
      one->literal_kind = LiteralKind::kInteger;
      one->text = "1";
      node->args.push_back(std::move(one));
    }
    if (match_keyword("for")) node->args.push_back(parse_expr());
  }
  expect_operator(")", "after the SUBSTRING arguments");
  return node;
}

ExprPtr SqlParser::parse_trim() {
  SourcePosition start = advance().position;
  SourcePosition paren = expect_operator("(", "after TRIM").position;
  std::string name = "trim";
  if (match_keyword("leading")) {
    name = "ltrim";
  } else if (match_keyword("trailing")) {
    name = "rtrim";
  } else {
    match_keyword("both");
  }
  auto node = make_call(start, paren, name);
  if (match_keyword("from")) {
    node->args.push_back(parse_expr());
  } else {
    ExprPtr first = parse_expr();
    if (match_keyword("from")) {
      node->args.push_back(parse_expr());
      node->args.push_back(std::move(first));
    } else {
      node->args.push_back(std::move(first));
      if (match_operator(",")) node->args.push_back(parse_expr());
    }
  }
  expect_operator(")", "after the TRIM arguments");
  return node;
}

ExprPtr SqlParser::parse_position() {
  SourcePosition start = advance().position;
  auto node = make_call(start, expect_operator("(", "after POSITION").position, "position");
  node->args.push_back(parse_expr(kPredicate));  // above IN, so that IN is POSITION's keyword
  if (!match_operator(",")) expect_keyword("in", "in POSITION (expected POSITION(substring IN string))");
  node->args.push_back(parse_expr());
  expect_operator(")", "after the POSITION arguments");
  return node;
}

ExprPtr SqlParser::parse_exists() {
  auto node = make_node<Exists>(advance().position);
  node->query = parse_parenthesized_query("after EXISTS");
  return node;
}

ExprPtr SqlParser::parse_interval() {
  auto node = make_node<IntervalLiteral>(advance().position);
  bool negative = match_operator("-");
  const Token& value = peek();
  if (value.type != TokenType::kString && value.type != TokenType::kInteger && value.type != TokenType::kDecimal) {
    fail_expected("a quoted interval value after INTERVAL");
  }
  advance();
  node->value = (negative ? "-" : "") + value.text;
  if (std::optional<IntervalField> field = interval_field_of(peek())) {
    advance();
    node->leading = field;
    if (at_keyword("to")) {
      advance();
      std::optional<IntervalField> trailing = interval_field_of(peek());
      if (!trailing || *trailing <= *field) fail_expected("a smaller interval unit after TO");
      advance();
      node->trailing = trailing;
    }
  } else if (value.type != TokenType::kString) {
    fail_expected("an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND) after the number");
  }
  return node;
}

bool SqlParser::at_type_literal() const {
  static constexpr std::string_view kTypeWords[] = {
      "date",  "timestamp", "time",   "boolean", "bool",   "tinyint", "smallint", "integer", "int",
      "bigint", "real",     "double", "float",   "decimal", "numeric", "varchar", "text",    "char",
      "string", "int2",     "int4",   "int8",    "float4", "float8", "json",
  };
  const Token& token = peek();
  if (token.type != TokenType::kWord || peek(1).type != TokenType::kString) return false;
  for (std::string_view word : kTypeWords) {
    if (token.text == word) return true;
  }
  return false;
}

ExprPtr SqlParser::parse_typed_literal() {
  auto node = make_node<TypedLiteral>(peek().position);
  node->type = parse_type();
  node->value = advance().text;
  return node;
}

}  // namespace kestrel
