#include <cub/block/block_reduce.cuh>

#include "gpu/bitmap.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::gpu {

namespace {

constexpr int kBlockThreads = 256;

/// Each thread counts whole 32-bit words of the bitmap (grid-stride); the tail word is masked to `bits`.
__global__ void count_set_bits_kernel(const uint8_t* bitmap, size_t bits, unsigned long long* out) {
  using BlockReduce = cub::BlockReduce<unsigned long long, kBlockThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  size_t bytes = (bits + 7) / 8;
  size_t words = (bytes + 3) / 4;
  unsigned long long local = 0;
  for (size_t w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      size_t byte = w * 4 + b;
      if (byte < bytes) word |= static_cast<uint32_t>(bitmap[byte]) << (8 * b);
    }
    size_t first_bit = w * 32;
    if (first_bit + 32 > bits) word &= (bits - first_bit) >= 32 ? 0xffffffffu : ((1u << (bits - first_bit)) - 1);
    local += __popc(word);
  }
  unsigned long long block_total = BlockReduce(temp).Sum(local);
  if (threadIdx.x == 0 && block_total != 0) atomicAdd(out, block_total);
}

}  // namespace

size_t count_set_bits(const uint8_t* bitmap, size_t bits, Stream stream, MemoryResource& mr) {
  require_explicit_stream(stream, "count_set_bits");
  if (bits == 0) return 0;
  auto* total = static_cast<unsigned long long*>(mr.allocate(sizeof(unsigned long long), stream));
  KESTREL_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(unsigned long long), stream.handle()));
  size_t words = (bits + 31) / 32;
  int blocks = static_cast<int>(std::min<size_t>((words + kBlockThreads - 1) / kBlockThreads, 1024));
  count_set_bits_kernel<<<blocks, kBlockThreads, 0, stream.handle()>>>(bitmap, bits, total);
  KESTREL_CUDA_CHECK_LAUNCH();
  unsigned long long host_total = 0;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(&host_total, total, sizeof(host_total), cudaMemcpyDeviceToHost, stream.handle()));
  mr.deallocate(total, sizeof(unsigned long long), stream);
  // The caller needs the count on the host.
  stream.synchronize();
  return static_cast<size_t>(host_total);
}

}  // namespace kestrel::gpu
