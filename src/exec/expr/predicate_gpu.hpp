#pragma once
/// Fused evaluation of boolean predicates on the GPU: the AND / OR / NOT skeleton of a predicate with its
/// comparisons, IN lists, IS [NOT] NULL and BOOLEAN columns runs as one kernel over the batch, reading each column
/// once and writing one byte per row, instead of one kernel and one intermediate column per node (evaluate_gpu).
///
/// Parts the program does not express (LIKE, comparisons of strings or of dictionary columns, arithmetic operands,
/// CASE, ...) are evaluated first by evaluate_gpu_all, in one evaluation, and enter the program as columns. The
/// results equal evaluate_gpu's, NULLs included.

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Evaluates the BOOLEAN `predicate` on every row of the device batch. Returns null when fusing would not help (the
/// whole predicate is one part the program does not express) or the program would be too big: the caller then uses
/// evaluate_gpu. With `nulls_as_false` the result has no validity and NULL rows are FALSE (what a filter keeps);
/// otherwise NULL rows are NULL and the NULL count is exact (one read-back).
ColumnPtr evaluate_predicate_gpu(const plan::Expr& predicate, const Batch& device_batch, bool nulls_as_false,
                                 gpu::Stream stream, gpu::MemoryResource& mr);

}  // namespace kestrel::exec
