#pragma once
/// Host kernels that rearrange rows: gather by index, filter by selection, concatenate, slice. They handle every
/// type and encoding (dictionary columns keep their dictionary).

#include <cstdint>
#include <vector>

#include "vector/batch.hpp"

namespace kestrel {

/// Row indices into a column or batch.
using RowIndices = std::vector<uint32_t>;

/// The rows `indices` of `column`, in that order; an index of kNullRow gives a NULL (outer-join padding).
inline constexpr uint32_t kNullRow = UINT32_MAX;
ColumnPtr gather_column(const Column& column, const RowIndices& indices,
                        gpu::MemoryResource& mr = gpu::host_memory_resource());
Batch gather_batch(const Batch& batch, const RowIndices& indices,
                   gpu::MemoryResource& mr = gpu::host_memory_resource());

/// Indices of the rows where a BOOLEAN column is TRUE (NULL counts as false).
RowIndices true_rows(const Column& predicate);

/// All batches (same schema) as one batch; an empty list gives an empty batch of `schema`.
Batch concat_batches(const std::vector<Batch>& batches, const SchemaPtr& schema,
                     gpu::MemoryResource& mr = gpu::host_memory_resource());

/// Rows [offset, offset + count) of `batch` (copies).
Batch slice_batch(const Batch& batch, size_t offset, size_t count);

/// A column of `rows` NULLs of `type`.
ColumnPtr null_column(const LogicalType& type, size_t rows, gpu::MemoryResource& mr = gpu::host_memory_resource());

/// An empty batch of `schema`.
Batch empty_batch(const SchemaPtr& schema);

}  // namespace kestrel
