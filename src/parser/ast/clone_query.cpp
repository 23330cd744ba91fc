// Deep copies of queries and FROM items.

#include "parser/ast/clone.hpp"

namespace kestrel::ast {
namespace {

ExprPtr clone_or_null(const ExprPtr& expr) { return expr ? clone(*expr) : nullptr; }

ExprList clone_list(const ExprList& list) {
  ExprList out;
  for (const ExprPtr& expr : list) out.push_back(clone(*expr));
  return out;
}

QueryBodyPtr clone_select(const Select& from) {
  auto node = std::make_unique<Select>(from.position);
  node->distinct = from.distinct;
  node->distinct_on = clone_list(from.distinct_on);
  for (const SelectItem& item : from.items) {
    node->items.push_back(SelectItem{clone(*item.expr), item.alias, item.alias_position});
  }
  for (const TableRefPtr& table : from.from) node->from.push_back(clone(*table));
  node->where = clone_or_null(from.where);
  node->group_by = clone_list(from.group_by);
  node->grouping_sets = from.grouping_sets;
  node->having = clone_or_null(from.having);
  return node;
}

}  // namespace

QueryPtr clone(const Query& query) {
  auto node = std::make_unique<Query>(query.position);
  for (const CommonTableExpr& cte : query.ctes) {
    node->ctes.push_back(CommonTableExpr{cte.name, cte.columns, clone(*cte.query), cte.position});
  }
  node->body = clone(*query.body);
  for (const OrderItem& item : query.order_by) {
    node->order_by.push_back(OrderItem{clone(*item.expr), item.direction, item.nulls});
  }
  node->limit = clone_or_null(query.limit);
  node->offset = clone_or_null(query.offset);
  return node;
}

QueryBodyPtr clone(const QueryBody& body) {
  switch (body.kind) {
    case QueryBodyKind::kSelect: return clone_select(body.as<Select>());
    case QueryBodyKind::kSetOperation: {
      const auto& from = body.as<SetOperation>();
      auto node = std::make_unique<SetOperation>(from.position);
      node->op = from.op;
      node->all = from.all;
      node->left = clone(*from.left);
      node->right = clone(*from.right);
      node->operator_position = from.operator_position;
      return node;
    }
    case QueryBodyKind::kValues: {
      auto node = std::make_unique<Values>(body.position);
      for (const ExprList& row : body.as<Values>().rows) node->rows.push_back(clone_list(row));
      return node;
    }
    case QueryBodyKind::kParenthesized: {
      auto node = std::make_unique<ParenthesizedQuery>(body.position);
      node->query = clone(*body.as<ParenthesizedQuery>().query);
      return node;
    }
  }
  return nullptr;
}

TableRefPtr clone(const TableRef& table) {
  TableRefPtr out;
  switch (table.kind) {
    case TableRefKind::kBaseTable: {
      auto node = std::make_unique<BaseTableRef>(table.position);
      node->name = table.as<BaseTableRef>().name;
      out = std::move(node);
      break;
    }
    case TableRefKind::kSubquery: {
      auto node = std::make_unique<SubqueryRef>(table.position);
      node->query = clone(*table.as<SubqueryRef>().query);
      node->lateral = table.as<SubqueryRef>().lateral;
      out = std::move(node);
      break;
    }
    case TableRefKind::kTableFunction: {
      const auto& from = table.as<TableFunctionRef>();
      auto node = std::make_unique<TableFunctionRef>(table.position);
      node->name = from.name;
      node->args = clone_list(from.args);
      for (const NamedArgument& arg : from.named_args) {
        node->named_args.push_back(NamedArgument{arg.name, clone(*arg.value), arg.position});
      }
      out = std::move(node);
      break;
    }
    case TableRefKind::kJoin: {
      const auto& from = table.as<JoinRef>();
      auto node = std::make_unique<JoinRef>(table.position);
      node->join_type = from.join_type;
      node->natural = from.natural;
      node->left = clone(*from.left);
      node->right = clone(*from.right);
      node->condition = clone_or_null(from.condition);
      node->using_columns = from.using_columns;
      node->join_position = from.join_position;
      out = std::move(node);
      break;
    }
  }
  out->alias = table.alias;
  return out;
}

}  // namespace kestrel::ast
