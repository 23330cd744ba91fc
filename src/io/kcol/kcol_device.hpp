#pragma once
/// kcol read straight into GPU memory, the GPU twin of KcolFile::read_row_group: the row group's chunks are read
/// into pinned memory and copied to the device; PACKED blocks (values and dictionary codes) are unpacked by a warp
/// each (lane l reads words l, 32 + l, ... and writes values l, 32 + l, ...), everything else is copied as it lies
/// in the file. Section bounds are checked on the host; what only the data can tell (dictionary codes, string
/// offsets, booleans) is checked by the kernels, and a failed check lets the CPU reader report the error.

#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/kcol/kcol_file.hpp"

namespace kestrel::io {

/// Columns `columns` of row group `row_group` of `file` as a device batch named by `schema`, ordered on `stream`
/// (synchronized once, for the checks). Buffers from `mr`.
Batch read_kcol_row_group_to_device(const KcolFile& file, size_t row_group, const std::vector<size_t>& columns,
                                    const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr);

namespace kcol {

/// Unpacks the PACKED blocks of one chunk: `blocks` (device BlockHeader array) over u32 `words`, `rows` values into
/// `out` (`out_width` bytes each: 1, 2, 4 or 8). With `limit` > 0 every value must be below it (dictionary codes);
/// with `boolean` 0 or 1; a violation sets *error. Queued on `stream`.
void unpack_blocks_gpu(const BlockHeader* blocks, size_t block_count, const uint32_t* words, size_t word_count,
                       size_t rows, int out_width, uint64_t limit, bool boolean, void* out, uint32_t* error,
                       gpu::Stream stream);
/// Checks `count + 1` u64 string offsets: from 0, non-decreasing, ending at `bytes`; a violation sets *error.
void check_offsets_gpu(const int64_t* offsets, size_t count, uint64_t bytes, uint32_t* error, gpu::Stream stream);

}  // namespace kcol

}  // namespace kestrel::io
