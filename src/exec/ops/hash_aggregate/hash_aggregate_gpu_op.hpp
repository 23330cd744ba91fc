#pragma once
/// The GPU hash aggregation operator: the device twin of HashAggregateSink / HashAggregateSource in kSingle mode
/// (hash_aggregate.hpp), over device batches, with the method of hash_aggregate_gpu.hpp.
///
/// Wiring as on the CPU: pipeline A = device input -> HashAggregateSinkGpu; pipeline B = HashAggregateSourceGpu ->
/// ... with B depending on A. Each driver of A turns every batch into partial states [keys, states] on the batch's
/// stream (and DISTINCT aggregates into distinct (keys..., argument) rows), compacting them by merging when they
/// pile up; combine synchronizes the driver's stream and hands them to the sink; finalize merges everything on one
/// stream and computes the final values; the source emits the result in device batches. Aggregations by integer-like
/// keys whose states update with atomics (AggregateTableGpu::supports) instead insert every batch into one device
/// hash table, and finalize reads the states out of it.

#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_table.hpp"
#include "exec/pipeline.hpp"

namespace kestrel::exec {

/// The breaker of a GPU aggregation (kSingle semantics: raw device rows in, final values out). Throws
/// NotImplemented from the constructor for aggregations the GPU side cannot run (check_aggregate_gpu_supported),
/// so placement can fall back to HashAggregateSink.
class HashAggregateSinkGpu final : public Sink {
 public:
  HashAggregateSinkGpu(SchemaPtr input_schema, std::vector<size_t> group_columns,
                       std::vector<AggregateSpec> aggregates);

  /// Whether the GPU side runs this aggregation (what check_aggregate_gpu_supported accepts): placement asks
  /// before building the sink.
  static bool supports(const Schema& input_schema, const std::vector<size_t>& group_columns,
                       const std::vector<AggregateSpec>& aggregates);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  /// `batch` is a device batch ordered on batch.stream(), its memory from ctx.device_mr.
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  /// Runs the final merge on gpu::driver_stream() and waits for it.
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "HashAggregate(single) [GPU]"; }

  /// [keys..., final values...], as HashAggregateSink's kSingle output schema.
  const SchemaPtr& output_schema() const { return output_schema_; }
  /// Groups after finalize (one for an aggregation without keys, even on empty input).
  size_t group_count() const { return result_.num_rows(); }
  /// The whole result after finalize: a device batch of output_schema, complete (its stream synchronized).
  const Batch& result() const { return result_; }

 private:
  struct Local;

  /// Merges `partials` into one batch when they pile up (at least kCompactAfter batches holding at least as many
  /// rows as the first), so that few groups keep few rows. Groups are found by hash while *try_hash holds (the
  /// order of partial rows does not matter: finalize sorts by the keys).
  void compact(std::vector<Batch>& partials, const std::vector<size_t>& key_columns, bool states, gpu::Stream stream,
               gpu::MemoryResource& mr, size_t distinct_index, bool* try_hash) const;

  SchemaPtr input_schema_;
  std::vector<size_t> group_columns_;
  std::vector<AggregateSpec> aggregates_;
  std::vector<AggregateSpec> state_aggregates_;  ///< the aggregates whose partial states are kept
  std::vector<size_t> distinct_aggregates_;      ///< indices into aggregates_ of the DISTINCT ones
  SchemaPtr output_schema_;
  SchemaPtr state_schema_;                       ///< [keys..., states of state_aggregates_...]
  std::vector<SchemaPtr> distinct_schemas_;      ///< per DISTINCT aggregate: [keys..., argument]

  std::unique_ptr<aggregate_gpu_detail::AggregateTableGpu> table_;  ///< the one table, when it runs this aggregation
  std::mutex mutex_;
  std::vector<Batch> states_;                 ///< partial states of every driver (complete: streams synchronized)
  std::vector<std::vector<Batch>> distinct_;  ///< per DISTINCT aggregate, distinct rows of every driver
  Batch result_;
};

/// Reads the result of a finished HashAggregateSinkGpu as device batches of up to `morsel_rows` groups, copied on
/// the reading driver's stream (gpu::driver_stream()) into ctx.device_mr.
class HashAggregateSourceGpu final : public Source {
 public:
  explicit HashAggregateSourceGpu(std::shared_ptr<const HashAggregateSinkGpu> sink,
                                  size_t morsel_rows = size_t{1} << 20)
      : sink_(std::move(sink)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override;
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "HashAggregateScan [GPU]"; }

 private:
  std::shared_ptr<const HashAggregateSinkGpu> sink_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
