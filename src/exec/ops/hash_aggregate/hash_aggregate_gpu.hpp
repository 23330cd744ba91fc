#pragma once
/// Aggregation on the GPU: the device twin of AggregateHashTable (hash_aggregate.hpp), as steps over device
/// batches that the operator (hash_aggregate_gpu_op.hpp) composes, and as one call for a single batch.
///
/// Method (exact): the rows are sorted by their keys (any device key type: VARCHAR plain or dictionary, int128
/// DECIMAL, DOUBLE, INTERVAL...; NULL keys group together) or, for the partial aggregation of a batch, numbered by
/// a hash table (2^16 slots for few groups, twice the rows for many) and radix sorted by that number; groups are
/// runs of equal keys, and each group (cut into runs of at most 8192 rows in partial aggregation) is reduced by one
/// thread block. The intermediate states have exactly the layout of the CPU's partial
/// mode ([keys..., aggregate_state_types of each aggregate...]), so partial results of one batch merge like the
/// CPU's: counts add, sums add (int64/int128 exactly, with the CPU's overflow errors), min/max/any_value keep a
/// winning row, variance states (count, mean, m2) merge with Chan et al.'s formula. DISTINCT aggregates run over
/// the distinct (keys..., argument) rows. Results equal the CPU's bit for bit except sums, averages and variances
/// of floating-point values (other order of additions and merges) and, among values that compare equal but differ
/// (0.0 and -0.0, intervals of equal length), which one min/max keep.

#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Throws NotImplemented for aggregations the GPU side cannot run over batches of `input` (more than
/// kMaxDeviceKeys keys, or keys plus a DISTINCT argument; key or min/max argument of the NULL type; functions
/// aggregate_result_type rejects). Queues nothing.
void check_aggregate_gpu_supported(const Schema& input, const std::vector<size_t>& group_columns,
                                   const std::vector<AggregateSpec>& aggregates);

/// The rows of the device batch `device_input` grouped by the columns `group_columns` with `aggregates` computed
/// per group (kSingle semantics, DISTINCT included). Returns a device batch [group keys..., results...] with the
/// result types of aggregate_result_type, groups in ascending key order; without group columns exactly one row,
/// even for an empty input (count 0, other aggregates NULL). Overflow raises InvalidInput as on the CPU.
/// Synchronizes `stream` several times (group counts, NULL counts, string sizes, overflow flags).
Batch aggregate_gpu(const Batch& device_input, const std::vector<size_t>& group_columns,
                    const std::vector<AggregateSpec>& aggregates, gpu::Stream stream, gpu::MemoryResource& mr);

/// The steps of aggregate_gpu, for the operator. Every batch is a device batch ordered on `stream`.
namespace aggregate_gpu_detail {

/// Partial aggregation of raw rows: [keys..., states of each aggregate...] (the CPU's kPartial layout) for the
/// non-DISTINCT `aggregates`. With `max_group_rows` > 0 a big group is split into runs of at most that many rows,
/// so a key may appear on several rows (merge_states combines them); with 0 every group is one row. With
/// `try_hash` null or false the groups come in ascending key order; with *try_hash true they are found with a hash
/// table (in no particular order), and *try_hash turns false when the table could not hold them.
/// Needs rows when there are no group columns.
Batch partial_states(const Batch& input, const std::vector<size_t>& group_columns,
                     const std::vector<AggregateSpec>& aggregates, size_t max_group_rows, bool* try_hash,
                     gpu::Stream stream, gpu::MemoryResource& mr);

/// Merges intermediate states [keys (the first `keys` columns)..., states...] into one row per group, in ascending
/// key order (same layout). With *try_hash true the groups are found with a hash table instead, in no particular
/// order (see partial_states). Needs rows when `keys` is 0.
Batch merge_states(const Batch& states, size_t keys, const std::vector<AggregateSpec>& aggregates,
                   gpu::Stream stream, gpu::MemoryResource& mr, bool* try_hash = nullptr);

/// The final values of states with one row per group: [keys..., result of each aggregate...].
Batch final_values(const Batch& states, size_t keys, const std::vector<AggregateSpec>& aggregates,
                   gpu::Stream stream, gpu::MemoryResource& mr);

/// The distinct rows of the columns `columns` of `input` (NULL equal to NULL), in ascending order; with *try_hash
/// true in no particular order (found with a hash table, see partial_states).
Batch distinct_rows(const Batch& input, const std::vector<size_t>& columns, gpu::Stream stream,
                    gpu::MemoryResource& mr, bool* try_hash = nullptr);

/// The result of an aggregation over no rows: without keys (`keys` 0) one row, count 0 and NULL for everything
/// else; with keys no rows.
Batch empty_result(const SchemaPtr& output_schema, const std::vector<AggregateSpec>& aggregates, size_t keys,
                   gpu::Stream stream, gpu::MemoryResource& mr);

/// The aggregates whose partial states are kept: the non-DISTINCT ones, or count(*) when there are none (so that
/// the states always have a column and count the groups' rows).
std::vector<AggregateSpec> state_aggregates(const std::vector<AggregateSpec>& aggregates);

/// The final result [keys..., results of `aggregates` in order...] from the concatenated partial states of
/// state_aggregates(aggregates) (`states`, as partial_states emits them) and, per DISTINCT aggregate in order, the
/// concatenated distinct [keys..., argument] rows (`distinct`). Schema `output_schema`.
Batch finish_aggregation(const Batch& states, const std::vector<Batch>& distinct, size_t keys,
                         const std::vector<AggregateSpec>& aggregates, const SchemaPtr& output_schema,
                         gpu::Stream stream, gpu::MemoryResource& mr);

/// The CPU's error message when the sum (or the average's sum) of `a` overflows its state type.
std::string sum_overflow_message(const AggregateSpec& a);

/// Whether `a` is aggregated over its distinct arguments (DISTINCT and not count(*)).
bool is_distinct_aggregate(const AggregateSpec& a);

/// [keys of `input` at `group_columns`..., final value of each aggregate...]: the output schema of a kSingle
/// aggregation, as HashAggregateSink builds it.
SchemaPtr single_output_schema(const Schema& input, const std::vector<size_t>& group_columns,
                               const std::vector<AggregateSpec>& aggregates);

}  // namespace aggregate_gpu_detail

}  // namespace kestrel::exec
