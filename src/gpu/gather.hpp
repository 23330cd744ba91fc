#pragma once
/// Device primitives that compact and gather rows by a list of row indices: the GPU side of vector/gather.hpp,
/// over raw buffers (the exec layer assembles columns from them). Indices are uint32 row numbers.

#include <cstddef>
#include <cstdint>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// Writes into `indices` (room for `rows`) the rows where the BOOLEAN bytes `values` are true and the row is valid
/// (`validity` null: all valid), in order, and returns how many. Scratch comes from `mr`. Synchronizes `stream`: the
/// host needs the count to size the gathered columns.
size_t select_true_rows(const uint8_t* values, const uint8_t* validity, size_t rows, uint32_t* indices, Stream stream,
                        MemoryResource& mr);

/// dst[i] = src[indices[i]] for `count` values of `width` bytes (1, 2, 4, 8 or 16).
void gather_fixed(size_t width, const void* src, const uint32_t* indices, size_t count, void* dst, Stream stream);

/// Bit i of `dst` = bit indices[i] of `src`, written as whole 32-bit words ((count + 31) / 32 of them); adds the
/// number of set bits to the device counter `*valid_count`.
void gather_bits(const uint8_t* src, const uint32_t* indices, size_t count, uint32_t* dst,
                 unsigned long long* valid_count, Stream stream);

/// Offsets of the gathered strings: dst_offsets[0..count] (count + 1 values) with dst_offsets[count] the total
/// bytes. Scratch comes from `mr`.
void gather_string_offsets(const int64_t* src_offsets, const uint32_t* indices, size_t count, int64_t* dst_offsets,
                           Stream stream, MemoryResource& mr);

/// Copies the bytes of the gathered strings to `dst_chars` at `dst_offsets` (from gather_string_offsets).
void gather_string_chars(const int64_t* src_offsets, const char* src_chars, const uint32_t* indices, size_t count,
                         const int64_t* dst_offsets, char* dst_chars, Stream stream);

}  // namespace kestrel::gpu
