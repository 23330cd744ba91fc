#include "exec/expr/evaluate.hpp"
#include "exec/ops/project/project.hpp"

namespace kestrel::exec {

void ProjectCpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  EvalContext eval;
  eval.mr = ctx.host_mr;
  std::vector<ColumnPtr> columns;
  columns.reserve(exprs_.size());
  for (const auto& e : exprs_) columns.push_back(evaluate(*e, input, eval));
  out.push_back(Batch(schema_, std::move(columns), input.num_rows(), gpu::MemoryKind::kHost));
}

}  // namespace kestrel::exec
