#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "io/kcol/kcol_device.hpp"

namespace kestrel::io::kcol {

namespace {

constexpr int kWarpsPerBlock = 8;

/// One warp per kcol block: lane l produces the block's values l, l + 32, ..., reading its own word stream.
__global__ void unpack_kernel(const BlockHeader* blocks, size_t block_count, const uint32_t* words, size_t word_count,
                              size_t rows, int out_width, uint64_t limit, bool boolean, void* out, uint32_t* error) {
  const size_t b = static_cast<size_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  if (b >= block_count) return;
  const BlockHeader h = blocks[b];
  if (h.width > 64 || h.word > word_count || 32ull * h.width > word_count - h.word) {
    if (lane == 0) atomicCAS(error, 0u, 1u);
    return;
  }
  const unsigned width = static_cast<unsigned>(h.width);
  const uint32_t* stream = words + h.word + lane;
  const size_t first = b * kBlockValues;
  for (unsigned k = 0; k < kValuesPerLane; ++k) {
    const size_t row = first + static_cast<size_t>(k) * 32 + lane;
    uint64_t delta = 0;
    if (width > 0) {
      const uint64_t bit = static_cast<uint64_t>(k) * width;
      const unsigned w0 = static_cast<unsigned>(bit / 32), shift = static_cast<unsigned>(bit % 32);
      // Up to three words hold a value of up to 64 bits.
      uint64_t lo = stream[static_cast<size_t>(w0) * 32];
      uint64_t bits = lo >> shift;
      unsigned have = 32 - shift;
      if (have < width) {
        bits |= static_cast<uint64_t>(stream[static_cast<size_t>(w0 + 1) * 32]) << have;
        have += 32;
      }
      if (have < width) bits |= static_cast<uint64_t>(stream[static_cast<size_t>(w0 + 2) * 32]) << have;
      delta = width == 64 ? bits : bits & ((1ull << width) - 1);
    }
    if (row >= rows) continue;
    const int64_t v = static_cast<int64_t>(static_cast<uint64_t>(h.base) + delta);
    if ((limit > 0 && static_cast<uint64_t>(v) >= limit) || (boolean && static_cast<uint64_t>(v) > 1)) {
      atomicCAS(error, 0u, 1u);
    }
    switch (out_width) {
      case 1: static_cast<int8_t*>(out)[row] = static_cast<int8_t>(v); break;
      case 2: static_cast<int16_t*>(out)[row] = static_cast<int16_t>(v); break;
      case 4: static_cast<int32_t*>(out)[row] = static_cast<int32_t>(v); break;
      default: static_cast<int64_t*>(out)[row] = v;
    }
  }
}

__global__ void offsets_kernel(const int64_t* offsets, size_t count, uint64_t bytes, uint32_t* error) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i <= count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const bool bad = (i == 0 && offsets[0] != 0) || (i > 0 && offsets[i] < offsets[i - 1]) ||
                     (i == count && static_cast<uint64_t>(offsets[count]) != bytes);
    if (bad) atomicCAS(error, 0u, 1u);
  }
}

}  // namespace

void unpack_blocks_gpu(const BlockHeader* blocks, size_t block_count, const uint32_t* words, size_t word_count,
                       size_t rows, int out_width, uint64_t limit, bool boolean, void* out, uint32_t* error,
                       gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "unpack_blocks_gpu");
  if (block_count == 0) return;
  const auto grid = static_cast<unsigned>((block_count + kWarpsPerBlock - 1) / kWarpsPerBlock);
  unpack_kernel<<<grid, kWarpsPerBlock * 32, 0, stream.handle()>>>(blocks, block_count, words, word_count, rows,
                                                                   out_width, limit, boolean, out, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void check_offsets_gpu(const int64_t* offsets, size_t count, uint64_t bytes, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "check_offsets_gpu");
  const size_t blocks = std::min<size_t>((count + 256) / 256, 4096);
  offsets_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream.handle()>>>(offsets, count, bytes, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::io::kcol
