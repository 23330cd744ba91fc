#pragma once
/// The kernels of the GPU Parquet decoder, one launcher each. Every pointer is device memory, every launch is queued
/// on `stream`, and malformed data sets the column's error word (DecodeError) instead of failing: the reader checks
/// it once per batch and lets the CPU decoder report the error (device_reader.hpp).

#include <cstddef>
#include <cstdint>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/parquet/device/device_pages.hpp"

namespace kestrel::io::parquet::device {

/// Replaces each of the `count` relative addresses (device_pages.hpp) at byte offsets `slots[i]` of `block` by
/// the device address it names in `bases`. `block` and `slots` are device memory.
void rebase_addresses(uint8_t* block, const uint64_t* slots, size_t count, const AddressBases& bases,
                      gpu::Stream stream);

/// Copies every piece (one thread block each); `pieces` is device memory.
void copy_pieces(const CopyPiece* pieces, size_t count, gpu::Stream stream);

/// Per data page: the definition levels into levels[first_row + i] (1 valid, 0 null) when `nullable`, where its
/// values start in the body into value_start[p], and its non-null count into nonnull[p].
void decode_levels(const DevicePage* pages, size_t count, int nullable, uint8_t* levels, uint32_t* value_start,
                   uint32_t* nonnull, uint32_t* error, gpu::Stream stream);

/// dense_start[p] = the sum of nonnull[q] for q < p (where page p's values go among the column's non-null values).
void dense_starts(const uint32_t* nonnull, size_t count, uint64_t* dense_start, gpu::Stream stream,
                  gpu::MemoryResource& mr);

/// Dictionary pages of fixed-width physical types into Kestrel values at
/// dictionary[(chunks[page.chunk].dictionary_first + i) * type.out_width].
void decode_fixed_dictionaries(const DevicePage* pages, size_t count, const DeviceChunk* chunks,
                               DeviceColumnType type, uint8_t* dictionary, uint32_t* error, gpu::Stream stream);

/// Data pages of fixed-width physical types into the column's non-null values as Kestrel values:
/// dense[(dense_start[p] + i) * type.out_width]. Encodings PLAIN, RLE (booleans), dictionary, BYTE_STREAM_SPLIT.
void decode_fixed_pages(const DevicePage* pages, size_t count, const DeviceChunk* chunks, DeviceColumnType type,
                        const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                        const uint8_t* dictionary, uint8_t* dense, uint32_t* error, gpu::Stream stream);

/// Dictionary pages of BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY columns into (pointer, length) pairs of their entries at
/// chunks[page.chunk].dictionary_first + i.
void decode_binary_dictionaries(const DevicePage* pages, size_t count, const DeviceChunk* chunks,
                                DeviceColumnType type, const uint8_t** src, uint32_t* len, uint32_t* error,
                                gpu::Stream stream);

/// Data pages of BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY columns (PLAIN or dictionary) into (pointer, length) pairs of
/// the non-null values, or, with `indices` (a string column that stays dictionary-encoded), into the values'
/// indices in the column's dictionary.
void decode_binary_pages(const DevicePage* pages, size_t count, const DeviceChunk* chunks, DeviceColumnType type,
                         const uint32_t* value_start, const uint32_t* nonnull, const uint64_t* dense_start,
                         const uint8_t* const* dictionary_src, const uint32_t* dictionary_len, const uint8_t** src,
                         uint32_t* len, int32_t* indices, uint32_t* error, gpu::Stream stream);

/// Binary values (DECIMAL as big-endian bytes, FLOAT16) into fixed-width Kestrel values.
void convert_binary(const uint8_t* const* src, const uint32_t* len, size_t count, DeviceColumnType type,
                    uint8_t* out, uint32_t* error, gpu::Stream stream);

/// ranks[r] = the number of valid rows before row r (an exclusive scan of levels). Scratch from `mr`.
void ranks_from_levels(const uint8_t* levels, size_t rows, uint32_t* ranks, gpu::Stream stream,
                       gpu::MemoryResource& mr);
/// out[r] = levels[r] ? dense[ranks[r]] : zero, for values of `width` bytes (1, 2, 4, 8 or 16).
void spread_by_levels(const uint8_t* levels, const uint32_t* ranks, size_t rows, const void* dense, size_t width,
                      void* out, gpu::Stream stream);
/// The validity bitmap (Arrow: bit r of byte r/8) of levels.
void levels_to_bitmap(const uint8_t* levels, size_t rows, uint8_t* bitmap, gpu::Stream stream);

/// offsets[0] = 0, offsets[i + 1] = offsets[i] + len[i] for i < count. Scratch from `mr`.
void string_offsets(const uint32_t* len, size_t count, int64_t* offsets, gpu::Stream stream,
                    gpu::MemoryResource& mr);
/// Copies value i (len from the offsets) from src[i] to chars + offsets[i].
void copy_strings(const uint8_t* const* src, const int64_t* offsets, size_t count, uint8_t* chars,
                  gpu::Stream stream);

}  // namespace kestrel::io::parquet::device
