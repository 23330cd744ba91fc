#pragma once
/// Device helpers of the Parquet decoding kernels, and decoding of Parquet's RLE / bit-packing hybrid, block-cooperative: thread 0 reads run headers into shared
/// memory, a batch at a time, and all threads expand the batch's values. Checks mirror RleBitPackedDecoder (the CPU
/// twin): a malformed header, an RLE value wider than the bit width or too few values make it return false.

#include <cstdint>

#include "io/parquet/parquet_format.hpp"

namespace kestrel::io::parquet::device {

constexpr int kDecodeThreads = 256;

/// Encodings and physical types as the page table stores them (int32).
constexpr int32_t kRle = static_cast<int32_t>(Encoding::kRle);
constexpr int32_t kBitPacked = static_cast<int32_t>(Encoding::kBitPacked);
constexpr int32_t kPlain = static_cast<int32_t>(Encoding::kPlain);
constexpr int32_t kPlainDictionary = static_cast<int32_t>(Encoding::kPlainDictionary);
constexpr int32_t kRleDictionary = static_cast<int32_t>(Encoding::kRleDictionary);
constexpr int32_t kByteStreamSplit = static_cast<int32_t>(Encoding::kByteStreamSplit);
constexpr int32_t kBoolean = static_cast<int32_t>(PhysicalType::kBoolean);
constexpr int32_t kInt96 = static_cast<int32_t>(PhysicalType::kInt96);
constexpr int32_t kByteArray = static_cast<int32_t>(PhysicalType::kByteArray);

/// A little-endian 32-bit length prefix at p (any alignment).
__device__ inline uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

/// Bits [bit, bit + width) of the little-endian bit stream at p (width 0..32); bytes at or past `end` read as 0.
__device__ inline uint32_t read_bits(const uint8_t* p, const uint8_t* end, uint64_t bit, int width) {
  if (width == 0) return 0;
  const uint8_t* b = p + (bit >> 3);
  const int shift = static_cast<int>(bit & 7);
  const int bytes = (shift + width + 7) >> 3;
  uint64_t w = 0;
  for (int i = 0; i < bytes; ++i) {
    if (b + i < end) w |= static_cast<uint64_t>(b[i]) << (8 * i);
  }
  const uint64_t mask = width == 32 ? 0xffffffffull : ((1ull << width) - 1);
  return static_cast<uint32_t>((w >> shift) & mask);
}

/// Decodes `count` values of `bit_width` bits from [data, end) and calls emit(i, value) for each i < count, from
/// every thread of the block (all must call it). Returns false (to every thread) when the stream is malformed or
/// holds fewer than `count` values.
template <int kRuns = 128, typename Emit>
__device__ bool rle_decode_block(const uint8_t* data, const uint8_t* end, int bit_width, uint32_t count, Emit emit) {
  __shared__ uint32_t run_first[kRuns + 1];
  __shared__ uint32_t run_value[kRuns];  ///< RLE: the value; bit-packed: byte offset of the run from `data`
  __shared__ uint8_t run_packed[kRuns];
  __shared__ int runs;
  __shared__ uint32_t produced;
  __shared__ uint64_t cursor;
  __shared__ int bad;
  if (threadIdx.x == 0) {
    produced = 0;
    cursor = 0;
    bad = bit_width < 0 || bit_width > 32 ? 1 : 0;
  }
  __syncthreads();
  const uint64_t size = static_cast<uint64_t>(end - data);
  const uint32_t value_bytes = static_cast<uint32_t>((bit_width + 7) / 8);
  while (true) {
    if (threadIdx.x == 0) {
      int r = 0;
      uint64_t pos = cursor;
      uint32_t done = produced;
      while (r < kRuns && done < count && !bad) {
        if (pos >= size) {
          if (bit_width == 0) {
            // A zero-width stream may end early: every value left is 0 (as the CPU decoder reads it).
            run_first[r] = done;
            run_value[r] = 0;
            run_packed[r] = 0;
            done = count;
            ++r;
          } else {
            bad = 1;  // too few values
          }
          break;
        }
        uint64_t header = 0;
        for (int shift = 0;; shift += 7) {
          if (pos >= size || shift > 63) {
            bad = 1;
            break;
          }
          const uint8_t byte = data[pos++];
          header |= static_cast<uint64_t>(byte & 0x7f) << shift;
          if ((byte & 0x80) == 0) break;
        }
        if (bad) break;
        uint64_t values;
        if ((header & 1) == 0) {
          values = header >> 1;
          if (value_bytes > size - pos) {
            bad = 1;
            break;
          }
          uint32_t v = 0;
          for (uint32_t i = 0; i < value_bytes; ++i) v |= static_cast<uint32_t>(data[pos + i]) << (8 * i);
          pos += value_bytes;
          if (bit_width < 32 && (v >> bit_width) != 0) {
            bad = 1;
            break;
          }
          run_value[r] = v;
          run_packed[r] = 0;
        } else {
          const uint64_t groups = header >> 1;
          const uint64_t want = groups * static_cast<uint64_t>(bit_width);
          const uint64_t bytes = want < size - pos ? want : size - pos;
          values = groups * 8;
          if (bit_width > 0 && bytes < want) values = bytes * 8 / static_cast<uint64_t>(bit_width);
          run_value[r] = static_cast<uint32_t>(pos);
          run_packed[r] = 1;
          pos += bytes;
        }
        const uint64_t left = count - done;
        const uint32_t take = static_cast<uint32_t>(values < left ? values : left);
        if (take == 0) continue;
        run_first[r] = done;
        done += take;
        ++r;
      }
      run_first[r] = done;
      runs = r;
      produced = done;
      cursor = pos;
    }
    __syncthreads();
    const int n = runs;
    // Read before the barrier below: thread 0 rewrites `produced` as soon as it starts the next batch.
    const bool finished = produced >= count;
    if (n == 0 || bad) break;
    const uint32_t first = run_first[0];
    const uint32_t total = run_first[n] - first;
    for (uint32_t k = threadIdx.x; k < total; k += blockDim.x) {
      const uint32_t i = first + k;
      int lo = 0, hi = n - 1;  // the run holding value i: the last with run_first <= i
      while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (run_first[mid] <= i) lo = mid; else hi = mid - 1;
      }
      uint32_t v;
      if (run_packed[lo]) {
        v = read_bits(data + run_value[lo], end, static_cast<uint64_t>(i - run_first[lo]) * bit_width, bit_width);
      } else {
        v = run_value[lo];
      }
      emit(i, v);
    }
    __syncthreads();
    if (finished) break;
  }
  __syncthreads();
  const bool ok = !bad && produced >= count;
  __syncthreads();
  return ok;
}

/// Records the first error code of a column.
__device__ inline void set_error(uint32_t* error, uint32_t code) { atomicCAS(error, 0u, code); }

/// The `count` dictionary indices of a page's values [values, values + size) (a bit width byte, then the hybrid
/// stream), each checked against the chunk's dictionary of `dictionary_size` entries (`has_dictionary`): calls
/// emit(i, index) per value from every thread of the block; a malformed stream or index sets `error` to `code`.
template <typename Emit>
__device__ void decode_dictionary_indices(const uint8_t* values, uint32_t size, uint32_t count, bool has_dictionary,
                                          uint32_t dictionary_size, uint32_t* error, uint32_t code, Emit emit) {
  if (!has_dictionary || (count > 0 && (size < 1 || values[0] > 32))) {
    if (threadIdx.x == 0) set_error(error, code);
    return;
  }
  if (count == 0) return;
  const bool ok = rle_decode_block(values + 1, values + size, values[0], count, [&](uint32_t i, uint32_t index) {
    if (index >= dictionary_size) {
      set_error(error, code);
      return;
    }
    emit(i, index);
  });
  if (!ok && threadIdx.x == 0) set_error(error, code);
}

}  // namespace kestrel::io::parquet::device
