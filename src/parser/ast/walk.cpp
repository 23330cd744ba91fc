// Generic traversal of expression trees.

#include "parser/ast/walk.hpp"

#include "parser/ast/ast.hpp"

namespace kestrel::ast {
namespace {

/// Visits the child pointers of `expr` (null ones skipped); shared by the const and mutable walkers.
template <typename Visit>
void visit_children(Expr& expr, Visit&& visit) {
  auto one = [&](ExprPtr& child) {
    if (child) visit(child);
  };
  auto all = [&](ExprList& children) {
    for (ExprPtr& child : children) one(child);
  };
  switch (expr.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kStar:
    case ExprKind::kLiteral:
    case ExprKind::kTypedLiteral:
    case ExprKind::kIntervalLiteral:
    case ExprKind::kParameter:
    case ExprKind::kScalarSubquery:
    case ExprKind::kExists: return;
    case ExprKind::kUnaryOp: one(expr.as<UnaryOp>().operand); return;
    case ExprKind::kBinaryOp: {
      auto& node = expr.as<BinaryOp>();
      one(node.left);
      one(node.right);
      return;
    }
    case ExprKind::kConjunction: all(expr.as<Conjunction>().operands); return;
    case ExprKind::kIsTest: one(expr.as<IsTest>().operand); return;
    case ExprKind::kIsDistinctFrom: {
      auto& node = expr.as<IsDistinctFrom>();
      one(node.left);
      one(node.right);
      return;
    }
    case ExprKind::kBetween: {
      auto& node = expr.as<Between>();
      one(node.operand);
      one(node.low);
      one(node.high);
      return;
    }
    case ExprKind::kInList: {
      auto& node = expr.as<InList>();
      one(node.operand);
      all(node.values);
      return;
    }
    case ExprKind::kLike: {
      auto& node = expr.as<Like>();
      one(node.operand);
      one(node.pattern);
      one(node.escape);
      return;
    }
    case ExprKind::kInSubquery: one(expr.as<InSubquery>().operand); return;
    case ExprKind::kQuantifiedComparison: one(expr.as<QuantifiedComparison>().left); return;
    case ExprKind::kCase: {
      auto& node = expr.as<Case>();
      one(node.operand);
      for (WhenClause& when : node.whens) {
        one(when.condition);
        one(when.result);
      }
      one(node.else_result);
      return;
    }
    case ExprKind::kCast: one(expr.as<Cast>().operand); return;
    case ExprKind::kExtract: one(expr.as<Extract>().operand); return;
    case ExprKind::kFunctionCall: {
      auto& node = expr.as<FunctionCall>();
      all(node.args);
      for (auto& item : node.order_by) one(item.expr);
      one(node.filter);
      if (node.over) {
        all(node.over->partition_by);
        for (auto& item : node.over->order_by) one(item.expr);
      }
      return;
    }
  }
}

}  // namespace

void for_each_child(const Expr& expr, const std::function<void(const Expr&)>& visit) {
  visit_children(const_cast<Expr&>(expr), [&](ExprPtr& child) { visit(*child); });
}

void for_each_child(Expr& expr, const std::function<void(ExprPtr&)>& visit) { visit_children(expr, visit); }

bool any_of(const Expr& expr, const std::function<bool(const Expr&)>& predicate) {
  if (predicate(expr)) return true;
  bool found = false;
  for_each_child(expr, [&](const Expr& child) {
    if (!found && any_of(child, predicate)) found = true;
  });
  return found;
}

}  // namespace kestrel::ast
