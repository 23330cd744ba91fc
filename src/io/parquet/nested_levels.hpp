#pragma once
/// Reading nested columns: the pages of each leaf column chunk decode into its repetition and definition levels and
/// its values (one row per slot of the leaf, NULL where the leaf is undefined), and the levels of the leaves then
/// become the offsets and validity of every list and struct above them (Dremel's record assembly, done level by
/// level over whole column chunks).
///
/// Levels are checked as they are decoded: values above the column's maximum, an entry that repeats a field its
/// definition level says is absent, a chunk that starts inside a row, and a row count other than the row group's are
/// InvalidInput naming the page; leaves of one field that disagree on its shape are InvalidInput naming both.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/parquet/column_chunk_reader.hpp"
#include "io/parquet/nested_schema.hpp"
#include "vector/column.hpp"

namespace kestrel::io::parquet {

/// One leaf column chunk of a nested column, decoded.
struct LeafLevels {
  std::vector<uint8_t> rep;  ///< repetition level of each level entry
  std::vector<uint8_t> def;  ///< definition level of each level entry
  /// One row per entry whose definition level reaches the leaf's slot (leaf.slot_def): the value, or NULL.
  ColumnPtr values;
};

/// Decodes the pages of one leaf chunk (`chunk`: from its first page to its end) of a row group of `rows` rows.
/// Messages start "Parquet file 'f': column 'c' (leaf 'c.list.element') page N of row group G: ".
LeafLevels decode_leaf_chunk(ByteSpan chunk, const NestedField& leaf, const ColumnMetaData& meta, size_t rows,
                             const ChunkDecodeOptions& options, const ChunkLocation& where,
                             const std::string& column_name, gpu::MemoryResource& mr);

/// The column of a nested field from its decoded leaves (`leaves[i]` is the field's leaf i, in file order).
/// Throws InvalidInput (without the file, which the caller adds) when the leaves disagree or a map key is NULL.
ColumnPtr assemble_nested_column(const NestedField& field, const std::vector<LeafLevels>& leaves,
                                 gpu::MemoryResource& mr);

}  // namespace kestrel::io::parquet
