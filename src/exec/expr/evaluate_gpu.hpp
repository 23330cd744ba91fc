#pragma once
/// GPU evaluation of bound expressions (planner/expression.hpp) over device batches: the twin of evaluate.hpp,
/// producing device columns with the same values, types and NULLs as the CPU evaluator.
///
/// Each expression node is one kernel launch (or a few) over whole columns; constants stay one-row device columns
/// that kernels broadcast, column references are returned without a copy, and dictionary-encoded strings are
/// compared, matched (LIKE) and cut (SUBSTRING) once per dictionary entry. Filters and join conditions go through
/// predicate_gpu.hpp first, which runs the boolean skeleton of a predicate as one kernel. Next step: the same for
/// arithmetic (projections such as TPC-H q1's decimal products), keeping strings and CASE as separate passes.

#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Evaluates `expr` on every row of the device batch `device_batch`, ordered on `stream`, with result buffers from
/// `mr`. The result has `device_batch.num_rows()` rows and type `expr.type`; it may be the input column itself or
/// dictionary-encoded (as on the CPU). Throws NotImplemented, naming the function or type, for what the GPU side
/// does not support (placement then runs the expression on the CPU). Runtime errors (overflow, division by zero,
/// failed casts) are flagged on the device and raised as the CPU's InvalidInput.
///
/// Synchronizes `stream` once (the host reads back the error flag and the result's NULL count), except for a column
/// reference, which is returned as is.
ColumnPtr evaluate_gpu(const plan::Expr& expr, const Batch& device_batch, gpu::Stream stream,
                       gpu::MemoryResource& mr);

/// Evaluates every expression of `exprs` like evaluate_gpu, in one evaluation: sub-expressions they share are
/// computed once, and the stream is synchronized once for all of them.
std::vector<ColumnPtr> evaluate_gpu_all(const std::vector<plan::ExprPtr>& exprs, const Batch& device_batch,
                                        gpu::Stream stream, gpu::MemoryResource& mr);

}  // namespace kestrel::exec
