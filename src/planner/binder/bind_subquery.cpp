#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "common/check.hpp"
#include "planner/binder/binder.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/expression_utils.hpp"

namespace kestrel::plan {

namespace {

/// `expr` over [outer ++ sub-query output] with outer references (depth 1) at their outer index and the
/// sub-query's own columns shifted past the left plan's `left_width` columns.
ExprPtr to_join_columns(const ExprPtr& expr, size_t left_width) {
  if (expr->kind == ExprKind::kColumnRef) {
    auto copy = std::make_shared<Expr>(*expr);
    if (expr->outer_depth > 0) {
      copy->outer_depth = 0;
    } else {
      copy->column_index = expr->column_index + left_width;
    }
    return copy;
  }
  if (expr->children.empty()) return expr;
  auto copy = std::make_shared<Expr>(*expr);
  for (auto& c : copy->children) c = to_join_columns(c, left_width);
  return copy;
}

/// A value of `type` to stand in for NULL in a join key (any value does), or none for types without one here.
std::optional<Value> filler_value(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(false);
    case TypeId::kTinyInt: return Value::tinyint(0);
    case TypeId::kSmallInt: return Value::smallint(0);
    case TypeId::kInteger: return Value::integer(0);
    case TypeId::kBigInt: return Value::bigint(0);
    case TypeId::kReal: return Value::real(0);
    case TypeId::kDouble: return Value::double_value(0);
    case TypeId::kDecimal: return Value::decimal(0, type.precision(), type.scale());
    case TypeId::kDate: return Value::date(0);
    case TypeId::kTimestamp: return Value::timestamp(0);
    case TypeId::kVarchar: return Value::varchar("");
    default: return std::nullopt;
  }
}

/// A null-aware join (IN, NOT IN, ANY, ALL) reads an unknown condition as "unknown whether it matches", which is
/// right for the comparison but not for a correlated conjunct: a NULL there means the row is not in the sub-query
/// at all. Such a correlated sub-query takes the domain form instead, where the correlated conjuncts filter inside
/// the sub-query and the join back is on NULL-safe keys that are never unknown (also when the domain form is needed
/// anyway, as for outer columns read in a derived table: plain keys would be NULL for an outer row with a NULL there).
void force_domain_if_null_aware(Correlation& c, bool null_aware) {
  if (!null_aware) return;
  c.null_safe_keys = true;
  if (c.conjuncts.empty() || !c.discovered.empty()) return;
  c.set_operation = true;
  c.discovered = c.conjuncts;
}

/// Whether one of a sub-query's correlated `conjuncts` cannot hold when outer column `o` is NULL: a comparison that
/// reads it directly (or through casts). The sub-query then has no rows for a NULL there.
bool rejects_null_outer(const std::vector<ExprPtr>& conjuncts, size_t o) {
  auto reads_o = [o](const ExprPtr& e) {
    const Expr* x = e.get();
    while (x->kind == ExprKind::kCast) x = x->children[0].get();
    return x->kind == ExprKind::kColumnRef && x->outer_depth > 0 && x->column_index == o;
  };
  for (const ExprPtr& c : conjuncts) {
    if (c->kind != ExprKind::kFunction) continue;
    switch (c->function) {
      case ScalarFunction::kEqual:
      case ScalarFunction::kNotEqual:
      case ScalarFunction::kLess:
      case ScalarFunction::kLessEqual:
      case ScalarFunction::kGreater:
      case ScalarFunction::kGreaterEqual:
        if (std::any_of(c->children.begin(), c->children.end(), reads_o)) return true;
        break;
      default: break;
    }
  }
  return false;
}

bool has_outer_reference(const Expr& e) {
  if (e.kind == ExprKind::kColumnRef) return e.outer_depth > 0;
  for (const auto& c : e.children) {
    if (has_outer_reference(*c)) return true;
  }
  return false;
}

/// Output columns of a sub-query that the user wrote (not the correlation columns the binder added).
size_t visible_columns(const LogicalNode& sub) {
  size_t n = 0;
  for (const auto& f : sub.output) n += f.name.rfind("#corr", 0) == 0 ? 0 : 1;
  return n;
}

void require_one_column(const LogicalNode& sub, SourcePosition pos) {
  if (visible_columns(sub) != 1) throw BinderError("sub-query must return only one column", pos, "42601");
}

const ast::Query& subquery_of(const ast::Expr& e) {
  if (e.is<ast::ScalarSubquery>()) return *e.as<ast::ScalarSubquery>().query;
  if (e.is<ast::Exists>()) return *e.as<ast::Exists>().query;
  if (e.is<ast::QuantifiedComparison>()) return *e.as<ast::QuantifiedComparison>().query;
  return *e.as<ast::InSubquery>().query;
}

/// The comparison and, for ALL, its complement: `x op ALL (S)` is `NOT (x complement(op) ANY (S))`, which keeps
/// SQL's three-valued result (FALSE if some pair fails, NULL if none fails but some is unknown, TRUE otherwise).
ScalarFunction quantified_function(ast::BinaryOperator op, bool all) {
  switch (op) {
    case ast::BinaryOperator::kEqual: return all ? ScalarFunction::kNotEqual : ScalarFunction::kEqual;
    case ast::BinaryOperator::kNotEqual: return all ? ScalarFunction::kEqual : ScalarFunction::kNotEqual;
    case ast::BinaryOperator::kLess: return all ? ScalarFunction::kGreaterEqual : ScalarFunction::kLess;
    case ast::BinaryOperator::kLessEqual: return all ? ScalarFunction::kGreater : ScalarFunction::kLessEqual;
    case ast::BinaryOperator::kGreater: return all ? ScalarFunction::kLessEqual : ScalarFunction::kGreater;
    case ast::BinaryOperator::kGreaterEqual: return all ? ScalarFunction::kLess : ScalarFunction::kGreaterEqual;
    default: break;
  }
  throw InternalError("not a comparison operator in ANY/ALL");
}

}  // namespace

LogicalPtr Binder::make_subquery_join(LogicalPtr left, LogicalPtr right, JoinType type, ExprPtr condition,
                                      const Correlation& correlation, bool null_aware) {
  auto join = std::make_shared<LogicalJoin>();
  join->join_type = type;
  join->null_aware = null_aware;
  std::vector<ExprPtr> conjuncts;
  if (condition) conjuncts.push_back(condition);
  for (const auto& c : correlation.conjuncts) conjuncts.push_back(to_join_columns(c, left->output.size()));
  join->condition = make_conjunction(conjuncts);
  join->output = left->output;
  if (type == JoinType::kMark) {
    join->output.push_back({"#mark", TypeId::kBoolean});
  } else if (type != JoinType::kSemi && type != JoinType::kAnti) {
    join->output.insert(join->output.end(), right->output.begin(), right->output.end());
  }
  join->children = {std::move(left), std::move(right)};
  return join;
}

namespace {

/// Whether `q` gives exactly one row whatever its input: one SELECT that aggregates, without GROUP BY, HAVING,
/// window calls, LIMIT or OFFSET.
bool gives_one_row(const ast::Query& q) {
  if (q.limit || q.offset || !q.body || q.body->kind != ast::QueryBodyKind::kSelect) return false;
  const auto& select = static_cast<const ast::Select&>(*q.body);
  if (!select.group_by.empty() || !select.grouping_sets.empty() || select.having) return false;
  bool aggregates = false;
  for (const auto& item : select.items) {
    if (ExprBinder::contains_window(*item.expr)) return false;
    aggregates = aggregates || ExprBinder::contains_aggregate(*item.expr);
  }
  return aggregates;
}

}  // namespace

ExprPtr ExprBinder::bind_subquery(const ast::Expr& expr, const ExprBindContext& ctx) {
  Correlation correlation{ctx.scope, {}};
  LogicalPtr sub = binder_.bind_query(subquery_of(expr), &correlation);
  bool correlated = !correlation.conjuncts.empty() || !correlation.discovered.empty();
  if ((expr.is<ast::InSubquery>() || expr.is<ast::QuantifiedComparison>()) && gives_one_row(subquery_of(expr))) {
    // A list of exactly one value v: `x IN (S)` is `x = v`, `x NOT IN (S)` is `x <> v` and `x op ANY|ALL (S)` is
    // `x op v`, NULL when either is (an aggregate over no rows gives its one row too: max() NULL, count() 0).
    const bool in = expr.is<ast::InSubquery>();
    const ast::Expr& left = in ? *expr.as<ast::InSubquery>().operand : *expr.as<ast::QuantifiedComparison>().left;
    const SourcePosition at =
        in ? expr.as<ast::InSubquery>().operator_position : expr.as<ast::QuantifiedComparison>().operator_position;
    require_one_column(*sub, at);
    ExprPtr value = bind_scalar_subquery(expr, ctx, sub, correlation, correlated);
    ExprPtr operand = bind(left, ExprBindContext{ctx.scope, ctx.clause, nullptr, ctx.outer, nullptr});
    unify_for_comparison(operand, value, at, &left, nullptr);
    const ScalarFunction compare = in ? (expr.as<ast::InSubquery>().negated ? ScalarFunction::kNotEqual
                                                                             : ScalarFunction::kEqual)
                                      : quantified_function(expr.as<ast::QuantifiedComparison>().op, false);
    return make_function(compare, TypeId::kBoolean, {operand, value});
  }
  if (expr.is<ast::ScalarSubquery>()) {
    require_one_column(*sub, expr.position);
    return bind_scalar_subquery(expr, ctx, sub, correlation, correlated);
  }
  return bind_list_subquery(expr, ctx, sub, correlation);
}

ExprPtr ExprBinder::bind_scalar_subquery(const ast::Expr& expr, const ExprBindContext& ctx, const LogicalPtr& sub,
                                         const Correlation& correlation, bool correlated) {
  if (!correlated) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kSubquery;
    e->type = sub->output[0].type;
    e->subquery = sub;
    e->position = expr.position;
    return e;
  }
  if (ctx.host == nullptr) {
    throw NotImplemented("correlated sub-queries are supported only in WHERE and in the select list of queries "
                         "without GROUP BY", expr.position);
  }
  size_t width = (*ctx.host)->output.size();
  if (!needs_domain(correlation)) {
    *ctx.host = Binder::make_subquery_join(*ctx.host, sub, JoinType::kSingle, nullptr, correlation, false);
    return make_column_ref(width, sub->output[0].type, "#subquery");
  }
  return bind_aggregating_subquery(expr, ctx, correlation);
}

ExprPtr ExprBinder::bind_list_subquery(const ast::Expr& expr, const ExprBindContext& ctx, LogicalPtr sub,
                                       Correlation correlation) {
  if (ctx.host == nullptr) {
    throw NotImplemented("EXISTS and IN sub-queries are supported only in WHERE and in the select list of queries "
                         "without GROUP BY", expr.position);
  }
  size_t width = (*ctx.host)->output.size();
  std::vector<ExprPtr> domain_keys;
  force_domain_if_null_aware(correlation, expr.is<ast::InSubquery>() || expr.is<ast::QuantifiedComparison>());
  correlation.fill_empty_groups = true;
  if (needs_domain(correlation)) {
    // Aggregating or a set operation: bound again over a domain of the outer values, joined back on it.
    DomainSubquery d = binder_.bind_in_domain(subquery_of(expr), correlation, *ctx.host);
    sub = d.plan;
    domain_keys = std::move(d.keys);
    correlation = Correlation{};
  }
  ExprPtr condition;
  bool negated = false;
  if (expr.is<ast::QuantifiedComparison>()) {
    const auto& q = expr.as<ast::QuantifiedComparison>();
    require_one_column(*sub, q.operator_position);
    bool all = q.quantifier == ast::Quantifier::kAll;
    negated = all;
    ExprPtr operand = bind(*q.left, ExprBindContext{ctx.scope, ctx.clause, nullptr, ctx.outer, nullptr});
    ExprPtr value = make_column_ref(width, sub->output[0].type, sub->output[0].name);
    unify_for_comparison(operand, value, q.operator_position, q.left.get(), nullptr);
    condition = make_function(quantified_function(q.op, all), TypeId::kBoolean, {operand, value});
  } else if (expr.is<ast::InSubquery>()) {
    const auto& in = expr.as<ast::InSubquery>();
    require_one_column(*sub, in.operator_position);
    negated = in.negated;
    ExprPtr operand = bind(*in.operand, ExprBindContext{ctx.scope, ctx.clause, nullptr, ctx.outer, nullptr});
    ExprPtr value = make_column_ref(width, sub->output[0].type, sub->output[0].name);
    unify_for_comparison(operand, value, in.operator_position, in.operand.get(), nullptr);
    condition = make_function(ScalarFunction::kEqual, TypeId::kBoolean, {operand, value});
  }
  if (!domain_keys.empty()) {
    if (condition) domain_keys.insert(domain_keys.begin(), condition);
    condition = make_conjunction(domain_keys);
  }
  *ctx.host = Binder::make_subquery_join(*ctx.host, sub, JoinType::kMark, condition, correlation,
                                         expr.is<ast::InSubquery>() || expr.is<ast::QuantifiedComparison>());
  ExprPtr mark = make_column_ref(width, TypeId::kBoolean, "#mark");
  return negated ? make_node(ExprKind::kNot, TypeId::kBoolean, {mark}) : mark;
}

namespace {

/// The value of an aggregating scalar sub-query (bound in domain form, `sub`) for an outer row whose group is
/// empty: its select expression with each aggregate's value over no rows (count() 0, most others NULL), its domain
/// columns read from the host's outer columns `outer` (in domain order). Null when the sub-query is not a plain
/// aggregation over exactly the domain: with its own GROUP BY an empty group has no row, and NULL is right; with
/// HAVING bind_select gave the empty groups their rows already (fill_empty_groups), as the join back cannot tell
/// an empty group from one that HAVING removed.
ExprPtr empty_group_value(const LogicalNode& sub, const std::vector<size_t>& outer, const LogicalNode& host) {
  if (sub.kind != NodeKind::kProject || sub.children.size() != 1) return nullptr;
  const auto& project = static_cast<const LogicalProject&>(sub);
  if (project.children[0]->kind != NodeKind::kAggregate || project.exprs.size() != outer.size() + 1) return nullptr;
  const auto& agg = static_cast<const LogicalAggregate&>(*project.children[0]);
  if (agg.groups.size() != outer.size()) return nullptr;
  std::map<size_t, size_t> host_column_of_group;
  for (size_t k = 0; k < outer.size(); ++k) {
    const Expr& e = *project.exprs[1 + k];
    if (e.kind != ExprKind::kColumnRef || e.outer_depth != 0 || e.column_index >= agg.groups.size()) return nullptr;
    host_column_of_group[e.column_index] = outer[k];
  }
  bool ok = true;
  std::function<ExprPtr(const ExprPtr&)> rewrite = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kSubquery) ok = false;
    if (e->kind == ExprKind::kColumnRef) {
      if (e->outer_depth != 0) {
        ok = false;
        return e;
      }
      if (e->column_index < agg.groups.size()) {
        auto it = host_column_of_group.find(e->column_index);
        if (it == host_column_of_group.end()) {
          ok = false;
          return e;
        }
        return make_column_ref(it->second, host.output[it->second].type, host.output[it->second].name);
      }
      return make_constant(empty_aggregate_value(agg.aggregates.at(e->column_index - agg.groups.size())));
    }
    if (e->children.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& child : copy->children) child = rewrite(child);
    return copy;
  };
  ExprPtr value = rewrite(project.exprs[0]);
  if (!ok) return nullptr;
  // A value that is NULL anyway (sum, avg, min, max, and expressions of them) needs no rewrite: the unmatched row's
  // NULL is right already, and the plan stays as it was.
  if (referenced_columns(*value).empty()) {
    try {
      if (evaluate_constant_expr(*value).is_null()) return nullptr;
    } catch (const Error&) {
      // An error (1 / count(*)) is raised for the rows that reach it, as in PostgreSQL.
    }
  }
  return value;
}

}  // namespace

Value empty_aggregate_value(const AggregateCall& call) {
  switch (call.function) {
    case AggregateFunction::kCount:
    case AggregateFunction::kCountStar: return Value::bigint(0);
    case AggregateFunction::kEntropy: return Value::double_value(0);
    default: return Value::null(call.result_type);
  }
}

LogicalPtr fill_empty_groups(const LogicalPtr& aggregation, const LogicalPtr& domain, size_t domain_start) {
  const auto& agg = static_cast<const LogicalAggregate&>(*aggregation);
  const size_t width = domain->output.size();
  std::vector<ExprPtr> keys;
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t g = 0; g < agg.groups.size(); ++g) {
    const Expr& group = *agg.groups[g];
    KESTREL_CHECK(group.kind == ExprKind::kColumnRef && group.outer_depth == 0);
    KESTREL_CHECK_GE(group.column_index, domain_start);
    KESTREL_CHECK_LT(group.column_index - domain_start, width);
    const size_t d = group.column_index - domain_start;
    ExprPtr value = make_column_ref(d, domain->output[d].type, domain->output[d].name);
    null_safe_equalities(value, make_column_ref(width + g, group.type, group.name), keys);
    exprs.push_back(value);
    names.push_back(agg.output[g].name);
  }
  auto join = std::make_shared<LogicalJoin>();
  join->join_type = JoinType::kLeft;
  join->condition = make_conjunction(keys);
  join->output = domain->output;
  join->output.insert(join->output.end(), agg.output.begin(), agg.output.end());
  join->children = {domain, aggregation};
  for (size_t j = 0; j < agg.aggregates.size(); ++j) {
    const AggregateCall& call = agg.aggregates[j];
    ExprPtr value = make_column_ref(width + agg.groups.size() + j, call.result_type, call.to_string());
    // Only a missing group reads NULL from an aggregate that is never NULL over rows (count()).
    const Value empty = empty_aggregate_value(call);
    if (!empty.is_null()) {
      value = make_function(ScalarFunction::kCoalesce, call.result_type, {value, make_constant(empty)});
    }
    exprs.push_back(value);
    names.push_back(agg.output[agg.groups.size() + j].name);
  }
  return make_project(join, exprs, names);
}

DomainSubquery Binder::bind_in_domain(const ast::Query& query, const Correlation& first, const LogicalPtr& host) {
  // The outer columns the sub-query reads, as a domain of distinct values computed from the host plan.
  std::set<size_t> outer_columns;
  for (const auto* list : {&first.conjuncts, &first.discovered}) {
    for (const auto& c : *list) {
      std::function<void(const Expr&)> visit = [&](const Expr& e) {
        if (e.kind == ExprKind::kColumnRef && e.outer_depth > 0) outer_columns.insert(e.column_index);
        for (const auto& child : e.children) visit(*child);
      };
      visit(*c);
    }
  }
  auto domain = std::make_shared<LogicalAggregate>();
  Correlation second{first.outer, {}};
  second.fill_empty_groups = first.fill_empty_groups;
  for (size_t o : outer_columns) {
    second.domain_index[o] = domain->groups.size();
    domain->groups.push_back(make_column_ref(o, host->output[o].type, host->output[o].name));
    domain->output.push_back(host->output[o]);
  }
  domain->children = {host};
  second.domain = domain;
  DomainSubquery out;
  out.plan = bind_query(query, &second);
  out.outer_columns.assign(outer_columns.begin(), outer_columns.end());
  // Join back on the domain columns, which follow the sub-query's visible columns. Where the sub-query may have rows
  // for a NULL outer value, NULL matches NULL: a set operation's branch that reads no outer column, a select list
  // or HAVING that reads it, filled-in empty groups, correlated conjuncts that hold for NULL (IS NOT DISTINCT FROM).
  const size_t width = host->output.size();
  const size_t first_domain = visible_columns(*out.plan);
  size_t k = 0;
  for (size_t o : outer_columns) {
    const size_t sub_column = first_domain + k++;
    ExprPtr a = make_column_ref(o, host->output[o].type, host->output[o].name);
    ExprPtr b = make_column_ref(width + sub_column, out.plan->output[sub_column].type, "");
    if (!first.set_operation && !first.null_safe_keys && !second.filled_empty_groups &&
        rejects_null_outer(first.conjuncts, o)) {
      out.keys.push_back(make_function(ScalarFunction::kEqual, TypeId::kBoolean, {a, b}));
      continue;
    }
    null_safe_equalities(a, b, out.keys);
    out.null_safe = true;
  }
  return out;
}

void null_safe_equalities(const ExprPtr& a, const ExprPtr& b, std::vector<ExprPtr>& out) {
  const std::optional<Value> z = filler_value(a->type);
  if (!z || !(a->type == b->type)) {
    out.push_back(make_function(ScalarFunction::kIsNotDistinctFrom, TypeId::kBoolean, {a, b}));
    return;
  }
  auto is_null = [](const ExprPtr& e) { return make_node(ExprKind::kIsNull, TypeId::kBoolean, {e}); };
  auto filled = [&](const ExprPtr& e) { return make_function(ScalarFunction::kCoalesce, e->type, {e, make_constant(*z)}); };
  out.push_back(make_function(ScalarFunction::kEqual, TypeId::kBoolean, {is_null(a), is_null(b)}));
  out.push_back(make_function(ScalarFunction::kEqual, TypeId::kBoolean, {filled(a), filled(b)}));
}

ExprPtr ExprBinder::bind_aggregating_subquery(const ast::Expr& expr, const ExprBindContext& ctx,
                                              const Correlation& first) {
  LogicalPtr host = *ctx.host;
  const size_t width = host->output.size();
  DomainSubquery d = binder_.bind_in_domain(subquery_of(expr), first, host);
  LogicalPtr sub = d.plan;
  ExprPtr empty = first.set_operation ? nullptr : empty_group_value(*sub, d.outer_columns, *host);
  // Whether an outer row found its group: the first domain column is not NULL; with NULL-safe keys (a NULL outer
  // value may have a group) a column added for it that is never NULL.
  size_t matched = 1;
  if (empty != nullptr && d.null_safe) {
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    for (size_t i = 0; i < sub->output.size(); ++i) {
      exprs.push_back(make_column_ref(i, sub->output[i].type, sub->output[i].name));
      names.push_back(sub->output[i].name);
    }
    matched = exprs.size();
    exprs.push_back(make_constant(Value::boolean(true)));
    names.push_back("#corr_matched");
    sub = make_project(sub, exprs, names);
  }
  // Every domain value has exactly one group, so at most one match.
  *ctx.host = Binder::make_subquery_join(host, sub, JoinType::kSingle, make_conjunction(d.keys), Correlation{}, false);
  ExprPtr value = make_column_ref(width, sub->output[0].type, "#subquery");
  if (empty != nullptr) {
    // An outer row without a group (no match: the joined column is NULL) takes the empty group's value.
    ExprPtr unmatched = make_node(ExprKind::kIsNull, TypeId::kBoolean,
                                  {make_column_ref(width + matched, sub->output[matched].type, "")});
    value = make_node(ExprKind::kCase, value->type, {unmatched, Binder::cast_to(empty, value->type, std::nullopt), value});
  }
  return value;
}

LogicalPtr Binder::bind_where(const ast::Expr& where, LogicalPtr plan, const Scope& scope, Correlation* correlation) {
  ExprBinder eb(*this);
  std::vector<const ast::Expr*> conjuncts;
  if (where.is<ast::Conjunction>() && where.as<ast::Conjunction>().conjunction == ast::ConjunctionKind::kAnd) {
    for (const auto& op : where.as<ast::Conjunction>().operands) conjuncts.push_back(op.get());
  } else {
    conjuncts.push_back(&where);
  }
  // Conjuncts without sub-queries first: they filter the plan that sub-queries then join to (and that a domain of
  // correlated values is computed from).
  auto has_subquery = [](const ast::Expr& e) {
    bool found = false;
    std::function<void(const ast::Expr&)> visit = [&](const ast::Expr& x) {
      if (x.is<ast::ScalarSubquery>() || x.is<ast::Exists>() || x.is<ast::InSubquery>() ||
          x.is<ast::QuantifiedComparison>()) {
        found = true;
      }
      if (!found) ast::for_each_child(x, visit);
    };
    visit(e);
    return found;
  };
  std::stable_partition(conjuncts.begin(), conjuncts.end(), [&](const ast::Expr* c) { return !has_subquery(*c); });
  std::vector<ExprPtr> filters;
  const Scope* outer = correlation != nullptr ? correlation->outer : nullptr;
  auto flush_filters = [&] {
    if (filters.empty()) return;
    auto filter = std::make_shared<LogicalFilter>();
    filter->predicate = make_conjunction(filters);
    filter->output = plan->output;
    filter->children = {plan};
    plan = filter;
    filters.clear();
  };
  for (const ast::Expr* c : conjuncts) {
    if (has_subquery(*c)) flush_filters();
    // EXISTS / NOT EXISTS / [NOT] IN (sub-query) at the top of WHERE become semi and anti joins.
    const ast::Expr* inner = c;
    bool negated = false;
    if (c->is<ast::UnaryOp>() && c->as<ast::UnaryOp>().op == ast::UnaryOperator::kNot &&
        c->as<ast::UnaryOp>().operand->is<ast::Exists>()) {
      inner = c->as<ast::UnaryOp>().operand.get();
      negated = true;
    }
    // An IN over a sub-query of exactly one row is a comparison with its value (bound with the other filters).
    if (inner->is<ast::Exists>() || (inner->is<ast::InSubquery>() && !gives_one_row(subquery_of(*inner)))) {
      Correlation sub_corr{&scope, {}};
      LogicalPtr sub = bind_query(subquery_of(*inner), &sub_corr);
      std::vector<ExprPtr> domain_keys;
      force_domain_if_null_aware(sub_corr, inner->is<ast::InSubquery>() && inner->as<ast::InSubquery>().negated);
      sub_corr.fill_empty_groups = true;
      if (needs_domain(sub_corr)) {
        // Aggregating or a set operation: bound again over a domain of the outer values, joined back on it.
        DomainSubquery d = bind_in_domain(subquery_of(*inner), sub_corr, plan);
        sub = d.plan;
        domain_keys = std::move(d.keys);
        sub_corr = Correlation{};
      }
      ExprPtr condition;
      bool null_aware = false;
      if (inner->is<ast::InSubquery>()) {
        const auto& in = inner->as<ast::InSubquery>();
        require_one_column(*sub, in.operator_position);
        negated = in.negated;
        null_aware = in.negated;
        ExprPtr operand = eb.bind(*in.operand, ExprBindContext{&scope, "WHERE", nullptr, outer, nullptr});
        if (has_outer_reference(*operand)) {
          throw NotImplemented("an IN operand that reads the enclosing query", in.operand->position);
        }
        ExprPtr value = make_column_ref(plan->output.size(), sub->output[0].type, sub->output[0].name);
        eb.unify_for_comparison(operand, value, in.operator_position, in.operand.get(), nullptr);
        condition = make_function(ScalarFunction::kEqual, TypeId::kBoolean, {operand, value});
      }
      if (!domain_keys.empty()) {
        if (condition) domain_keys.insert(domain_keys.begin(), condition);
        condition = make_conjunction(domain_keys);
      }
      plan = make_subquery_join(plan, sub, negated ? JoinType::kAnti : JoinType::kSemi, condition, sub_corr,
                                null_aware);
      continue;
    }
    ExprPtr bound = eb.bind_predicate(
        *c, ExprBindContext{&scope, "WHERE", nullptr, outer, &plan,
                            correlation != nullptr ? &correlation->outer_to_local : nullptr});
    for (auto& part : split_conjuncts(bound)) {
      if (correlation != nullptr && has_outer_reference(*part)) {
        correlation->conjuncts.push_back(part);  // rewritten by bind_select to the sub-query's output columns
      } else {
        filters.push_back(part);
      }
    }
  }
  flush_filters();
  return plan;
}

}  // namespace kestrel::plan
