// Statements: the dispatch on the first keyword, CREATE TABLE/VIEW/INDEX, DROP, INSERT, UPDATE and DELETE.

#include <algorithm>

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

constexpr std::string_view kStatementKeywords[] = {"select", "with", "values", "create", "drop",  "insert",
                                                   "update", "delete", "copy", "explain", "set", "reset",
                                                   "show",   "describe"};

/// Edit distance of two short words, for "did you mean" hints.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace

StatementPtr SqlParser::parse_statement() {
  DepthGuard guard(*this);
  const Token& first = peek();
  StatementPtr statement;
  if (at_query_start() || first.is_operator("(")) {
    auto query = std::make_unique<QueryStatement>(first.position);
    query->query = parse_query();
    statement = std::move(query);
  } else if (first.is_keyword("create")) {
    statement = parse_create();
  } else if (first.is_keyword("drop")) {
    statement = parse_drop();
  } else if (first.is_keyword("insert")) {
    statement = parse_insert();
  } else if (first.is_keyword("update")) {
    statement = parse_update();
  } else if (first.is_keyword("delete")) {
    statement = parse_delete();
  } else if (first.is_keyword("copy")) {
    statement = parse_copy();
  } else if (first.is_keyword("explain")) {
    statement = parse_explain();
  } else if (first.is_keyword("set")) {
    statement = parse_set();
  } else if (first.is_keyword("reset")) {
    statement = parse_reset();
  } else if (first.is_keyword("show")) {
    statement = parse_show();
  } else if (first.is_keyword("describe") || first.is_keyword("desc")) {
    statement = parse_describe();
  } else {
    fail_statement_start();
  }
  statement->end_offset = tokens_[index_ - 1].end_offset;  // every statement consumed at least one token
  return statement;
}

void SqlParser::fail_statement_start() const {
  const Token& token = peek();
  std::string message = "unexpected " + describe(token) +
                        " at the start of a statement; expected SELECT, WITH, VALUES, CREATE, DROP, INSERT, UPDATE, "
                        "DELETE, COPY, EXPLAIN, SET, RESET, SHOW or DESCRIBE";
  if (token.type == TokenType::kWord) {
    for (std::string_view keyword : kStatementKeywords) {
      if (edit_distance(token.text, keyword) <= (keyword.size() > 4 ? 2u : 1u)) {
        message += " (did you mean " + upper(keyword) + "?)";
        break;
      }
    }
  }
  fail_at(token, message);
}

StatementPtr SqlParser::parse_create() {
  SourcePosition start = advance().position;
  bool or_replace = false;
  if (match_keyword("or")) {
    expect_keyword("replace", "after CREATE OR");
    or_replace = true;
  }
  bool temporary = match_keyword("temp") || match_keyword("temporary");
  if (match_keyword("unique")) {
    if (!at_keyword("index")) fail_expected("INDEX after CREATE UNIQUE");
    advance();
    return parse_create_index(start, true);
  }
  if (match_keyword("table")) return parse_create_table(start, or_replace, temporary);
  if (match_keyword("view")) return parse_create_view(start, or_replace, temporary);
  if (match_keyword("index")) return parse_create_index(start, false);
  fail_expected("TABLE, VIEW or INDEX after CREATE");
}

StatementPtr SqlParser::parse_create_table(SourcePosition start, bool or_replace, bool temporary) {
  bool if_not_exists = false;
  if (at_keyword("if")) {
    advance();
    expect_keyword("not", "after IF");
    expect_keyword("exists", "after IF NOT");
    if_not_exists = true;
  }
  QualifiedName name = parse_qualified_name("a table name");
  // (a, b) AS query names the columns of CREATE TABLE AS; (a INTEGER, ...) defines columns.
  bool name_list = at_operator("(") && peek(1).is_name() && (at_operator(",", 2) || at_operator(")", 2));
  if (at_keyword("as") || at_keyword("with") || name_list) {
    auto statement = std::make_unique<CreateTableAsStatement>(start);
    statement->name = std::move(name);
    statement->or_replace = or_replace;
    statement->if_not_exists = if_not_exists;
    statement->temporary = temporary;
    if (name_list) statement->column_names = parse_name_list("column name");
    if (match_keyword("with")) {
      expect_operator("(", "after WITH in CREATE TABLE");
      do {
        CopyOption option;
        option.position = peek().position;
        option.name = expect_label("a table option name");
        expect_operator("=", "after the table option name");
        option.value = parse_option_value(false);
        statement->options.push_back(std::move(option));
      } while (match_operator(","));
      expect_operator(")", "after the table options");
    }
    expect_keyword("as", "before the query of CREATE TABLE ... AS");
    statement->query = parse_query();
    return statement;
  }
  auto statement = std::make_unique<CreateTableStatement>(start);
  statement->name = std::move(name);
  statement->or_replace = or_replace;
  statement->if_not_exists = if_not_exists;
  statement->temporary = temporary;
  expect_operator("(", "or AS after the table name");
  do {
    if (match_keyword("constraint")) expect_name("a constraint name");
    if (at_keyword("primary") || at_keyword("unique")) {
      TableConstraint constraint;
      constraint.position = peek().position;
      if (match_keyword("primary")) {
        expect_keyword("key", "after PRIMARY");
      } else {
        advance();
        constraint.constraint = TableConstraint::Kind::kUnique;
      }
      constraint.columns = parse_name_list("column name");
      statement->constraints.push_back(std::move(constraint));
    } else if (at_keyword("check") || at_keyword("foreign")) {
      fail_at(peek(), upper(peek().text) + " constraints are not supported");
    } else {
      statement->columns.push_back(parse_column_definition());
    }
  } while (match_operator(","));
  expect_operator(")", "after the column definitions");
  return statement;
}

ColumnDefinition SqlParser::parse_column_definition() {
  ColumnDefinition column;
  column.position = peek().position;
  column.name = expect_name("a column name");
  column.type = parse_type();
  while (true) {
    if (match_keyword("constraint")) expect_name("a constraint name");
    if (match_keyword("not")) {
      expect_keyword("null", "after NOT in a column definition");
      column.not_null = true;
    } else if (match_keyword("null")) {
      column.not_null = false;
    } else if (match_keyword("primary")) {
      expect_keyword("key", "after PRIMARY");
      column.primary_key = true;
      column.not_null = true;
    } else if (match_keyword("unique")) {
      column.unique = true;
    } else if (match_keyword("default")) {
      column.default_value = parse_expr(kIs);
    } else if (at_keyword("check") || at_keyword("references") || at_keyword("collate")) {
      fail_at(peek(), upper(peek().text) + " in a column definition is not supported");
    } else {
      return column;
    }
  }
}

StatementPtr SqlParser::parse_create_view(SourcePosition start, bool or_replace, bool temporary) {
  auto statement = std::make_unique<CreateViewStatement>(start);
  statement->or_replace = or_replace;
  statement->temporary = temporary;
  if (at_keyword("if")) {
    advance();
    expect_keyword("not", "after IF");
    expect_keyword("exists", "after IF NOT");
    statement->if_not_exists = true;
  }
  statement->name = parse_qualified_name("a view name");
  if (at_operator("(")) statement->column_names = parse_name_list("column name");
  expect_keyword("as", "before the view's query");
  uint32_t query_begin = peek().position.offset;
  statement->query = parse_query();
  uint32_t query_end = tokens_[index_ - 1].end_offset;
  statement->query_text = std::string(sql_.substr(query_begin, query_end - query_begin));
  return statement;
}

StatementPtr SqlParser::parse_create_index(SourcePosition start, bool unique) {
  auto statement = std::make_unique<CreateIndexStatement>(start);
  statement->unique = unique;
  if (at_keyword("if")) {
    advance();
    expect_keyword("not", "after IF");
    expect_keyword("exists", "after IF NOT");
    statement->if_not_exists = true;
  }
  if (!at_keyword("on")) statement->name = expect_name("an index name");
  expect_keyword("on", "after the index name");
  statement->table = parse_qualified_name("a table name");
  expect_operator("(", "before the indexed columns");
  do {
    statement->columns.push_back(expect_name("a column name"));
    if (!match_keyword("asc")) match_keyword("desc");
  } while (match_operator(","));
  expect_operator(")", "after the indexed columns");
  return statement;
}

StatementPtr SqlParser::parse_drop() {
  auto statement = std::make_unique<DropStatement>(advance().position);
  if (match_keyword("table")) {
    statement->object_type = ObjectType::kTable;
  } else if (match_keyword("view")) {
    statement->object_type = ObjectType::kView;
  } else if (match_keyword("index")) {
    statement->object_type = ObjectType::kIndex;
  } else {
    fail_expected("TABLE, VIEW or INDEX after DROP");
  }
  if (at_keyword("if")) {
    advance();
    expect_keyword("exists", "after IF");
    statement->if_exists = true;
  }
  do {
    statement->names.push_back(parse_qualified_name("a name"));
  } while (match_operator(","));
  if (match_keyword("cascade")) {
    statement->cascade = true;
  } else {
    match_keyword("restrict");
  }
  return statement;
}

StatementPtr SqlParser::parse_insert() {
  auto statement = std::make_unique<InsertStatement>(advance().position);
  expect_keyword("into", "after INSERT");
  statement->table = parse_qualified_name("a table name");
  if (at_operator("(") && !at_query_start(1) && !at_operator("(", 1)) {
    statement->columns = parse_name_list("column name");
  }
  if (at_keyword("default")) fail_at(peek(), "INSERT ... DEFAULT VALUES is not supported");
  if (!at_query_start() && !at_operator("(")) fail_expected("VALUES or a query after the INSERT target");
  statement->source = parse_query();
  return statement;
}

std::optional<TableAlias> SqlParser::parse_target_alias(std::string_view next_keyword) {
  TableAlias alias;
  alias.position = peek().position;
  if (match_keyword("as")) {
    alias.position = peek().position;
    alias.name = expect_name("an alias after AS");
  } else if (peek().is_name() && !at_keyword(next_keyword)) {
    alias.name = advance().text;
  } else {
    return std::nullopt;
  }
  return alias;
}

StatementPtr SqlParser::parse_update() {
  auto statement = std::make_unique<UpdateStatement>(advance().position);
  statement->table = parse_qualified_name("a table name after UPDATE");
  statement->alias = parse_target_alias("set");
  expect_keyword("set", "after the UPDATE target");
  do {
    if (at_operator("(")) fail_at(peek(), "UPDATE ... SET (c1, c2) = ... is not supported; assign each column");
    Assignment assignment;
    assignment.position = peek().position;
    assignment.column = expect_name("a column name");
    if (at_operator(".")) fail_at(peek(), "a SET target is a column name without a table name");
    expect_operator("=", "after the column name in SET");
    if (at_keyword("default")) fail_at(peek(), "SET column = DEFAULT is not supported");
    assignment.value = parse_expr();
    statement->assignments.push_back(std::move(assignment));
  } while (match_operator(","));
  if (at_keyword("from")) fail_at(peek(), "UPDATE ... FROM is not supported");
  if (match_keyword("where")) statement->where = parse_expr();
  return statement;
}

StatementPtr SqlParser::parse_delete() {
  auto statement = std::make_unique<DeleteStatement>(advance().position);
  expect_keyword("from", "after DELETE");
  statement->table = parse_qualified_name("a table name after DELETE FROM");
  statement->alias = parse_target_alias("where");
  if (at_keyword("using")) fail_at(peek(), "DELETE ... USING is not supported");
  if (match_keyword("where")) statement->where = parse_expr();
  return statement;
}

}  // namespace kestrel
