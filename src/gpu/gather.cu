#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gather.hpp"

namespace kestrel::gpu {

namespace {

constexpr int kBlockThreads = 256;

int blocks_for(size_t items) {
  return static_cast<int>(std::min<size_t>((items + kBlockThreads - 1) / kBlockThreads, 65535));
}

__device__ inline bool bit_at(const uint8_t* bitmap, size_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }

/// flags[i] = 1 when row i is TRUE and valid.
__global__ void true_flags_kernel(const uint8_t* values, const uint8_t* validity, size_t rows, uint8_t* flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    flags[i] = values[i] != 0 && (validity == nullptr || bit_at(validity, i)) ? 1 : 0;
  }
}

/// A value of `Width` bytes, copied as one aligned unit.
template <size_t Width>
struct alignas(Width) Bytes {
  unsigned char b[Width];
};

template <typename T>
__global__ void gather_fixed_kernel(const T* src, const uint32_t* indices, size_t count, T* dst) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    dst[i] = src[indices[i]];
  }
}

/// Scratch memory from `mr`, freed on `stream` when it goes out of scope.
class Scratch {
 public:
  Scratch(size_t bytes, Stream stream, MemoryResource& mr)
      : bytes_(std::max<size_t>(bytes, 1)), stream_(stream), mr_(mr), ptr_(mr.allocate(bytes_, stream)) {}
  ~Scratch() { mr_.deallocate(ptr_, bytes_, stream_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }

 private:
  size_t bytes_;
  Stream stream_;
  MemoryResource& mr_;
  void* ptr_;
};

}  // namespace

void select_true_rows_async(const uint8_t* values, const uint8_t* validity, size_t rows, uint8_t* flags,
                            uint32_t* indices, int* selected, Stream stream, MemoryResource& mr) {
  require_explicit_stream(stream, "select_true_rows_async");
  if (rows > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU filter of a batch over 2^31 rows");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(selected, 0, sizeof(int), stream.handle()));
    return;
  }
  const int n = static_cast<int>(rows);
  true_flags_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(values, validity, rows, flags);
  KESTREL_CUDA_CHECK_LAUNCH();
  thrust::counting_iterator<uint32_t> row_numbers(0);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(
      cub::DeviceSelect::Flagged(nullptr, temp_bytes, row_numbers, flags, indices, selected, n, stream.handle()));
  Scratch temp(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(temp.as<void>(), temp_bytes, row_numbers, flags, indices, selected, n,
                                                stream.handle()));
}

size_t select_true_rows(const uint8_t* values, const uint8_t* validity, size_t rows, uint32_t* indices, Stream stream,
                        MemoryResource& mr) {
  require_explicit_stream(stream, "select_true_rows");
  if (rows == 0) return 0;
  Scratch flags(rows, stream, mr);
  Scratch selected(sizeof(int), stream, mr);
  select_true_rows_async(values, validity, rows, flags.as<uint8_t>(), indices, selected.as<int>(), stream, mr);
  int count = 0;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(&count, selected.as<int>(), sizeof(int), cudaMemcpyDeviceToHost, stream.handle()));
  // The host sizes every gathered column by this count.
  stream.synchronize();
  return static_cast<size_t>(count);
}

void gather_fixed(size_t width, const void* src, const uint32_t* indices, size_t count, void* dst, Stream stream) {
  require_explicit_stream(stream, "gather_fixed");
  if (count == 0) return;
  auto launch = [&](auto tag) {
    using T = decltype(tag);
    gather_fixed_kernel<T><<<blocks_for(count), kBlockThreads, 0, stream.handle()>>>(static_cast<const T*>(src),
                                                                                       indices, count,
                                                                                       static_cast<T*>(dst));
  };
  switch (width) {
    case 1: launch(Bytes<1>{}); break;
    case 2: launch(Bytes<2>{}); break;
    case 4: launch(Bytes<4>{}); break;
    case 8: launch(Bytes<8>{}); break;
    case 16: launch(Bytes<16>{}); break;
    default: throw InternalError("gather_fixed: unsupported width " + std::to_string(width));
  }
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::gpu
