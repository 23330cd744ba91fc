/// The device side of the GPU window functions (window_gpu.hpp): boundaries of partitions and peer groups in the
/// sorted order, ranking values, the rows lag/lead/first_value/last_value read, and the group numbers of the
/// aggregates and their running-frame scan.

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "common/check.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/window/window_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec::window_gpu_detail {

namespace {

using Kind = WindowFunctionSpec::Kind;
using Frame = WindowFunctionSpec::Frame;

constexpr int kThreads = 256;

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 1 << 20)));
}

#define KESTREL_GRID_LOOP(i, n)                                                          \
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<size_t>(gridDim.x) * blockDim.x)

/// partition[i] = 1 where sorted position i starts a partition, peers[i] = 1 where it starts a peer group.
__global__ void starts_kernel(DeviceKeys partition_keys, DeviceKeys order_keys, const uint32_t* perm, size_t n,
                              uint32_t* partition, uint32_t* peers) {
  KESTREL_GRID_LOOP(i, n) {
    bool new_partition = i == 0;
    bool new_peers = new_partition;
    if (i > 0) {
      const uint32_t a = perm[i - 1], b = perm[i];
      new_partition = !device_rows::rows_equal(partition_keys, a, partition_keys, b, true);
      new_peers = new_partition || !device_rows::rows_equal(order_keys, a, order_keys, b, true);
    }
    partition[i] = new_partition ? 1u : 0u;
    peers[i] = new_peers ? 1u : 0u;
  }
}

/// From the inclusive sums of the start flags (1-based numbers): the first position of each number, and n after
/// the last number.
__global__ void first_positions_kernel(const uint32_t* partition, const uint32_t* peers, size_t n,
                                       uint32_t* partition_start, uint32_t* peers_start) {
  KESTREL_GRID_LOOP(i, n) {
    if (i == 0 || partition[i] != partition[i - 1]) partition_start[partition[i] - 1] = static_cast<uint32_t>(i);
    if (i == 0 || peers[i] != peers[i - 1]) peers_start[peers[i] - 1] = static_cast<uint32_t>(i);
    if (i + 1 == n) {
      partition_start[partition[i]] = static_cast<uint32_t>(n);
      peers_start[peers[i]] = static_cast<uint32_t>(n);
    }
  }
}

struct Position {
  int64_t index, partition_start, partition_end, peers_start, peers_end, dense_rank;
};

__device__ Position position_of(const uint32_t* partition, const uint32_t* peers, const uint32_t* partition_start,
                                const uint32_t* peers_start, size_t i) {
  Position p;
  p.index = static_cast<int64_t>(i);
  const uint32_t part = partition[i] - 1, peer = peers[i] - 1;
  p.partition_start = partition_start[part];
  p.partition_end = partition_start[part + 1];
  p.peers_start = peers_start[peer];
  p.peers_end = peers_start[peer + 1];
  p.dense_rank = static_cast<int64_t>(peer) - static_cast<int64_t>(peers[p.partition_start] - 1) + 1;
  return p;
}

__global__ void ranking_kernel(Kind kind, int64_t buckets, const uint32_t* partition, const uint32_t* peers,
                               const uint32_t* partition_start, const uint32_t* peers_start, const uint32_t* perm,
                               size_t n, int64_t* out_int, double* out_double) {
  KESTREL_GRID_LOOP(i, n) {
    const Position p = position_of(partition, peers, partition_start, peers_start, i);
    const int64_t row_number = p.index - p.partition_start + 1;
    const int64_t rank = p.peers_start - p.partition_start + 1;
    const int64_t size = p.partition_end - p.partition_start;
    switch (kind) {
      case Kind::kPercentRank:
        out_double[perm[i]] = size > 1 ? static_cast<double>(rank - 1) / static_cast<double>(size - 1) : 0.0;
        break;
      case Kind::kCumeDist:
        out_double[perm[i]] = static_cast<double>(p.peers_end - p.partition_start) / static_cast<double>(size);
        break;
      case Kind::kNtile: {
        // Buckets of size / buckets rows, the first size % buckets of them one row larger (as WindowSink).
        const int64_t position = row_number - 1, q = size / buckets, r = size % buckets;
        out_int[perm[i]] = 1 + (position < r * (q + 1) ? position / (q + 1) : r + (position - r * (q + 1)) / q);
        break;
      }
      case Kind::kRank: out_int[perm[i]] = rank; break;
      case Kind::kDenseRank: out_int[perm[i]] = p.dense_rank; break;
      default: out_int[perm[i]] = row_number; break;
    }
  }
}

__global__ void value_rows_kernel(Kind kind, Frame frame, int64_t offset, bool fallback, const uint32_t* partition,
                                  const uint32_t* peers, const uint32_t* partition_start, const uint32_t* peers_start,
                                  const uint32_t* perm, size_t n, uint32_t* source) {
  KESTREL_GRID_LOOP(i, n) {
    const Position p = position_of(partition, peers, partition_start, peers_start, i);
    int64_t j = p.index;
    switch (kind) {
      case Kind::kLag: j -= offset; break;
      case Kind::kLead: j += offset; break;
      case Kind::kFirstValue: j = p.partition_start; break;
      default:
        j = frame == Frame::kPartition ? p.partition_end - 1 : frame == Frame::kToLastPeer ? p.peers_end - 1 : p.index;
        break;
    }
    const bool inside = j >= p.partition_start && j < p.partition_end;
    source[perm[i]] = inside ? perm[j] : fallback ? static_cast<uint32_t>(n + perm[i]) : static_cast<uint32_t>(n);
  }
}

__global__ void groups_kernel(Frame frame, const uint32_t* partition, const uint32_t* peers,
                              const uint32_t* partition_start, const uint32_t* perm, size_t n, uint32_t* group_of,
                              int64_t* group_key, uint32_t* first_group) {
  KESTREL_GRID_LOOP(i, n) {
    const uint32_t start = partition_start[partition[i] - 1];
    uint32_t group, first;
    switch (frame) {
      case Frame::kPartition: group = first = partition[i] - 1; break;
      case Frame::kToLastPeer: group = peers[i] - 1, first = peers[start] - 1; break;
      default: group = static_cast<uint32_t>(i), first = start; break;
    }
    group_of[perm[i]] = group;
    group_key[perm[i]] = group;
    first_group[group] = first;  // every position of a group writes the same value
  }
}

__global__ void span_kernel(const uint32_t* first_group, size_t groups, uint32_t* span) {
  KESTREL_GRID_LOOP(g, groups) { span[g] = static_cast<uint32_t>(g) - first_group[g] + 1; }
}

__global__ void shifted_keys_kernel(const uint32_t* first_group, size_t groups, size_t d, int64_t* keys) {
  KESTREL_GRID_LOOP(k, groups - d) {
    keys[k] = first_group[k + d] <= k ? static_cast<int64_t>(k + d) : static_cast<int64_t>(groups);
  }
}

__global__ void iota_keys_kernel(size_t count, int64_t* keys) {
  KESTREL_GRID_LOOP(k, count) { keys[k] = static_cast<int64_t>(k); }
}

void inclusive_sum(uint32_t* values, size_t n, gpu::Stream stream, gpu::MemoryResource& mr) {
  const int count = static_cast<int>(n);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, values, values, count, stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp->data(), temp_bytes, values, values, count, stream.handle()));
}

}  // namespace

Boundaries find_boundaries(const DeviceKeys& partition, const DeviceKeys& order, const uint32_t* perm, size_t n,
                           gpu::Stream stream, gpu::MemoryResource& mr) {
  KESTREL_CHECK_GT(n, 0u);
  KESTREL_CHECK_LT(n, size_t{1} << 31);
  Boundaries b;
  b.partition = device_buffer(n * sizeof(uint32_t), stream, mr);
  b.peers = device_buffer(n * sizeof(uint32_t), stream, mr);
  b.partition_start = device_buffer((n + 1) * sizeof(uint32_t), stream, mr);
  b.peers_start = device_buffer((n + 1) * sizeof(uint32_t), stream, mr);
  starts_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(partition, order, perm, n, b.partition->as<uint32_t>(),
                                                                  b.peers->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  inclusive_sum(b.partition->as<uint32_t>(), n, stream, mr);
  inclusive_sum(b.peers->as<uint32_t>(), n, stream, mr);
  first_positions_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(
      b.partition->as<uint32_t>(), b.peers->as<uint32_t>(), n, b.partition_start->as<uint32_t>(),
      b.peers_start->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  return b;
}

ColumnPtr ranking_column(Kind kind, int64_t buckets, const Boundaries& b, const uint32_t* perm, size_t n,
                         gpu::Stream stream, gpu::MemoryResource& mr) {
  const bool fraction = kind == Kind::kPercentRank || kind == Kind::kCumeDist;
  ColumnPtr out = Column::make_fixed(fraction ? TypeId::kDouble : TypeId::kBigInt, n, false, mr, stream);
  ranking_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(
      kind, std::max<int64_t>(buckets, 1), b.partition->as<uint32_t>(), b.peers->as<uint32_t>(),
      b.partition_start->as<uint32_t>(), b.peers_start->as<uint32_t>(), perm, n,
      fraction ? nullptr : out->values()->as<int64_t>(), fraction ? out->values()->as<double>() : nullptr);
  KESTREL_CUDA_CHECK_LAUNCH();
  return out;
}

void value_rows(Kind kind, Frame frame, int64_t offset, bool fallback, const Boundaries& b, const uint32_t* perm,
                size_t n, uint32_t* source, gpu::Stream stream) {
  value_rows_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(
      kind, frame, offset, fallback, b.partition->as<uint32_t>(), b.peers->as<uint32_t>(),
      b.partition_start->as<uint32_t>(), b.peers_start->as<uint32_t>(), perm, n, source);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void aggregate_groups(Frame frame, const Boundaries& b, const uint32_t* perm, size_t n, uint32_t* group_of,
                      int64_t* group_key, uint32_t* first_group, gpu::Stream stream) {
  groups_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(frame, b.partition->as<uint32_t>(),
                                                                  b.peers->as<uint32_t>(),
                                                                  b.partition_start->as<uint32_t>(), perm, n,
                                                                  group_of, group_key, first_group);
  KESTREL_CUDA_CHECK_LAUNCH();
}

size_t longest_partition(const uint32_t* first_group, size_t groups, gpu::Stream stream, gpu::MemoryResource& mr) {
  if (groups == 0) return 0;
  BufferPtr span = device_buffer(groups * sizeof(uint32_t), stream, mr);
  BufferPtr result = device_buffer(sizeof(uint32_t), stream, mr);
  span_kernel<<<blocks_for(groups), kThreads, 0, stream.handle()>>>(first_group, groups, span->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  size_t temp_bytes = 0;
  const int count = static_cast<int>(groups);
  KESTREL_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, temp_bytes, span->as<uint32_t>(), result->as<uint32_t>(), count,
                                            stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceReduce::Max(temp->data(), temp_bytes, span->as<uint32_t>(), result->as<uint32_t>(),
                                            count, stream.handle()));
  uint32_t longest = 0;
  gpu::copy_bytes(&longest, gpu::MemoryKind::kHost, result->data(), gpu::MemoryKind::kDevice, sizeof(longest), stream);
  return longest;
}

void shifted_keys(const uint32_t* first_group, size_t groups, size_t d, int64_t* keys, gpu::Stream stream) {
  if (d >= groups) return;
  shifted_keys_kernel<<<blocks_for(groups - d), kThreads, 0, stream.handle()>>>(first_group, groups, d, keys);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void iota_keys(size_t count, int64_t* keys, gpu::Stream stream) {
  if (count == 0) return;
  iota_keys_kernel<<<blocks_for(count), kThreads, 0, stream.handle()>>>(count, keys);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::window_gpu_detail
