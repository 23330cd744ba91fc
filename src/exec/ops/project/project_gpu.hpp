#pragma once
/// Projection on the GPU: the twin of ProjectCpu (project.hpp) for device batches.

#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// Computes one device column per expression with evaluate_gpu, on the input batch's stream; every expression must
/// pass can_evaluate_gpu.
class ProjectGpu final : public StreamOperator {
 public:
  ProjectGpu(std::vector<plan::ExprPtr> exprs, SchemaPtr schema) : exprs_(std::move(exprs)), schema_(std::move(schema)) {}
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Project [GPU]"; }

 private:
  std::vector<plan::ExprPtr> exprs_;
  SchemaPtr schema_;
};

}  // namespace kestrel::exec
