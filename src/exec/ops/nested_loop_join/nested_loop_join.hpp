#pragma once
/// Nested-loop join on the CPU, for joins without equality keys (cross joins, `a.x < b.y`, ...) over small build
/// sides: every probe row meets every build row and the condition decides. Join types: inner, cross, left, right,
/// full, semi, anti, mark, single; null-aware anti and mark take a pair whose condition is NULL as unknown.
///
/// Wiring (pipeline indices are examples):
///   0: right input -> BatchCollector (the build side; collect/collect.hpp)
///   1: left input -> NestedLoopJoinProbe(collector) -> ... -> sink                (depends on 0)
///   2: NestedLoopJoinUnmatchedSource(probe) -> ... -> another sink              (right/full only; depends on 1)

#include <memory>
#include <vector>

#include "exec/ops/collect/collect.hpp"
#include "exec/ops/common/join_pairs.hpp"

namespace kestrel::exec {

/// Joins each left batch with the whole collected right input.
class NestedLoopJoinProbe final : public StreamOperator {
 public:
  NestedLoopJoinProbe(std::shared_ptr<const BatchCollector> build, SchemaPtr probe_schema, JoinSpec spec);

  /// Concatenates the collected build side (it has finished by now).
  void prepare(ExecContext& ctx) override;
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override;

  const SchemaPtr& output_schema() const { return output_schema_; }
  const JoinSpec& spec() const { return spec_; }
  const Batch& build_rows() const { return build_rows_; }
  /// One flag per build row, set when a probe row matched it (right and full joins).
  const std::vector<uint8_t>& build_matched() const { return build_matched_; }

 private:
  std::shared_ptr<const BatchCollector> build_;
  SchemaPtr probe_schema_;
  JoinSpec spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  Batch build_rows_;
  std::vector<uint8_t> build_matched_;
};

/// Right and full joins: the build rows no probe row matched, after the probe pipeline finished.
class NestedLoopJoinUnmatchedSource final : public Source {
 public:
  explicit NestedLoopJoinUnmatchedSource(std::shared_ptr<const NestedLoopJoinProbe> probe,
                                         size_t morsel_rows = kCpuOutputRows)
      : probe_(std::move(probe)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override { return morsels_for(probe_->build_rows().num_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "NestedLoopJoinUnmatched"; }

 private:
  std::shared_ptr<const NestedLoopJoinProbe> probe_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
