#pragma once
/// Host kernels for ARRAY, MAP and ROW columns (Column's nested layout): values in and out, gathers, concatenation,
/// NULL columns, and the order-preserving key bytes that hashing, key equality and sorting read.

#include <string>
#include <vector>

#include "vector/gather.hpp"

namespace kestrel {

/// The value at `row` (valid) of a nested host column.
Value nested_value_at(const Column& column, size_t row);
/// A nested host column holding `values` (each NULL or of `type`).
ColumnPtr nested_from_values(const LogicalType& type, const std::vector<Value>& values, gpu::MemoryResource& mr);

/// The rows `indices` of a nested column (kNullRow gives NULL); children are gathered compactly.
ColumnPtr gather_nested(const Column& column, const RowIndices& indices, BufferPtr validity, size_t nulls,
                        gpu::MemoryResource& mr);
/// `columns` (one nested type) one after the other.
ColumnPtr concat_nested(const std::vector<const Column*>& columns, const LogicalType& type, gpu::MemoryResource& mr);
/// `rows` NULLs of a nested type (empty lists, children of NULLs for rows).
ColumnPtr null_nested(const LogicalType& type, size_t rows, gpu::MemoryResource& mr);
/// A column of any type from columns of the same type, one after the other (flat types through concat_batches).
ColumnPtr concat_columns(const std::vector<const Column*>& columns, const LogicalType& type, gpu::MemoryResource& mr);

/// Appends the key bytes of row `row` of `column` (any type; NULL encodes as one byte that sorts after every
/// value). Bytes compare (unsigned, shorter first) as the values order: numbers by value, strings bytewise, arrays
/// element by element and then by length, rows field by field; a map's entries are encoded in key order, so equal
/// maps have equal bytes. -0.0 equals 0.0 and every NaN equals every other, sorting above the numbers.
void append_key_bytes(const Column& column, size_t row, std::string& out);
/// Every row's key bytes as a VARBINARY column (NULL rows empty, with the column's validity); Column::nested_keys.
ColumnPtr encode_nested_keys(const Column& column);

}  // namespace kestrel
