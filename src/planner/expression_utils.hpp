#pragma once
/// Small rewrites and queries over bound expressions, shared by the binder and the optimizer rules.

#include <functional>
#include <set>
#include <vector>

#include "planner/expression.hpp"

namespace kestrel::plan {

/// The input column indices `expr` reads.
std::set<size_t> referenced_columns(const Expr& expr);
/// A copy of `expr` with every column index i replaced by map(i).
ExprPtr remap_columns(const ExprPtr& expr, const std::function<size_t(size_t)>& map);
/// A copy of `expr` with every column reference i replaced by `replacements[i]` (inlining a projection).
ExprPtr substitute_columns(const ExprPtr& expr, const std::vector<ExprPtr>& replacements);
/// The conjuncts of an AND tree (a non-AND expression is one conjunct).
std::vector<ExprPtr> split_conjuncts(const ExprPtr& expr);
/// AND of `conjuncts` (null when empty, the single one when one).
ExprPtr make_conjunction(const std::vector<ExprPtr>& conjuncts);
/// For an OR whose every branch shares some conjuncts, the AND of those shared conjuncts and the OR of what is left
/// of each branch (`(a AND b) OR (a AND c)` -> `a AND (b OR c)`), so the shared part can become a join key or be
/// pushed down; other expressions are returned as they are.
ExprPtr factor_or(const ExprPtr& expr);
/// True when `expr` has no column references (it can be evaluated once).
bool is_constant_expr(const Expr& expr);

}  // namespace kestrel::plan
