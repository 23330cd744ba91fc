#pragma once
/// Nested-loop join on the GPU: the twin of NestedLoopJoinProbe / NestedLoopJoinUnmatchedSource
/// (nested_loop_join.hpp) for device batches, for joins without equality keys over small build sides. Every
/// (probe row, build row) pair is a candidate; the pairs are generated on the device in steps of at most
/// kGpuJoinStepRows and go through the condition and the per-type output of join_pairs_gpu.hpp. Join types: inner,
/// cross, left, right, full, semi, anti, mark, single; null-aware anti and mark take a pair whose condition is NULL
/// as unknown. Same wiring as the CPU side, with a BatchCollector of device batches as the build side.

#include <algorithm>
#include <memory>
#include <vector>

#include "exec/ops/collect/collect.hpp"
#include "exec/ops/common/join_pairs_gpu.hpp"

namespace kestrel::exec {

/// Joins each left device batch with the whole collected right input, on the batch's stream.
class NestedLoopJoinProbeGpu final : public StreamOperator {
 public:
  NestedLoopJoinProbeGpu(std::shared_ptr<const BatchCollector> build, SchemaPtr probe_schema, JoinSpec spec);

  /// Concatenates the collected device build batches (it has finished by now) and waits for them, so probes on any
  /// stream may read them.
  void prepare(ExecContext& ctx) override;
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override;

  const SchemaPtr& output_schema() const { return output_schema_; }
  const JoinSpec& spec() const { return spec_; }
  /// The build side in one device batch (after prepare).
  const Batch& build_rows() const { return build_rows_; }
  /// Device flags, one byte per build row, set when a probe row matched it (right and full joins; else null).
  const uint8_t* build_matched() const { return build_matched_ ? build_matched_->as<uint8_t>() : nullptr; }
  /// Most candidate pairs per step (tests lower it to exercise the steps).
  void set_step_pairs(size_t pairs) { step_pairs_ = std::max<size_t>(pairs, 1); }

 private:
  std::shared_ptr<const BatchCollector> build_;
  SchemaPtr probe_schema_;
  JoinSpec spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  Batch build_rows_;
  BufferPtr build_matched_;
  size_t step_pairs_ = kGpuJoinStepRows;
};

/// Right and full joins: the build rows no probe row matched, after the probe pipeline finished, with NULL probe
/// columns, as device batches on the reading driver's stream.
class NestedLoopJoinUnmatchedSourceGpu final : public Source {
 public:
  explicit NestedLoopJoinUnmatchedSourceGpu(std::shared_ptr<const NestedLoopJoinProbeGpu> probe,
                                            size_t morsel_rows = kGpuJoinStepRows)
      : probe_(std::move(probe)), morsel_rows_(std::max<size_t>(morsel_rows, 1)) {}
  size_t morsel_count() const override { return morsels_for(probe_->build_rows().num_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "NestedLoopJoinUnmatched [GPU]"; }

 private:
  std::shared_ptr<const NestedLoopJoinProbeGpu> probe_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
