#pragma once
/// Names in expressions: column references and the `*` / `t.*` of select lists.

#include <string>
#include <vector>

#include "parser/ast/expr.hpp"

namespace kestrel::ast {

/// A possibly qualified column name: `a` -> {"a"}, `t.a` -> {"t", "a"}, `s.t.a` -> {"s", "t", "a"}. Unquoted
/// names are folded to lower case by the lexer; quoted names are kept exactly. A single name may also turn out to
/// be a select-list alias (ORDER BY, GROUP BY) or, in COPY/SET options, a bare word; the binder decides.
struct ColumnRef final : Expr {
  static constexpr ExprKind kKind = ExprKind::kColumnRef;
  explicit ColumnRef(SourcePosition pos) : Expr(kKind, pos) {}

  /// The dotted parts, at least one.
  std::vector<std::string> names;

  /// The column name (last part).
  const std::string& column() const { return names.back(); }
  /// True for a plain `name` without a qualifier.
  bool is_unqualified() const { return names.size() == 1; }
};

/// `*` (qualifier empty) or `t.*` / `s.t.*`. Appears as a select item; inside a function call only as an argument
/// like f(t.*) (count(*) is FunctionCall::star instead).
struct Star final : Expr {
  static constexpr ExprKind kKind = ExprKind::kStar;
  explicit Star(SourcePosition pos) : Expr(kKind, pos) {}

  /// The table (or schema.table) before `.*`; empty for a bare `*`.
  std::vector<std::string> qualifier;
};

}  // namespace kestrel::ast
