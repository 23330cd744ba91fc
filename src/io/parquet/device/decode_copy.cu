/// copy_pieces: the gather of page bodies that are snappy literals only (snappy_literals.hpp) and of compressed
/// bodies realigned for the decompressor; rebase_addresses: the page tables' relative addresses made absolute.

#include <cuda_runtime.h>

#include <algorithm>

#include "gpu/cuda_check.hpp"
#include "io/parquet/device/device_decode.hpp"

namespace kestrel::io::parquet::device {

namespace {

constexpr int kCopyThreads = 256;

/// One block per piece: the bytes up to a 16-byte aligned destination one at a time, then 16-byte destination
/// words each assembled from the five aligned 4-byte source words it straddles (one funnel shift per word), then
/// the tail.
__global__ void copy_pieces_kernel(const CopyPiece* pieces) {
  const CopyPiece piece = pieces[blockIdx.x];
  const uint8_t* src = piece.src;
  uint8_t* dst = piece.dst;
  uint64_t n = piece.bytes;
  uint64_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
  if (head > n) head = n;
  if (threadIdx.x < head) dst[threadIdx.x] = src[threadIdx.x];
  src += head;
  dst += head;
  n -= head;
  const uint64_t quads = n / 16;
  const unsigned shift = static_cast<unsigned>(reinterpret_cast<uintptr_t>(src) & 3) * 8;
  const auto* s = reinterpret_cast<const uint32_t*>(reinterpret_cast<uintptr_t>(src) & ~uintptr_t{3});
  auto* d = reinterpret_cast<uint4*>(dst);
  if (shift == 0) {
    for (uint64_t i = threadIdx.x; i < quads; i += blockDim.x) {
      const uint32_t* w = s + 4 * i;
      d[i] = make_uint4(w[0], w[1], w[2], w[3]);
    }
  } else {
    // s[4i + 4] holds at least one byte of quad i, so it lies inside the source buffer's allocation.
    for (uint64_t i = threadIdx.x; i < quads; i += blockDim.x) {
      const uint32_t* w = s + 4 * i;
      const uint32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
      d[i] = make_uint4(__funnelshift_r(w0, w1, shift), __funnelshift_r(w1, w2, shift),
                        __funnelshift_r(w2, w3, shift), __funnelshift_r(w3, w4, shift));
    }
  }
  const uint64_t tail = n - quads * 16;
  if (threadIdx.x < tail) dst[quads * 16 + threadIdx.x] = src[quads * 16 + threadIdx.x];
}

__global__ void rebase_kernel(uint8_t* block, const uint64_t* slots, size_t count, AddressBases bases) {
  constexpr uint64_t kOffsetMask = (uint64_t{1} << kAddressBaseShift) - 1;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    auto* slot = reinterpret_cast<uint64_t*>(block + slots[i]);
    const uint64_t relative = *slot;
    *slot = reinterpret_cast<uint64_t>(bases.base[relative >> kAddressBaseShift]) + (relative & kOffsetMask);
  }
}

}  // namespace

void rebase_addresses(uint8_t* block, const uint64_t* slots, size_t count, const AddressBases& bases,
                      gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "rebase_addresses");
  if (count == 0) return;
  const size_t blocks = std::min<size_t>((count + kCopyThreads - 1) / kCopyThreads, 4096);
  rebase_kernel<<<static_cast<unsigned>(blocks), kCopyThreads, 0, stream.handle()>>>(block, slots, count, bases);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void copy_pieces(const CopyPiece* pieces, size_t count, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "copy_pieces");
  if (count == 0) return;
  copy_pieces_kernel<<<static_cast<unsigned>(count), kCopyThreads, 0, stream.handle()>>>(pieces);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace kestrel::io::parquet::device
