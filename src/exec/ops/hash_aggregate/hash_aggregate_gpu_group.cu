/// Grouping by sorting: the rows of a device batch sorted by their keys (sort_rows_gpu), group starts where
/// neighbours differ (rows_equal with NULL equal to NULL), compacted with CUB.

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <climits>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_kernels.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec::aggregate_gpu_detail {

namespace {

constexpr int kThreads = 256;

int blocks_for(size_t items) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 65535)));
}

BufferPtr device_buffer(size_t bytes, gpu::Stream stream, gpu::MemoryResource& mr) {
  return Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream);
}

/// flags[i] = 1 where sorted position i starts a group: the first position, a key change, or (with
/// max_group_rows > 0) a multiple of max_group_rows.
__global__ void boundary_kernel(DeviceKeys keys, const uint32_t* perm, size_t rows, size_t max_group_rows,
                                uint8_t* flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    bool starts = i == 0 || (max_group_rows > 0 && i % max_group_rows == 0);
    if (!starts) starts = !device_rows::rows_equal(keys, perm[i], keys, perm[i - 1], true);
    flags[i] = starts ? 1 : 0;
  }
}

/// first[g] = perm[offsets[g]].
__global__ void first_rows_kernel(const uint32_t* perm, const uint32_t* offsets, size_t groups, uint32_t* first) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    first[g] = perm[offsets[g]];
  }
}

}  // namespace

GroupLayout Grouping::layout() const {
  GroupLayout l;
  l.perm = perm ? perm->as<uint32_t>() : nullptr;
  l.offsets = offsets ? offsets->as<uint32_t>() : nullptr;
  l.rows = rows;
  l.groups = groups;
  l.chunk = 0;
  return l;
}

Grouping group_rows(const Batch& batch, const std::vector<size_t>& keys, size_t max_group_rows, gpu::Stream stream,
                    gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "group_rows");
  KESTREL_CHECK(!keys.empty());
  const size_t rows = batch.num_rows();
  if (rows > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU aggregation of 2^31 rows or more at once");
  const DeviceKeys device = device_keys(batch, keys);
  Grouping out;
  out.rows = rows;
  out.perm = device_buffer(rows * sizeof(uint32_t), stream, mr);
  out.offsets = device_buffer(rows * sizeof(uint32_t), stream, mr);
  out.first = device_buffer(rows * sizeof(uint32_t), stream, mr);
  if (rows == 0) return out;
  uint32_t* perm = out.perm->as<uint32_t>();
  sort_rows_gpu(device, DeviceSortOrder{}, rows, perm, stream, mr);

  BufferPtr flags = device_buffer(rows, stream, mr);
  boundary_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(device, perm, rows, max_group_rows,
                                                                       flags->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr selected = device_buffer(sizeof(int), stream, mr);
  thrust::counting_iterator<uint32_t> positions(0);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, positions, flags->as<uint8_t>(),
                                                out.offsets->as<uint32_t>(), selected->as<int>(),
                                                static_cast<int>(rows), stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(temp->data(), temp_bytes, positions, flags->as<uint8_t>(),
                                                out.offsets->as<uint32_t>(), selected->as<int>(),
                                                static_cast<int>(rows), stream.handle()));
  int groups = 0;
  // The host sizes every output column by the number of groups (copy_bytes to the host waits for it).
  gpu::copy_bytes(&groups, gpu::MemoryKind::kHost, selected->data(), gpu::MemoryKind::kDevice, sizeof(int), stream);
  out.groups = static_cast<size_t>(groups);
  first_rows_kernel<<<blocks_for(out.groups), kThreads, 0, stream.handle()>>>(
      perm, out.offsets->as<uint32_t>(), out.groups, out.first->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  return out;
}

}  // namespace kestrel::exec::aggregate_gpu_detail
