#pragma once
/// Literal rows (VALUES, and the single empty row of a SELECT without FROM) as a one-morsel source.

#include "exec/pipeline.hpp"

namespace kestrel::exec {

class ValuesCpu final : public Source {
 public:
  explicit ValuesCpu(Batch batch) : batch_(std::move(batch)) {}
  size_t morsel_count() const override { return 1; }
  void read(size_t, ExecContext&, std::vector<Batch>& out) override { out.push_back(batch_); }
  std::string name() const override { return "Values"; }

 private:
  Batch batch_;
};

}  // namespace kestrel::exec
