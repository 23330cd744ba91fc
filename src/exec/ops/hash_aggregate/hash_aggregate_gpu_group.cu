/// Grouping of the rows of a device batch: by sorting them by their keys (sort_rows_gpu; group starts where
/// neighbours differ by rows_equal with NULL equal to NULL), or by a hash table that numbers the groups (a small
/// table for few groups, one of twice the rows for many) followed by a radix sort of the row ids by group number.
/// Group starts are compacted with CUB.

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <atomic>
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

/// Slots of the first hash grouping table tried (a power of two); more than half of them taken means too many groups
/// for it, and a table of at least twice the rows is tried next (its slot numbers need more radix sort passes).
constexpr int kSmallTableBits = 16;
/// The biggest table tried (2^31 slots would not fit the uint32 slot numbers with kEmptySlot reserved).
constexpr int kMaxTableBits = 30;
constexpr uint32_t kEmptySlot = 0xffffffffu;
/// Probes after which a row gives up (the hash grouping then fails and the caller sorts instead).
constexpr int kMaxProbes = 64;

/// slot_of[row] = the slot of the table (open addressing, linear probing) whose representative row has row's keys;
/// the first row of a group claims an empty slot with atomicCAS. Sets *failed (and stops early) when more than
/// `limit` slots are taken or a row finds no slot within kMaxProbes probes.
__global__ void hash_insert_kernel(DeviceKeys keys, size_t rows, uint32_t* table, uint32_t slot_mask,
                                   uint32_t* slot_of, unsigned int* claimed, unsigned int limit, int* failed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (*static_cast<volatile int*>(failed) != 0) return;
    const uint32_t row = static_cast<uint32_t>(i);
    uint32_t slot = static_cast<uint32_t>(device_rows::hash_row(keys, row)) & slot_mask;
    bool placed = false;
    for (int probe = 0; probe < kMaxProbes && !placed; ++probe) {
      uint32_t holder = *static_cast<volatile uint32_t*>(&table[slot]);
      if (holder == kEmptySlot) {
        holder = atomicCAS(&table[slot], kEmptySlot, row);
        if (holder == kEmptySlot) {
          if (atomicAdd(claimed, 1u) >= limit) *static_cast<volatile int*>(failed) = 1;
          placed = true;
          break;
        }
      }
      if (device_rows::rows_equal(keys, holder, keys, row, true)) {
        placed = true;
      } else {
        slot = (slot + 1) & slot_mask;
      }
    }
    if (!placed) {
      *static_cast<volatile int*>(failed) = 1;
      return;
    }
    slot_of[row] = slot;
  }
}

__global__ void iota_kernel(uint32_t* out, size_t rows) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = static_cast<uint32_t>(i);
  }
}

/// flags[i] = 1 where position i of the rows sorted by slot starts a group (or a run of max_group_rows).
__global__ void slot_boundary_kernel(const uint32_t* sorted_slots, size_t rows, size_t max_group_rows,
                                     uint8_t* flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const bool starts =
        i == 0 || (max_group_rows > 0 && i % max_group_rows == 0) || sorted_slots[i] != sorted_slots[i - 1];
    flags[i] = starts ? 1 : 0;
  }
}

/// Threads of dense_slots_kernel (one block) and the slots each of them ranks.
constexpr int kRankThreads = 1024;

/// Dense group numbers of a small hash table (2^kSmallTableBits slots): the occupied slots numbered in slot order
/// (the order the radix sort by slot gives the groups), dense_of_slot[slot] = its number and first[number] = the
/// row that claimed it. One block.
__global__ void dense_slots_kernel(const uint32_t* table, uint8_t* dense_of_slot, uint32_t* first) {
  using Scan = cub::BlockScan<int, kRankThreads>;
  __shared__ typename Scan::TempStorage scan;
  constexpr int kPerThread = (1 << kSmallTableBits) / kRankThreads;
  const int begin = threadIdx.x * kPerThread;
  int taken = 0;
  for (int s = begin; s < begin + kPerThread; ++s) taken += table[s] != kEmptySlot ? 1 : 0;
  int rank = 0;
  Scan(scan).ExclusiveSum(taken, rank);
  for (int s = begin; s < begin + kPerThread; ++s) {
    if (table[s] == kEmptySlot) continue;
    dense_of_slot[s] = static_cast<uint8_t>(rank);
    first[rank] = table[s];
    ++rank;
  }
}

/// group_of[row] = dense_of_slot[slot_of[row]].
__global__ void dense_rows_kernel(const uint32_t* slot_of, const uint8_t* dense_of_slot, size_t rows,
                                  uint8_t* group_of) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    group_of[i] = dense_of_slot[slot_of[i]];
  }
}

std::atomic<size_t> g_dense_groupings{0};

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
  l.group_of = group_of ? group_of->as<uint8_t>() : nullptr;
  l.rows = rows;
  l.groups = groups;
  l.chunk = 0;
  return l;
}

namespace {

/// Numbers the rows' groups with a hash table of 2^table_bits slots (slot_of[row] = its group's slot; *table_out
/// the table, each taken slot holding the row that claimed it); false when more than half the slots were taken or
/// a row found no slot, else *groups = the slots taken. Synchronizes `stream` once, for the flag and the count.
bool hash_number_rows(const DeviceKeys& keys, size_t rows, int table_bits, uint32_t* slot_of, BufferPtr* table_out,
                      size_t* groups, gpu::Stream stream, gpu::MemoryResource& mr) {
  const size_t slots = size_t{1} << table_bits;
  BufferPtr table = device_buffer(slots * sizeof(uint32_t), stream, mr);
  *table_out = table;
  gpu::fill_bytes(table->data(), gpu::MemoryKind::kDevice, 0xff, slots * sizeof(uint32_t), stream);
  BufferPtr state = device_buffer(2 * sizeof(int), stream, mr);  // [claimed slots, failed]
  gpu::fill_bytes(state->data(), gpu::MemoryKind::kDevice, 0, 2 * sizeof(int), stream);
  hash_insert_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
      keys, rows, table->as<uint32_t>(), static_cast<uint32_t>(slots - 1), slot_of, state->as<unsigned int>(),
      static_cast<unsigned int>(slots / 2), state->as<int>() + 1);
  KESTREL_CUDA_CHECK_LAUNCH();
  int host_state[2] = {0, 0};
  // Whether the table held the groups decides the method (copy_bytes to the host waits for the kernel).
  gpu::copy_bytes(host_state, gpu::MemoryKind::kHost, state->data(), gpu::MemoryKind::kDevice, sizeof(host_state),
                  stream);
  *groups = static_cast<size_t>(static_cast<unsigned int>(host_state[0]));
  return host_state[1] == 0;
}

/// Sorts the row ids of `out` by group number with a hash table: first one of 2^16 slots (few groups, two radix
/// passes), then, when the batch has more groups, one of at least twice the rows. False (nothing written) when
/// neither held the groups. When the first table holds at most `dense_groups` groups nothing is sorted: *dense is
/// set and out.group_of, out.first and out.groups are complete. Otherwise out.perm must have room for the rows.
bool hash_sort_rows(const DeviceKeys& keys, size_t rows, size_t max_group_rows, size_t dense_groups, Grouping& out,
                    bool* dense, uint8_t* flags, gpu::Stream stream, gpu::MemoryResource& mr) {
  BufferPtr slot_of = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr table;
  size_t taken = 0;
  int table_bits = kSmallTableBits;
  if (hash_number_rows(keys, rows, table_bits, slot_of->as<uint32_t>(), &table, &taken, stream, mr)) {
    if (taken <= dense_groups) {
      BufferPtr dense_of_slot = device_buffer(size_t{1} << kSmallTableBits, stream, mr);
      out.first = device_buffer(std::max<size_t>(taken, 1) * sizeof(uint32_t), stream, mr);
      dense_slots_kernel<<<1, kRankThreads, 0, stream.handle()>>>(table->as<uint32_t>(), dense_of_slot->as<uint8_t>(),
                                                                  out.first->as<uint32_t>());
      KESTREL_CUDA_CHECK_LAUNCH();
      out.group_of = device_buffer(rows, stream, mr);
      dense_rows_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
          slot_of->as<uint32_t>(), dense_of_slot->as<uint8_t>(), rows, out.group_of->as<uint8_t>());
      KESTREL_CUDA_CHECK_LAUNCH();
      out.groups = taken;
      *dense = true;
      g_dense_groupings.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
  } else {
    table_bits = kSmallTableBits + 1;
    while (table_bits < kMaxTableBits && (size_t{1} << table_bits) < 2 * rows) ++table_bits;
    if ((size_t{1} << table_bits) < 2 * rows) return false;
    if (!hash_number_rows(keys, rows, table_bits, slot_of->as<uint32_t>(), &table, &taken, stream, mr)) return false;
  }
  table.reset();
  BufferPtr ids = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr sorted_slots = device_buffer(rows * sizeof(uint32_t), stream, mr);
  iota_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(ids->as<uint32_t>(), rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  // Stable LSD radix sort: rows of one group keep their input order (any_value keeps the first).
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, slot_of->as<uint32_t>(),
                                                     sorted_slots->as<uint32_t>(), ids->as<uint32_t>(),
                                                     out.perm->as<uint32_t>(), static_cast<int>(rows), 0,
                                                     table_bits, stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp->data(), temp_bytes, slot_of->as<uint32_t>(),
                                                     sorted_slots->as<uint32_t>(), ids->as<uint32_t>(),
                                                     out.perm->as<uint32_t>(), static_cast<int>(rows), 0,
                                                     table_bits, stream.handle()));
  slot_boundary_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(sorted_slots->as<uint32_t>(), rows,
                                                                           max_group_rows, flags);
  KESTREL_CUDA_CHECK_LAUNCH();
  return true;
}

}  // namespace

size_t dense_groupings() { return g_dense_groupings.load(std::memory_order_relaxed); }

Grouping group_rows(const Batch& batch, const std::vector<size_t>& keys, size_t max_group_rows, bool* try_hash,
                    size_t dense_groups, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "group_rows");
  KESTREL_CHECK(!keys.empty());
  KESTREL_CHECK_LE(dense_groups, kMaxDenseGroups);
  const size_t rows = batch.num_rows();
  if (rows > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU aggregation of 2^31 rows or more at once");
  const DeviceKeys device = device_keys(batch, keys);
  Grouping out;
  out.rows = rows;
  if (rows == 0) {
    out.perm = device_buffer(0, stream, mr);
    out.offsets = device_buffer(0, stream, mr);
    out.first = device_buffer(0, stream, mr);
    return out;
  }
  BufferPtr flags = device_buffer(rows, stream, mr);
  bool dense = false;
  out.perm = device_buffer(rows * sizeof(uint32_t), stream, mr);
  const bool hashed = try_hash != nullptr && *try_hash &&
                      hash_sort_rows(device, rows, max_group_rows, dense_groups, out, &dense, flags->as<uint8_t>(),
                                     stream, mr);
  if (try_hash != nullptr && !hashed) *try_hash = false;
  if (dense) {
    out.perm.reset();
    return out;
  }
  uint32_t* perm = out.perm->as<uint32_t>();
  out.offsets = device_buffer(rows * sizeof(uint32_t), stream, mr);
  out.first = device_buffer(rows * sizeof(uint32_t), stream, mr);
  if (!hashed) {
    sort_rows_gpu(device, DeviceSortOrder{}, rows, perm, stream, mr);
    boundary_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(device, perm, rows, max_group_rows,
                                                                         flags->as<uint8_t>());
    KESTREL_CUDA_CHECK_LAUNCH();
  }
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
