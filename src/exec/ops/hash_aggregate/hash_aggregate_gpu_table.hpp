#pragma once
/// One device hash table for a whole GPU aggregation (hash_aggregate_gpu_op.hpp), for aggregations by integer-like
/// keys whose states all update with atomics: every batch of every driver inserts its rows into the same table and
/// adds to the groups' states in place, so there are no per-batch partial states and no final merge.
///
/// The table is open addressing with linear probing over 64-bit keys (several keys: a slot claimed, written, then
/// published; see the .cu). Its capacity keeps the load under 0.7 even
/// if every row of the next batch were a new group: before a batch that could pass that, the exact group count is
/// read back and the table grows (rehashed on the device). Inserts of different drivers are chained with an event
/// (each waits for the previous one on the GPU), which is what makes growth safe; the kernels themselves fill the GPU.
///
/// States are exact as on the CPU: counts in 64 bits, integer and DECIMAL sums in 128 bits (the low and the high
/// 32-bit halves of the values add up in two 64-bit words, with atomics that need no result; exact below 2^32 input
/// rows, and a table with such sums refuses more with NotImplemented), min and max of integers with 64-bit atomics.
/// New groups are counted per thread block. Sums of REAL and DOUBLE are added in an arbitrary order
/// (as every GPU aggregation here).

#include <memory>
#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec::aggregate_gpu_detail {

class AggregateTableGpu {
 public:
  /// Whether one table runs this aggregation: one group column of INTEGER, BIGINT, DATE, TIMESTAMP or a DECIMAL of
  /// up to 18 digits, or two to eight group columns of those types, TINYINT or SMALLINT (wide keys, compared word by
  /// word with their NULLs), and at least one aggregate, none DISTINCT, each count(*), count, sum or avg of an
  /// integer, a DECIMAL of up to 18 digits, REAL or DOUBLE, or min / max of an integer, DATE, TIMESTAMP or such a
  /// DECIMAL.
  static bool supports(const Schema& input, const std::vector<size_t>& group_columns,
                       const std::vector<AggregateSpec>& aggregates);

  /// `state_schema` is [keys..., aggregate_state_types of each aggregate...], the layout of partial_states.
  AggregateTableGpu(SchemaPtr input_schema, std::vector<size_t> key_columns, std::vector<AggregateSpec> aggregates,
                    SchemaPtr state_schema);
  ~AggregateTableGpu();
  AggregateTableGpu(const AggregateTableGpu&) = delete;
  AggregateTableGpu& operator=(const AggregateTableGpu&) = delete;

  /// Adds the rows of the device batch `batch` (ordered on batch.stream()); the table's memory comes from `mr`.
  /// Safe to call from several drivers at once. Synchronizes the batch's stream only when the table may have to
  /// grow.
  void insert(const Batch& batch, gpu::MemoryResource& mr);

  /// The states of every group, one row each in no particular order, as a device batch of `state_schema` on
  /// `stream`, after every insert; releases the table. Raises InvalidInput when a sum overflows its state type.
  Batch take_states(gpu::Stream stream, gpu::MemoryResource& mr);

  /// Groups so far (synchronizes); for tests.
  size_t group_count();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kestrel::exec::aggregate_gpu_detail
