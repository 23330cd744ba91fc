#include "exec/ops/limit/limit.hpp"

#include "vector/gather.hpp"

namespace kestrel::exec {

void apply_limit(std::vector<Batch>& batches, std::optional<uint64_t> limit, uint64_t offset) {
  std::vector<Batch> kept;
  uint64_t skip = offset;
  uint64_t remaining = limit.value_or(UINT64_MAX);
  for (auto& b : batches) {
    if (remaining == 0) break;
    uint64_t rows = b.num_rows();
    if (skip >= rows) {
      skip -= rows;
      continue;
    }
    uint64_t take = std::min<uint64_t>(rows - skip, remaining);
    kept.push_back(skip == 0 && take == rows ? std::move(b) : slice_batch(b, skip, take));
    remaining -= take;
    skip = 0;
  }
  batches = std::move(kept);
}

}  // namespace kestrel::exec
