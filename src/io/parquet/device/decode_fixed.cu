#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "io/parquet/device/device_decode.hpp"
#include "io/parquet/device/rle_device.cuh"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/parquet_schema.hpp"

namespace kestrel::io::parquet::device {

namespace {

template <typename T>
__device__ T load_unaligned(const uint8_t* p) {
  T v;
  memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
__device__ void store(uint8_t* out, T v) {
  *reinterpret_cast<T*>(out) = v;  // outputs are aligned to their width
}

__device__ int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// One physical value at `in` (PLAIN layout) as its Kestrel value at `out`; the twin of convert_fixed_values.
__device__ void convert_value(const DeviceColumnType& t, const uint8_t* in, uint8_t* out) {
  switch (static_cast<ValueConversion>(t.conversion)) {
    case ValueConversion::kInt32ToInt8: return store<int8_t>(out, static_cast<int8_t>(load_unaligned<int32_t>(in)));
    case ValueConversion::kInt32ToInt16: return store<int16_t>(out, static_cast<int16_t>(load_unaligned<int32_t>(in)));
    case ValueConversion::kUint8ToInt16:
      return store<int16_t>(out, static_cast<int16_t>(static_cast<uint8_t>(load_unaligned<int32_t>(in))));
    case ValueConversion::kUint16ToInt32:
      return store<int32_t>(out, static_cast<int32_t>(static_cast<uint16_t>(load_unaligned<int32_t>(in))));
    case ValueConversion::kUint32ToInt64:
      return store<int64_t>(out, static_cast<int64_t>(static_cast<uint32_t>(load_unaligned<int32_t>(in))));
    case ValueConversion::kInt32ToInt64: return store<int64_t>(out, static_cast<int64_t>(load_unaligned<int32_t>(in)));
    case ValueConversion::kInt32ToInt128: return store<__int128>(out, static_cast<__int128>(load_unaligned<int32_t>(in)));
    case ValueConversion::kInt64ToInt128: return store<__int128>(out, static_cast<__int128>(load_unaligned<int64_t>(in)));
    case ValueConversion::kUint64ToInt128:
      return store<__int128>(out, static_cast<__int128>(static_cast<uint64_t>(load_unaligned<int64_t>(in))));
    case ValueConversion::kMillisToMicros:
      return store<int64_t>(out, static_cast<int64_t>(static_cast<uint64_t>(load_unaligned<int64_t>(in)) * 1000u));
    case ValueConversion::kNanosToMicros: return store<int64_t>(out, floor_div(load_unaligned<int64_t>(in), 1000));
    case ValueConversion::kInt96ToMicros: {
      const int64_t nanos = load_unaligned<int64_t>(in);
      const int32_t day = load_unaligned<int32_t>(in + 8);
      const int64_t days = static_cast<int64_t>(day) - 2440588;
      const uint64_t micros = static_cast<uint64_t>(days) * 86400000000ull + static_cast<uint64_t>(floor_div(nanos, 1000));
      return store<int64_t>(out, static_cast<int64_t>(micros));
    }
    default: break;
  }
  // kIdentity (and kBoolean, decoded to a byte before): the same bytes.
  switch (t.out_width) {
    case 1: return store<uint8_t>(out, in[0]);
    case 2: return store<uint16_t>(out, load_unaligned<uint16_t>(in));
    case 4: return store<uint32_t>(out, load_unaligned<uint32_t>(in));
    case 8: return store<uint64_t>(out, load_unaligned<uint64_t>(in));
    default: for (int i = 0; i < t.out_width; ++i) out[i] = in[i];
  }
}

/// Copies one aligned Kestrel value of `width` bytes.
__device__ void copy_value(const uint8_t* from, uint8_t* to, int width) {
  switch (width) {
    case 1: *to = *from; return;
    case 2: store<uint16_t>(to, *reinterpret_cast<const uint16_t*>(from)); return;
    case 4: store<uint32_t>(to, *reinterpret_cast<const uint32_t*>(from)); return;
    case 8: store<uint64_t>(to, *reinterpret_cast<const uint64_t*>(from)); return;
    case 16: store<uint4>(to, *reinterpret_cast<const uint4*>(from)); return;
    default: for (int i = 0; i < width; ++i) to[i] = from[i];
  }
}

__global__ void levels_kernel(const DevicePage* pages, int nullable, uint8_t* levels, uint32_t* value_start,
                              uint32_t* nonnull, uint32_t* error) {
  const DevicePage page = pages[blockIdx.x];
  const uint32_t n = page.num_values;
  if (!nullable || page.level_encoding < 0) {  // required (in this chunk's file): every row valid
    if (threadIdx.x == 0) {
      value_start[blockIdx.x] = 0;
      nonnull[blockIdx.x] = n;
    }
    return;
  }
  __shared__ uint32_t valid;
  __shared__ int failed;
  if (threadIdx.x == 0) {
    valid = 0;
    failed = 0;
  }
  __syncthreads();
  uint8_t* out = levels + page.first_row;
  const uint8_t* stream = nullptr;
  const uint8_t* stream_end = nullptr;
  uint32_t start = 0;
  bool packed_msb = false;
  if (page.v2) {
    stream = page.levels;
    stream_end = page.levels + page.levels_size;
  } else if (page.level_encoding == kRle) {
    if (page.body_size < 4) {
      failed = 1;
    } else {
      const uint32_t length = load_le32(page.body);
      if (length > page.body_size - 4) {
        failed = 1;
      } else {
        stream = page.body + 4;
        stream_end = stream + length;
        start = 4 + length;
      }
    }
  } else if (page.level_encoding == kBitPacked) {
    const uint32_t bytes = (n + 7) / 8;
    if (bytes > page.body_size) failed = 1;
    packed_msb = true;
    start = bytes;
  } else {
    failed = 1;
  }
  __syncthreads();
  uint32_t mine = 0;
  if (!failed && n > 0) {
    if (packed_msb) {
      for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        const uint8_t v = (page.body[i >> 3] >> (7 - (i & 7))) & 1;  // legacy packing: most significant bit first
        out[i] = v;
        mine += v;
      }
    } else {
      const bool ok = rle_decode_block(stream, stream_end, 1, n, [&](uint32_t i, uint32_t v) {
        const uint8_t valid_row = v == 1 ? 1 : 0;
        out[i] = valid_row;
        mine += valid_row;
      });
      if (!ok && threadIdx.x == 0) failed = 1;
    }
  }
  if (mine > 0) atomicAdd(&valid, mine);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (!failed && page.v2 && n - valid != page.num_nulls) failed = 1;
    if (failed) set_error(error, static_cast<uint32_t>(DecodeError::kLevels));
    value_start[blockIdx.x] = start;
    nonnull[blockIdx.x] = failed ? 0 : valid;
  }
}


__global__ void fixed_dictionary_kernel(const DevicePage* pages, const DeviceChunk* chunks, DeviceColumnType t,
                                        uint8_t* dictionary, uint32_t* error) {
  const DevicePage page = pages[blockIdx.x];
  const uint32_t n = page.num_values;
  uint8_t* out = dictionary + chunks[page.chunk].dictionary_first * static_cast<uint64_t>(t.out_width);
  if (t.physical == kBoolean) {
    if ((static_cast<uint64_t>(n) + 7) / 8 > page.body_size) {
      if (threadIdx.x == 0) set_error(error, static_cast<uint32_t>(DecodeError::kDictionary));
      return;
    }
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = (page.body[i >> 3] >> (i & 7)) & 1;
    return;
  }
  const uint32_t pw = static_cast<uint32_t>(t.physical_width);
  if (n > page.body_size / pw) {
    if (threadIdx.x == 0) set_error(error, static_cast<uint32_t>(DecodeError::kDictionary));
    return;
  }
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    convert_value(t, page.body + static_cast<uint64_t>(i) * pw, out + static_cast<uint64_t>(i) * t.out_width);
  }
}

__global__ void fixed_pages_kernel(const DevicePage* pages, const DeviceChunk* chunks, DeviceColumnType t,
                                   const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                                   const uint8_t* dictionary, uint8_t* dense, uint32_t* error) {
  const DevicePage page = pages[blockIdx.x];
  const uint32_t m = nonnull[blockIdx.x];
  const uint32_t start = value_start[blockIdx.x];
  // Pages without values are skipped as on the CPU; all-NULL pages still have their encoding checked.
  if (page.num_values == 0 || start > page.body_size) return;
  const uint8_t* values = page.body + start;
  const uint32_t size = page.body_size - start;
  const int ow = t.out_width;
  uint8_t* out = dense + dense_start[blockIdx.x] * static_cast<uint64_t>(ow);
  const uint32_t pw = static_cast<uint32_t>(t.physical_width);
  auto fail = [&](DecodeError e) {
    if (threadIdx.x == 0) set_error(error, static_cast<uint32_t>(e));
  };
  switch (page.encoding) {
    case kPlain:
      if (t.physical == kBoolean) {
        if ((static_cast<uint64_t>(m) + 7) / 8 > size) return fail(DecodeError::kValues);
        for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) out[i] = (values[i >> 3] >> (i & 7)) & 1;
        return;
      }
      if (m > size / pw) return fail(DecodeError::kValues);
      for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
        convert_value(t, values + static_cast<uint64_t>(i) * pw, out + static_cast<uint64_t>(i) * ow);
      }
      return;
    case kRle: {
      if (t.physical != kBoolean || size < 4) return fail(DecodeError::kValues);
      const uint32_t length = load_le32(values);
      if (length > size - 4) return fail(DecodeError::kValues);
      if (m == 0) return;
      const bool ok = rle_decode_block(values + 4, values + 4 + length, 1, m,
                                       [&](uint32_t i, uint32_t v) { out[i] = static_cast<uint8_t>(v); });
      if (!ok) fail(DecodeError::kValues);
      return;
    }
    case kPlainDictionary:
    case kRleDictionary: {
      const DeviceChunk chunk = chunks[page.chunk];
      const uint8_t* entries = dictionary + chunk.dictionary_first * static_cast<uint64_t>(ow);
      decode_dictionary_indices(values, size, m, chunk.has_dictionary != 0, chunk.dictionary_size, error,
                                static_cast<uint32_t>(DecodeError::kIndices), [&](uint32_t i, uint32_t index) {
                                  copy_value(entries + static_cast<uint64_t>(index) * ow,
                                             out + static_cast<uint64_t>(i) * ow, ow);
                                });
      return;
    }
    case kByteStreamSplit: {
      if (t.physical == kBoolean || t.physical == kInt96 || pw == 0 || pw > 16) return fail(DecodeError::kValues);
      const uint32_t stride = size / pw;
      if (size % pw != 0 || stride < m) return fail(DecodeError::kValues);
      for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
        uint8_t physical[16];
        for (uint32_t b = 0; b < pw; ++b) physical[b] = values[static_cast<uint64_t>(b) * stride + i];
        convert_value(t, physical, out + static_cast<uint64_t>(i) * ow);
      }
      return;
    }
    default: return fail(DecodeError::kValues);
  }
}

}  // namespace

void decode_levels(const DevicePage* pages, size_t count, int nullable, uint8_t* levels, uint32_t* value_start,
                   uint32_t* nonnull, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "decode_levels");
  if (count == 0) return;
  levels_kernel<<<static_cast<unsigned>(count), kDecodeThreads, 0, stream.handle()>>>(pages, nullable, levels,
                                                                                     value_start, nonnull, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void dense_starts(const uint32_t* nonnull, size_t count, uint64_t* dense_start, gpu::Stream stream,
                  gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "dense_starts");
  if (count == 0) return;
  size_t temp = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, temp, nonnull, dense_start, cuda::std::plus<uint64_t>(),
                                                    uint64_t{0}, static_cast<int>(count), stream.handle()));
  void* scratch = mr.allocate(std::max<size_t>(temp, 8), stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(scratch, temp, nonnull, dense_start, cuda::std::plus<uint64_t>(),
                                                    uint64_t{0}, static_cast<int>(count), stream.handle()));
  mr.deallocate(scratch, std::max<size_t>(temp, 8), stream);
}

void decode_fixed_dictionaries(const DevicePage* pages, size_t count, const DeviceChunk* chunks,
                               DeviceColumnType type, uint8_t* dictionary, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "decode_fixed_dictionaries");
  if (count == 0) return;
  fixed_dictionary_kernel<<<static_cast<unsigned>(count), kDecodeThreads, 0, stream.handle()>>>(pages, chunks, type,
                                                                                               dictionary, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void decode_fixed_pages(const DevicePage* pages, size_t count, const DeviceChunk* chunks, DeviceColumnType type,
                        const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                        const uint8_t* dictionary, uint8_t* dense, uint32_t* error, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "decode_fixed_pages");
  if (count == 0) return;
  fixed_pages_kernel<<<static_cast<unsigned>(count), kDecodeThreads, 0, stream.handle()>>>(
      pages, chunks, type, value_start, nonnull, dense_start, dictionary, dense, error);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::io::parquet::device
