#pragma once
/// Turns a logical plan into pipelines of operators. When the context has device memory (the GPU is the device),
/// Filter and Project run on the GPU where evaluate_gpu supports their expressions, with ToDevice / ToHost
/// transfers where a pipeline crosses between host and device; everything else runs on the CPU.
/// Pipeline breakers (aggregation, sort, join build, limit, shared sub-plans) end a pipeline in a sink; the
/// operators above them start a new pipeline whose source reads the sink's result.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/ops/collect/collect.hpp"
#include "exec/pipeline.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::exec {

class PlanBuilder {
 public:
  explicit PlanBuilder(ExecContext& ctx) : ctx_(ctx) {}

  /// Adds the pipelines that compute `root` into a collector and returns that collector.
  /// With `device_rows` and GPU placement, a result the GPU produced stays in device memory (for writers that encode
  /// on the device); otherwise the result is host batches.
  std::shared_ptr<BatchCollector> build_result(const plan::LogicalPtr& root, bool device_rows = false);
  std::vector<Pipeline>& pipelines() { return pipelines_; }
  /// With GPU placement, the labels of the plan nodes placed on the CPU (sources excluded: scanning and VALUES
  /// feed the GPU through ToDevice). gpu_fallback off refuses a query that has any.
  const std::vector<std::string>& cpu_operators() const { return cpu_operators_; }

 private:
  /// A pipeline still being built: its source, its operators so far and what it depends on.
  struct Open {
    std::shared_ptr<Source> source;
    std::vector<std::shared_ptr<StreamOperator>> operators;
    std::vector<size_t> dependencies;
    /// The pipeline's batches are on the device after the last operator (a GPU operator ended it).
    bool on_device = false;
  };

  /// The pipeline computing `node`, ending with host batches (what CPU operators and sinks consume).
  Open build(const plan::LogicalPtr& node);
  /// Like build, but may end on the device, so a GPU operator placed above continues there without a round trip.
  Open build_placed(const plan::LogicalPtr& node);
  /// `open` ending on the host (a ToHost appended when it ends on the device) or on the device (a ToDevice).
  Open to_host(Open open);
  Open to_device(Open open);
  bool gpu_placement() const { return ctx_.device_mr != nullptr && !cpu_only_; }
  /// The pipeline computing `node` as the input of an operator placed on the GPU (`gpu`: ending on the device)
  /// or on the CPU (ending on the host).
  Open input(const plan::LogicalPtr& node, bool gpu) { return gpu ? to_device(build_placed(node)) : build(node); }
  /// A projection on the chosen device.
  static std::shared_ptr<StreamOperator> project(bool gpu, std::vector<plan::ExprPtr> exprs, SchemaPtr schema);
  /// Whether every expression can run on the GPU (false without GPU placement).
  bool gpu_exprs(const std::vector<plan::ExprPtr>& exprs) const;
  /// Set when the plan carries VARBINARY or JSON values, which no GPU operator handles: the whole plan runs on the CPU
  /// (and gpu_fallback off refuses it), so no device code ever sees such a column, not even passing through.
  bool cpu_only_ = false;
  /// Records that `node` runs on the CPU although the GPU is the device (gpu_fallback off refuses the query).
  void note_cpu(const plan::LogicalNode& node) {
    if (gpu_placement()) cpu_operators_.push_back(node.label());
  }
  Open build_values(const plan::LogicalValues& node);
  Open build_limit(const plan::LogicalPtr& node);
  Open build_breaker(const plan::LogicalPtr& node);
  Open build_aggregate(const plan::LogicalAggregate& agg);
  /// The aggregation `agg` (groups and aggregates over the rows of `open`, which is on the device when `gpu`)
  /// on top of `open`.
  Open build_distinct(Open open, const plan::LogicalAggregate& agg, bool gpu);
  /// Whether the aggregation `agg` can run on the GPU.
  bool gpu_aggregate(const plan::LogicalAggregate& agg) const;
  /// A sort; with `limit` a top-N that keeps only the first limit + offset rows (the LIMIT itself stays above).
  Open build_sort(const plan::LogicalSort& sort, std::optional<uint64_t> limit, uint64_t offset);
  Open build_join(const plan::LogicalJoin& join);
  Open build_set_op(const plan::LogicalSetOp& op);
  /// Window functions, on the GPU where WindowSinkGpu computes them all.
  Open build_window(const plan::LogicalWindow& window);
  /// Ends `open` in `sink`; returns the pipeline's index.
  size_t finish(Open open, std::shared_ptr<Sink> sink);
  /// A sub-plan's rows collected once: the collector, the index of the pipeline filling it, and whether its
  /// batches are on the device (they stay where the sub-plan's last operator left them).
  struct Materialized {
    std::shared_ptr<BatchCollector> collector;
    size_t index = 0;
    bool on_device = false;
  };
  /// Materializes `node` into a collector (once per node, so shared sub-plans such as CTEs run once).
  const Materialized& materialize(const plan::LogicalPtr& node);
  /// A pipeline reading a materialized sub-plan.
  static Open read(const Materialized& m) { return Open{m.collector, {}, {m.index}, m.on_device}; }
  void count_references(const plan::LogicalNode& node);

  ExecContext& ctx_;
  std::vector<Pipeline> pipelines_;
  std::vector<std::string> cpu_operators_;
  std::map<const plan::LogicalNode*, int> references_;
  std::map<const plan::LogicalNode*, Materialized> materialized_;
};

/// The schema of a plan node's output.
SchemaPtr schema_of(const plan::LogicalNode& node);
/// A schema for the results of `exprs`, with generated column names.
SchemaPtr schema_of_exprs(const std::vector<plan::ExprPtr>& exprs);

}  // namespace kestrel::exec
