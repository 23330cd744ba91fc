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

ExprPtr factor_or(const ExprPtr& expr) {
  if (expr->kind != ExprKind::kOr || expr->children.size() < 2) return expr;
  std::vector<std::vector<ExprPtr>> branches;
  for (const auto& c : expr->children) branches.push_back(split_conjuncts(c));
  std::vector<ExprPtr> common;
  for (const auto& candidate : branches[0]) {
    std::string key = candidate->to_string();
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; ++b) {
      bool found = false;
      for (const auto& e : branches[b]) found |= e->to_string() == key;
      everywhere = found;
    }
    bool seen = false;
    for (const auto& c : common) seen |= c->to_string() == key;
    if (everywhere && !seen) common.push_back(candidate);
  }
  if (common.empty()) return expr;
  std::vector<ExprPtr> rests;
  bool some_branch_empty = false;
  for (const auto& branch : branches) {
    std::vector<ExprPtr> rest;
    for (const auto& e : branch) {
      bool shared = false;
      for (const auto& c : common) shared |= c->to_string() == e->to_string();
      if (!shared) rest.push_back(e);
    }
    some_branch_empty |= rest.empty();
    rests.push_back(make_conjunction(rest));
  }
  // A branch that was only the shared conjuncts makes the remaining OR true.
  if (!some_branch_empty) common.push_back(make_node(ExprKind::kOr, TypeId::kBoolean, rests));
  return make_conjunction(common);
}

bool is_constant_expr(const Expr& expr) {
  if (expr.kind == ExprKind::kColumnRef) return false;
  for (const auto& c : expr.children) {
    if (!is_constant_expr(*c)) return false;
  }
  return true;
}

}  // namespace kestrel::plan
