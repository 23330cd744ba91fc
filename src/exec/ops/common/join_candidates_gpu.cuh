#pragma once
/// Candidate (probe row, build row) pairs of the GPU joins, enumerated on the device and handed out in steps of at
/// most a given number of pairs. Include from .cu files only.
///
/// A candidate source C is a struct passed to kernels by value with
///   template <typename Visit> __device__ void visit(size_t probe_row, Visit& visit) const;
/// which calls visit(build_row) for every candidate of the probe row, always in the same order, and stops early
/// when visit returns false. The hash join's candidates are the build rows with equal keys, the nested-loop
/// join's every build row.

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "common/check.hpp"
#include "common/error.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/buffer.hpp"

namespace kestrel::exec::join_gpu {

inline constexpr int kCandidateThreads = 256;

inline int candidate_blocks(size_t items) {
  return static_cast<int>(
      std::max<size_t>(1, std::min<size_t>((items + kCandidateThreads - 1) / kCandidateThreads, 65535)));
}

/// Counts the candidates of a row.
struct CountVisit {
  uint64_t count = 0;
  __device__ bool operator()(uint32_t) {
    ++count;
    return true;
  }
};

/// Stops at the first candidate.
struct AnyVisit {
  bool found = false;
  __device__ bool operator()(uint32_t) {
    found = true;
    return false;
  }
};

/// Writes the candidates of one probe row whose global pair numbers fall in [lo, hi) to the step's arrays (at the
/// pair number minus `step_first`); `next` is the pair number of the row's next candidate.
struct WriteVisit {
  uint64_t next;
  uint64_t lo;
  uint64_t hi;
  uint64_t step_first;
  uint32_t probe_row;
  uint32_t* probe_out;
  uint32_t* build_out;
  __device__ bool operator()(uint32_t build_row) {
    if (next >= hi) return false;
    if (next >= lo) {
      probe_out[next - step_first] = probe_row;
      build_out[next - step_first] = build_row;
    }
    ++next;
    return true;
  }
};

/// Counts the candidates of a row and keeps the first.
struct CountFirstVisit {
  uint64_t count = 0;
  uint32_t first = 0;
  __device__ bool operator()(uint32_t build_row) {
    if (count == 0) first = build_row;
    ++count;
    return true;
  }
};

/// counts[r] = the candidates of probe row r, firsts[r] its first candidate (kept only where it has one);
/// *not_one becomes non-zero when some row has other than one.
template <typename C>
__global__ void count_candidates_kernel(C candidates, size_t rows, uint64_t* counts, uint32_t* firsts,
                                        uint64_t* not_one) {
  for (size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<size_t>(gridDim.x) * blockDim.x) {
    CountFirstVisit visit;
    candidates.visit(r, visit);
    counts[r] = visit.count;
    if (visit.count != 0) firsts[r] = visit.first;
    // Written once: later rows see it set (a volatile read) and leave it alone.
    if (visit.count != 1 && *static_cast<volatile uint64_t*>(not_one) == 0) {
      atomicExch(reinterpret_cast<unsigned long long*>(not_one), 1ULL);
    }
  }
}

template <typename C, typename Flag>
__global__ void any_candidate_kernel(C candidates, size_t rows, Flag* flags) {
  for (size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<size_t>(gridDim.x) * blockDim.x) {
    AnyVisit visit;
    candidates.visit(r, visit);
    flags[r] = visit.found ? 1 : 0;
  }
}

/// Writes the pairs numbered [first, last) (numbers from the exclusive scan `offsets` of the per-row counts). A row
/// with one candidate takes it from `firsts` (count_candidates_kernel kept it) instead of walking its candidates
/// again: the common case of a lookup into unique keys costs one walk, not two.
template <typename C>
__global__ void write_candidates_kernel(C candidates, size_t rows, const uint64_t* offsets, const uint32_t* firsts,
                                        uint64_t first, uint64_t last, uint32_t* probe_out, uint32_t* build_out) {
  for (size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint64_t begin = offsets[r];
    const uint64_t end = offsets[r + 1];
    const uint64_t lo = begin > first ? begin : first;
    const uint64_t hi = end < last ? end : last;
    if (lo >= hi) continue;
    if (end - begin == 1) {
      probe_out[begin - first] = static_cast<uint32_t>(r);
      build_out[begin - first] = firsts[r];
      continue;
    }
    WriteVisit visit{begin, lo, hi, first, static_cast<uint32_t>(r), probe_out, build_out};
    candidates.visit(r, visit);
  }
}

/// flags[r] = 1 where probe row r has at least one candidate, else 0 (`rows` > 0). Each row stops at its first
/// candidate: an existence test without pairs.
template <typename C, typename Flag>
void flag_rows_with_candidates(const C& candidates, size_t rows, Flag* flags, gpu::Stream stream) {
  any_candidate_kernel<C, Flag>
      <<<candidate_blocks(rows), kCandidateThreads, 0, stream.handle()>>>(candidates, rows, flags);
  KESTREL_CUDA_CHECK_LAUNCH();
}

/// Calls fn(probe_rows, build_rows, count) with device arrays of every candidate pair of probe rows [0, rows), in
/// steps of at most `step_pairs` pairs, ordered on `stream`. fn must queue its device work on `stream` too: the
/// arrays are rewritten by the next step. Synchronizes `stream` once, for the number of pairs. With `identity`
/// non-null, *identity is set before fn is called: true when every probe row has exactly one candidate; one step
/// then holds them all, whatever `step_pairs`, and probe_rows[i] = i.
template <typename C, typename Fn>
void for_each_candidate_step(const C& candidates, size_t rows, size_t step_pairs, gpu::Stream stream,
                             gpu::MemoryResource& mr, Fn&& fn, bool* identity = nullptr) {
  if (identity != nullptr) *identity = false;
  if (rows == 0) return;
  KESTREL_CHECK_LT(rows, size_t{INT32_MAX});
  step_pairs = std::max<size_t>(step_pairs, 1);
  const int n = static_cast<int>(rows) + 1;
  BufferPtr counts = Buffer::allocate(n * sizeof(uint64_t), mr, stream);
  BufferPtr firsts = Buffer::allocate(rows * sizeof(uint32_t), mr, stream);
  // offsets[rows] ends as the number of pairs; offsets[rows + 1] is the flag of rows without exactly one candidate
  // (read back together).
  BufferPtr offsets = Buffer::allocate((n + 1) * sizeof(uint64_t), mr, stream);
  gpu::fill_bytes(counts->as<uint64_t>() + rows, gpu::MemoryKind::kDevice, 0, sizeof(uint64_t), stream);
  gpu::fill_bytes(offsets->as<uint64_t>() + n, gpu::MemoryKind::kDevice, 0, sizeof(uint64_t), stream);
  count_candidates_kernel<C><<<candidate_blocks(rows), kCandidateThreads, 0, stream.handle()>>>(
      candidates, rows, counts->as<uint64_t>(), firsts->as<uint32_t>(), offsets->as<uint64_t>() + n);
  KESTREL_CUDA_CHECK_LAUNCH();
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts->as<uint64_t>(),
                                                   offsets->as<uint64_t>(), n, stream.handle()));
  BufferPtr temp = Buffer::allocate(std::max<size_t>(temp_bytes, 8), mr, stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp->data(), temp_bytes, counts->as<uint64_t>(),
                                                   offsets->as<uint64_t>(), n, stream.handle()));
  uint64_t tail[2] = {0, 0};
  // The host needs the number of pairs to size the pair arrays and plan the steps.
  gpu::copy_bytes(tail, gpu::MemoryKind::kHost, offsets->as<uint64_t>() + rows, gpu::MemoryKind::kDevice,
                  sizeof(tail), stream);
  const uint64_t total = tail[0];
  if (total == 0) return;
  // One candidate per probe row: the pairs are the probe rows in order, and a caller that reuses the probe columns
  // takes them in one step (its pair batch grows only by the build columns).
  const bool one_each = tail[1] == 0 && total == rows && identity != nullptr;
  const size_t step =
      one_each ? static_cast<size_t>(total) : static_cast<size_t>(std::min<uint64_t>(total, step_pairs));
  if (identity != nullptr) *identity = one_each;
  BufferPtr probe_out = Buffer::allocate(step * sizeof(uint32_t), mr, stream);
  BufferPtr build_out = Buffer::allocate(step * sizeof(uint32_t), mr, stream);
  for (uint64_t first = 0; first < total; first += step) {
    const uint64_t last = std::min<uint64_t>(total, first + step);
    write_candidates_kernel<C><<<candidate_blocks(rows), kCandidateThreads, 0, stream.handle()>>>(
        candidates, rows, offsets->as<uint64_t>(), firsts->as<uint32_t>(), first, last, probe_out->as<uint32_t>(),
        build_out->as<uint32_t>());
    KESTREL_CUDA_CHECK_LAUNCH();
    fn(static_cast<const uint32_t*>(probe_out->as<uint32_t>()), static_cast<const uint32_t*>(build_out->as<uint32_t>()),
       static_cast<size_t>(last - first));
  }
}

}  // namespace kestrel::exec::join_gpu
