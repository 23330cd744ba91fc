/// The GPU kcol writer's kernels (kcol_encode_device.hpp).

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include "gpu/cuda_check.hpp"
#include "io/kcol/kcol_encode_device.hpp"

namespace kestrel::io::kcol {

namespace {

constexpr int kThreads = 256;

unsigned grid_for(uint64_t n) {
  const uint64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 65535 * 16 ? (blocks == 0 ? 1 : blocks) : 65535 * 16);
}

__device__ __forceinline__ bool slice_valid(const DeviceSlice& s, uint64_t row) {
  return s.validity == nullptr || ((s.validity[row >> 3] >> (row & 7)) & 1) != 0;
}

__device__ __forceinline__ int64_t load_value(const DeviceSlice& s, uint64_t row) {
  const uint8_t* p = s.values + row * static_cast<uint64_t>(s.width);
  if (s.boolean) return *p != 0 ? 1 : 0;
  switch (s.width) {
    case 1: return *reinterpret_cast<const int8_t*>(p);
    case 2: return *reinterpret_cast<const int16_t*>(p);
    case 4: return *reinterpret_cast<const int32_t*>(p);
    default: return *reinterpret_cast<const int64_t*>(p);
  }
}

__global__ void gather_i64_kernel(DeviceSlice s, int64_t* values, uint8_t* valid) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < s.count; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = s.first + i;
    const bool v = slice_valid(s, row);
    values[s.at + i] = v ? load_value(s, row) : 0;
    valid[s.at + i] = v ? 1 : 0;
  }
}

__global__ void gather_plain_kernel(DeviceSlice s, uint8_t* out, uint8_t* valid) {
  const uint64_t w = static_cast<uint64_t>(s.width);
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < s.count; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = s.first + i;
    const bool v = slice_valid(s, row);
    const uint8_t* src = s.values + row * w;
    uint8_t* dst = out + (s.at + i) * w;
    for (uint64_t b = 0; b < w; ++b) dst[b] = v ? src[b] : 0;
    valid[s.at + i] = v ? 1 : 0;
  }
}

__device__ __forceinline__ void string_at(const DeviceSlice& s, uint64_t row, const uint8_t*& src, uint64_t& len) {
  int64_t begin, end;
  if (s.dictionary) {
    const int32_t e = reinterpret_cast<const int32_t*>(s.values)[row];
    begin = s.offsets[e];
    end = s.offsets[e + 1];
  } else {
    begin = s.offsets[row];
    end = s.offsets[row + 1];
  }
  src = s.chars + begin;
  len = static_cast<uint64_t>(end - begin);
}

__global__ void string_lengths_kernel(DeviceSlice s, uint64_t* lengths, uint8_t* valid) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < s.count; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = s.first + i;
    const bool v = slice_valid(s, row);
    uint64_t len = 0;
    if (v) {
      const uint8_t* src = nullptr;
      string_at(s, row, src, len);
    }
    lengths[s.at + i] = len;
    valid[s.at + i] = v ? 1 : 0;
  }
}

__global__ void copy_strings_kernel(DeviceSlice s, const uint64_t* offsets, uint8_t* bytes) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < s.count; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = s.first + i;
    if (!slice_valid(s, row)) continue;
    const uint8_t* src = nullptr;
    uint64_t len = 0;
    string_at(s, row, src, len);
    uint8_t* dst = bytes + offsets[s.at + i];
    for (uint64_t b = 0; b < len; ++b) dst[b] = src[b];
  }
}

/// A warp per block of kBlockValues rows: lane l holds rows l, 32 + l, ...
__global__ void block_bounds_kernel(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                                    uint64_t* words, uint8_t* seen) {
  const uint64_t warp = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const uint64_t blocks = (rows + kBlockValues - 1) / kBlockValues;
  if (warp >= blocks) return;
  const uint64_t first = warp * kBlockValues;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool any = false;
  for (uint64_t k = 0; k < kValuesPerLane; ++k) {
    const uint64_t row = first + k * kLanes + lane;
    if (row >= rows || valid[row] == 0) continue;
    const int64_t v = values[row];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    any = true;
  }
  for (int step = 16; step > 0; step /= 2) {
    const int64_t olo = __shfl_xor_sync(0xffffffffu, lo, step);
    const int64_t ohi = __shfl_xor_sync(0xffffffffu, hi, step);
    lo = olo < lo ? olo : lo;
    hi = ohi > hi ? ohi : hi;
  }
  const bool block_seen = __any_sync(0xffffffffu, any);
  if (lane == 0) {
    if (!block_seen) {
      lo = 0;
      hi = 0;
    }
    const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const int width = range == 0 ? 0 : 64 - __clzll(static_cast<long long>(range));
    headers[warp].base = lo;
    headers[warp].max = hi;
    headers[warp].width = static_cast<uint64_t>(width);
    words[warp] = kLanes * static_cast<uint64_t>(width);
    seen[warp] = block_seen ? 1 : 0;
  }
}

__global__ void pack_blocks_kernel(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                                   const uint64_t* word_offsets, uint32_t* words) {
  const uint64_t warp = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const uint64_t blocks = (rows + kBlockValues - 1) / kBlockValues;
  if (warp >= blocks) return;
  const uint64_t first = warp * kBlockValues;
  const int64_t base = headers[warp].base;
  const int width = static_cast<int>(headers[warp].width);
  if (lane == 0) headers[warp].word = word_offsets[warp];
  if (width == 0) return;
  uint32_t* out = words + word_offsets[warp];
  uint32_t word = 0;
  int filled = 0;    // bits of `word` in use
  uint64_t index = 0;  // the lane's word number
  for (uint64_t k = 0; k < kValuesPerLane; ++k) {
    const uint64_t row = first + k * kLanes + lane;
    const int64_t v = row < rows && valid[row] != 0 ? values[row] : base;
    const uint64_t delta = static_cast<uint64_t>(v) - static_cast<uint64_t>(base);
    for (int done = 0; done < width;) {
      const int take = (32 - filled) < (width - done) ? (32 - filled) : (width - done);
      const uint64_t mask = take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1);
      word |= static_cast<uint32_t>(((delta >> done) & mask) << filled);
      filled += take;
      done += take;
      if (filled == 32) {
        out[index * kLanes + lane] = word;
        ++index;
        word = 0;
        filled = 0;
      }
    }
  }
  // 32 values of `width` bits fill whole words exactly.
}

__global__ void bitmap_kernel(const uint8_t* valid, uint64_t rows, uint8_t* bitmap, unsigned long long* count) {
  const uint64_t bytes = (rows + 7) / 8;
  unsigned long long local = 0;
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < bytes; k += uint64_t{gridDim.x} * blockDim.x) {
    uint8_t b = 0;
    for (int j = 0; j < 8; ++j) {
      const uint64_t row = k * 8 + j;
      if (row < rows && valid[row] != 0) {
        b |= static_cast<uint8_t>(1u << j);
        ++local;
      }
    }
    bitmap[k] = b;
  }
  if (local != 0) atomicAdd(count, local);
}

}  // namespace

void gather_i64_gpu(const DeviceSlice& slice, int64_t* values, uint8_t* valid, gpu::Stream stream) {
  if (slice.count == 0) return;
  gather_i64_kernel<<<grid_for(slice.count), kThreads, 0, stream.handle()>>>(slice, values, valid);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void gather_plain_gpu(const DeviceSlice& slice, uint8_t* out, uint8_t* valid, gpu::Stream stream) {
  if (slice.count == 0) return;
  gather_plain_kernel<<<grid_for(slice.count), kThreads, 0, stream.handle()>>>(slice, out, valid);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void string_lengths_gpu(const DeviceSlice& slice, uint64_t* lengths, uint8_t* valid, gpu::Stream stream) {
  if (slice.count == 0) return;
  string_lengths_kernel<<<grid_for(slice.count), kThreads, 0, stream.handle()>>>(slice, lengths, valid);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void copy_strings_gpu(const DeviceSlice& slice, const uint64_t* offsets, uint8_t* bytes, gpu::Stream stream) {
  if (slice.count == 0) return;
  copy_strings_kernel<<<grid_for(slice.count), kThreads, 0, stream.handle()>>>(slice, offsets, bytes);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void running_sum_gpu(const uint64_t* counts, size_t count, uint64_t* offsets, gpu::Stream stream,
                     gpu::MemoryResource& mr) {
  KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(uint64_t), stream.handle()));
  if (count == 0) return;
  size_t temp = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp, counts, offsets + 1, count, stream.handle()));
  void* scratch = mr.allocate(std::max<size_t>(temp, 8), stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch, temp, counts, offsets + 1, count, stream.handle()));
  mr.deallocate(scratch, std::max<size_t>(temp, 8), stream);
}

void block_bounds_gpu(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                      uint64_t* words, uint8_t* seen, gpu::Stream stream) {
  const uint64_t blocks = (rows + kBlockValues - 1) / kBlockValues;
  if (blocks == 0) return;
  const uint64_t threads = blocks * 32;
  block_bounds_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads, 0, stream.handle()>>>(
      values, valid, rows, headers, words, seen);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void pack_blocks_gpu(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                     const uint64_t* word_offsets, uint32_t* words, gpu::Stream stream) {
  const uint64_t blocks = (rows + kBlockValues - 1) / kBlockValues;
  if (blocks == 0) return;
  const uint64_t threads = blocks * 32;
  pack_blocks_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads, 0, stream.handle()>>>(
      values, valid, rows, headers, word_offsets, words);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void bitmap_from_valid_gpu(const uint8_t* valid, uint64_t rows, uint8_t* bitmap, unsigned long long* valid_count,
                           gpu::Stream stream) {
  if (rows == 0) return;
  bitmap_kernel<<<grid_for((rows + 7) / 8), kThreads, 0, stream.handle()>>>(valid, rows, bitmap, valid_count);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace kestrel::io::kcol
