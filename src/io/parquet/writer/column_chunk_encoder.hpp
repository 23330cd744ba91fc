#pragma once
/// Encodes the rows of one column of one row group as a Parquet column chunk: an optional dictionary page and
/// page v1 data pages (RLE/bit-packed repetition and definition levels, then PLAIN values or RLE_DICTIONARY
/// indices), compressed, with the chunk's ColumnMetaData and statistics. Also the mapping of Kestrel types onto
/// Parquet schema elements.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/parquet/parquet_format.hpp"
#include "io/parquet/writer/parquet_writer_options.hpp"
#include "io/parquet/writer/physical_values.hpp"
#include "vector/batch.hpp"

namespace kestrel::io::parquet {

/// The schema element a Kestrel field is written as (a leaf; REQUIRED when the field is not nullable):
///   BOOLEAN -> BOOLEAN; TINYINT/SMALLINT -> INT32 + INT(8/16, signed); INTEGER -> INT32; BIGINT -> INT64;
///   REAL -> FLOAT; DOUBLE -> DOUBLE; DECIMAL(p,s) -> INT32 (p <= 9), INT64 (p <= 18) or FIXED_LEN_BYTE_ARRAY of the
///   fewest bytes that hold p digits (p > 18), each + DECIMAL(p,s); DATE -> INT32 + DATE;
///   TIMESTAMP -> INT64 + TIMESTAMP(MICROS, isAdjustedToUTC=false); VARCHAR -> BYTE_ARRAY + STRING.
/// INTERVAL throws NotImplemented: Parquet's only interval type (FIXED_LEN_BYTE_ARRAY(12), months/days/millis)
/// cannot hold Kestrel's microseconds, and Kestrel does not write lossy values.
SchemaElement schema_element_for(const Field& field);

/// Rows [begin, begin + count) of a host column.
struct ColumnSlice {
  ColumnPtr column;
  size_t begin = 0;
  size_t count = 0;
};

/// A column chunk ready to be appended to the file at the `file_offset` it was encoded for.
struct EncodedColumnChunk {
  std::vector<uint8_t> bytes;
  ColumnChunk chunk;
  int64_t uncompressed_bytes = 0;
};

/// Encodes `slices` (one row group of the column, in order) as a chunk starting at `file_offset`. Throws
/// InvalidInput naming the column when a NOT NULL field holds a NULL; the caller adds the file name. Flat columns
/// only (nested ones: nested_writer.hpp).
EncodedColumnChunk encode_column_chunk(const Field& field, const std::vector<ColumnSlice>& slices,
                                       const ParquetWriterOptions& options, int64_t file_offset);

/// The level entries and non-NULL values of one leaf column chunk: a flat column (definition levels 0/1, no
/// repetition levels) or a leaf of a nested column (nested_writer.hpp shreds those).
struct LeafEntries {
  int max_repetition_level = 0;
  int max_definition_level = 0;
  std::vector<uint32_t> rep;  ///< one per entry; empty when max_repetition_level is 0
  std::vector<uint32_t> def;  ///< one per entry; empty when max_definition_level is 0
  size_t entries = 0;         ///< level entries (rows of a flat column)
  int64_t nulls = 0;          ///< entries below the maximum definition level
};

/// Encodes a leaf's entries and `values` (its non-NULL values, in order) as the chunk of schema leaf `element` at
/// `path` (path_in_schema). Data pages end at row boundaries (an entry of repetition level 0 starts each page).
EncodedColumnChunk encode_leaf_chunk(const SchemaElement& element, const std::vector<std::string>& path,
                                     const LeafEntries& leaf, const PhysicalValues& values,
                                     const ParquetWriterOptions& options, int64_t file_offset);

/// A chunk's statistics from its smallest and largest value (rows 0 and 1 of `bounds`, a host column of the
/// field's type, or null when the chunk has no value to bound) and its NULL count, as encode_column_chunk writes them.
Statistics statistics_from_bounds(const Field& field, const Column* bounds, int64_t null_count);

}  // namespace kestrel::io::parquet
