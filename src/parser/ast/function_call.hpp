#pragma once
/// Calls and call-like special forms: function calls, CASE, CAST and EXTRACT.

#include <memory>
#include <string>
#include <vector>

#include "parser/ast/expr.hpp"
#include "parser/ast/order_item.hpp"
#include "parser/ast/type_name.hpp"

namespace kestrel::ast {

struct WindowSpec;  // query.hpp

/// Names of the internal calls the parser writes for nested-value syntax; they start with '$', which no SQL word
/// can, so a user's function never meets them. `ARRAY[a, b]` is $array(a, b); `x[i]` is $subscript(x, i); `(x).f`
/// is $field(x, 'f') (a string literal); `(a, b) -> body` is $lambda(a, b, body) with the parameters as column
/// references.
inline constexpr const char* kArrayConstructorName = "$array";
inline constexpr const char* kSubscriptName = "$subscript";
inline constexpr const char* kFieldName = "$field";
inline constexpr const char* kLambdaName = "$lambda";

/// A function call `name(args)`, also aggregates: `count(*)` (star), `sum(DISTINCT x)`, `count(x) FILTER (WHERE
/// c)`, ordered aggregates `string_agg(x, ',' ORDER BY y)` and `percentile_cont(0.5) WITHIN GROUP (ORDER BY x)`.
/// COALESCE, NULLIF, GREATEST and LEAST are plain calls. The SQL special forms become calls too:
///   SUBSTRING(x FROM a [FOR b]) -> substring(x, a[, b]);  SUBSTRING(x FOR b) -> substring(x, 1, b);
///   POSITION(a IN b) -> position(a, b);
///   TRIM([BOTH] [chars] FROM x) -> trim(x[, chars]); LEADING -> ltrim(x[, chars]); TRAILING -> rtrim(x[, chars]).
/// `position` is the name's first token; `operator_position` is the opening parenthesis.
struct FunctionCall final : Expr {
  static constexpr ExprKind kKind = ExprKind::kFunctionCall;
  explicit FunctionCall(SourcePosition pos) : Expr(kKind, pos) {}

  /// The schema before the name (`pg_catalog.lower`); empty when not qualified.
  std::string schema;
  /// The function name, folded to lower case unless quoted.
  std::string name;
  ExprList args;
  /// f(DISTINCT ...)
  bool distinct = false;
  /// f(*): count(*); `args` is empty.
  bool star = false;
  /// ORDER BY of an ordered aggregate, written inside the parentheses or as WITHIN GROUP (ORDER BY ...) after them;
  /// empty when absent.
  std::vector<OrderItem> order_by;
  /// Whether `order_by` was written as WITHIN GROUP (ORDER BY ...).
  bool within_group = false;
  /// FILTER (WHERE ...) of an aggregate; null when absent.
  ExprPtr filter;
  /// OVER (...) of a window function call; null when absent.
  std::shared_ptr<WindowSpec> over;
};

/// One WHEN ... THEN ... arm of a CASE.
struct WhenClause {
  /// Searched CASE: the condition; simple CASE: the value compared with the operand.
  ExprPtr condition;
  ExprPtr result;
};

/// `CASE [operand] WHEN c THEN r ... [ELSE e] END`. `operand` is null for the searched form.
struct Case final : Expr {
  static constexpr ExprKind kKind = ExprKind::kCase;
  explicit Case(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  std::vector<WhenClause> whens;
  /// The ELSE result; null when absent (the result is then NULL).
  ExprPtr else_result;
};

/// `CAST(x AS type)`, `TRY_CAST(x AS type)` (NULL instead of an error) and `x::type`. For `::`,
/// `operator_position` is the `::` token; otherwise it is the CAST keyword.
struct Cast final : Expr {
  static constexpr ExprKind kKind = ExprKind::kCast;
  explicit Cast(SourcePosition pos) : Expr(kKind, pos) {}

  ExprPtr operand;
  TypeName type;
  bool try_cast = false;
};

/// `EXTRACT(field FROM x)`. The field is kept as written, in lower case ("year", "month", "day", "hour", "dow",
/// "epoch", ...); the binder checks it. `operator_position` is the field's token.
struct Extract final : Expr {
  static constexpr ExprKind kKind = ExprKind::kExtract;
  explicit Extract(SourcePosition pos) : Expr(kKind, pos) {}

  std::string field;
  ExprPtr operand;
};

}  // namespace kestrel::ast
