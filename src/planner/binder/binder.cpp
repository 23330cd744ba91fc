#include "planner/binder/binder.hpp"

#include <algorithm>
#include <chrono>
#include <set>

#include "common/time_zone.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

Scope scope_of(const LogicalNode& plan, const std::string& table) {
  Scope scope;
  for (size_t i = 0; i < plan.output.size(); ++i) {
    scope.columns.push_back({table, plan.output[i].name, plan.output[i].type, i, false});
  }
  return scope;
}

LogicalPtr make_project(LogicalPtr child, std::vector<ExprPtr> exprs, const std::vector<std::string>& names) {
  auto project = std::make_shared<LogicalProject>();
  for (size_t i = 0; i < exprs.size(); ++i) project->output.push_back({names[i], exprs[i]->type});
  project->exprs = std::move(exprs);
  project->children = {std::move(child)};
  return project;
}

namespace {

/// Live DeferredCastErrors guards of this thread.
thread_local int deferred_cast_errors = 0;
/// The zone of the innermost live SessionTimeZone guard of this thread.
thread_local int32_t session_time_zone = tz::kUtc;

}  // namespace

Binder::SessionTimeZone::SessionTimeZone(int32_t zone) : previous_(session_time_zone) { session_time_zone = zone; }
Binder::SessionTimeZone::~SessionTimeZone() { session_time_zone = previous_; }
int32_t Binder::SessionTimeZone::current() { return session_time_zone; }

Binder::DeferredCastErrors::DeferredCastErrors() { ++deferred_cast_errors; }
Binder::DeferredCastErrors::~DeferredCastErrors() { --deferred_cast_errors; }

int64_t Binder::statement_time() {
  if (!statement_time_) {
    const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    statement_time_ = static_cast<int64_t>(now.time_since_epoch().count()) * 1000;
  }
  return *statement_time_;
}

ExprPtr Binder::cast_to(ExprPtr expr, const LogicalType& target, std::optional<SourcePosition> pos) {
  if (expr->type == target) return expr;
  if (expr->kind == ExprKind::kConstant && expr->constant.is_null()) return make_constant(Value::null(target));
  // CAST(ROW(...) AS ROW(...)) and CAST(ARRAY[...] AS ARRAY(T)) cast the constructor's arguments, so that a NULL or
  // an empty array among them takes the target's field or element type.
  const bool row = expr->kind == ExprKind::kFunction && expr->function == ScalarFunction::kRowConstructor &&
                   target.id() == TypeId::kRow && target.fields().size() == expr->children.size();
  const bool array = expr->kind == ExprKind::kFunction && expr->function == ScalarFunction::kArrayConstructor &&
                     target.id() == TypeId::kArray;
  if (row || array) {
    std::vector<ExprPtr> args;
    for (size_t i = 0; i < expr->children.size(); ++i) {
      args.push_back(cast_to(expr->children[i], row ? target.child(i) : target.element_type(), pos));
    }
    auto e = std::make_shared<Expr>(*make_function(expr->function, target, std::move(args)));
    e->position = expr->position;
    return e;
  }
  if (!can_cast_explicitly(expr->type, target)) {
    const bool bytes_to_text = expr->type.id() == TypeId::kVarbinary && target.id() == TypeId::kVarchar;
    throw BinderError("cannot cast " + expr->type.to_string() + " to " + target.to_string() +
                          (bytes_to_text ? " (from_utf8 decodes UTF-8 bytes)" : ""),
                      pos, "42846");
  }
  ExprPtr cast;
  if (target.id() == TypeId::kTimestampTz && expr->type.id() != TypeId::kTimestampTz) {
    // The conversion reads the session's zone: with_timezone(x, 'zone') carries it in the plan.
    const std::string zone = tz::zone_name(SessionTimeZone::current());
    cast = make_function(ScalarFunction::kWithTimezone, target, {std::move(expr), make_constant(Value::varchar(zone))});
  } else {
    cast = make_cast(std::move(expr), target);
  }
  const_cast<Expr&>(*cast).position = pos;
  // Constant casts are folded now so literal errors (DATE 'x') are reported at bind time with their position.
  if (cast->children[0]->kind == ExprKind::kConstant) {
    try {
      return make_constant(evaluate_constant_expr(*cast));
    } catch (const InvalidInput& e) {
      if (deferred_cast_errors > 0) return cast;
      // A bad literal is still bad data (22xxx), now with the position of the cast.
      throw InvalidInput(e.message(), e.code(), e.position() ? e.position() : pos);
    }
  }
  return cast;
}

ExprPtr Binder::bind_constant(const ast::Expr& expr) {
  ExprBinder eb(*this);
  ExprBindContext ctx{nullptr, "a constant expression", nullptr};
  return eb.bind(expr, ctx);
}

LogicalPtr Binder::bind_query(const ast::Query& query, Correlation* correlation) {
  cte_scopes_.emplace_back();
  for (const auto& cte : query.ctes) {
    auto plan = bind_query(*cte.query);
    if (!cte.columns.empty()) {
      if (cte.columns.size() > plan->output.size()) {
        throw BinderError("WITH query '" + cte.name + "' has " + std::to_string(plan->output.size()) +
                              " columns but " + std::to_string(cte.columns.size()) + " names",
                          cte.position, "42P10");
      }
      for (size_t i = 0; i < cte.columns.size(); ++i) plan->output[i].name = cte.columns[i];
    }
    cte_scopes_.back()[cte.name] = Cte{&cte, plan};
  }
  std::vector<std::string> names;
  LogicalPtr plan;
  if (query.body->is<ast::Select>()) {
    plan = bind_select(query.body->as<ast::Select>(), &query, &names, correlation);
  } else {
    plan = bind_body(*query.body, &names, correlation);
    if (correlation != nullptr && (correlation->set_operation || correlation->domain) &&
        (query.limit || query.offset || !query.order_by.empty())) {
      throw NotImplemented("correlated sub-queries with DISTINCT, ORDER BY or LIMIT are not supported yet",
                           query.position);
    }
    plan = apply_order_limit(plan, query, names);
  }
  cte_scopes_.pop_back();
  return plan;
}

LogicalPtr Binder::bind_body(const ast::QueryBody& body, std::vector<std::string>* names,
                             Correlation* correlation) {
  LogicalPtr plan;
  switch (body.kind) {
    case ast::QueryBodyKind::kSelect: plan = bind_select(body.as<ast::Select>(), nullptr, names, correlation); break;
    case ast::QueryBodyKind::kValues:
      if (correlation != nullptr && correlation->domain) {
        throw NotImplemented("VALUES in a set operation of a correlated sub-query", body.position);
      }
      plan = bind_values(body.as<ast::Values>());
      break;
    case ast::QueryBodyKind::kSetOperation:
      plan = bind_set_operation(body.as<ast::SetOperation>(), correlation);
      break;
    case ast::QueryBodyKind::kParenthesized:
      plan = bind_query(*body.as<ast::ParenthesizedQuery>().query, correlation);
      break;
  }
  names->clear();
  for (const auto& f : plan->output) names->push_back(f.name);
  return plan;
}

LogicalPtr Binder::bind_values(const ast::Values& values) {
  ExprBinder eb(*this);
  ExprBindContext ctx{nullptr, "VALUES", nullptr};
  auto node = std::make_shared<LogicalValues>();
  size_t width = values.rows.empty() ? 0 : values.rows[0].size();
  std::vector<std::vector<ExprPtr>> rows;
  std::vector<std::vector<LogicalType>> column_types(width);
  for (const auto& row : values.rows) {
    std::vector<ExprPtr> bound;
    for (size_t c = 0; c < row.size(); ++c) {
      bound.push_back(eb.bind(*row[c], ctx));
      column_types[c].push_back(bound.back()->type);
    }
    rows.push_back(std::move(bound));
  }
  for (size_t c = 0; c < width; ++c) {
    auto common = common_super_type(column_types[c]);
    if (!common) throw BinderError("VALUES column " + std::to_string(c + 1) + " has mixed types", values.position);
    // A column of only NULLs stays untyped, like SELECT NULL: INSERT or a set operation gives it its type.
    const LogicalType type = *common;
    for (auto& row : rows) row[c] = cast_to(row[c], type, values.position);
    node->output.push_back({"col" + std::to_string(c), type});
  }
  node->rows = std::move(rows);
  return node;
}

LogicalPtr Binder::bind_set_operation(const ast::SetOperation& op, Correlation* correlation) {
  std::vector<std::string> left_names, right_names;
  // In a sub-query each branch is bound with its own correlation. Found correlated, the sub-query is bound again
  // in domain form (every branch then reads the outer values from the same cross-joined domain and outputs them
  // as its last columns, so the set operation works per outer value).
  Correlation left_corr, right_corr;
  if (correlation != nullptr) {
    left_corr.outer = right_corr.outer = correlation->outer;
    left_corr.domain = right_corr.domain = correlation->domain;
    left_corr.domain_index = right_corr.domain_index = correlation->domain_index;
    left_corr.nested = right_corr.nested = true;
  }
  Correlation* lc = correlation != nullptr ? &left_corr : nullptr;
  Correlation* rc = correlation != nullptr ? &right_corr : nullptr;
  // In domain form a branch that reads no outer column is bound as it is, then cross-joined with the domain (its
  // rows hold for every outer value; an aggregate without GROUP BY keeps its one row).
  auto bind_branch = [&](const ast::QueryBody& body, std::vector<std::string>* names, Correlation* c) {
    if (c == nullptr || !c->domain) return bind_body(body, names, c);
    Correlation probe{c->outer, {}};
    bind_body(body, names, &probe);
    if (!probe.conjuncts.empty() || !probe.discovered.empty()) return bind_body(body, names, c);
    LogicalPtr plain = make_cross_join(bind_body(body, names, nullptr), c->domain);
    for (size_t d = names->size(); d < plain->output.size(); ++d) names->push_back("#corr" + std::to_string(d));
    return plain;
  };
  LogicalPtr left = bind_branch(*op.left, &left_names, lc);
  LogicalPtr right = bind_branch(*op.right, &right_names, rc);
  if (correlation != nullptr && !correlation->domain) {
    const bool correlated = !left_corr.conjuncts.empty() || !right_corr.conjuncts.empty() ||
                            !left_corr.discovered.empty() || !right_corr.discovered.empty();
    if (correlated) {
      // First binding: report the outer columns the branches read and ask for the domain form; the plan returned
      // here is not used.
      correlation->set_operation = true;
      for (auto* c : {&left_corr, &right_corr}) {
        for (const auto* list : {&c->conjuncts, &c->discovered}) {
          correlation->discovered.insert(correlation->discovered.end(), list->begin(), list->end());
        }
      }
      return left;
    }
  }
  if (left->output.size() != right->output.size()) {
    throw BinderError(std::string("each ") + ast::set_operator_name(op.op) + " query must have the same number of "
                      "columns (" + std::to_string(left->output.size()) + " vs " +
                      std::to_string(right->output.size()) + ")", op.operator_position, "42601");
  }
  std::vector<ExprPtr> left_exprs, right_exprs;
  bool cast_left = false, cast_right = false;
  auto node = std::make_shared<LogicalSetOp>();
  for (size_t i = 0; i < left->output.size(); ++i) {
    const auto& lt = left->output[i].type;
    const auto& rt = right->output[i].type;
    auto common = common_super_type(lt, rt);
    if (!common) {
      throw BinderError(std::string(ast::set_operator_name(op.op)) + " types " + lt.to_string() + " and " +
                        rt.to_string() + " cannot be matched", op.operator_position, "42804");
    }
    // NULL on both sides stays untyped, so that a further set operation (NULL UNION NULL UNION 1.5) or the
    // consumer decides its type.
    const LogicalType type = *common;
    left_exprs.push_back(cast_to(make_column_ref(i, lt, left->output[i].name), type, op.operator_position));
    right_exprs.push_back(cast_to(make_column_ref(i, rt, right->output[i].name), type, op.operator_position));
    cast_left |= !(lt == type);
    cast_right |= !(rt == type);
    node->output.push_back({i < left_names.size() ? left_names[i] : left->output[i].name, type});
  }
  if (cast_left) left = make_project(left, left_exprs, left_names);
  if (cast_right) right = make_project(right, right_exprs, right_names);
  node->op = op.op == ast::SetOperator::kUnion       ? SetOpKind::kUnion
             : op.op == ast::SetOperator::kIntersect ? SetOpKind::kIntersect
                                                     : SetOpKind::kExcept;
  node->all = op.all;
  node->children = {left, right};
  return node;
}

}  // namespace kestrel::plan
