#pragma once
/// What evaluate_gpu supports, decided on the host before a query runs: placement puts a Filter or Project on the
/// GPU only when every expression of it passes.

#include "planner/expression.hpp"

namespace kestrel::exec {

/// True when evaluate_gpu evaluates every node of `expr` (functions, types, argument shapes) without throwing
/// NotImplemented. Conservative: a false answer only costs a CPU fallback, a wrong true answer fails the query.
/// Always false in a build without the GPU side.
bool can_evaluate_gpu(const plan::Expr& expr);

/// COALESCE, NULLIF, GREATEST and LEAST as the CASE the GPU evaluates (null for other expressions):
/// - COALESCE(a, ..., z): CASE WHEN a IS NOT NULL THEN a ... ELSE z END;
/// - NULLIF(a, b): CASE WHEN a = b THEN NULL ELSE a END;
/// - GREATEST(a, b, ...) with 2 to 8 arguments, skipping NULLs as the CPU does: CASE WHEN a IS NOT NULL AND (b IS NULL
///   OR a >= b) AND ... THEN a WHEN b IS NOT NULL AND ... THEN b ... ELSE NULL END (LEAST with <=).
plan::ExprPtr conditional_as_case(const plan::Expr& e);

}  // namespace kestrel::exec
