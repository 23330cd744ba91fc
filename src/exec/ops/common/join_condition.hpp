#pragma once
/// Join conditions from bound expressions: the bridge between the plan's residual `condition` (an expression over
/// the left columns followed by the right ones) and the operators' JoinCondition callback.

#include "exec/ops/common/join_pairs.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// A JoinCondition that evaluates `condition` (BOOLEAN, over probe columns then build columns) with the CPU
/// expression evaluator; a null `condition` gives an empty callback (every pair qualifies).
JoinCondition make_join_condition(plan::ExprPtr condition);

}  // namespace kestrel::exec
