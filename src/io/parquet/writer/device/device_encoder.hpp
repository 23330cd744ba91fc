#pragma once
/// The GPU twin of encode_column_chunk (column_chunk_encoder.hpp): one row group of device columns encoded as
/// Parquet column chunks on the device. Page bodies are assembled by the kernels of encode_pages.hpp, compressed by
/// nvCOMP (SNAPPY) where the codec allows, and only the finished pages cross to the host, where their headers are
/// written. Data pages are v1, as the CPU writer writes them; values are PLAIN, except VARCHAR columns whose slices
/// share one dictionary of at most `dictionary_size_limit` bytes, written RLE_DICTIONARY with that dictionary.
/// Statistics: NULL counts always, min/max of fixed-width columns (strings get no min/max on this path).
///
/// Columns this path does not encode (BOOLEAN, DECIMAL of more than 18 digits, NOT NULL fields whose slices hold
/// NULLs, pages past nvCOMP's chunk limit) are copied to the host and encoded by the CPU encoder, visibly in the
/// statistics. Codecs other than SNAPPY and UNCOMPRESSED are compressed on the host, page by page, in parallel.

#include <atomic>
#include <cstdint>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/parquet/writer/column_chunk_encoder.hpp"

namespace kestrel::io::parquet {

/// What the GPU encoder did (summed over row groups).
struct DeviceWriteStats {
  std::atomic<uint64_t> chunks_device{0};       ///< column chunks encoded on the device
  std::atomic<uint64_t> chunks_host{0};         ///< column chunks the CPU encoder wrote
  std::atomic<uint64_t> pages{0};               ///< pages encoded on the device
  std::atomic<uint64_t> pages_host_compressed{0};
  std::atomic<uint64_t> d2h_bytes{0};           ///< finished page bytes copied to the host
};

/// Whether device encoding can run here (a GPU build).
bool device_encoding_supported();

/// Encodes `slices[c]` (one row group of column c of `schema`, device columns) as column chunks starting at file
/// offset 0, like encode_column_chunk. Ordered on `stream`, scratch from `mr`; synchronizes `stream`.
std::vector<EncodedColumnChunk> encode_row_group_on_device(const Schema& schema,
                                                           const std::vector<std::vector<ColumnSlice>>& slices,
                                                           const ParquetWriterOptions& options, gpu::Stream stream,
                                                           gpu::MemoryResource& mr, DeviceWriteStats* stats);

}  // namespace kestrel::io::parquet
