#pragma once
/// Filter: keeps the rows where a BOOLEAN predicate is TRUE.

#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// The rows of `batch` where `predicate` is TRUE (NULL and FALSE drop the row).
Batch apply_filter(const plan::Expr& predicate, const Batch& batch, ExecContext& ctx);

class FilterCpu final : public StreamOperator {
 public:
  explicit FilterCpu(plan::ExprPtr predicate) : predicate_(std::move(predicate)) {}
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Filter"; }

 private:
  plan::ExprPtr predicate_;
};

}  // namespace kestrel::exec
