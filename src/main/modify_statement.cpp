#include "main/modify_statement.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/table.hpp"
#include "common/check.hpp"
#include "exec/expr/evaluate.hpp"
#include "main/statement_runner.hpp"
#include "parser/ast/clone.hpp"
#include "planner/binder/binder.hpp"
#include "planner/binder/expr_binder.hpp"
#include "vector/gather.hpp"

namespace kestrel {

namespace {

/// The in-memory table `name` that `verb` (UPDATE, DELETE) changes; a clean error for anything else.
std::shared_ptr<catalog::MemoryTable> target_table(const SessionState& state, const ast::QualifiedName& name,
                                                   const std::string& verb) {
  auto table = state.catalog.find_table(name.name());
  if (!table) {
    if (state.catalog.find_view(name.name())) {
      throw BinderError(verb + " of view '" + name.to_string() + "' is not possible: only tables can be changed",
                        name.position, "42809");
    }
    throw BinderError("table '" + name.to_string() + "' does not exist", name.position, "42P01");
  }
  auto memory = std::dynamic_pointer_cast<catalog::MemoryTable>(table);
  if (!memory) {
    throw NotImplemented(verb + " of table '" + table->name() + "' (" + table->source_description() +
                             ") is not supported: only in-memory tables (CREATE TABLE) can be changed",
                         name.position);
  }
  return memory;
}

/// Refuses aggregates and window functions in `clause` (SET values, WHERE): they have no value of their own row.
void check_per_row(const ast::Expr& expr, const char* clause) {
  if (plan::ExprBinder::contains_aggregate(expr)) {
    throw BinderError(std::string("aggregate functions are not allowed in ") + clause, expr.position, "42803");
  }
  if (plan::ExprBinder::contains_window(expr)) {
    throw BinderError(std::string("window functions are not allowed in ") + clause, expr.position, "42P20");
  }
}

/// A value written by UPDATE: its expression and the type of the column it goes to.
struct AssignedValue {
  const ast::Expr* expr;
  LogicalType column_type;
};

/// The query the new rows come from: over `table` (named `name`, as `alias`), every row with its old values, then
/// per value of `values` that value where `where` holds and NULL elsewhere, then whether `where` holds (TRUE or
/// FALSE, never NULL; TRUE in every row without a `where`). SELECT binds the expressions, so they may use what a
/// select list may (sub-queries included); the values and the condition are then made one projection, so that a
/// value is computed only in the rows it is written to (CASE) and its errors come only from there.
plan::LogicalPtr bind_new_rows(const SessionState& state, const catalog::Table& table,
                               const ast::QualifiedName& name, const std::optional<ast::TableAlias>& alias,
                               const std::vector<AssignedValue>& values, const ast::Expr* where,
                               SourcePosition position) {
  ast::Query query(position);
  auto select = std::make_unique<ast::Select>(position);
  auto ref = std::make_unique<ast::BaseTableRef>(name.position);
  ref->name = name;
  ref->alias = alias;
  select->from.push_back(std::move(ref));
  select->items.push_back({std::make_unique<ast::Star>(position), std::nullopt, position});
  if (where != nullptr) select->items.push_back({ast::clone(*where), std::nullopt, where->position});
  for (const auto& v : values) select->items.push_back({ast::clone(*v.expr), std::nullopt, v.expr->position});
  query.body = std::move(select);
  plan::Binder binder(state.catalog, state.type_names());
  plan::LogicalPtr bound = binder.bind_query(query);

  const size_t width = table.schema()->size();
  const size_t first_value = width + (where != nullptr ? 1 : 0);
  KESTREL_CHECK(bound->kind == plan::NodeKind::kProject);
  KESTREL_CHECK_EQ(bound->output.size(), first_value + values.size());
  const auto& project = static_cast<const plan::LogicalProject&>(*bound);
  plan::ExprPtr condition;
  plan::ExprPtr matches = plan::make_constant(Value::boolean(true));
  if (where != nullptr) {
    condition = project.exprs[width];
    if (condition->type.id() == TypeId::kNull) {
      condition = plan::Binder::cast_to(condition, TypeId::kBoolean, where->position);
    }
    if (condition->type.id() != TypeId::kBoolean) {
      throw BinderError("WHERE condition must be BOOLEAN, not " + condition->type.to_string(), where->position,
                        "42804");
    }
    // CASE takes a NULL condition as not met.
    matches = plan::make_node(plan::ExprKind::kCase, TypeId::kBoolean,
                              {condition, plan::make_constant(Value::boolean(true)),
                               plan::make_constant(Value::boolean(false))});
  }
  std::vector<plan::ExprPtr> exprs(project.exprs.begin(), project.exprs.begin() + static_cast<ptrdiff_t>(width));
  std::vector<std::string> names;
  for (size_t i = 0; i < width; ++i) names.push_back(table.schema()->field(i).name);
  for (size_t k = 0; k < values.size(); ++k) {
    plan::ExprPtr value = project.exprs[first_value + k];
    // A bare NULL takes the column's type (that cast cannot fail).
    if (value->type.id() == TypeId::kNull) value = plan::Binder::cast_to(value, values[k].column_type, std::nullopt);
    if (condition) {
      value = plan::make_node(plan::ExprKind::kCase, value->type,
                              {condition, value, plan::make_constant(Value::null(value->type))});
    }
    exprs.push_back(value);
    names.push_back("#value" + std::to_string(k));
  }
  exprs.push_back(matches);
  names.push_back("#matches");
  return plan::make_project(project.children[0], std::move(exprs), names);
}

/// Puts `batches` in place as `table`'s rows, unless another statement changed the table since `version`.
void replace_rows(catalog::MemoryTable& table, std::vector<Batch> batches, uint64_t version, const char* verb) {
  if (!table.replace(std::move(batches), version)) {
    throw InvalidInput("table '" + table.name() + "' changed while " + verb +
                           " ran; nothing was changed, run the statement again",
                       "40001");
  }
}

QueryResult status(std::string message) {
  QueryResult result;
  result.message = std::move(message);
  return result;
}

}  // namespace

QueryResult update_rows(SessionState& state, const ast::UpdateStatement& s, const std::atomic<bool>& cancel) {
  auto table = target_table(state, s.table, "UPDATE");
  const SchemaPtr schema = table->schema();
  const size_t width = schema->size();
  std::vector<int> assignment_of(width, -1);
  std::vector<AssignedValue> values;
  for (size_t k = 0; k < s.assignments.size(); ++k) {
    const ast::Assignment& a = s.assignments[k];
    auto column = schema->index_of(a.column);
    if (!column) {
      throw BinderError("column '" + a.column + "' of table '" + table->name() + "' does not exist", a.position,
                        "42703");
    }
    if (assignment_of[*column] >= 0) {
      throw BinderError("column '" + a.column + "' is assigned more than once", a.position, "42601");
    }
    check_per_row(*a.value, "UPDATE");
    assignment_of[*column] = static_cast<int>(k);
    values.push_back({a.value.get(), schema->field(*column).type});
  }
  if (s.where) check_per_row(*s.where, "WHERE");

  const uint64_t version = table->version();
  plan::LogicalPtr plan = bind_new_rows(state, *table, s.table, s.alias, values, s.where.get(), s.position);
  // Each assigned column's new value over the query's rows: the value cast to the column's type (as INSERT casts)
  // in the rows that match, the old value elsewhere. Cast here, column by column, so a failure names its column.
  const size_t matches = width + values.size();
  const plan::ExprPtr matches_ref = plan::make_column_ref(matches, TypeId::kBoolean, "#matches");
  std::vector<plan::ExprPtr> new_value(width);
  for (size_t i = 0; i < width; ++i) {
    if (assignment_of[i] < 0) continue;
    const size_t k = static_cast<size_t>(assignment_of[i]);
    const Field& field = schema->field(i);
    plan::ExprPtr value = plan::make_column_ref(width + k, plan->output[width + k].type, field.name);
    try {
      value = plan::Binder::cast_to(value, field.type, s.assignments[k].value->position);
    } catch (const BinderError& e) {
      throw BinderError("column '" + field.name + "': " + e.message(), e.position(), e.code());
    }
    new_value[i] = plan::make_node(plan::ExprKind::kCase, field.type,
                                   {matches_ref, value, plan::make_column_ref(i, field.type, field.name)});
  }

  QueryResult rows = execute_plan(state, plan, cancel);
  exec::EvalContext ctx;
  std::vector<Batch> batches;
  size_t count = 0;
  for (const Batch& b : rows.batches) {
    count += true_rows(*b.column(matches)).size();
    std::vector<ColumnPtr> columns;
    for (size_t i = 0; i < width; ++i) {
      if (!new_value[i]) {
        columns.push_back(b.column(i));
        continue;
      }
      const ast::Assignment& a = s.assignments[static_cast<size_t>(assignment_of[i])];
      try {
        columns.push_back(exec::evaluate(*new_value[i], b, ctx));
      } catch (const InvalidInput& e) {
        throw InvalidInput("column '" + schema->field(i).name + "': " + e.message(), e.code(), a.position);
      }
      if (!schema->field(i).nullable && columns.back()->null_count() > 0) {
        throw InvalidInput("NULL value in column '" + schema->field(i).name + "' violates NOT NULL", "23502",
                           a.position);
      }
    }
    batches.emplace_back(schema, std::move(columns), b.num_rows(), b.residency());
  }
  replace_rows(*table, std::move(batches), version, "UPDATE");
  return status("UPDATE " + std::to_string(count));
}

QueryResult delete_rows(SessionState& state, const ast::DeleteStatement& s, const std::atomic<bool>& cancel) {
  auto table = target_table(state, s.table, "DELETE");
  if (s.where) check_per_row(*s.where, "WHERE");
  const SchemaPtr schema = table->schema();
  const size_t width = schema->size();

  const uint64_t version = table->version();
  plan::LogicalPtr plan = bind_new_rows(state, *table, s.table, s.alias, {}, s.where.get(), s.position);
  QueryResult rows = execute_plan(state, plan, cancel);
  std::vector<Batch> batches;
  size_t count = 0;
  for (const Batch& b : rows.batches) {
    // The rows that stay: those where the condition is not TRUE (FALSE or NULL).
    RowIndices removed = true_rows(*b.column(width));
    count += removed.size();
    if (removed.size() == b.num_rows()) continue;
    Batch old(schema, std::vector<ColumnPtr>(b.columns().begin(), b.columns().begin() + static_cast<ptrdiff_t>(width)),
              b.num_rows(), b.residency());
    if (removed.empty()) {
      batches.push_back(std::move(old));
      continue;
    }
    RowIndices kept;
    kept.reserve(b.num_rows() - removed.size());
    size_t next = 0;
    for (uint32_t r = 0; r < b.num_rows(); ++r) {
      if (next < removed.size() && removed[next] == r) {
        ++next;
      } else {
        kept.push_back(r);
      }
    }
    batches.push_back(gather_batch(old, kept));
  }
  replace_rows(*table, std::move(batches), version, "DELETE");
  return status("DELETE " + std::to_string(count));
}

}  // namespace kestrel
