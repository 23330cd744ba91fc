#include "exec/ops/transfer/transfer.hpp"

#include "common/check.hpp"
#include "gpu/stream_pool.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec {

void ToDeviceGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  if (input.on_device()) {
    out.push_back(input);
    return;
  }
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "ToDevice needs the query's device memory resource");
  out.push_back(copy_batch(input, *ctx.device_mr, gpu::driver_stream()));
}

void ToHostGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  if (!input.on_device()) {
    out.push_back(input);
    return;
  }
  out.push_back(copy_batch(input, *ctx.host_mr, input.stream()));
}

}  // namespace kestrel::exec
