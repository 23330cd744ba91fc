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

/// select_true_rows without its synchronization: `flags` (`rows` bytes) gets 1 for each selected row, `indices`
/// the selected rows and the device int `*selected` their number, all ordered on `stream` (scratch from `mr`). A
/// caller reads the number back with whatever else it needs from the device in one copy.
void select_true_rows_async(const uint8_t* values, const uint8_t* validity, size_t rows, uint8_t* flags,
                            uint32_t* indices, int* selected, Stream stream, MemoryResource& mr);

/// dst[i] = src[indices[i]] for `count` values of `width` bytes (1, 2, 4, 8 or 16).
void gather_fixed(size_t width, const void* src, const uint32_t* indices, size_t count, void* dst, Stream stream);

}  // namespace kestrel::gpu
