#pragma once
/// Filter on the GPU: the twin of FilterCpu (filter.hpp) for device batches.

#include "exec/ops/common/gather_gpu.hpp"
#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// The rows of the device batch `batch` where `predicate` is TRUE, compacted on the device (every column, strings,
/// dictionary indices and validity included), ordered on `stream` with buffers from `mr`. Returns `batch` itself
/// when every row passes. Synchronizes `stream` once, for the number of passing rows and the NULL counts and string
/// sizes of the gathered columns together.
Batch apply_filter_gpu(const plan::Expr& predicate, const Batch& batch, gpu::Stream stream, gpu::MemoryResource& mr);

/// Keeps the rows of device batches where the predicate is TRUE; the predicate must pass can_evaluate_gpu.
class FilterGpu final : public StreamOperator {
 public:
  explicit FilterGpu(plan::ExprPtr predicate) : predicate_(std::move(predicate)) {}
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Filter [GPU]"; }

 private:
  plan::ExprPtr predicate_;
};

}  // namespace kestrel::exec
