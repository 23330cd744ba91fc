#include "exec/ops/common/join_condition.hpp"

#include <map>
#include <set>

#include "common/check.hpp"
#include "exec/expr/evaluate.hpp"
#include "planner/expression_utils.hpp"
#if KESTREL_WITH_CUDA
#include "exec/expr/evaluate_gpu.hpp"
#include "exec/expr/predicate_gpu.hpp"
#endif

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

#if KESTREL_WITH_CUDA
void set_gpu_join_condition(JoinSpec& spec, const plan::ExprPtr& condition) {
  spec.condition = {};
  spec.condition_columns.clear();
  if (!condition) return;
  KESTREL_CHECK_EQ(condition->type.id(), TypeId::kBoolean);
  const std::set<size_t> used = plan::referenced_columns(*condition);
  spec.condition_columns.assign(used.begin(), used.end());
  std::map<size_t, size_t> position;
  for (size_t c : spec.condition_columns) position.emplace(c, position.size());
  plan::ExprPtr compact = plan::remap_columns(condition, [&](size_t i) { return position.at(i); });
  spec.condition = [compact](const Batch& joined, ExecContext& ctx) {
    // NULL verdicts stay NULL: NOT IN and IN sub-queries tell them from FALSE.
    ColumnPtr fused = evaluate_predicate_gpu(*compact, joined, /*nulls_as_false=*/false, joined.stream(),
                                             *ctx.device_mr);
    return fused ? fused : evaluate_gpu(*compact, joined, joined.stream(), *ctx.device_mr);
  };
}
#endif

}  // namespace kestrel::exec
