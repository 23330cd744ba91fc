#pragma once
/// Operator expressions: unary and binary operators, comparisons and the n-ary AND / OR.

#include "parser/ast/expr.hpp"

namespace kestrel::ast {

/// Prefix operators.
enum class UnaryOperator : uint8_t {
  kNegate,  ///< -x (a minus directly before a number is folded into the Literal instead)
  kPlus,    ///< +x
  kNot,     ///< NOT x; also NOT EXISTS (...) is NOT over an Exists node
};

/// `-x`, `+x`, `NOT x`. `operator_position` is the operator token (= position).
struct UnaryOp final : Expr {
  static constexpr ExprKind kKind = ExprKind::kUnaryOp;
  explicit UnaryOp(SourcePosition pos) : Expr(kKind, pos) {}

  UnaryOperator op = UnaryOperator::kNegate;
  ExprPtr operand;
};

/// Infix operators with two operands (AND and OR are Conjunction).
enum class BinaryOperator : uint8_t {
  kAdd,           ///< +
  kSubtract,      ///< -
  kMultiply,      ///< *
  kDivide,        ///< /
  kModulo,        ///< %
  kConcat,        ///< ||
  kEqual,         ///< =
  kNotEqual,      ///< <> or !=
  kLess,          ///< <
  kLessEqual,     ///< <=
  kGreater,       ///< >
  kGreaterEqual,  ///< >=
};

/// The operator as written in canonical SQL: "+", "||", "<>".
const char* binary_operator_symbol(BinaryOperator op);
/// True for = <> < <= > >=.
bool is_comparison(BinaryOperator op);

/// `left op right`. `operator_position` is the operator token.
struct BinaryOp final : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinaryOp;
  explicit BinaryOp(SourcePosition pos) : Expr(kKind, pos) {}

  BinaryOperator op = BinaryOperator::kAdd;
  ExprPtr left;
  ExprPtr right;
};

enum class ConjunctionKind : uint8_t { kAnd, kOr };

/// `a AND b AND c` or `a OR b OR c` as one node with all operands (two or more), so long chains stay flat. A
/// parenthesised operand of the same kind stays nested: `(a AND b) AND c` has two operands. `operator_position` is
/// the first AND / OR token.
struct Conjunction final : Expr {
  static constexpr ExprKind kKind = ExprKind::kConjunction;
  explicit Conjunction(SourcePosition pos) : Expr(kKind, pos) {}

  ConjunctionKind conjunction = ConjunctionKind::kAnd;
  ExprList operands;
};

}  // namespace kestrel::ast
