#include <functional>
#include <set>

#include "planner/binder/expr_binder.hpp"
#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

/// `e` with every constant sub-expression replaced by its value. An expression whose evaluation fails (1 / 0) stays
/// as it is, so the error is raised only if a row actually evaluates it; so does a function that is not
/// deterministic (random()).
ExprPtr fold(const ExprPtr& e) {
  if (e->kind == ExprKind::kConstant || e->kind == ExprKind::kColumnRef || e->kind == ExprKind::kSubquery ||
      e->kind == ExprKind::kLambdaParam) {
    return e;
  }
  auto copy = std::make_shared<Expr>(*e);
  bool all_constant = true;
  for (auto& c : copy->children) {
    c = fold(c);
    all_constant &= c->kind == ExprKind::kConstant;
  }
  // random() has no arguments but a new value on every row.
  if (!all_constant || (copy->kind == ExprKind::kFunction && !is_deterministic(copy->function))) return copy;
  // A lambda stays a lambda even when its body is constant (its function evaluates it per element).
  if (copy->kind == ExprKind::kLambda) return copy;
  try {
    Value v = evaluate_constant_expr(*copy);
    return make_constant(v.is_null() ? Value::null(copy->type) : v);
  } catch (const Error&) {
    return copy;
  }
}

}  // namespace

void fold_constants(LogicalNode& plan) {
  std::set<const LogicalNode*> seen;
  std::function<void(LogicalNode&)> visit = [&](LogicalNode& n) {
    if (!seen.insert(&n).second) return;
    for_each_expression(n, [](ExprPtr& e) { e = fold(e); });
    for (auto& c : n.children) visit(*c);
  };
  visit(plan);
}

}  // namespace kestrel::plan
