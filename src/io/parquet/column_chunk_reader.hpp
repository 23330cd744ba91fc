#pragma once
/// Decodes one column chunk (one column of one row group) from its bytes into a host column. This is the unit of
/// decoding work: the scan runs one per (row group, column) on its threads, and a GPU decoder later takes the same
/// inputs.

#include <cstddef>
#include <string>

#include "io/parquet/parquet_format.hpp"
#include "io/parquet/parquet_schema.hpp"
#include "io/parquet/value_decoders.hpp"
#include "vector/column.hpp"

namespace kestrel::io::parquet {

/// Knobs of chunk decoding.
struct ChunkDecodeOptions {
  bool verify_checksums = false;
  bool keep_dictionaries = true;
  /// Pages claiming more uncompressed bytes are refused as corrupt (PageReader::kMaxHostPageBytes).
  size_t max_page_bytes = 0x7fffffff;
};

/// Where a chunk comes from, for error messages.
struct ChunkLocation {
  const std::string* file = nullptr;
  size_t row_group = 0;
};

/// Decodes the pages in `chunk` (the bytes from the chunk's first page to its end) into a column of `rows` rows.
/// Malformed data throws InvalidInput "Parquet file 'f': column 'c' page N of row group G: reason".
ColumnPtr decode_column_chunk(ByteSpan chunk, const ColumnDescriptor& column, const ColumnMetaData& meta,
                              size_t rows, const ChunkDecodeOptions& options, const ChunkLocation& where,
                              gpu::MemoryResource& mr);

/// Sum of the value counts of the data pages in `chunk`, from the page headers alone (no decompression), stopping
/// once `needed` values are found: lets a reader check a chunk against its row group before allocating for it.
size_t count_chunk_values(ByteSpan chunk, size_t needed);

}  // namespace kestrel::io::parquet
