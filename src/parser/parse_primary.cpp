// Primary expressions: literals, names, function calls, parenthesised expressions and sub-queries.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

template <typename T>
std::unique_ptr<T> make_node(SourcePosition position) {
  return std::make_unique<T>(position);
}

ExprPtr make_literal(SourcePosition position, LiteralKind kind, std::string text) {
  auto node = make_node<Literal>(position);
  node->literal_kind = kind;
  node->text = std::move(text);
  return node;
}

/// Words that start a special form when followed by `(` (or another token, for INTERVAL and typed literals).
bool is_special_form(std::string_view word) {
  return word == "try_cast" || word == "extract" || word == "substring" || word == "trim" || word == "position" ||
         word == "exists";
}

}  // namespace

ExprPtr SqlParser::parse_primary() {
  const Token& token = peek();
  switch (token.type) {
    case TokenType::kInteger: advance(); return make_literal(token.position, LiteralKind::kInteger, token.text);
    case TokenType::kDecimal: advance(); return make_literal(token.position, LiteralKind::kDecimal, token.text);
    case TokenType::kFloat: advance(); return make_literal(token.position, LiteralKind::kFloat, token.text);
    case TokenType::kString: advance(); return make_literal(token.position, LiteralKind::kString, token.text);
    case TokenType::kBinaryString:
      advance();
      return make_literal(token.position, LiteralKind::kBinary, token.text);
    case TokenType::kParameter: {
      advance();
      auto node = make_node<Parameter>(token.position);
      if (token.text.empty()) {
        node->index = ++positional_parameters_;
      } else {
        if (token.text.size() > 6 || std::stoul(token.text) == 0) fail_at(token, "parameter number out of range");
        node->index = static_cast<uint32_t>(std::stoul(token.text));
      }
      return node;
    }
    case TokenType::kQuotedIdentifier: return parse_name_or_call();
    case TokenType::kOperator:
      if (token.is_operator("(")) return parse_parenthesized();
      fail_expected("an expression");
    case TokenType::kEnd: fail_expected("an expression");
    case TokenType::kWord: break;
  }
  if (token.reserved) return parse_word_form();
  if (is_special_form(token.text) && at_operator("(", 1)) return parse_word_form();
  if (token.text == "interval" && (peek(1).type == TokenType::kString || peek(1).type == TokenType::kInteger ||
                                   peek(1).type == TokenType::kDecimal || peek(1).is_operator("-"))) {
    return parse_interval();
  }
  if (at_type_literal()) return parse_typed_literal();
  return parse_name_or_call();
}

ExprPtr SqlParser::parse_word_form() {
  const Token& token = peek();
  const std::string& word = token.text;
  if (word == "null") {
    advance();
    return make_literal(token.position, LiteralKind::kNull, "");
  }
  if (word == "true" || word == "false") {
    advance();
    return make_literal(token.position, LiteralKind::kBoolean, word);
  }
  if (word == "array" && at_operator("[", 1)) {
    advance();
    auto node = make_node<FunctionCall>(token.position);
    node->operator_position = advance().position;  // [
    node->name = kArrayConstructorName;
    if (!at_operator("]")) node->args = parse_expr_list();
    expect_operator("]", "to close ARRAY[");
    return node;
  }
  if (word == "case") return parse_case();
  if (word == "cast" || word == "try_cast") return parse_cast();
  if (word == "extract") return parse_extract();
  if (word == "substring") return parse_substring();
  if (word == "trim") return parse_trim();
  if (word == "position") return parse_position();
  if (word == "exists") return parse_exists();
  if (word == "current_date" || word == "current_time" || word == "current_timestamp") {
    advance();
    auto node = make_node<FunctionCall>(token.position);
    node->name = word;
    if (at_operator("(") && at_operator(")", 1)) {
      advance();
      advance();
    }
    return node;
  }
  if ((word == "left" || word == "right") && at_operator("(", 1)) return parse_name_or_call();
  if (word == "select" || word == "with" || word == "values") {
    fail_at(token, "expected an expression, found " + describe(token) + " (put a sub-query in parentheses)");
  }
  fail_expected("an expression");
}

bool SqlParser::at_lambda() const {
  if (peek().type == TokenType::kWord && !peek().reserved) return at_operator("->", 1);
  if (!at_operator("(")) return false;
  size_t i = 1;
  while (true) {
    if (peek(i).type != TokenType::kWord || peek(i).reserved) return false;
    if (at_operator(")", i + 1)) return at_operator("->", i + 2);
    if (!at_operator(",", i + 1)) return false;
    i += 2;
  }
}

ExprPtr SqlParser::parse_lambda() {
  auto node = make_node<FunctionCall>(peek().position);
  node->name = kLambdaName;
  auto parameter = [&] {
    auto ref = make_node<ColumnRef>(peek().position);
    ref->names.push_back(advance().text);
    node->args.push_back(std::move(ref));
  };
  if (match_operator("(")) {
    do parameter();
    while (match_operator(","));
    expect_operator(")", "after the lambda's parameters");
  } else {
    parameter();
  }
  node->operator_position = expect_operator("->", "after the lambda's parameters").position;
  node->args.push_back(parse_expr());
  return node;
}

ExprPtr SqlParser::parse_postfix(ExprPtr base) {
  while (true) {
    if (at_operator("[")) {
      auto node = make_node<FunctionCall>(base->position);
      node->operator_position = advance().position;
      node->name = kSubscriptName;
      node->args.push_back(std::move(base));
      node->args.push_back(parse_expr());
      expect_operator("]", "to close the subscript");
      base = std::move(node);
    } else if (at_operator(".") && (peek(1).type == TokenType::kWord || peek(1).type == TokenType::kQuotedIdentifier)) {
      auto node = make_node<FunctionCall>(base->position);
      node->operator_position = advance().position;
      node->name = kFieldName;
      const Token& field = advance();
      node->args.push_back(std::move(base));
      node->args.push_back(make_literal(field.position, LiteralKind::kString, field.text));
      base = std::move(node);
    } else {
      return base;
    }
  }
}

ExprPtr SqlParser::parse_parenthesized() {
  const Token& open = advance();
  if (at_query_start()) {
    auto node = make_node<ScalarSubquery>(open.position);
    node->query = parse_query();
    expect_operator(")", "after the sub-query");
    return node;
  }
  ExprPtr inner = parse_expr();
  if (inner->is<ScalarSubquery>() && at_query_continuation()) {
    // ((SELECT 1) UNION (SELECT 2)): the parenthesised sub-query was the first operand of a longer query.
    auto node = make_node<ScalarSubquery>(open.position);
    node->query = continue_query(std::move(inner->as<ScalarSubquery>().query));
    inner = std::move(node);
  }
  if (at_operator(",")) fail_at(peek(), "row constructors like (a, b) are not supported");
  if (!at_operator(")")) {
    fail_expected("')' to close the parenthesis opened at " + std::to_string(open.position.line) + ":" +
                  std::to_string(open.position.column));
  }
  advance();
  return inner;
}

ExprPtr SqlParser::parse_name_or_call() {
  SourcePosition start = peek().position;
  std::vector<std::string> names;
  names.push_back(advance().text);
  while (at_operator(".")) {
    advance();
    if (at_operator("*")) {
      advance();
      auto star = make_node<Star>(start);
      star->qualifier = std::move(names);
      return star;
    }
    names.push_back(expect_label("a name after '.'"));
  }
  if (at_operator("(")) return parse_function_call(std::move(names), start);
  auto node = make_node<ColumnRef>(start);
  node->names = std::move(names);
  return node;
}

ExprPtr SqlParser::parse_function_call(std::vector<std::string> names, SourcePosition start) {
  if (names.size() > 2) fail_at(peek(), "function name has too many qualifiers");
  auto node = make_node<FunctionCall>(start);
  node->operator_position = advance().position;  // (
  node->name = names.back();
  if (names.size() == 2) node->schema = names.front();
  if (at_operator("*") && at_operator(")", 1)) {
    advance();
    node->star = true;
  } else if (!at_operator(")")) {
    if (match_keyword("distinct")) {
      node->distinct = true;
    } else {
      match_keyword("all");
    }
    node->args = parse_expr_list();
  }
  if (match_keyword("order")) {
    expect_keyword("by", "after ORDER");
    node->order_by = parse_order_by();
  }
  expect_operator(")", "after the argument list");
  if (at_keyword("within") && at_keyword("group", 1)) {
    if (!node->order_by.empty()) fail_at(peek(), "ORDER BY is given both inside the call and in WITHIN GROUP");
    advance();
    advance();
    expect_operator("(", "after WITHIN GROUP");
    expect_keyword("order", "in WITHIN GROUP (");
    expect_keyword("by", "after ORDER");
    node->order_by = parse_order_by();
    node->within_group = true;
    expect_operator(")", "after the WITHIN GROUP ordering");
  }
  if (at_keyword("filter") && at_operator("(", 1)) {
    advance();
    advance();
    expect_keyword("where", "in FILTER (");
    node->filter = parse_expr();
    expect_operator(")", "after the FILTER condition");
  }
  if (match_keyword("over")) {
    if (!at_operator("(")) fail_at(peek(), "named windows (OVER name) are not supported");
    advance();
    node->over = std::make_shared<WindowSpec>();
    if (match_keyword("partition")) {
      expect_keyword("by", "after PARTITION");
      node->over->partition_by = parse_expr_list();
    }
    if (match_keyword("order")) {
      expect_keyword("by", "after ORDER");
      node->over->order_by = parse_order_by();
    }
    if (at_keyword("rows") || at_keyword("range") || at_keyword("groups")) node->over->frame = parse_window_frame();
    expect_operator(")", "after the window specification");
  }
  return node;
}

WindowFrame SqlParser::parse_window_frame() {
  const Token& unit = advance();
  if (unit.is_keyword("groups")) fail_at(unit, "GROUPS window frames are not supported");
  WindowFrame frame;
  frame.unit = unit.is_keyword("rows") ? FrameUnit::kRows : FrameUnit::kRange;
  // Bounds: 0 UNBOUNDED PRECEDING, 1 CURRENT ROW, 2 UNBOUNDED FOLLOWING.
  auto bound = [&]() -> int {
    if (match_keyword("unbounded")) {
      if (match_keyword("preceding")) return 0;
      if (match_keyword("following")) return 2;
      fail_expected("PRECEDING or FOLLOWING after UNBOUNDED");
    }
    if (match_keyword("current")) {
      expect_keyword("row", "after CURRENT");
      return 1;
    }
    fail_at(peek(), "window frames with offsets (n PRECEDING or n FOLLOWING) are not supported");
  };
  int start = 0, end = 1;
  if (match_keyword("between")) {
    start = bound();
    expect_keyword("and", "between the window frame's bounds");
    end = bound();
  } else {
    start = bound();
  }
  if (start != 0) fail_at(unit, "window frames must start at UNBOUNDED PRECEDING (other starts are not supported)");
  if (end == 0) fail_at(unit, "a window frame cannot end at UNBOUNDED PRECEDING");
  frame.end = end == 1 ? FrameEnd::kCurrentRow : FrameEnd::kUnboundedFollowing;
  if (at_keyword("exclude")) fail_at(peek(), "EXCLUDE in window frames is not supported");
  return frame;
}

QueryPtr SqlParser::parse_parenthesized_query(std::string_view context) {
  expect_operator("(", context);
  if (!at_query_start() && !at_operator("(")) fail_expected("a sub-query (SELECT, WITH or VALUES)");
  QueryPtr query = parse_query();
  expect_operator(")", "after the sub-query");
  return query;
}

}  // namespace kestrel
