// Utility statements: COPY, EXPLAIN, SET, RESET, SHOW and DESCRIBE.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

OptionValue SqlParser::parse_option_value(bool allow_none) {
  OptionValue value;
  const Token& token = peek();
  value.position = token.position;
  bool negative = token.is_operator("-");
  if (negative || token.is_operator("+")) {
    advance();
    const Token& number = peek();
    if (number.type != TokenType::kInteger && number.type != TokenType::kDecimal &&
        number.type != TokenType::kFloat) {
      fail_expected("a number after the sign");
    }
    value.kind = OptionValue::Kind::kNumber;
    value.text = (negative ? "-" : "") + advance().text;
    return value;
  }
  switch (token.type) {
    case TokenType::kInteger:
    case TokenType::kDecimal:
    case TokenType::kFloat: value.kind = OptionValue::Kind::kNumber; break;
    case TokenType::kString: value.kind = OptionValue::Kind::kString; break;
    case TokenType::kWord:
    case TokenType::kQuotedIdentifier:
      value.kind = token.is_keyword("default") ? OptionValue::Kind::kDefault : OptionValue::Kind::kWord;
      break;
    default:
      if (allow_none) return value;
      fail_expected("a value (a word, a string or a number)");
  }
  value.text = advance().text;
  return value;
}

StatementPtr SqlParser::parse_copy() {
  auto statement = std::make_unique<CopyStatement>(advance().position);
  if (at_operator("(")) {
    statement->query = parse_parenthesized_query("after COPY");
  } else {
    statement->table = parse_qualified_name("a table name or a query in parentheses after COPY");
    if (at_operator("(")) statement->columns = parse_name_list("column name");
  }
  if (match_keyword("from")) {
    if (statement->query) fail_at(tokens_[index_ - 1], "COPY (query) FROM is not valid; use COPY table FROM");
    statement->to = false;
  } else {
    expect_keyword("to", "or FROM in COPY");
  }
  if (peek().type != TokenType::kString) fail_expected("a quoted file name");
  statement->file = advance().text;
  bool with = match_keyword("with");
  auto parse_option = [&](bool parenthesized) {
    CopyOption option;
    option.position = peek().position;
    option.name = expect_label("a COPY option name");
    match_operator("=");
    if (parenthesized || peek().type == TokenType::kString || peek().type == TokenType::kInteger) {
      bool ends = at_operator(",") || at_operator(")");
      if (!ends) option.value = parse_option_value(false);
    }
    statement->options.push_back(std::move(option));
  };
  if (match_operator("(")) {
    do {
      parse_option(true);
    } while (match_operator(","));
    expect_operator(")", "after the COPY options");
  } else if (with) {
    // PostgreSQL's older form without parentheses: WITH CSV HEADER DELIMITER '|'.
    while (!at_statement_end()) parse_option(false);
  }
  return statement;
}

StatementPtr SqlParser::parse_explain() {
  auto statement = std::make_unique<ExplainStatement>(advance().position);
  if (at_operator("(") && !at_query_start(1) && !at_operator("(", 1)) {
    advance();
    do {
      const Token& option = peek();
      std::string name = expect_label("an EXPLAIN option");
      bool enabled = true;
      if (at_keyword("true") || at_keyword("on") || at_keyword("false") || at_keyword("off")) {
        enabled = peek().text == "true" || peek().text == "on";
        advance();
      }
      if (name == "analyze" || name == "analyse") {
        statement->analyze = enabled;
      } else if (name == "verbose") {
        statement->verbose = enabled;
      } else {
        fail_at(option, "unknown EXPLAIN option " + describe(option) + "; expected ANALYZE or VERBOSE");
      }
    } while (match_operator(","));
    expect_operator(")", "after the EXPLAIN options");
  } else {
    statement->analyze = match_keyword("analyze") || match_keyword("analyse");
    statement->verbose = match_keyword("verbose");
  }
  if (at_keyword("explain")) fail_at(peek(), "EXPLAIN cannot explain another EXPLAIN");
  statement->statement = parse_statement();
  return statement;
}

StatementPtr SqlParser::parse_set() {
  auto statement = std::make_unique<SetStatement>(advance().position);
  if (match_keyword("local")) {
    statement->local = true;
  } else {
    match_keyword("session");
  }
  if (match_keyword("time")) {
    // PostgreSQL's SET TIME ZONE value sets time_zone; LOCAL and DEFAULT give it its default.
    expect_keyword("zone", "after SET TIME");
    statement->name = "time_zone";
    if (at_keyword("local")) {
      statement->value.position = advance().position;
      statement->value.kind = OptionValue::Kind::kDefault;
    } else {
      statement->value = parse_option_value(false);
    }
    if (at_operator(",")) fail_at(peek(), "a setting takes one value");
    return statement;
  }
  statement->name = expect_name("a setting name after SET");
  while (match_operator(".")) statement->name += "." + expect_label("a name after '.'");
  if (!match_operator("=") && !match_keyword("to")) fail_expected("'=' or TO after the setting name");
  statement->value = parse_option_value(false);
  if (at_operator(",")) fail_at(peek(), "a setting takes one value");
  return statement;
}

StatementPtr SqlParser::parse_reset() {
  auto statement = std::make_unique<ResetStatement>(advance().position);
  if (match_keyword("all")) {
    statement->all = true;
    return statement;
  }
  statement->name = expect_name("a setting name or ALL after RESET");
  while (match_operator(".")) statement->name += "." + expect_label("a name after '.'");
  return statement;
}

StatementPtr SqlParser::parse_show() {
  auto statement = std::make_unique<ShowStatement>(advance().position);
  if (match_keyword("all")) {
    statement->show = ShowKind::kAll;
  } else if (match_keyword("tables")) {
    statement->show = ShowKind::kTables;
    if (match_keyword("from") || match_keyword("in")) statement->from = parse_qualified_name("a schema name");
  } else if (match_keyword("schemas")) {
    statement->show = ShowKind::kSchemas;
    if (match_keyword("from") || match_keyword("in")) statement->from = parse_qualified_name("a catalog name");
  } else if (match_keyword("catalogs")) {
    statement->show = ShowKind::kCatalogs;
  } else if (match_keyword("columns")) {
    statement->show = ShowKind::kColumns;
    if (!match_keyword("from") && !match_keyword("in")) fail_expected("FROM or IN after SHOW COLUMNS");
    statement->from = parse_qualified_name("a table name after SHOW COLUMNS FROM");
  } else {
    statement->name = expect_name("a setting name, ALL, TABLES, SCHEMAS, CATALOGS or COLUMNS after SHOW");
    while (match_operator(".")) statement->name += "." + expect_label("a name after '.'");
  }
  return statement;
}

StatementPtr SqlParser::parse_describe() {
  auto statement = std::make_unique<DescribeStatement>(advance().position);
  if (at_query_start() || at_operator("(")) {
    statement->query = parse_query();
  } else {
    statement->table = parse_qualified_name("a table name or a query after DESCRIBE");
  }
  return statement;
}

}  // namespace kestrel
