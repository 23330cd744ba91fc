/// The GPU Parquet writer's page kernels (encode_pages.hpp).

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/cuda_check.hpp"
#include "io/parquet/writer/device/encode_pages.hpp"

namespace kestrel::io::parquet::device_write {

namespace {

constexpr int kThreads = 256;
using Scan = cub::BlockScan<uint32_t, kThreads>;

struct MinOp {
  template <typename T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct MaxOp {
  template <typename T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

__device__ __forceinline__ bool valid_at(const uint8_t* validity, uint64_t row) {
  return validity == nullptr || ((validity[row >> 3] >> (row & 7)) & 1) != 0;
}

__device__ __forceinline__ int varint_bytes(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

__device__ __forceinline__ void put_varint(uint8_t* out, uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out = static_cast<uint8_t>(v);
}

__device__ __forceinline__ void put_u32(uint8_t* out, uint32_t v) {
  out[0] = static_cast<uint8_t>(v);
  out[1] = static_cast<uint8_t>(v >> 8);
  out[2] = static_cast<uint8_t>(v >> 16);
  out[3] = static_cast<uint8_t>(v >> 24);
}

__device__ __forceinline__ int64_t load_signed(const uint8_t* p, int width) {
  switch (width) {
    case 1: return *reinterpret_cast<const int8_t*>(p);
    case 2: return *reinterpret_cast<const int16_t*>(p);
    case 4: return *reinterpret_cast<const int32_t*>(p);
    default: return *reinterpret_cast<const int64_t*>(p);
  }
}

/// The value of row r written at `out` in out_width bytes; its statistics into the thread's running min/max.
struct FixedWriter {
  const EncodePage& page;
  int64_t min_i = INT64_MAX, max_i = INT64_MIN;
  double min_d = INFINITY, max_d = -INFINITY;
  uint32_t counted = 0;

  __device__ void write(uint64_t row, uint8_t* out) {
    const uint8_t* in = page.values + row * static_cast<uint64_t>(page.in_width);
    if (page.stat == static_cast<int32_t>(StatKind::kFloat) || page.stat == static_cast<int32_t>(StatKind::kDouble)) {
      const double v = page.in_width == 4 ? static_cast<double>(*reinterpret_cast<const float*>(in))
                                          : *reinterpret_cast<const double*>(in);
      if (v == v) {
        min_d = fmin(min_d, v);
        max_d = fmax(max_d, v);
        ++counted;
      }
      for (int b = 0; b < page.out_width; ++b) out[b] = in[b];
      return;
    }
    const int64_t v = load_signed(in, page.in_width);
    if (page.stat == static_cast<int32_t>(StatKind::kSigned)) {
      min_i = v < min_i ? v : min_i;
      max_i = v > max_i ? v : max_i;
      ++counted;
    }
    if (page.out_width == 4) {
      const int32_t w = static_cast<int32_t>(v);
      memcpy(out, &w, 4);
    } else {
      memcpy(out, &v, 8);
    }
  }
};

/// The definition levels at the start of the body; returns their bytes (0 without levels).
__device__ uint32_t write_levels(const EncodePage& page) {
  if (page.levels == 0) return 0;
  uint8_t* out = page.out;
  if (page.validity == nullptr) {
    // One RLE run of `rows` 1s.
    const int header = varint_bytes(uint64_t{page.rows} << 1);
    if (threadIdx.x == 0) {
      put_u32(out, static_cast<uint32_t>(header + 1));
      put_varint(out + 4, uint64_t{page.rows} << 1);
      out[4 + header] = 1;
    }
    return 4 + static_cast<uint32_t>(header) + 1;
  }
  // One bit-packed run of the bitmap's bits (bit width 1 packs as the bitmap does), padded to whole groups of 8.
  const uint32_t groups = (page.rows + 7) / 8;
  const int header = varint_bytes((uint64_t{groups} << 1) | 1);
  if (threadIdx.x == 0) {
    put_u32(out, static_cast<uint32_t>(header) + groups);
    put_varint(out + 4, (uint64_t{groups} << 1) | 1);
  }
  uint8_t* bits = out + 4 + header;
  const uint64_t first = page.first_row;
  const unsigned shift = static_cast<unsigned>(first & 7);
  const uint8_t* v = page.validity + (first >> 3);
  for (uint32_t k = threadIdx.x; k < groups; k += blockDim.x) {
    uint32_t word = v[k];
    if (shift != 0) {
      // The next source byte exists whenever a row of this group needs it.
      const uint64_t next_row = first + uint64_t{k} * 8 + (8 - shift);
      if (next_row < first + page.rows) word |= static_cast<uint32_t>(v[k + 1]) << 8;
      word >>= shift;
    }
    const uint32_t left = page.rows - k * 8;
    if (left < 8) word &= (1u << left) - 1;
    bits[k] = static_cast<uint8_t>(word);
  }
  return 4 + static_cast<uint32_t>(header) + groups;
}

__device__ __forceinline__ void string_of(const EncodePage& page, uint64_t row, const uint8_t*& src, uint32_t& len) {
  int64_t begin, end;
  if (page.kind == static_cast<int32_t>(ValueKind::kDictionaryString)) {
    const int32_t e = reinterpret_cast<const int32_t*>(page.values)[row];
    begin = page.offsets[e];
    end = page.offsets[e + 1];
  } else {
    begin = page.offsets[row];
    end = page.offsets[row + 1];
  }
  src = page.chars + begin;
  len = static_cast<uint32_t>(end - begin);
}

__global__ void encode_kernel(const EncodePage* pages, PageResult* results, size_t* sizes) {
  __shared__ typename Scan::TempStorage scan_storage;
  const EncodePage page = pages[blockIdx.x];
  const uint32_t level_bytes = write_levels(page);
  uint8_t* values = page.out + level_bytes;
  const uint32_t rows = page.rows;
  const bool dense = page.validity == nullptr;
  uint64_t written = 0;  // value bytes (block-uniform)
  uint32_t nonnull = 0;  // block-uniform
  FixedWriter fixed{page};
  switch (static_cast<ValueKind>(page.kind)) {
    case ValueKind::kFixed: {
      const uint32_t w = static_cast<uint32_t>(page.out_width);
      if (dense) {
        for (uint32_t i = threadIdx.x; i < rows; i += blockDim.x) fixed.write(page.first_row + i, values + uint64_t{i} * w);
        nonnull = rows;
      } else {
        for (uint32_t base = 0; base < rows; base += kThreads) {
          const uint32_t i = base + threadIdx.x;
          const bool v = i < rows && valid_at(page.validity, page.first_row + i);
          uint32_t at = 0, total = 0;
          Scan(scan_storage).ExclusiveSum(v ? 1u : 0u, at, total);
          if (v) fixed.write(page.first_row + i, values + uint64_t{nonnull + at} * w);
          nonnull += total;
          __syncthreads();
        }
      }
      written = uint64_t{nonnull} * w;
      break;
    }
    case ValueKind::kString:
    case ValueKind::kDictionaryString: {
      for (uint32_t base = 0; base < rows; base += kThreads) {
        const uint32_t i = base + threadIdx.x;
        const bool v = i < rows && valid_at(page.validity, page.first_row + i);
        const uint8_t* src = nullptr;
        uint32_t len = 0;
        if (v) string_of(page, page.first_row + i, src, len);
        uint32_t at = 0, total = 0;
        Scan(scan_storage).ExclusiveSum(v ? 4 + len : 0u, at, total);
        if (v) {
          uint8_t* dst = values + written + at;
          put_u32(dst, len);
          for (uint32_t b = 0; b < len; ++b) dst[4 + b] = src[b];
        }
        written += total;
        uint32_t count = 0, ignored = 0;
        __syncthreads();
        Scan(scan_storage).ExclusiveSum(v ? 1u : 0u, ignored, count);
        nonnull += count;
        __syncthreads();
      }
      break;
    }
    case ValueKind::kIndices: {
      const int32_t* indices = reinterpret_cast<const int32_t*>(page.values) + page.first_row;
      if (!dense) {
        // The non-null indices first, packed together in the scratch area.
        for (uint32_t base = 0; base < rows; base += kThreads) {
          const uint32_t i = base + threadIdx.x;
          const bool v = i < rows && valid_at(page.validity, page.first_row + i);
          uint32_t at = 0, total = 0;
          Scan(scan_storage).ExclusiveSum(v ? 1u : 0u, at, total);
          if (v) page.scratch[nonnull + at] = static_cast<uint32_t>(indices[i]);
          nonnull += total;
          __syncthreads();
        }
        __threadfence_block();
        __syncthreads();
        indices = reinterpret_cast<const int32_t*>(page.scratch);
      } else {
        nonnull = rows;
      }
      const int bw = page.bit_width;
      if (threadIdx.x == 0) values[0] = static_cast<uint8_t>(bw);
      written = 1;
      if (nonnull > 0) {
        const uint32_t groups = (nonnull + 7) / 8;
        const uint64_t header = (uint64_t{groups} << 1) | 1;
        const int header_bytes = varint_bytes(header);
        if (threadIdx.x == 0) put_varint(values + 1, header);
        uint8_t* packed = values + 1 + header_bytes;
        for (uint32_t g = threadIdx.x; g < groups; g += blockDim.x) {
          uint64_t acc = 0;
          int bits = 0;
          uint8_t* dst = packed + uint64_t{g} * static_cast<uint64_t>(bw);
          for (uint32_t j = 0; j < 8; ++j) {
            const uint32_t k = g * 8 + j;
            const uint64_t x = k < nonnull ? static_cast<uint32_t>(indices[k]) : 0u;
            acc |= x << bits;
            bits += bw;
            while (bits >= 8) {
              *dst++ = static_cast<uint8_t>(acc);
              acc >>= 8;
              bits -= 8;
            }
          }
        }
        written += static_cast<uint64_t>(header_bytes) + uint64_t{groups} * static_cast<uint64_t>(bw);
      }
      break;
    }
  }
  // Page min/max of fixed-width values.
  if (page.kind == static_cast<int32_t>(ValueKind::kFixed) && page.stat != static_cast<int32_t>(StatKind::kNone)) {
    __syncthreads();
    using ReduceI = cub::BlockReduce<int64_t, kThreads>;
    using ReduceD = cub::BlockReduce<double, kThreads>;
    using ReduceU = cub::BlockReduce<uint32_t, kThreads>;
    __shared__ union {
      typename ReduceI::TempStorage i;
      typename ReduceD::TempStorage d;
      typename ReduceU::TempStorage u;
    } reduce;
    const uint32_t counted = ReduceU(reduce.u).Sum(fixed.counted);
    __syncthreads();
    if (page.stat == static_cast<int32_t>(StatKind::kSigned)) {
      const int64_t lo = ReduceI(reduce.i).Reduce(fixed.min_i, MinOp{});
      __syncthreads();
      const int64_t hi = ReduceI(reduce.i).Reduce(fixed.max_i, MaxOp{});
      if (threadIdx.x == 0) {
        results[blockIdx.x].min_i = lo;
        results[blockIdx.x].max_i = hi;
      }
    } else {
      const double lo = ReduceD(reduce.d).Reduce(fixed.min_d, MinOp{});
      __syncthreads();
      const double hi = ReduceD(reduce.d).Reduce(fixed.max_d, MaxOp{});
      if (threadIdx.x == 0) {
        results[blockIdx.x].min_d = lo;
        results[blockIdx.x].max_d = hi;
      }
    }
    if (threadIdx.x == 0) results[blockIdx.x].has_minmax = counted > 0 ? 1 : 0;
  } else if (threadIdx.x == 0) {
    results[blockIdx.x].has_minmax = 0;
  }
  if (threadIdx.x == 0) {
    results[blockIdx.x].bytes = level_bytes + written;
    results[blockIdx.x].nonnull = nonnull;
    sizes[blockIdx.x] = level_bytes + written;
  }
}

__global__ void measure_kernel(const EncodePage* pages, uint64_t* bytes) {
  using Reduce = cub::BlockReduce<uint64_t, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const EncodePage page = pages[blockIdx.x];
  uint64_t sum = 0;
  for (uint32_t i = threadIdx.x; i < page.rows; i += blockDim.x) {
    if (!valid_at(page.validity, page.first_row + i)) continue;
    const uint8_t* src = nullptr;
    uint32_t len = 0;
    string_of(page, page.first_row + i, src, len);
    sum += 4 + len;
  }
  const uint64_t total = Reduce(storage).Sum(sum);
  if (threadIdx.x == 0) bytes[blockIdx.x] = total;
}

}  // namespace

void encode_pages(const EncodePage* pages, size_t count, PageResult* results, size_t* sizes, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "encode_pages");
  if (count == 0) return;
  encode_kernel<<<static_cast<unsigned>(count), kThreads, 0, stream.handle()>>>(pages, results, sizes);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

void measure_string_pages(const EncodePage* pages, size_t count, uint64_t* bytes, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "measure_string_pages");
  if (count == 0) return;
  measure_kernel<<<static_cast<unsigned>(count), kThreads, 0, stream.handle()>>>(pages, bytes);
  KESTREL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace kestrel::io::parquet::device_write
