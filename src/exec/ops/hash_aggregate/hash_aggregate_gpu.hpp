#pragma once
/// Aggregation on the GPU: the device twin of AggregateHashTable
/// (hash_aggregate.hpp) for one device batch. Not yet an operator: the plan
/// builder does not place aggregations on the GPU.
///
/// Method (sort-based, exact): every key column becomes an order-preserving
/// uint64 (NULL kept apart), the row ids are sorted by the keys with stable LSD
/// radix sorts (last key first), group boundaries are where neighbours differ,
/// and each group is reduced by one thread block. Sums of integers and decimals
/// run in int64/int128 exactly as on the CPU, so results match
/// AggregateHashTable bit for bit except sums of doubles (other order).

#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Groups the rows of the device batch `device_input` by the columns
/// `group_columns` (NULL keys group together) and computes `aggregates` per
/// group. Returns a device batch [group keys..., aggregate results...] with the
/// result types of aggregate_result_type, groups in no particular order;
/// without group columns exactly one row, even for an empty input (count 0,
/// other aggregates NULL). Output buffers come from `mr`, work is ordered on
/// `stream`.
///
/// Supported: keys BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP
/// and DECIMAL stored in int64 (plain encoding); count(*) and count(x) of any
/// column; sum and avg of INTEGER, BIGINT, DOUBLE and int64 DECIMAL; min and
/// max of INTEGER, DATE, BIGINT, TIMESTAMP, DOUBLE and int64 DECIMAL. Anything
/// else (DISTINCT, any_value, VARCHAR or dictionary keys, wide decimals,
/// batches of 2^31 rows or more) throws NotImplemented before any work is
/// queued.
///
/// Synchronizes `stream` twice: for the number of groups (to size the output)
/// and for the NULL counts of the output columns.
Batch aggregate_gpu(const Batch &device_input,
                    const std::vector<size_t> &group_columns,
                    const std::vector<AggregateSpec> &aggregates,
                    gpu::Stream stream, gpu::MemoryResource &mr);

} // namespace kestrel::exec
