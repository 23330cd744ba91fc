#include "exec/ops/limit/limit_gpu.hpp"

#include <algorithm>

#include "exec/ops/common/device_rows.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

void apply_limit_gpu(std::vector<Batch>& batches, std::optional<uint64_t> limit, uint64_t offset,
                     gpu::Stream stream, gpu::MemoryResource& mr) {
  std::vector<Batch> kept;
  uint64_t skip = offset;
  uint64_t remaining = limit.value_or(UINT64_MAX);
  for (auto& b : batches) {
    if (remaining == 0) break;
    const uint64_t rows = b.num_rows();
    if (skip >= rows) {
      skip -= rows;
      continue;
    }
    const uint64_t take = std::min<uint64_t>(rows - skip, remaining);
    if (skip == 0 && take == rows) {
      kept.push_back(std::move(b));
    } else if (!b.on_device()) {
      kept.push_back(slice_batch(b, skip, take));
    } else {
      const gpu::Stream s = b.stream().is_host() ? stream : b.stream();
      kept.push_back(slice_batch_gpu(b, static_cast<size_t>(skip), static_cast<size_t>(take), s, mr));
    }
    remaining -= take;
    skip = 0;
  }
  batches = std::move(kept);
}

}  // namespace kestrel::exec
