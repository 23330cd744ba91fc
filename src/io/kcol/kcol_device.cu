#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "io/kcol/kcol_device.hpp"

namespace kestrel::io::kcol {

namespace {

constexpr int kWarpsPerBlock = 8;

/// One warp per kcol block of any job: the warp finds its job among the jobs' block ranges, then lane l produces the
/// block's values l, l + 32, ..., reading its own word stream (one 128-byte line per step for the warp).
__global__ void unpack_kernel(const UnpackJob* jobs, const uint64_t* starts, size_t job_count, size_t total_blocks,
                              uint32_t* error) {
  const size_t global = static_cast<size_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  if (global >= total_blocks) return;
  size_t lo = 0, hi = job_count;  // the last job whose start is at most `global`
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (starts[mid] <= global) lo = mid; else hi = mid;
  }
  const UnpackJob& job = jobs[lo];
  const size_t b = global - starts[lo];
  const BlockHeader h = job.blocks[b];
  if (h.width > 64 || h.word > job.word_count || 32ull * h.width > job.word_count - h.word) {
    if (lane == 0) atomicCAS(error, 0u, 1u);
    return;
  }
  const unsigned width = static_cast<unsigned>(h.width);
  const uint32_t* stream = job.words + h.word + lane;
  const size_t first = b * kBlockValues;
  const uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  bool bad = false;
#pragma unroll 4
  for (unsigned k = 0; k < kValuesPerLane; ++k) {
    const size_t row = first + static_cast<size_t>(k) * 32 + lane;
    uint64_t delta = 0;
    if (width > 0) {
      const unsigned bit = k * width;
      const unsigned w0 = bit / 32, shift = bit % 32;
      // Up to three words hold a value of up to 64 bits.
      uint64_t bits = static_cast<uint64_t>(__ldg(stream + static_cast<size_t>(w0) * 32)) >> shift;
      const unsigned have = 32 - shift;
      if (have < width) bits |= static_cast<uint64_t>(__ldg(stream + static_cast<size_t>(w0 + 1) * 32)) << have;
      if (have + 32 < width) bits |= static_cast<uint64_t>(__ldg(stream + static_cast<size_t>(w0 + 2) * 32)) << (have + 32);
      delta = bits & mask;
    }
    if (row >= job.rows) continue;
    const uint64_t v = static_cast<uint64_t>(h.base) + delta;
    bad = bad || (job.limit > 0 && v >= job.limit) || (job.boolean != 0 && v > 1);
    const uint64_t out = v + job.code_base;
    switch (job.out_width) {
      case 1: static_cast<int8_t*>(job.out)[row] = static_cast<int8_t>(out); break;
      case 2: static_cast<int16_t*>(job.out)[row] = static_cast<int16_t>(out); break;
      case 4: static_cast<int32_t*>(job.out)[row] = static_cast<int32_t>(out); break;
      default: static_cast<int64_t*>(job.out)[row] = static_cast<int64_t>(out);
    }
  }
  if (bad) atomicCAS(error, 0u, 1u);
}

__global__ void offsets_kernel(const int64_t* src, size_t count, uint64_t bytes, int64_t shift, bool write_last,
                               int64_t* dst, uint32_t* error) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i <= count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int64_t v = src[i];
    const bool bad = (i == 0 && v != 0) || (i > 0 && v < src[i - 1]) ||
                     (i == count && static_cast<uint64_t>(v) != bytes);
    if (bad) atomicCAS(error, 0u, 1u);
    if (dst != nullptr && (i < count || write_last)) dst[i] = v + shift;
  }
}

/// Thread per 32-bit word of `dst` that bits [offset, offset + bits) touch; `src` null means all valid.
__global__ void copy_bits_kernel(const uint8_t* src, size_t bits, uint32_t* dst, size_t offset) {
  const size_t first_word = offset / 32, last_word = (offset + bits - 1) / 32;
  for (size_t w = first_word + blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; w <= last_word;
       w += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint32_t word = 0;
    for (unsigned j = 0; j < 32; ++j) {
      const size_t d = w * 32 + j;
      if (d < offset || d >= offset + bits) continue;
      const size_t s = d - offset;
      const bool set = src == nullptr || ((src[s >> 3] >> (s & 7)) & 1) != 0;
      if (set) word |= 1u << j;
    }
    if (word != 0) atomicOr(dst + w, word);
  }
}

unsigned grid_for(size_t items) { return static_cast<unsigned>(std::min<size_t>((items + 255) / 256, 4096)); }

}  // namespace

void unpack_jobs_gpu(const UnpackJob* jobs, const uint64_t* starts, size_t job_count, size_t total_blocks,
                     uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "unpack_jobs_gpu");
  if (total_blocks == 0 || job_count == 0) return;
  const auto grid = static_cast<unsigned>((total_blocks + kWarpsPerBlock - 1) / kWarpsPerBlock);
  unpack_kernel<<<grid, kWarpsPerBlock * 32, 0, stream.handle()>>>(jobs, starts, job_count, total_blocks, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void copy_offsets_gpu(const int64_t* src, size_t count, uint64_t bytes, int64_t shift, bool write_last, int64_t* dst,
                      uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "copy_offsets_gpu");
  offsets_kernel<<<grid_for(count + 1), 256, 0, stream.handle()>>>(src, count, bytes, shift, write_last, dst, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void copy_bits_gpu(const uint8_t* src, size_t bits, uint8_t* dst, size_t offset, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "copy_bits_gpu");
  if (bits == 0) return;
  copy_bits_kernel<<<grid_for(bits / 32 + 2), 256, 0, stream.handle()>>>(src, bits, reinterpret_cast<uint32_t*>(dst),
                                                                       offset);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::io::kcol
