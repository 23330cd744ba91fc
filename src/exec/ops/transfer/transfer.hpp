#pragma once
/// The operators at the boundaries between CPU and GPU placement: ToDevice moves host batches into device memory
/// (the first GPU step of a pipeline), ToHost brings device batches back for CPU operators and sinks.

#include "exec/pipeline.hpp"

namespace kestrel::exec {

/// Host batch -> device batch in ctx.device_mr, on the driver's stream (gpu::driver_stream). Pageable host memory
/// goes through pinned staging (vector/transfer.hpp); the copy may still be in flight when the batch is returned:
/// the operators after it work in the same stream's order. A device batch passes through.
class ToDeviceGpu final : public StreamOperator {
 public:
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "ToDevice"; }
};

/// Device batch -> host batch in ctx.host_mr, on the batch's own stream; returns once the host bytes are in place
/// (the CPU consumer reads them next). A host batch passes through.
class ToHostGpu final : public StreamOperator {
 public:
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "ToHost"; }
};

}  // namespace kestrel::exec
