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

}  // namespace

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
