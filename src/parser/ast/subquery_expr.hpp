#pragma once
/// Expressions that contain a query: scalar sub-queries, EXISTS, IN (sub-query) and quantified comparisons.

#include "parser/ast/expr.hpp"
#include "parser/ast/operator_expr.hpp"
#include "parser/ast/query.hpp"

namespace kestrel::ast {

/// `(SELECT ...)` used as a value: one column, at most one row.
struct ScalarSubquery final : Expr {
  static constexpr ExprKind kKind = ExprKind::kScalarSubquery;
  explicit ScalarSubquery(SourcePosition pos) : Expr(kKind, pos) {}

  QueryPtr query;
};

/// `EXISTS (SELECT ...)`. NOT EXISTS is a UnaryOp kNot whose operand is this node.
struct Exists final : Expr {
  static constexpr ExprKind kKind = ExprKind::kExists;
  explicit Exists(SourcePosition pos) : Expr(kKind, pos) {}

  QueryPtr query;
};

/// `operand [NOT] IN (SELECT ...)`. `operator_position` is the IN (or NOT) token.
struct InSubquery final : Expr {
  static constexpr ExprKind kKind = ExprKind::kInSubquery;
  explicit InSubquery(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  QueryPtr query;
  bool negated = false;
};

/// ANY (SOME is the same) or ALL.
enum class Quantifier : uint8_t { kAny, kAll };

/// `left op ANY|SOME|ALL (SELECT ...)` where op is a comparison. `operator_position` is the comparison token.
struct QuantifiedComparison final : Expr {
  static constexpr ExprKind kKind = ExprKind::kQuantifiedComparison;
  explicit QuantifiedComparison(SourcePosition pos) : Expr(kKind, pos) {}

  BinaryOperator op = BinaryOperator::kEqual;
  Quantifier quantifier = Quantifier::kAny;
  ExprPtr left;
  QueryPtr query;
};

}  // namespace kestrel::ast
