#pragma once
/// Generic traversal of expression trees.

#include <functional>

#include "parser/ast/expr.hpp"

namespace kestrel::ast {

/// Calls `visit` on each direct child expression of `expr`, in source order (operands, arguments, CASE arms,
/// FILTER). Queries inside the expression (sub-queries) are not entered: reach them through the node
/// (ScalarSubquery::query, Exists::query, InSubquery::query, QuantifiedComparison::query).
void for_each_child(const Expr& expr, const std::function<void(const Expr&)>& visit);
/// The same with mutable children (for rewrites that replace parts in place).
void for_each_child(Expr& expr, const std::function<void(ExprPtr&)>& visit);

/// True when `expr` or any expression below it (not entering sub-queries) satisfies `predicate`.
bool any_of(const Expr& expr, const std::function<bool(const Expr&)>& predicate);

}  // namespace kestrel::ast
