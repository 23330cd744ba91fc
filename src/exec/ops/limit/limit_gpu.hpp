#pragma once
/// LIMIT/OFFSET over collected, ordered device batches: the twin of apply_limit (limit.hpp).

#include <optional>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Keeps rows [offset, offset + limit) of `batches` (in order) in place, like apply_limit. Whole batches are
/// kept or dropped as they are; at most the first and the last kept batch are sliced, into new buffers from `mr`.
/// A device batch is sliced on its own stream (ordered after its producer, before its buffers are freed), one
/// without a stream on `stream`; host batches are sliced on the host.
void apply_limit_gpu(std::vector<Batch>& batches, std::optional<uint64_t> limit, uint64_t offset,
                     gpu::Stream stream, gpu::MemoryResource& mr);

}  // namespace kestrel::exec
