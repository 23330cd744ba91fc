#include "exec/ops/project/project_gpu.hpp"

#include "common/check.hpp"
#include "exec/expr/evaluate_gpu.hpp"

namespace kestrel::exec {

void ProjectGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(input.on_device() && ctx.device_mr != nullptr, "Project [GPU] needs a device batch");
  std::vector<ColumnPtr> columns = evaluate_gpu_all(exprs_, input, input.stream(), *ctx.device_mr);
  out.push_back(Batch(schema_, std::move(columns), input.num_rows(), gpu::MemoryKind::kDevice, input.stream()));
}

}  // namespace kestrel::exec
