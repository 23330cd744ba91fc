#include "exec/expr/evaluate.hpp"
#include "exec/ops/filter/filter.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

Batch apply_filter(const plan::Expr& predicate, const Batch& batch, ExecContext& ctx) {
  EvalContext eval;
  eval.mr = ctx.host_mr;
  ColumnPtr mask = evaluate(predicate, batch, eval);
  RowIndices rows = true_rows(*mask);
  if (rows.size() == batch.num_rows()) return batch;
  return gather_batch(batch, rows, *ctx.host_mr);
}

void FilterCpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  Batch result = apply_filter(*predicate_, input, ctx);
  if (result.num_rows() > 0) out.push_back(std::move(result));
}

}  // namespace kestrel::exec
