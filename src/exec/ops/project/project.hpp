#pragma once
/// Projection: computes one output column per expression.

#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

class ProjectCpu final : public StreamOperator {
 public:
  ProjectCpu(std::vector<plan::ExprPtr> exprs, SchemaPtr schema) : exprs_(std::move(exprs)), schema_(std::move(schema)) {}
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Project"; }

 private:
  std::vector<plan::ExprPtr> exprs_;
  SchemaPtr schema_;
};

}  // namespace kestrel::exec
