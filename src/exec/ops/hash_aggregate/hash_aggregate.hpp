#pragma once
/// Hash aggregation on the CPU: GROUP BY keys (any types, NULL keys grouping together) with every aggregate of
/// aggregate_state.hpp, each optionally DISTINCT.
///
/// Wiring: pipeline A = input -> HashAggregateSink; pipeline B = HashAggregateSource(sink) -> ... with B depending
/// on A. Each driver of A aggregates its morsels into a private table (partial aggregation); combine merges those
/// tables into the sink's table (final aggregation); the source reads the groups in morsels of kCpuOutputRows.
/// The modes are also exposed as plan-visible operators, for aggregation split across GPU streams or workers:
/// kPartial emits [keys..., intermediate states...] (aggregate_state_types), kFinal consumes exactly that layout.

#include <memory>
#include <vector>

#include "exec/ops/common/group_table.hpp"
#include "exec/ops/common/output_rows.hpp"
#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "exec/pipeline.hpp"

namespace kestrel::exec {

/// What an aggregation consumes and produces.
enum class AggregateMode : uint8_t {
  kSingle,   ///< raw rows in, final values out (the local case; drivers still aggregate partially)
  kPartial,  ///< raw rows in, [keys, intermediate states] out
  kFinal,    ///< [keys, intermediate states] in, final values out
};
const char* aggregate_mode_name(AggregateMode mode);

/// Groups and their accumulators: the state of one driver (partial) or of the whole sink (final).
class AggregateHashTable {
 public:
  AggregateHashTable(std::vector<LogicalType> key_types, std::vector<AggregateSpec> aggregates);

  /// Adds raw rows; the keys are the columns `group_columns` of `input`, arguments per AggregateSpec::argument.
  void add_input(const Batch& input, const std::vector<size_t>& group_columns);
  /// Adds intermediate states: `input` = [keys..., state columns of each aggregate in order].
  void add_states(const Batch& input);
  /// Merges another table's groups, accumulators and DISTINCT sets into this one (final aggregation).
  void merge(const AggregateHashTable& other);
  /// Feeds the DISTINCT sets into their aggregates and lets every aggregate finish. Once, after the last add or
  /// merge, before results.
  void finish();

  size_t group_count() const { return groups_.size(); }
  const GroupTable& groups() const { return groups_; }
  /// Final values of groups [first, first + count), one column per aggregate.
  std::vector<ColumnPtr> results(size_t first, size_t count) const;
  /// Intermediate states of groups [first, first + count), the state columns of every aggregate in order.
  std::vector<ColumnPtr> states(size_t first, size_t count) const;

 private:
  void resize_states();
  /// Adds `rows` raw rows to aggregate `a`: `columns` = [argument (null for count(*)), order keys...], `ids` their
  /// groups, `keys` their group keys (read only by a DISTINCT aggregate).
  void add_rows(size_t a, const std::vector<ColumnPtr>& keys, const uint32_t* ids,
                const std::vector<ColumnPtr>& columns, size_t rows);
  void fold_distinct();

  std::vector<AggregateSpec> aggregates_;
  GroupTable groups_;
  std::vector<std::unique_ptr<AggregateState>> states_;
  /// Per aggregate: for DISTINCT ones, the set of distinct (keys..., argument) rows; null otherwise.
  std::vector<std::unique_ptr<GroupTable>> distinct_;
};

/// The breaker of a hash aggregation. `input_schema` is the schema of the batches it consumes; `group_columns`
/// index it (in kFinal mode they must be the first columns, followed by the state columns).
class HashAggregateSink final : public Sink {
 public:
  HashAggregateSink(SchemaPtr input_schema, std::vector<size_t> group_columns, std::vector<AggregateSpec> aggregates,
                    AggregateMode mode = AggregateMode::kSingle);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override;

  AggregateMode mode() const { return mode_; }
  /// [keys..., final values...] (kSingle, kFinal) or [keys..., intermediate states...] (kPartial).
  const SchemaPtr& output_schema() const { return output_schema_; }
  /// Groups after finalize (one for an aggregation without keys, even on empty input).
  size_t group_count() const { return table_.group_count(); }
  /// Output rows for groups [first, first + count); after finalize, callable concurrently.
  Batch read_groups(size_t first, size_t count) const;

 private:
  struct Local;

  SchemaPtr input_schema_;
  std::vector<size_t> group_columns_;
  std::vector<AggregateSpec> aggregates_;
  AggregateMode mode_;
  std::vector<LogicalType> key_types_;
  SchemaPtr output_schema_;
  AggregateHashTable table_;
  std::vector<ColumnPtr> keys_;  ///< every group's keys, built by finalize
};

/// Reads the groups of a finished HashAggregateSink, kCpuOutputRows groups per morsel.
class HashAggregateSource final : public Source {
 public:
  explicit HashAggregateSource(std::shared_ptr<const HashAggregateSink> sink, size_t morsel_rows = kCpuOutputRows)
      : sink_(std::move(sink)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override { return morsels_for(sink_->group_count(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "HashAggregateScan"; }

 private:
  std::shared_ptr<const HashAggregateSink> sink_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
