// Queries: WITH, set operations with their precedence, parenthesised queries, ORDER BY and LIMIT/OFFSET/FETCH.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

/// Binding power of a set operator keyword; 0 when the token is not one. INTERSECT binds tighter.
int set_operator_precedence(const Token& token) {
  if (token.is_keyword("union") || token.is_keyword("except")) return 1;
  if (token.is_keyword("intersect")) return 2;
  return 0;
}

}  // namespace

QueryPtr SqlParser::parse_query() {
  DepthGuard guard(*this);
  auto query = std::make_unique<Query>(peek().position);
  if (at_keyword("with")) parse_with(*query);
  query->body = parse_set_expression();
  parse_order_and_limit(*query);
  return query;
}

void SqlParser::parse_with(Query& query) {
  advance();  // WITH
  if (at_keyword("recursive")) fail_at(peek(), "WITH RECURSIVE is not supported");
  do {
    CommonTableExpr cte;
    cte.position = peek().position;
    cte.name = expect_name("a CTE name after WITH");
    if (at_operator("(")) cte.columns = parse_name_list("column name");
    expect_keyword("as", "after the CTE name");
    if (match_keyword("not")) {
      expect_keyword("materialized", "after AS NOT");
    } else {
      match_keyword("materialized");
    }
    cte.query = parse_parenthesized_query("before the CTE's query");
    query.ctes.push_back(std::move(cte));
  } while (match_operator(","));
}

QueryBodyPtr SqlParser::parse_set_expression() { return parse_set_operations(parse_query_primary(), 0); }

QueryBodyPtr SqlParser::parse_set_operations(QueryBodyPtr left, int min_level) {
  DepthGuard guard(*this);
  while (true) {
    int level = set_operator_precedence(peek());
    if (level == 0 || level <= min_level) return left;
    guard.deepen();
    const Token& op_token = advance();
    auto node = std::make_unique<SetOperation>(left->position);
    node->operator_position = op_token.position;
    node->op = op_token.text == "union"       ? SetOperator::kUnion
               : op_token.text == "intersect" ? SetOperator::kIntersect
                                              : SetOperator::kExcept;
    if (match_keyword("all")) {
      node->all = true;
    } else {
      match_keyword("distinct");
    }
    node->left = std::move(left);
    node->right = parse_set_operations(parse_query_primary(), level);
    left = std::move(node);
  }
}

QueryBodyPtr SqlParser::parse_query_primary() {
  if (at_keyword("select")) return parse_select();
  if (at_keyword("values")) return parse_values();
  if (at_operator("(")) {
    const Token& open = advance();
    QueryPtr inner = parse_query();
    if (!at_operator(")")) {
      fail_expected("')' to close the query opened at " + std::to_string(open.position.line) + ":" +
                    std::to_string(open.position.column));
    }
    advance();
    return as_body(std::move(inner));
  }
  if (at_keyword("with")) fail_at(peek(), "WITH must come first in a query (put this query in parentheses)");
  fail_expected("SELECT, VALUES or '(' to start a query");
}

QueryBodyPtr SqlParser::as_body(QueryPtr query) {
  if (query->is_bare_body()) return std::move(query->body);
  auto node = std::make_unique<ParenthesizedQuery>(query->position);
  node->query = std::move(query);
  return node;
}

bool SqlParser::at_query_continuation() const {
  return set_operator_precedence(peek()) > 0 || at_keyword("order") || at_keyword("limit") ||
         at_keyword("offset") || at_keyword("fetch");
}

QueryPtr SqlParser::continue_query(QueryPtr first) {
  auto query = std::make_unique<Query>(first->position);
  query->body = parse_set_operations(as_body(std::move(first)), 0);
  parse_order_and_limit(*query);
  return query;
}

std::vector<OrderItem> SqlParser::parse_order_by() {
  std::vector<OrderItem> items;
  do {
    OrderItem item;
    item.expr = parse_expr();
    if (match_keyword("desc")) {
      item.direction = SortDirection::kDescending;
    } else {
      match_keyword("asc");
    }
    if (match_keyword("nulls")) {
      if (match_keyword("first")) {
        item.nulls = NullOrder::kNullsFirst;
      } else if (match_keyword("last")) {
        item.nulls = NullOrder::kNullsLast;
      } else {
        fail_expected("FIRST or LAST after NULLS");
      }
    }
    items.push_back(std::move(item));
  } while (match_operator(","));
  return items;
}

void SqlParser::parse_order_and_limit(Query& query) {
  if (match_keyword("order")) {
    expect_keyword("by", "after ORDER");
    query.order_by = parse_order_by();
  }
  bool seen_limit = false;
  bool seen_offset = false;
  while (true) {
    const Token& token = peek();
    if (token.is_keyword("limit") || token.is_keyword("fetch")) {
      if (seen_limit) fail_at(token, "LIMIT or FETCH given twice");
      seen_limit = true;
      advance();
      if (token.text == "limit") {
        if (!match_keyword("all")) query.limit = parse_expr();
        continue;
      }
      if (!match_keyword("first") && !match_keyword("next")) fail_expected("FIRST or NEXT after FETCH");
      if (at_keyword("row") || at_keyword("rows")) {
        auto one = std::make_unique<Literal>(peek().position);
        one->literal_kind = LiteralKind::kInteger;
        one->text = "1";
        query.limit = std::move(one);
      } else {
        query.limit = parse_expr();
      }
      if (!match_keyword("row") && !match_keyword("rows")) fail_expected("ROW or ROWS in FETCH");
      if (at_keyword("with")) fail_at(peek(), "FETCH ... WITH TIES is not supported");
      expect_keyword("only", "after FETCH FIRST n ROWS");
    } else if (token.is_keyword("offset")) {
      if (seen_offset) fail_at(token, "OFFSET given twice");
      seen_offset = true;
      advance();
      query.offset = parse_expr();
      if (!match_keyword("row")) match_keyword("rows");
    } else {
      return;
    }
  }
}

}  // namespace kestrel
