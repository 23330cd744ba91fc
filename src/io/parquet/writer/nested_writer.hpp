#pragma once
/// Writing ARRAY, MAP and ROW columns: their schema as the Parquet format's standard nested forms, and their rows
/// shredded into one column chunk per leaf with repetition and definition levels.
///
///   ARRAY(T)   <rep> group a (LIST) { repeated group list { optional T element; } }
///   MAP(K, V)  <rep> group m (MAP) { repeated group key_value { required K key; optional V value; } }
///   ROW(f T..) <rep> group r { optional T f; ... }
///
/// <rep> is OPTIONAL, or REQUIRED for a NOT NULL column; elements, values and fields are always OPTIONAL (Kestrel's
/// nested types do not say that their children hold no NULL), map keys always REQUIRED (a NULL key is an error).
/// Anonymous ROW fields are named field0, field1, ... as Kestrel prints them. Each leaf's statistics are those of its
/// non-NULL values, its null count the entries below its maximum definition level (NULLs, and empty or NULL lists
/// and rows above it).

#include <cstdint>
#include <vector>

#include "io/parquet/writer/column_chunk_encoder.hpp"

namespace kestrel::io::parquet {

/// Appends the schema elements of `field` (flat: one leaf; nested: its group and everything below, depth first).
/// Throws NotImplemented naming the column and the field for a type Parquet cannot hold (INTERVAL inside a ROW).
void append_schema_elements(const Field& field, std::vector<SchemaElement>& out);

/// The leaf columns (column chunks per row group) of a field of `type`: 1 for flat types.
size_t leaf_count(const LogicalType& type);

/// Encodes `slices` (one row group of a nested column) as one chunk per leaf, in schema order, each as if it
/// started at file offset 0. Throws InvalidInput naming the column for a NULL in a NOT NULL column or a NULL key.
std::vector<EncodedColumnChunk> encode_nested_column_chunks(const Field& field, const std::vector<ColumnSlice>& slices,
                                                            const ParquetWriterOptions& options);

}  // namespace kestrel::io::parquet
