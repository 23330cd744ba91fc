#include "exec/ops/common/join_condition.hpp"

#include "common/check.hpp"
#include "exec/expr/evaluate.hpp"

namespace kestrel::exec {

JoinCondition make_join_condition(plan::ExprPtr condition) {
  if (!condition) return {};
  KESTREL_CHECK_EQ(condition->type.id(), TypeId::kBoolean);
  return [condition](const Batch& joined, ExecContext& ctx) {
    EvalContext eval;
    eval.mr = ctx.host_mr;
    return evaluate(*condition, joined, eval);
  };
}

}  // namespace kestrel::exec
