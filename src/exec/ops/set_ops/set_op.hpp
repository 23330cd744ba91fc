#pragma once
/// UNION, INTERSECT and EXCEPT, with and without ALL, on the CPU. Rows compare with NULL equal to NULL. Both inputs
/// feed one table of distinct rows with a count per side; the output repeats each row as the operation says:
///   UNION: once;  INTERSECT: once if in both;  EXCEPT: once if only in the left;
///   INTERSECT ALL: min(left, right) times;  EXCEPT ALL: max(left - right, 0) times;  UNION ALL: left + right.
///
/// Wiring: 0: left input -> SetOpSink(state, 0);  1: right input -> SetOpSink(state, 1);
///         2: SetOpSource(state) -> ...  (depends on 0 and 1).
/// UNION ALL needs no operator and no hashing: run both inputs as two pipelines into one consumer (the two
/// pipelines' sinks, or one order-insensitive sink fed by both) — SetOpSink with kUnion and all = true exists only
/// for plans that want the bag union through a single source.

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/group_table.hpp"
#include "exec/ops/common/output_rows.hpp"
#include "exec/pipeline.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::exec {

/// The distinct rows of both inputs with their counts per side; shared by the two sinks and the source.
class SetOpState {
 public:
  SetOpState(SchemaPtr schema, plan::SetOpKind op, bool all);

  const SchemaPtr& schema() const { return schema_; }
  plan::SetOpKind op() const { return op_; }
  bool all() const { return all_; }

  /// Merges a driver's distinct rows and counts into side `side` (0 left, 1 right). Thread-safe.
  void merge(int side, const GroupTable& rows, const std::vector<uint64_t>& counts);
  /// How many times the operation outputs a row seen `left` and `right` times.
  uint64_t copies(uint64_t left, uint64_t right) const;

  /// Marks side `side` finished (its sink's finalize).
  void finish(int side) { finished_[side].store(true); }
  /// Whether more input of side `side` cannot change the output: the other side finished with no rows, and the
  /// operation is an INTERSECT, or an EXCEPT whose left side that is.
  bool side_unneeded(int side) const;
  /// After both sides finished: computes the output rows. Once.
  void prepare_output();
  size_t output_rows() const { return output_.size(); }
  Batch read_rows(size_t first, size_t count) const;

 private:
  SchemaPtr schema_;
  plan::SetOpKind op_;
  bool all_;
  std::mutex mutex_;
  GroupTable rows_;
  std::vector<uint64_t> counts_[2];
  std::atomic<bool> finished_[2] = {false, false};
  std::atomic<uint64_t> seen_[2] = {0, 0};  ///< rows merged into each side
  std::vector<ColumnPtr> columns_;  ///< the distinct rows (after prepare_output)
  std::vector<uint32_t> output_;    ///< distinct-row index of each output row
};

/// One side of a set operation.
class SetOpSink final : public Sink {
 public:
  SetOpSink(std::shared_ptr<SetOpState> state, int side);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override { state_->finish(side_); }
  bool input_unneeded() const override { return state_->side_unneeded(side_); }
  std::string name() const override;

 private:
  struct Local;
  std::shared_ptr<SetOpState> state_;
  int side_;
};

/// The rows of a set operation, after both sinks finished.
class SetOpSource final : public Source {
 public:
  explicit SetOpSource(std::shared_ptr<SetOpState> state, size_t morsel_rows = kCpuOutputRows)
      : state_(std::move(state)), morsel_rows_(morsel_rows) {}
  void prepare(ExecContext& ctx) override { state_->prepare_output(); }
  size_t morsel_count() const override { return morsels_for(state_->output_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "SetOpScan"; }

 private:
  std::shared_ptr<SetOpState> state_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
