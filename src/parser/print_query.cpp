// Printing queries and FROM items back to SQL.

#include "parser/ast_printer.hpp"
#include "parser/sql_printer.hpp"

namespace kestrel::ast {

void SqlPrinter::print(const Query& query) {
  if (!query.ctes.empty()) {
    out_ += "WITH ";
    for (size_t i = 0; i < query.ctes.size(); ++i) {
      const CommonTableExpr& cte = query.ctes[i];
      if (i > 0) out_ += ", ";
      out_ += quote_identifier(cte.name);
      if (!cte.columns.empty()) {
        out_ += " (";
        print_names(cte.columns, ", ");
        out_ += ')';
      }
      out_ += " AS (";
      print(*cte.query);
      out_ += ')';
    }
    out_ += ' ';
  }
  print(*query.body);
  if (!query.order_by.empty()) {
    out_ += " ORDER BY ";
    print_order_items(query.order_by);
  }
  if (query.limit) {
    out_ += " LIMIT ";
    print(*query.limit);
  }
  if (query.offset) {
    out_ += " OFFSET ";
    print(*query.offset);
  }
}

void SqlPrinter::print(const QueryBody& body) {
  switch (body.kind) {
    case QueryBodyKind::kSelect: print_select(body.as<Select>()); return;
    case QueryBodyKind::kSetOperation: {
      const auto& operation = body.as<SetOperation>();
      print_set_operand(*operation.left);
      out_ += std::string(" ") + set_operator_name(operation.op) + (operation.all ? " ALL " : " ");
      print_set_operand(*operation.right);
      return;
    }
    case QueryBodyKind::kValues: {
      out_ += "VALUES ";
      const auto& values = body.as<Values>();
      for (size_t i = 0; i < values.rows.size(); ++i) {
        out_ += i > 0 ? ", (" : "(";
        print_list(values.rows[i]);
        out_ += ')';
      }
      return;
    }
    case QueryBodyKind::kParenthesized:
      out_ += '(';
      print(*body.as<ParenthesizedQuery>().query);
      out_ += ')';
      return;
  }
}

void SqlPrinter::print_set_operand(const QueryBody& body) {
  if (body.is<ParenthesizedQuery>()) {
    print(body);
    return;
  }
  out_ += '(';
  print(body);
  out_ += ')';
}

void SqlPrinter::print_select(const Select& select) {
  out_ += "SELECT ";
  if (select.distinct) {
    out_ += "DISTINCT ";
    if (!select.distinct_on.empty()) {
      out_ += "ON (";
      print_list(select.distinct_on);
      out_ += ") ";
    }
  }
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (i > 0) out_ += ", ";
    print(*item.expr);
    if (item.alias) out_ += " AS " + quote_identifier(*item.alias);
  }
  if (!select.from.empty()) {
    out_ += " FROM ";
    for (size_t i = 0; i < select.from.size(); ++i) {
      if (i > 0) out_ += ", ";
      print(*select.from[i]);
    }
  }
  if (select.where) {
    out_ += " WHERE ";
    print(*select.where);
  }
  if (!select.grouping_sets.empty()) {
    out_ += " GROUP BY GROUPING SETS (";
    for (size_t s = 0; s < select.grouping_sets.size(); ++s) {
      if (s > 0) out_ += ", ";
      out_ += "(";
      for (size_t k = 0; k < select.grouping_sets[s].size(); ++k) {
        if (k > 0) out_ += ", ";
        print(*select.group_by[select.grouping_sets[s][k]]);
      }
      out_ += ")";
    }
    out_ += ")";
  } else if (!select.group_by.empty()) {
    out_ += " GROUP BY ";
    print_list(select.group_by);
  }
  if (select.having) {
    out_ += " HAVING ";
    print(*select.having);
  }
}

void SqlPrinter::print_alias(const std::optional<TableAlias>& alias) {
  if (!alias) return;
  out_ += " AS " + quote_identifier(alias->name);
  if (!alias->columns.empty()) {
    out_ += " (";
    print_names(alias->columns, ", ");
    out_ += ')';
  }
}

void SqlPrinter::print(const TableRef& table) {
  switch (table.kind) {
    case TableRefKind::kBaseTable: print_names(table.as<BaseTableRef>().name.parts, "."); break;
    case TableRefKind::kSubquery: {
      const auto& sub = table.as<SubqueryRef>();
      out_ += sub.lateral ? "LATERAL (" : "(";
      print(*sub.query);
      out_ += ')';
      break;
    }
    case TableRefKind::kTableFunction: {
      const auto& function = table.as<TableFunctionRef>();
      out_ += quote_identifier(function.name) + "(";
      print_list(function.args);
      for (size_t i = 0; i < function.named_args.size(); ++i) {
        if (i > 0 || !function.args.empty()) out_ += ", ";
        out_ += quote_identifier(function.named_args[i].name) + " => ";
        print(*function.named_args[i].value);
      }
      out_ += ')';
      if (function.ordinality) out_ += " WITH ORDINALITY";
      break;
    }
    case TableRefKind::kJoin:
      if (table.alias) {
        out_ += '(';
        print_join(table.as<JoinRef>());
        out_ += ')';
      } else {
        print_join(table.as<JoinRef>());
      }
      break;
  }
  print_alias(table.alias);
}

void SqlPrinter::print_join(const JoinRef& join) {
  print(*join.left);
  out_ += ' ';
  if (join.natural) out_ += "NATURAL ";
  out_ += join_type_name(join.join_type);
  out_ += " JOIN ";
  // A join on the right was written in parentheses; keep them so it does not read as a chain.
  bool parenthesize = join.right->is<JoinRef>() && !join.right->alias;
  if (parenthesize) out_ += '(';
  print(*join.right);
  if (parenthesize) out_ += ')';
  if (join.condition) {
    out_ += " ON ";
    print(*join.condition);
  } else if (!join.using_columns.empty()) {
    out_ += " USING (";
    print_names(join.using_columns, ", ");
    out_ += ')';
  }
}

void SqlPrinter::print_order_items(const std::vector<OrderItem>& items) {
  for (size_t i = 0; i < items.size(); ++i) {
    const OrderItem& item = items[i];
    if (i > 0) out_ += ", ";
    print(*item.expr);
    if (item.direction == SortDirection::kDescending) out_ += " DESC";
    if (item.nulls == NullOrder::kNullsFirst) out_ += " NULLS FIRST";
    if (item.nulls == NullOrder::kNullsLast) out_ += " NULLS LAST";
  }
}

}  // namespace kestrel::ast
