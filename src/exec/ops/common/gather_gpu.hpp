#pragma once
/// Gathering rows of device batches by device row numbers: every column of one or more batches in a few fused
/// launches (fixed-width values, dictionary indices and validity bitmaps of all columns in one kernel; the string
/// offsets of all VARCHAR columns in one kernel and one scan; their bytes in one kernel) and at most one read back
/// of the figures the host needs (NULL counts, string sizes), none when the caller counted them already.

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// The rows `indices[0..count)` (device row numbers) of the device batch `batch`, in that order.
struct GatherRequest {
  const Batch* batch = nullptr;
  const uint32_t* indices = nullptr;
  size_t count = 0;
};

/// What the host needs to know of a gather's result, per column of the requests in order (all columns of the
/// first request, then of the second, ...): valid rows (read for columns with NULLs) and the bytes of the strings
/// (read for plain VARCHAR columns). A caller that counted them with the selection passes them in and saves the
/// read back (and its synchronization).
struct GatherTotals {
  std::vector<unsigned long long> valid;
  std::vector<unsigned long long> chars;
};

/// The gathered batches, one per request (same schema as its batch). Ordered on `stream` with buffers from `mr`.
/// Synchronizes `stream` once when a column has NULLs or is a plain VARCHAR and `known` is null; never otherwise.
std::vector<Batch> gather_batches_gpu(std::span<const GatherRequest> requests, gpu::Stream stream,
                                      gpu::MemoryResource& mr, const GatherTotals* known = nullptr);

/// The rows of `batch` (device) at the device row numbers `indices[0..count)`, in that order.
Batch gather_batch_gpu(const Batch& batch, const uint32_t* indices, size_t count, gpu::Stream stream,
                       gpu::MemoryResource& mr, const GatherTotals* known = nullptr);

/// Counts, over the rows of the device batch `batch` where the device flags `flags[0..rows)` are 1, the valid rows
/// of each column with NULLs and the string bytes of each plain VARCHAR column, into `totals` (device counters:
/// 2 * num_columns unsigned long longs, [0, n) valid rows, [n, 2n) bytes; zeroed by the caller). One launch; no
/// synchronization. The filter reads them back with the number of selected rows.
void count_selected_gpu(const Batch& batch, const uint8_t* flags, unsigned long long* totals, gpu::Stream stream);

}  // namespace kestrel::exec
