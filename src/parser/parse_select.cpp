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
    parse_group_by(*select);
  }
  if (match_keyword("having")) select->having = parse_expr();
  if (at_keyword("window")) fail_at(peek(), "WINDOW clauses are not supported");
  return select;
}

namespace {

/// Grouping sets past this many stay an error (CUBE of n keys has 2^n sets; each set is an aggregation).
constexpr size_t kMaxGroupingSets = 4096;

/// Every combination of one set from `a` and one from `b`, concatenated (nothing when there would be more than
/// kMaxGroupingSets).
std::vector<std::vector<size_t>> cross(const std::vector<std::vector<size_t>>& a,
                                       const std::vector<std::vector<size_t>>& b) {
  std::vector<std::vector<size_t>> out;
  if (!b.empty() && a.size() > kMaxGroupingSets / b.size()) return out;
  for (const auto& x : a) {
    for (const auto& y : b) {
      out.push_back(x);
      out.back().insert(out.back().end(), y.begin(), y.end());
    }
  }
  return out;
}

}  // namespace

void SqlParser::parse_group_by(Select& select) {
  std::vector<std::vector<size_t>> sets{{}};
  bool special = false;
  do {
    const Token& at = peek();
    std::vector<std::vector<size_t>> element = parse_grouping_element(select.group_by, &special);
    sets = element.empty() ? std::move(element) : cross(sets, element);
    if (sets.empty() || sets.size() > kMaxGroupingSets) {
      fail_at(at, "GROUP BY has more than " + std::to_string(kMaxGroupingSets) + " grouping sets");
    }
  } while (match_operator(","));
  if (special) select.grouping_sets = std::move(sets);
}

std::vector<std::vector<size_t>> SqlParser::parse_grouping_element(ExprList& group_by, bool* special) {
  auto expr_list = [&](std::string_view context) {
    expect_operator("(", context);
    std::vector<size_t> indices;
    if (!at_operator(")")) {
      do {
        indices.push_back(group_by.size());
        group_by.push_back(parse_expr());
      } while (match_operator(","));
    }
    expect_operator(")", context);
    return indices;
  };
  if ((at_keyword("rollup") || at_keyword("cube")) && at_operator("(", 1)) {
    *special = true;
    const bool rollup = at_keyword("rollup");
    const Token& keyword = advance();
    const std::string what = rollup ? "ROLLUP" : "CUBE";
    // Units: an expression, or a parenthesized list of them that rolls up together.
    std::vector<std::vector<size_t>> units;
    expect_operator("(", "after " + what);
    if (at_operator(")")) fail_at(keyword, what + " needs at least one expression");
    do {
      if (at_operator("(")) {
        units.push_back(expr_list("in " + what));
      } else {
        units.push_back({group_by.size()});
        group_by.push_back(parse_expr());
      }
    } while (match_operator(","));
    expect_operator(")", "after " + what + " (...");
    std::vector<std::vector<size_t>> sets;
    auto join_units = [&](auto&& chosen) {
      std::vector<size_t> set;
      for (size_t u = 0; u < units.size(); ++u) {
        if (chosen(u)) set.insert(set.end(), units[u].begin(), units[u].end());
      }
      sets.push_back(std::move(set));
    };
    if (rollup) {
      for (size_t n = units.size() + 1; n-- > 0;) join_units([&](size_t u) { return u < n; });
    } else {
      if (units.size() > 12) fail_at(keyword, "CUBE of more than 12 expressions");
      for (size_t mask = (size_t{1} << units.size()); mask-- > 0;) {
        join_units([&](size_t u) { return (mask & (size_t{1} << (units.size() - 1 - u))) != 0; });
      }
    }
    return sets;
  }
  if (at_keyword("grouping") && at_keyword("sets", 1)) {
    *special = true;
    advance();
    advance();
    expect_operator("(", "after GROUPING SETS");
    std::vector<std::vector<size_t>> sets;
    do {
      if (at_operator("(")) {
        // A parenthesized list (possibly empty) is one set.
        sets.push_back(expr_list("in GROUPING SETS"));
      } else {
        for (auto& set : parse_grouping_element(group_by, special)) sets.push_back(std::move(set));
      }
    } while (match_operator(","));
    expect_operator(")", "after GROUPING SETS (...");
    return sets;
  }
  if (at_operator("(") && at_operator(")", 1)) {
    *special = true;
    advance();
    advance();
    return {{}};
  }
  group_by.push_back(parse_expr());
  return {{group_by.size() - 1}};
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
