#pragma once
/// Join conditions from bound expressions: the bridge between the plan's residual `condition` (an expression over
/// the left columns followed by the right ones) and the operators' JoinCondition callback.

#include "exec/ops/common/join_pairs.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// A JoinCondition that evaluates `condition` (BOOLEAN, over probe columns then build columns) with the CPU
/// expression evaluator; a null `condition` gives an empty callback (every pair qualifies).
JoinCondition make_join_condition(plan::ExprPtr condition);

/// GPU joins (builds with CUDA only): sets spec.condition to evaluate `condition` (BOOLEAN over the pair columns,
/// probe then build) with the GPU evaluator, and spec.condition_columns to the columns it reads, renumbering the
/// condition over them, so the joins gather only those columns for candidate pairs. A null `condition` clears both.
void set_gpu_join_condition(JoinSpec& spec, const plan::ExprPtr& condition);

}  // namespace kestrel::exec
