#include <functional>
#include <set>

#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

std::optional<catalog::PruneOp> prune_op(ScalarFunction f, bool flipped) {
  switch (f) {
    case ScalarFunction::kEqual: return catalog::PruneOp::kEqual;
    case ScalarFunction::kLess: return flipped ? catalog::PruneOp::kGreater : catalog::PruneOp::kLess;
    case ScalarFunction::kLessEqual: return flipped ? catalog::PruneOp::kGreaterEqual : catalog::PruneOp::kLessEqual;
    case ScalarFunction::kGreater: return flipped ? catalog::PruneOp::kLess : catalog::PruneOp::kGreater;
    case ScalarFunction::kGreaterEqual: return flipped ? catalog::PruneOp::kLessEqual : catalog::PruneOp::kGreaterEqual;
    default: return std::nullopt;
  }
}

/// `column op constant` (either way round), `column IN (constants)` or `column IS NULL` over a scan's output, as a
/// predicate on the table's column; nullopt for anything else.
std::optional<catalog::PrunePredicate> to_prune(const Expr& e, const std::vector<size_t>& table_columns) {
  auto column_of = [&](const Expr& x) -> std::optional<size_t> {
    if (x.kind != ExprKind::kColumnRef || x.outer_depth != 0) return std::nullopt;
    return table_columns.at(x.column_index);
  };
  if (e.kind == ExprKind::kFunction && e.children.size() == 2) {
    const Expr& a = *e.children[0];
    const Expr& b = *e.children[1];
    bool flipped = a.kind == ExprKind::kConstant;
    const Expr& col = flipped ? b : a;
    const Expr& constant = flipped ? a : b;
    auto c = column_of(col);
    auto op = prune_op(e.function, flipped);
    if (c && op && constant.kind == ExprKind::kConstant && !constant.constant.is_null() &&
        constant.type == col.type) {
      return catalog::PrunePredicate{*c, *op, {constant.constant}};
    }
    return std::nullopt;
  }
  if (e.kind == ExprKind::kInList) {
    auto c = column_of(*e.children[0]);
    if (!c) return std::nullopt;
    catalog::PrunePredicate p{*c, catalog::PruneOp::kIn, {}};
    for (size_t i = 1; i < e.children.size(); ++i) {
      const Expr& v = *e.children[i];
      if (v.kind != ExprKind::kConstant || v.constant.is_null() || !(v.type == e.children[0]->type)) {
        return std::nullopt;
      }
      p.values.push_back(v.constant);
    }
    return p;
  }
  if (e.kind == ExprKind::kIsNull) {
    if (auto c = column_of(*e.children[0])) return catalog::PrunePredicate{*c, catalog::PruneOp::kIsNull, {}};
  }
  return std::nullopt;
}

}  // namespace

void derive_scan_pruning(LogicalNode& plan) {
  std::set<const LogicalNode*> seen;
  std::function<void(LogicalNode&)> visit = [&](LogicalNode& n) {
    if (!seen.insert(&n).second) return;
    if (n.kind == NodeKind::kGet) {
      auto& get = n.as<LogicalGet>();
      get.spec.predicates.clear();
      for (const auto& f : get.filters) {
        if (auto p = to_prune(*f, get.spec.columns)) get.spec.predicates.push_back(*p);
      }
    }
    for (auto& c : n.children) visit(*c);
  };
  visit(plan);
}

}  // namespace kestrel::plan
