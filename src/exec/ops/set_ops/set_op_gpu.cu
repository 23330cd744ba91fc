/// The device side of the GPU set operations: which rows of the sorted left + right rows are output.

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>

#include "common/check.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/set_ops/set_op_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 1 << 20)));
}

/// How many times the set operation outputs a row seen `left` and `right` times (SetOpState::copies).
struct CopiesRule {
  plan::SetOpKind op;
  bool all;

  __device__ uint32_t operator()(uint32_t left, uint32_t right) const {
    switch (op) {
      case plan::SetOpKind::kUnion: return all ? left + right : 1;
      case plan::SetOpKind::kIntersect: return all ? (left < right ? left : right) : (left > 0 && right > 0 ? 1 : 0);
      case plan::SetOpKind::kExcept: return all ? (left > right ? left - right : 0) : (left > 0 && right == 0 ? 1 : 0);
    }
    return 0;
  }
};

/// head[p] = 1 where sorted position p starts a run of equal rows; left[p] = 1 where its row is a left row.
__global__ void run_heads_kernel(DeviceKeys keys, const uint32_t* order, size_t rows, size_t left_rows,
                                 uint32_t* head, uint32_t* left) {
  for (size_t p = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; p < rows;
       p += static_cast<size_t>(gridDim.x) * blockDim.x) {
    head[p] = p == 0 || !device_rows::rows_equal(keys, order[p - 1], keys, order[p], true) ? 1 : 0;
    left[p] = order[p] < left_rows ? 1 : 0;
  }
}

/// From run[p] (the 1-based run number of position p, non-decreasing): first[r] and end[r], the positions where run
/// r begins and ends (exclusive). Each is written by exactly one thread.
__global__ void run_bounds_kernel(const uint32_t* run, size_t rows, uint32_t* first, uint32_t* end) {
  for (size_t p = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; p < rows;
       p += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t r = run[p] - 1;
    if (p == 0 || run[p - 1] != run[p]) first[r] = static_cast<uint32_t>(p);
    if (p + 1 == rows || run[p + 1] != run[p]) end[r] = static_cast<uint32_t>(p + 1);
  }
}

/// keep[p] = 1 where position p is among the first copies(l, r) positions of its run, with l and r the run's left
/// and right rows (from the inclusive prefix sums of left rows, left_prefix).
__global__ void keep_kernel(const uint32_t* run, const uint32_t* left_prefix, const uint32_t* first,
                            const uint32_t* end, size_t rows, CopiesRule copies, uint8_t* keep) {
  for (size_t p = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; p < rows;
       p += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t r = run[p] - 1;
    const uint32_t s = first[r];
    const uint32_t e = end[r];
    const uint32_t left = left_prefix[e - 1] - (s == 0 ? 0 : left_prefix[s - 1]);
    const uint32_t right = (e - s) - left;
    keep[p] = static_cast<uint32_t>(p) - s < copies(left, right) ? 1 : 0;
  }
}

/// out[p] = inclusive prefix sum of in[0..p] (uint32), queued on `stream`.
void inclusive_sum(const uint32_t* in, uint32_t* out, size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in, out, static_cast<int>(rows), stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(temp->data(), temp_bytes, in, out, static_cast<int>(rows), stream.handle()));
}

}  // namespace

size_t set_op_output_rows_gpu(const DeviceKeys& keys, size_t rows, size_t left_rows, plan::SetOpKind op, bool all,
                              uint32_t* out, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "set_op_output_rows_gpu");
  KESTREL_CHECK_LE(left_rows, rows);
  if (rows == 0) return 0;
  KESTREL_CHECK_MSG(rows < (size_t{1} << 31), "set_op_output_rows_gpu: 2^31 rows or more");
  // Equal rows side by side; the sort is stable, so each run lists its left rows (ids below left_rows) first.
  BufferPtr order = device_buffer(rows * sizeof(uint32_t), stream, mr);
  sort_rows_gpu(keys, DeviceSortOrder{}, rows, order->as<uint32_t>(), stream, mr);

  BufferPtr head = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr left = device_buffer(rows * sizeof(uint32_t), stream, mr);
  run_heads_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(keys, order->as<uint32_t>(), rows, left_rows,
                                                                       head->as<uint32_t>(), left->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr run = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr left_prefix = device_buffer(rows * sizeof(uint32_t), stream, mr);
  inclusive_sum(head->as<uint32_t>(), run->as<uint32_t>(), rows, stream, mr);
  inclusive_sum(left->as<uint32_t>(), left_prefix->as<uint32_t>(), rows, stream, mr);

  // Runs are at most `rows`; the head and left flags are no longer needed: their buffers hold the run bounds.
  uint32_t* first = head->as<uint32_t>();
  uint32_t* end = left->as<uint32_t>();
  run_bounds_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(run->as<uint32_t>(), rows, first, end);
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr keep = device_buffer(rows, stream, mr);
  keep_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(run->as<uint32_t>(), left_prefix->as<uint32_t>(),
                                                                  first, end, rows, CopiesRule{op, all},
                                                                  keep->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();

  BufferPtr selected = device_buffer(sizeof(int), stream, mr);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, order->as<uint32_t>(), keep->as<uint8_t>(), out,
                                                selected->as<int>(), static_cast<int>(rows), stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(temp->data(), temp_bytes, order->as<uint32_t>(), keep->as<uint8_t>(),
                                                out, selected->as<int>(), static_cast<int>(rows), stream.handle()));
  int count = 0;
  // The host sizes the output by the count (copy_bytes to the host waits for it, so the scratch above is done).
  gpu::copy_bytes(&count, gpu::MemoryKind::kHost, selected->data(), gpu::MemoryKind::kDevice, sizeof(int), stream);
  return static_cast<size_t>(count);
}

}  // namespace kestrel::exec
