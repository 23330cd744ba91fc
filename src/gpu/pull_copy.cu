#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gpu/cuda_check.hpp"
#include "gpu/pull_copy.hpp"

namespace kestrel::gpu {

namespace {

constexpr int kPullThreads = 256;

/// 16-byte words while both sides are aligned, then the tail one byte per thread. The host side is read with
/// cache-volatile loads: the pinned block is reused for other data later, and no stale line may serve it.
__global__ void pull_kernel(uint8_t* dst, const uint8_t* src, size_t bytes, size_t words) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const auto* in = reinterpret_cast<const uint4*>(src);
  auto* out = reinterpret_cast<uint4*>(dst);
  for (size_t i = first; i < words; i += stride) out[i] = __ldcv(in + i);
  for (size_t i = words * 16 + first; i < bytes; i += stride) dst[i] = __ldcv(reinterpret_cast<const char*>(src + i));
}

/// Block b copies pieces b, b + gridDim.x, ...: 16-byte words four at a time per thread when both sides are
/// aligned (more reads in flight over PCIe), bytes otherwise.
__global__ void pull_pieces_kernel(const PullPiece* pieces, size_t count) {
  for (size_t p = blockIdx.x; p < count; p += gridDim.x) {
    const PullPiece piece = pieces[p];
    const auto* src = static_cast<const uint8_t*>(piece.src);
    auto* dst = static_cast<uint8_t*>(piece.dst);
    size_t words = 0;
    if ((reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst)) % 16 == 0) {
      words = piece.bytes / 16;
      const auto* in = reinterpret_cast<const uint4*>(src);
      auto* out = reinterpret_cast<uint4*>(dst);
      const size_t step = blockDim.x;
      size_t i = threadIdx.x;
      for (; i + 3 * step < words; i += 4 * step) {
        const uint4 a = __ldcv(in + i), b = __ldcv(in + i + step), c = __ldcv(in + i + 2 * step),
                    d = __ldcv(in + i + 3 * step);
        out[i] = a;
        out[i + step] = b;
        out[i + 2 * step] = c;
        out[i + 3 * step] = d;
      }
      for (; i < words; i += step) out[i] = __ldcv(in + i);
    }
    for (size_t i = words * 16 + threadIdx.x; i < piece.bytes; i += blockDim.x) {
      dst[i] = __ldcv(reinterpret_cast<const char*>(src + i));
    }
  }
}

}  // namespace

void pull_pieces_to_device(const PullPiece* pieces, size_t count, unsigned blocks, Stream stream) {
  require_explicit_stream(stream, "pull_pieces_to_device");
  if (count == 0) return;
  pull_pieces_kernel<<<std::max(1u, blocks), 512, 0, stream.handle()>>>(pieces, count);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void pull_pinned_to_device(void* dst, const void* src, size_t bytes, Stream stream) {
  require_explicit_stream(stream, "pull_pinned_to_device");
  if (bytes == 0) return;
  const bool aligned = (reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) % 16 == 0;
  const size_t words = aligned ? bytes / 16 : 0;
  const size_t units = std::max<size_t>(words, aligned ? bytes % 16 : bytes);
  // Enough threads in flight to cover PCIe latency, no more than the work.
  const unsigned blocks = static_cast<unsigned>(std::clamp<size_t>((units + kPullThreads - 1) / kPullThreads, 1, 528));
  pull_kernel<<<blocks, kPullThreads, 0, stream.handle()>>>(static_cast<uint8_t*>(dst),
                                                            static_cast<const uint8_t*>(src), bytes, words);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::gpu
