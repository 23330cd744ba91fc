#pragma once
/// Predicates written with keywords: IS tests, IS DISTINCT FROM, BETWEEN, IN lists and LIKE.

#include "parser/ast/expr.hpp"

namespace kestrel::ast {

/// What an IS test checks.
enum class IsTestKind : uint8_t { kNull, kTrue, kFalse, kUnknown };

/// `x IS [NOT] NULL` (also the postfix ISNULL / NOTNULL), `x IS [NOT] TRUE | FALSE | UNKNOWN`.
/// `operator_position` is the IS token.
struct IsTest final : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsTest;
  explicit IsTest(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  IsTestKind test = IsTestKind::kNull;
  /// IS NOT ...
  bool negated = false;
};

/// `left IS [NOT] DISTINCT FROM right`: null-safe inequality (negated: null-safe equality).
struct IsDistinctFrom final : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsDistinctFrom;
  explicit IsDistinctFrom(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr left;
  ExprPtr right;
  /// IS NOT DISTINCT FROM
  bool negated = false;
};

/// `operand [NOT] BETWEEN [SYMMETRIC] low AND high`. `operator_position` is the BETWEEN (or NOT) token.
struct Between final : Expr {
  static constexpr ExprKind kKind = ExprKind::kBetween;
  explicit Between(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  ExprPtr low;
  ExprPtr high;
  bool negated = false;
  /// BETWEEN SYMMETRIC: the bounds may come in either order.
  bool symmetric = false;
};

/// `operand [NOT] IN (v1, v2, ...)` with at least one value. `operator_position` is the IN (or NOT) token.
struct InList final : Expr {
  static constexpr ExprKind kKind = ExprKind::kInList;
  explicit InList(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  ExprList values;
  bool negated = false;
};

/// `operand [NOT] LIKE pattern [ESCAPE escape]`, ILIKE for the case-insensitive form.
struct Like final : Expr {
  static constexpr ExprKind kKind = ExprKind::kLike;
  explicit Like(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  ExprPtr pattern;
  /// The ESCAPE expression; null when absent.
  ExprPtr escape;
  bool negated = false;
  /// ILIKE
  bool case_insensitive = false;
};

}  // namespace kestrel::ast
