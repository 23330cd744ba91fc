#include "exec/ops/transfer/transfer.hpp"

#include "common/check.hpp"
#include "exec/ops/common/device_rows.hpp"
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
  // A dictionary column keeps its whole dictionary through filters and joins: a few result rows can reference a
  // dictionary of millions of strings (a table column's merged dictionary). Such columns are decoded on the device
  // first, so only the strings the rows use cross the bus.
  std::vector<ColumnPtr> columns = input.columns();
  bool decoded = false;
  for (auto& column : columns) {
    const ColumnPtr& dict = column->dictionary();
    if (column->is_dictionary() && dict && dict->offsets() && dict->length() > column->length()) {
      KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "ToHost needs the query's device memory resource");
      column = decode_dictionary_gpu(column, input.stream(), *ctx.device_mr);
      decoded = true;
    }
  }
  if (!decoded) {
    out.push_back(copy_batch(input, *ctx.host_mr, input.stream()));
    return;
  }
  Batch compact(input.schema(), std::move(columns), input.num_rows(), gpu::MemoryKind::kDevice, input.stream());
  out.push_back(copy_batch(compact, *ctx.host_mr, input.stream()));
}

}  // namespace kestrel::exec
