// SELECT cores, select lists and VALUES lists.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

QueryBodyPtr SqlParser::parse_select() {
  auto select = std::make_unique<Select>(advance().position);
  if (match_keyword("distinct")) {
    select->distinct = true;
    if (match_keyword("on")) {
      expect_operator("(", "after DISTINCT ON");
      select->distinct_on = parse_expr_list();
      expect_operator(")", "after the DISTINCT ON expressions");
    }
  } else {
    match_keyword("all");
  }
  if (at_keyword("from") || at_statement_end() || at_operator(")")) fail_expected("a select list after SELECT");
  do {
    select->items.push_back(parse_select_item());
  } while (match_operator(","));
  if (at_keyword("into")) fail_at(peek(), "SELECT ... INTO is not supported (use CREATE TABLE ... AS)");
  if (match_keyword("from")) {
    do {
      select->from.push_back(parse_table_ref());
    } while (match_operator(","));
  }
  if (match_keyword("where")) select->where = parse_expr();
  if (match_keyword("group")) {
    expect_keyword("by", "after GROUP");
    select->group_by = parse_expr_list();
  }
  if (match_keyword("having")) select->having = parse_expr();
  if (at_keyword("window")) fail_at(peek(), "WINDOW clauses are not supported");
  return select;
}

SelectItem SqlParser::parse_select_item() {
  SelectItem item;
  if (at_operator("*")) {
    item.expr = std::make_unique<Star>(advance().position);
  } else {
    item.expr = parse_expr();
  }
  if (item.expr->is<Star>()) return item;  // * and t.* take no alias
  if (match_keyword("as")) {
    item.alias_position = peek().position;
    item.alias = expect_label("an alias after AS");
  } else if (peek().is_name()) {
    item.alias_position = peek().position;
    item.alias = advance().text;
  }
  return item;
}

QueryBodyPtr SqlParser::parse_values() {
  auto values = std::make_unique<Values>(advance().position);
  do {
    const Token& open = expect_operator("(", "before a VALUES row");
    ExprList row = parse_expr_list();
    expect_operator(")", "after a VALUES row");
    if (!values->rows.empty() && row.size() != values->rows.front().size()) {
      fail_at(open, "VALUES lists must all be the same length (the first has " +
                        std::to_string(values->rows.front().size()) + " values, this one " +
                        std::to_string(row.size()) + ")");
    }
    values->rows.push_back(std::move(row));
  } while (match_operator(","));
  return values;
}

}  // namespace kestrel
