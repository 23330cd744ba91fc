#pragma once
/// Dictionary-encoded columns in expression evaluation: decoding, row gathers, and spreading a result computed
/// once per dictionary entry back to the rows.

#include <cstdint>

#include "vector/column.hpp"

namespace kestrel::exec {

/// The plain column with the same values as the dictionary-encoded host column `column` (a plain column is
/// returned as is).
ColumnPtr decode_dictionary(const ColumnPtr& column, gpu::MemoryResource& mr);
/// Same, for callers holding a reference; always builds a new column for dictionary input.
ColumnPtr decode_dictionary(const Column& column, gpu::MemoryResource& mr);

/// The rows `rows[0..n)` of a host column, in that order; a dictionary column stays dictionary-encoded.
ColumnPtr gather_rows(const Column& column, const uint32_t* rows, size_t n, gpu::MemoryResource& mr);

/// Spreads `per_entry` (one value per entry of `encoded`'s dictionary) to the rows of `encoded`: row i gets
/// per_entry[index[i]], NULL where the row is NULL or the entry's result is. A VARCHAR result without NULL
/// entries becomes a dictionary column sharing `encoded`'s indices; other results are gathered.
ColumnPtr spread_dictionary_result(const Column& encoded, const ColumnPtr& per_entry, gpu::MemoryResource& mr);

}  // namespace kestrel::exec
