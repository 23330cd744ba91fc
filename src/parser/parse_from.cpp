// FROM items: tables, sub-queries, table functions, aliases and joins.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

TableRefPtr SqlParser::parse_table_ref() {
  DepthGuard guard(*this);
  TableRefPtr left = parse_table_primary();
  while (true) {
    const Token& first = peek();
    bool natural = match_keyword("natural");
    JoinType type = JoinType::kInner;
    if (match_keyword("cross")) {
      type = JoinType::kCross;
    } else if (match_keyword("left")) {
      type = JoinType::kLeft;
    } else if (match_keyword("right")) {
      type = JoinType::kRight;
    } else if (match_keyword("full")) {
      type = JoinType::kFull;
    } else if (!match_keyword("inner") && !at_keyword("join")) {
      if (natural) fail_expected("JOIN after NATURAL");
      return left;
    }
    if (type == JoinType::kLeft || type == JoinType::kRight || type == JoinType::kFull) match_keyword("outer");
    expect_keyword("join", std::string("after ") + (natural ? "NATURAL " : "") + join_type_name(type));
    if (natural && type == JoinType::kCross) fail_at(first, "NATURAL CROSS JOIN is not valid");
    guard.deepen();
    auto join = std::make_unique<JoinRef>(left->position);
    join->join_position = first.position;
    join->join_type = type;
    join->natural = natural;
    join->left = std::move(left);
    join->right = parse_table_primary();
    if (type == JoinType::kCross || natural) {
      if (at_keyword("on") || at_keyword("using")) {
        fail_at(peek(), std::string(natural ? "a NATURAL" : "a CROSS") + " join cannot have ON or USING");
      }
    } else if (match_keyword("on")) {
      join->condition = parse_expr();
    } else if (at_keyword("using")) {
      advance();
      join->using_columns = parse_name_list("USING column");
    } else {
      fail_expected("ON or USING after the joined table");
    }
    left = std::move(join);
  }
}

TableRefPtr SqlParser::parse_table_primary() {
  const Token& token = peek();
  TableRefPtr ref;
  if (token.is_keyword("lateral")) {
    advance();
    if (!at_operator("(")) fail_expected("a sub-query in parentheses after LATERAL");
    auto sub = std::make_unique<SubqueryRef>(token.position);
    sub->lateral = true;
    sub->query = parse_parenthesized_query("after LATERAL");
    ref = std::move(sub);
  } else if (token.is_operator("(")) {
    ref = parse_parenthesized_table();
  } else if (token.is_name()) {
    QualifiedName name = parse_qualified_name("a table name");
    if (at_operator("(")) {
      ref = parse_table_function(std::move(name));
    } else {
      auto table = std::make_unique<BaseTableRef>(token.position);
      table->name = std::move(name);
      ref = std::move(table);
    }
  } else if (token.type == TokenType::kWord && token.reserved) {
    fail_at(token, "expected a table name, found reserved keyword " + describe(token) +
                       " (quote it to use it as a name)");
  } else {
    fail_expected("a table name, a sub-query in parentheses or a table function");
  }
  if (std::optional<TableAlias> alias = parse_table_alias()) ref->alias = std::move(alias);
  return ref;
}

TableRefPtr SqlParser::parse_parenthesized_table() {
  const Token& open = advance();
  TableRefPtr result;
  if (at_query_start()) {
    auto sub = std::make_unique<SubqueryRef>(open.position);
    sub->query = parse_query();
    result = std::move(sub);
  } else {
    result = parse_table_ref();
    if (result->is<SubqueryRef>() && !result->alias && at_query_continuation()) {
      // ((SELECT ...) UNION (SELECT ...)) AS t: the first sub-query was an operand of a longer query.
      auto sub = std::make_unique<SubqueryRef>(open.position);
      sub->query = continue_query(std::move(result->as<SubqueryRef>().query));
      result = std::move(sub);
    }
  }
  if (!at_operator(")")) {
    fail_expected("')' to close the parenthesis opened at " + std::to_string(open.position.line) + ":" +
                  std::to_string(open.position.column));
  }
  advance();
  return result;
}

TableRefPtr SqlParser::parse_table_function(QualifiedName name) {
  auto function = std::make_unique<TableFunctionRef>(name.position);
  if (name.parts.size() > 1) fail_at(peek(), "table function names cannot be qualified");
  function->name = name.name();
  advance();  // (
  if (!at_operator(")")) {
    do {
      const Token& token = peek();
      bool named = (token.type == TokenType::kWord || token.type == TokenType::kQuotedIdentifier) &&
                   (peek(1).is_operator("=") || peek(1).is_operator("=>"));
      if (named) {
        NamedArgument argument;
        argument.position = token.position;
        argument.name = advance().text;
        advance();  // = or =>
        argument.value = parse_expr();
        function->named_args.push_back(std::move(argument));
      } else {
        if (!function->named_args.empty()) {
          fail_at(token, "positional arguments must come before named arguments in " + function->name + "(...)");
        }
        function->args.push_back(parse_expr());
      }
    } while (match_operator(","));
  }
  expect_operator(")", "after the table function's arguments");
  if (function->name == "unnest" && at_keyword("with") && at_keyword("ordinality", 1)) {
    advance();
    advance();
    function->ordinality = true;
  }
  return function;
}

std::optional<TableAlias> SqlParser::parse_table_alias() {
  TableAlias alias;
  alias.position = peek().position;
  if (match_keyword("as")) {
    alias.position = peek().position;
    alias.name = expect_name("an alias after AS");
  } else if (peek().is_name()) {
    alias.name = advance().text;
  } else {
    return std::nullopt;
  }
  if (at_operator("(")) alias.columns = parse_name_list("column alias");
  return alias;
}

}  // namespace kestrel
