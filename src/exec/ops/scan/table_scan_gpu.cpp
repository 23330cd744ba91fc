#include "exec/ops/scan/table_scan_gpu.hpp"

#include "exec/ops/scan/device_table_cache.hpp"
#include "gpu/stream_pool.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec {

void TableScanGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  gpu::Stream stream = gpu::driver_stream();
  if (ctx.table_cache != nullptr && table_->kind() != catalog::TableKind::kMemory) {
    out.push_back(ctx.table_cache->read(table_, morsels_[morsel], spec_, schema_, stream));
    return;
  }
  Batch host = table_->read_morsel(morsels_[morsel], spec_);
  Batch device = copy_batch(host, *ctx.device_mr, stream);
  out.emplace_back(schema_, device.columns(), device.num_rows(), gpu::MemoryKind::kDevice, stream);
}

}  // namespace kestrel::exec
