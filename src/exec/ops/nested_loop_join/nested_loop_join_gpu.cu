/// NestedLoopJoinProbeGpu: every (probe row, build row) pair as a candidate, and the source of unmatched build rows.

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/join_candidates_gpu.cuh"
#include "exec/ops/nested_loop_join/nested_loop_join_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

using plan::JoinType;

namespace {

/// The first `count` build rows, for every probe row.
struct CrossCandidates {
  uint32_t count;

  template <typename Visit>
  __device__ void visit(size_t, Visit& visit) const {
    for (uint32_t b = 0; b < count; ++b) {
      if (!visit(b)) return;
    }
  }
};

}  // namespace

NestedLoopJoinProbeGpu::NestedLoopJoinProbeGpu(std::shared_ptr<const BatchCollector> build, SchemaPtr probe_schema,
                                               JoinSpec spec)
    : build_(std::move(build)), probe_schema_(std::move(probe_schema)), spec_(std::move(spec)) {
  output_schema_ = join_output_schema(spec_.type, *probe_schema_, *build_->schema());
  pair_schema_ = join_pair_schema(*probe_schema_, *build_->schema());
}

std::string NestedLoopJoinProbeGpu::name() const {
  return std::string("NestedLoopJoin(") + plan::join_type_name(spec_.type) + (spec_.null_aware ? ", null-aware" : "") +
         ") [GPU]";
}

void NestedLoopJoinProbeGpu::prepare(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "NestedLoopJoin [GPU] needs a device memory resource");
  gpu::MemoryResource& mr = *ctx.device_mr;
  const gpu::Stream stream = gpu::driver_stream();
  // The collected batches were produced on their drivers' streams: wait for them before reading them here.
  gpu::Stream last;
  for (const Batch& b : build_->batches()) {
    KESTREL_CHECK_MSG(b.on_device(), "NestedLoopJoin [GPU] needs a device build side");
    if (b.stream() == last) continue;
    b.stream().synchronize();
    last = b.stream();
  }
  build_rows_ = concat_batches_gpu(build_->batches(), build_->schema(), stream, mr);
  if (build_rows_.num_rows() >= size_t{UINT32_MAX}) {
    throw NotImplemented("GPU nested-loop join: a build side of " + std::to_string(build_rows_.num_rows()) + " rows");
  }
  if (emits_unmatched_build(spec_.type)) {
    build_matched_ = Buffer::allocate(std::max<size_t>(build_rows_.num_rows(), 8), mr, stream);
    gpu::fill_bytes(build_matched_->data(), gpu::MemoryKind::kDevice, 0, build_matched_->size(), stream);
  }
  stream.synchronize();  // probes on other streams read the build rows and set the flags
}

void NestedLoopJoinProbeGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(input.on_device() && ctx.device_mr != nullptr, "NestedLoopJoin [GPU] needs a device batch");
  const size_t n = input.num_rows();
  if (n == 0) return;
  if (n >= size_t{INT32_MAX}) {
    throw NotImplemented("GPU nested-loop join: a probe batch of " + std::to_string(n) + " rows");
  }
  const gpu::Stream stream = input.stream();
  const auto build_n = static_cast<uint32_t>(build_rows_.num_rows());
  const bool existence =
      spec_.type == JoinType::kSemi || spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark;
  uint32_t per_row = build_n;
  if (!spec_.condition && existence) per_row = std::min<uint32_t>(build_n, 1);
  if (!spec_.condition && spec_.type == JoinType::kSingle) per_row = std::min<uint32_t>(build_n, 2);
  uint8_t* matched = build_matched_ ? build_matched_->as<uint8_t>() : nullptr;
  ProbeBatchJoinerGpu joiner(spec_, output_schema_, pair_schema_, input, build_rows_, matched, ctx, out);
  join_gpu::for_each_candidate_step(CrossCandidates{per_row}, n, step_pairs_, stream, *ctx.device_mr,
                                    [&](const uint32_t* probe_rows, const uint32_t* build_rows, size_t count) {
                                      ctx.check_cancelled();
                                      joiner.add(probe_rows, build_rows, count);
                                    });
  // Without keys, the unknown of NOT IN / IN is a pair whose condition was NULL.
  joiner.finish(spec_.null_aware ? joiner.saw_null() : nullptr);
  // The unmatched source reads the matched flags on another stream once the probe pipeline is done.
  if (matched != nullptr) stream.synchronize();
}

void NestedLoopJoinUnmatchedSourceGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "NestedLoopJoinUnmatched [GPU] needs a device memory resource");
  const Batch& rows = probe_->build_rows();
  const size_t first = morsel * morsel_rows_;
  const size_t count = std::min(morsel_rows_, rows.num_rows() - first);
  KESTREL_CHECK_MSG(probe_->build_matched() != nullptr, "NestedLoopJoinUnmatched [GPU] needs a right/full probe");
  const auto& schema = probe_->output_schema();
  emit_unmatched_build_rows_gpu(rows, probe_->build_matched(), first, count, schema,
                                schema->size() - rows.num_columns(), gpu::driver_stream(), *ctx.device_mr, out);
}

}  // namespace kestrel::exec
