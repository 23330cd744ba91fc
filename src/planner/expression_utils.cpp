#include "planner/expression_utils.hpp"

namespace kestrel::plan {

std::set<size_t> referenced_columns(const Expr& expr) {
  std::set<size_t> out;
  std::function<void(const Expr&)> visit = [&](const Expr& e) {
    if (e.kind == ExprKind::kColumnRef) out.insert(e.column_index);
    for (const auto& c : e.children) visit(*c);
  };
  visit(expr);
  return out;
}

ExprPtr remap_columns(const ExprPtr& expr, const std::function<size_t(size_t)>& map) {
  if (expr->kind == ExprKind::kColumnRef) {
    auto copy = std::make_shared<Expr>(*expr);
    copy->column_index = map(expr->column_index);
    return copy;
  }
  if (expr->children.empty()) return expr;
  auto copy = std::make_shared<Expr>(*expr);
  for (auto& c : copy->children) c = remap_columns(c, map);
  return copy;
}

ExprPtr substitute_columns(const ExprPtr& expr, const std::vector<ExprPtr>& replacements) {
  if (expr->kind == ExprKind::kColumnRef) return replacements.at(expr->column_index);
  if (expr->children.empty()) return expr;
  auto copy = std::make_shared<Expr>(*expr);
  for (auto& c : copy->children) c = substitute_columns(c, replacements);
  return copy;
}

std::vector<ExprPtr> split_conjuncts(const ExprPtr& expr) {
  std::vector<ExprPtr> out;
  if (!expr) return out;
  if (expr->kind == ExprKind::kAnd) {
    for (const auto& c : expr->children) {
      auto sub = split_conjuncts(c);
      out.insert(out.end(), sub.begin(), sub.end());
    }
  } else {
    out.push_back(expr);
  }
  return out;
}

ExprPtr make_conjunction(const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) return nullptr;
  if (conjuncts.size() == 1) return conjuncts[0];
  return make_node(ExprKind::kAnd, TypeId::kBoolean, conjuncts);
}

bool is_constant_expr(const Expr& expr) {
  if (expr.kind == ExprKind::kColumnRef) return false;
  for (const auto& c : expr.children) {
    if (!is_constant_expr(*c)) return false;
  }
  return true;
}

}  // namespace kestrel::plan
