#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "io/parquet/device/device_decode.hpp"
#include "io/parquet/device/rle_device.cuh"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/parquet_schema.hpp"

namespace kestrel::io::parquet::device {

namespace {

/// IEEE half precision to float, bit for bit as the CPU's float16_to_float (NaN payloads kept).
__device__ float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const int exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = ldexpf(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? __int_as_float(0x7f800000) : __int_as_float(0x7fc00000);
  } else {
    magnitude = ldexpf(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  uint32_t bits = static_cast<uint32_t>(__float_as_int(magnitude)) | sign;
  if (exponent == 31 && mantissa != 0) bits = sign | 0x7fc00000u | (mantissa << 13);
  return __int_as_float(static_cast<int>(bits));
}

/// Shared memory of a block walking PLAIN BYTE_ARRAY values: a window of the page's bytes (one padding word for
/// the funnel shift) and the values found in it.
constexpr uint32_t kWalkWindow = 8192;
constexpr uint32_t kWalkMarks = 1024;
struct WalkShared {
  uint32_t window[kWalkWindow / 4 + 1];
  uint32_t offset[kWalkMarks];
  uint32_t length[kWalkMarks];
  uint32_t found, next, failed;
};

/// PLAIN BYTE_ARRAY values (4-byte length, bytes) of one page, walked by a block (every thread calls it): each
/// length says where the next value starts, so one thread walks, but in shared memory, over windows of the page
/// that the block loads together, and the block writes the values' addresses and lengths. A window ends where the
/// next length prefix does not fit in it; a value longer than the window is skipped over. False when a value
/// overruns the data (as the CPU decoder).
__device__ bool block_walk_byte_arrays(const uint8_t* data, uint32_t size, uint32_t count, const uint8_t** src,
                                       uint32_t* len, WalkShared& s) {
  if (count > size / 4) return false;
  auto* window = reinterpret_cast<uint8_t*>(s.window);
  uint32_t done = 0, pos = 0;
  while (done < count) {
    const uint32_t bytes = min(kWalkWindow, size - pos);
    for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x) window[i] = data[pos + i];
    __syncthreads();
    if (threadIdx.x == 0) {
      const uint32_t want = min(count - done, kWalkMarks);
      uint32_t p = 0, k = 0, failed = 0;
      while (k < want) {
        if (p + 4 > bytes) {
          // The next length is past this window: the next window starts there, unless the page ends first.
          failed = size - pos - p < 4 ? 1 : 0;
          break;
        }
        const uint32_t shift = (p & 3) * 8;
        const uint32_t length = __funnelshift_r(s.window[p >> 2], s.window[(p >> 2) + 1], shift);
        const uint32_t at = pos + p + 4;
        if (length > size - at) {
          failed = 1;
          break;
        }
        s.offset[k] = at;
        s.length[k] = length;
        ++k;
        p += 4 + length;
      }
      s.found = k;
      s.next = pos + p;
      s.failed = failed;
    }
    __syncthreads();
    const uint32_t found = s.found;
    for (uint32_t j = threadIdx.x; j < found; j += blockDim.x) {
      src[done + j] = data + s.offset[j];
      len[done + j] = s.length[j];
    }
    const bool failed = s.failed != 0;
    pos = s.next;
    done += found;
    __syncthreads();  // the next window overwrites what was just read
    if (failed) return false;
  }
  return true;
}

__global__ void binary_dictionary_kernel(const DevicePage* pages, const DeviceChunk* chunks, DeviceColumnType t,
                                         const uint8_t** src, uint32_t* len, uint32_t* error) {
  const DevicePage page = pages[blockIdx.x];
  const uint64_t first = chunks[page.chunk].dictionary_first;
  const uint32_t n = page.num_values;
  if (t.physical == kByteArray) {
    __shared__ WalkShared walk;
    if (!block_walk_byte_arrays(page.body, page.body_size, n, src + first, len + first, walk) && threadIdx.x == 0) {
      set_error(error, static_cast<uint32_t>(DecodeError::kDictionary));
    }
    return;
  }
  const uint32_t width = static_cast<uint32_t>(t.type_length);
  if (width > 0 && n > page.body_size / width) {
    if (threadIdx.x == 0) set_error(error, static_cast<uint32_t>(DecodeError::kDictionary));
    return;
  }
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    src[first + i] = page.body + static_cast<uint64_t>(i) * width;
    len[first + i] = width;
  }
}

__global__ void binary_pages_kernel(const DevicePage* pages, const DeviceChunk* chunks, DeviceColumnType t,
                                    const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                                    const uint8_t* const* dictionary_src, const uint32_t* dictionary_len,
                                    const uint8_t** src, uint32_t* len, int32_t* indices, uint32_t* error) {
  const DevicePage page = pages[blockIdx.x];
  const uint32_t m = nonnull[blockIdx.x];
  const uint32_t start = value_start[blockIdx.x];
  // Pages without values are skipped as on the CPU; all-NULL pages still have their encoding checked.
  if (page.num_values == 0 || start > page.body_size) return;
  const uint8_t* values = page.body + start;
  const uint32_t size = page.body_size - start;
  const uint64_t base = dense_start[blockIdx.x];
  auto fail = [&](DecodeError e) {
    if (threadIdx.x == 0) set_error(error, static_cast<uint32_t>(e));
  };
  switch (page.encoding) {
    case kPlain: {
      if (t.physical == kByteArray) {
        __shared__ WalkShared walk;
        if (!block_walk_byte_arrays(values, size, m, src + base, len + base, walk) && threadIdx.x == 0) {
          set_error(error, static_cast<uint32_t>(DecodeError::kValues));
        }
        return;
      }
      const uint32_t width = static_cast<uint32_t>(t.type_length);
      if (width > 0 && m > size / width) return fail(DecodeError::kValues);
      for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
        src[base + i] = values + static_cast<uint64_t>(i) * width;
        len[base + i] = width;
      }
      return;
    }
    case kPlainDictionary:
    case kRleDictionary: {
      const DeviceChunk chunk = chunks[page.chunk];
      const uint64_t first = chunk.dictionary_first;
      decode_dictionary_indices(values, size, m, chunk.has_dictionary != 0, chunk.dictionary_size, error,
                                static_cast<uint32_t>(DecodeError::kIndices), [&](uint32_t i, uint32_t index) {
                                  if (indices != nullptr) {
                                    indices[base + i] = static_cast<int32_t>(first + index);
                                  } else {
                                    src[base + i] = dictionary_src[first + index];
                                    len[base + i] = dictionary_len[first + index];
                                  }
                                });
      return;
    }
    default: return fail(DecodeError::kValues);
  }
}

__global__ void convert_binary_kernel(const uint8_t* const* src, const uint32_t* len, size_t count,
                                      DeviceColumnType t, uint8_t* out, uint32_t* error) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint8_t* b = src[i];
    const uint32_t n = len[i];
    switch (static_cast<ValueConversion>(t.conversion)) {
      case ValueConversion::kFloat16ToFloat: {
        if (n != 2) {
          set_error(error, static_cast<uint32_t>(DecodeError::kConversion));
          break;
        }
        reinterpret_cast<float*>(out)[i] = half_to_float(static_cast<uint16_t>(b[0] | (b[1] << 8)));
        break;
      }
      case ValueConversion::kBigEndianToInt64:
      case ValueConversion::kBigEndianToInt128: {
        // Two's complement big-endian of any length: leading bytes beyond 16 may only extend the sign.
        uint32_t from = 0;
        bool fits = true;
        if (n > 16) {
          const uint8_t fill = (b[n - 16] & 0x80) ? 0xff : 0x00;
          for (uint32_t k = 0; k < n - 16; ++k) fits = fits && b[k] == fill;
          from = n - 16;
        }
        unsigned __int128 u = 0;
        if (n > 0 && (b[from] & 0x80)) u = ~static_cast<unsigned __int128>(0);
        for (uint32_t k = from; k < n; ++k) u = (u << 8) | b[k];
        const __int128 v = static_cast<__int128>(u);
        if (static_cast<ValueConversion>(t.conversion) == ValueConversion::kBigEndianToInt64) {
          if (!fits || v < static_cast<__int128>(INT64_MIN) || v > static_cast<__int128>(INT64_MAX)) fits = false;
          reinterpret_cast<int64_t*>(out)[i] = static_cast<int64_t>(v);
        } else {
          reinterpret_cast<__int128*>(out)[i] = v;
        }
        if (!fits) set_error(error, static_cast<uint32_t>(DecodeError::kConversion));
        break;
      }
      default: set_error(error, static_cast<uint32_t>(DecodeError::kConversion));
    }
  }
}

__global__ void levels_to_u32_kernel(const uint8_t* levels, size_t rows, uint32_t* out) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = levels[i];
  }
}

template <typename T>
__global__ void spread_kernel(const uint8_t* levels, const uint32_t* ranks, size_t rows, const T* dense, T* out) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = levels[i] ? dense[ranks[i]] : T{};
  }
}

__global__ void bitmap_kernel(const uint8_t* levels, size_t rows, uint8_t* bitmap) {
  const size_t bytes = (rows + 7) / 8;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < bytes;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint8_t b = 0;
    for (int k = 0; k < 8; ++k) {
      const size_t r = i * 8 + k;
      if (r < rows && levels[r]) b |= static_cast<uint8_t>(1u << k);
    }
    bitmap[i] = b;
  }
}

__global__ void lengths_kernel(const uint32_t* len, size_t count, int64_t* out) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i + 1] = len[i];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = 0;
}

/// One warp per string: lanes copy its bytes side by side.
__global__ void copy_strings_kernel(const uint8_t* const* src, const int64_t* offsets, size_t count, uint8_t* chars) {
  const size_t warps = static_cast<size_t>(gridDim.x) * (blockDim.x / 32);
  const unsigned lane = threadIdx.x & 31;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x / 32) + threadIdx.x / 32; i < count; i += warps) {
    const int64_t from = offsets[i];
    const int64_t n = offsets[i + 1] - from;
    const uint8_t* s = src[i];
    uint8_t* d = chars + from;
    for (int64_t k = lane; k < n; k += 32) d[k] = s[k];
  }
}

unsigned grid_for(size_t n) {
  const size_t blocks = (n + kDecodeThreads - 1) / kDecodeThreads;
  return static_cast<unsigned>(blocks < 65536 ? (blocks == 0 ? 1 : blocks) : 65536);
}

}  // namespace

void decode_binary_dictionaries(const DevicePage* pages, size_t count, const DeviceChunk* chunks,
                                DeviceColumnType type, const uint8_t** src, uint32_t* len, uint32_t* error,
                                gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "decode_binary_dictionaries");
  if (count == 0) return;
  binary_dictionary_kernel<<<static_cast<unsigned>(count), kDecodeThreads, 0, stream.handle()>>>(pages, chunks, type,
                                                                                                src, len, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void decode_binary_pages(const DevicePage* pages, size_t count, const DeviceChunk* chunks, DeviceColumnType type,
                         const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                         const uint8_t* const* dictionary_src, const uint32_t* dictionary_len, const uint8_t** src,
                         uint32_t* len, int32_t* indices, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "decode_binary_pages");
  if (count == 0) return;
  binary_pages_kernel<<<static_cast<unsigned>(count), kDecodeThreads, 0, stream.handle()>>>(
      pages, chunks, type, value_start, nonnull, dense_start, dictionary_src, dictionary_len, src, len, indices,
      error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void convert_binary(const uint8_t* const* src, const uint32_t* len, size_t count, DeviceColumnType type,
                    uint8_t* out, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "convert_binary");
  if (count == 0) return;
  convert_binary_kernel<<<grid_for(count), kDecodeThreads, 0, stream.handle()>>>(src, len, count, type, out, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void ranks_from_levels(const uint8_t* levels, size_t rows, uint32_t* ranks, gpu::Stream stream,
                       gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "ranks_from_levels");
  if (rows == 0) return;
  levels_to_u32_kernel<<<grid_for(rows), kDecodeThreads, 0, stream.handle()>>>(levels, rows, ranks);
  KESTREL_CUDA_CHECK_LAUNCH();
  size_t temp = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, ranks, ranks, static_cast<int>(rows),
                                                   stream.handle()));
  void* scratch = mr.allocate(temp, stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, temp, ranks, ranks, static_cast<int>(rows),
                                                   stream.handle()));
  mr.deallocate(scratch, temp, stream);
}

void spread_by_levels(const uint8_t* levels, const uint32_t* ranks, size_t rows, const void* dense, size_t width,
                      void* out, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "spread_by_levels");
  if (rows == 0) return;
  auto* s = stream.handle();
  switch (width) {
    case 1: spread_kernel<<<grid_for(rows), kDecodeThreads, 0, s>>>(levels, ranks, rows, static_cast<const uint8_t*>(dense), static_cast<uint8_t*>(out)); break;
    case 2: spread_kernel<<<grid_for(rows), kDecodeThreads, 0, s>>>(levels, ranks, rows, static_cast<const uint16_t*>(dense), static_cast<uint16_t*>(out)); break;
    case 4: spread_kernel<<<grid_for(rows), kDecodeThreads, 0, s>>>(levels, ranks, rows, static_cast<const uint32_t*>(dense), static_cast<uint32_t*>(out)); break;
    case 8: spread_kernel<<<grid_for(rows), kDecodeThreads, 0, s>>>(levels, ranks, rows, static_cast<const uint64_t*>(dense), static_cast<uint64_t*>(out)); break;
    case 16: spread_kernel<<<grid_for(rows), kDecodeThreads, 0, s>>>(levels, ranks, rows, static_cast<const uint4*>(dense), static_cast<uint4*>(out)); break;
    default: throw InternalError("spread_by_levels of width " + std::to_string(width));
  }
  KESTREL_CUDA_CHECK_LAUNCH();
}

void levels_to_bitmap(const uint8_t* levels, size_t rows, uint8_t* bitmap, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "levels_to_bitmap");
  if (rows == 0) return;
  bitmap_kernel<<<grid_for((rows + 7) / 8), kDecodeThreads, 0, stream.handle()>>>(levels, rows, bitmap);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void string_offsets(const uint32_t* len, size_t count, int64_t* offsets, gpu::Stream stream,
                    gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "string_offsets");
  lengths_kernel<<<grid_for(count), kDecodeThreads, 0, stream.handle()>>>(len, count, offsets);
  KESTREL_CUDA_CHECK_LAUNCH();
  if (count == 0) return;
  size_t temp = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp, offsets + 1, offsets + 1, static_cast<int>(count),
                                                   stream.handle()));
  void* scratch = mr.allocate(temp, stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch, temp, offsets + 1, offsets + 1, static_cast<int>(count),
                                                   stream.handle()));
  mr.deallocate(scratch, temp, stream);
}

void copy_strings(const uint8_t* const* src, const int64_t* offsets, size_t count, uint8_t* chars,
                  gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "copy_strings");
  if (count == 0) return;
  const size_t warps_per_block = kDecodeThreads / 32;
  const size_t blocks = (count + warps_per_block - 1) / warps_per_block;
  copy_strings_kernel<<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), kDecodeThreads, 0, stream.handle()>>>(
      src, offsets, count, chars);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::io::parquet::device
