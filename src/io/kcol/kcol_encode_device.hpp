#pragma once
/// The kernels of the GPU kcol writer (kcol_writer.cpp encodes chunks of device columns with them): rows of device
/// columns gathered into a chunk's contiguous arrays, PACKED blocks bounded and packed in the interleaved layout of
/// docs/kcol.md (a warp per block of 1024 values), string offsets and bytes, validity bitmaps. No CUDA headers here.

#include <cstddef>
#include <cstdint>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/kcol/kcol_format.hpp"

namespace kestrel::io::kcol {

/// Rows [first, first + count) of a device column, bound for rows [at, at + count) of a chunk.
struct DeviceSlice {
  const uint8_t* values = nullptr;    ///< fixed-width values, or the int32 indices of a dictionary column
  const uint8_t* validity = nullptr;  ///< null: every row valid
  const int64_t* offsets = nullptr;   ///< strings: the column's offsets, or its dictionary's
  const uint8_t* chars = nullptr;
  uint64_t first = 0, count = 0, at = 0;
  int32_t width = 0;       ///< bytes per value (4 for dictionary indices)
  int32_t boolean = 0;     ///< BOOLEAN (unsigned 0/1)
  int32_t dictionary = 0;  ///< strings looked up through int32 indices
};

/// values[at + i] = value i of the slice as i64 (signed, or 0/1), valid[at + i] = 1 when the row is valid.
void gather_i64_gpu(const DeviceSlice& slice, int64_t* values, uint8_t* valid, gpu::Stream stream);
/// The slice's values copied (width bytes each) to out + (at + i) * width, NULL rows zeroed; valid as above.
void gather_plain_gpu(const DeviceSlice& slice, uint8_t* out, uint8_t* valid, gpu::Stream stream);
/// lengths[at + i] = the byte length of string i (0 when NULL); valid as above.
void string_lengths_gpu(const DeviceSlice& slice, uint64_t* lengths, uint8_t* valid, gpu::Stream stream);
/// Copies string i of the slice to bytes + offsets[at + i].
void copy_strings_gpu(const DeviceSlice& slice, const uint64_t* offsets, uint8_t* bytes, gpu::Stream stream);

/// offsets[0] = 0, offsets[i + 1] = offsets[i] + counts[i] (count + 1 entries). Scratch from `mr`.
void running_sum_gpu(const uint64_t* counts, size_t count, uint64_t* offsets, gpu::Stream stream,
                     gpu::MemoryResource& mr);

/// Per block of 1024 rows: the smallest and largest valid value (base, max: 0 when none), the bit width of their
/// difference, words[b] = 32 x width and seen[b] = 1 when the block holds a valid value.
void block_bounds_gpu(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                      uint64_t* words, uint8_t* seen, gpu::Stream stream);
/// headers[b].word = word_offsets[b]; then each block packed at words + word_offsets[b] (NULL rows and the padding
/// of the last block as the base).
void pack_blocks_gpu(const int64_t* values, const uint8_t* valid, uint64_t rows, BlockHeader* headers,
                     const uint64_t* word_offsets, uint32_t* words, gpu::Stream stream);

/// The Arrow bitmap of `rows` valid bytes; *valid_count += the number of valid rows.
void bitmap_from_valid_gpu(const uint8_t* valid, uint64_t rows, uint8_t* bitmap,
                           unsigned long long* valid_count, gpu::Stream stream);

}  // namespace kestrel::io::kcol
