#pragma once
/// What evaluate_gpu supports, decided on the host before a query runs: placement puts a Filter or Project on the
/// GPU only when every expression of it passes.

#include "planner/expression.hpp"

namespace kestrel::exec {

/// True when evaluate_gpu evaluates every node of `expr` (functions, types, argument shapes) without throwing
/// NotImplemented. Conservative: a false answer only costs a CPU fallback, a wrong true answer fails the query.
/// Always false in a build without the GPU side.
bool can_evaluate_gpu(const plan::Expr& expr);

/// COALESCE(a, b, ..., z) as the CASE the GPU evaluates: CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b
/// ... ELSE z END.
plan::ExprPtr coalesce_as_case(const plan::Expr& coalesce);

}  // namespace kestrel::exec
