#pragma once
/// Moving batches between host and device memory. A transfer copies buffers, never re-encodes: the layout is the
/// same on both sides.

#include "vector/batch.hpp"

namespace kestrel {

/// A copy of `column` with all its buffers in memory from `mr`, ordered on `stream`.
ColumnPtr copy_column(const Column& column, gpu::MemoryResource& mr, gpu::Stream stream);

/// A copy of `batch` in `mr`'s memory. Host-to-device copies of pageable memory go through pinned staging; the
/// result is ordered on `stream` (for a device result the copy may still be in flight; for a host result the data
/// is in place when this returns).
Batch copy_batch(const Batch& batch, gpu::MemoryResource& mr, gpu::Stream stream);

}  // namespace kestrel
