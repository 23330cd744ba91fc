#pragma once
/// CPU evaluation of bound expressions (planner/expression.hpp) over host batches. Vectorized: every node is
/// computed for a whole batch by a loop over its columns; NULLs travel as validity bitmaps.
///
/// Entry points for operators (filter, project, join residuals) and for constant folding.

#include "common/value.hpp"
#include "exec/expr/eval_context.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Evaluates `expr` on every row of the host batch `input`; the result has `input.num_rows()` rows and type
/// `expr.type`. A column reference returns the input column itself (no copy), so the result may be
/// dictionary-encoded; string functions over a dictionary column may also return a dictionary column. Runtime
/// errors (overflow, division by zero, a failed cast) throw InvalidInput; only rows that are not NULL count.
ColumnPtr evaluate(const plan::Expr& expr, const Batch& input, EvalContext& ctx);

/// Evaluates an expression without column references to its value (constant folding). The result has
/// `expr.type`; errors are thrown as by `evaluate`.
Value evaluate_constant(const plan::Expr& expr);

}  // namespace kestrel::exec
