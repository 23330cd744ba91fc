#pragma once
/// Unnest: one output row per element of each input row's arrays and maps (CPU only), after the input's columns.

#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// The streaming operator of plan::LogicalUnnest: for every input row as many rows as its longest array (a map
/// gives key and value columns), shorter arrays padded with NULLs, and the element number when `ordinality`. A row
/// whose arrays are all NULL or empty gives no row.
class UnnestCpu final : public StreamOperator {
 public:
  UnnestCpu(std::vector<plan::ExprPtr> arrays, bool ordinality, SchemaPtr schema)
      : arrays_(std::move(arrays)), ordinality_(ordinality), schema_(std::move(schema)) {}
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Unnest"; }

 private:
  std::vector<plan::ExprPtr> arrays_;
  bool ordinality_;
  SchemaPtr schema_;
};

}  // namespace kestrel::exec
