#include "exec/ops/nested_loop_join/nested_loop_join.hpp"

#include "common/check.hpp"

namespace kestrel::exec {

using plan::JoinType;

NestedLoopJoinProbe::NestedLoopJoinProbe(std::shared_ptr<const BatchCollector> build, SchemaPtr probe_schema,
                                         JoinSpec spec)
    : build_(std::move(build)), probe_schema_(std::move(probe_schema)), spec_(std::move(spec)) {
  output_schema_ = join_output_schema(spec_.type, *probe_schema_, *build_->schema());
  pair_schema_ = join_pair_schema(*probe_schema_, *build_->schema());
  spec_.max_output_rows = std::max<size_t>(spec_.max_output_rows, 1);
}

std::string NestedLoopJoinProbe::name() const {
  return std::string("NestedLoopJoin(") + plan::join_type_name(spec_.type) + (spec_.null_aware ? ", null-aware" : "") +
         ")";
}

void NestedLoopJoinProbe::prepare(ExecContext&) {
  build_rows_ = concat_batches(build_->batches(), build_->schema());
  KESTREL_CHECK_LT(build_rows_.num_rows(), size_t{UINT32_MAX});
  build_matched_.assign(emits_unmatched_build(spec_.type) ? build_rows_.num_rows() : 0, 0);
}

void NestedLoopJoinProbe::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  const size_t n = input.num_rows();
  if (n == 0) return;
  const auto build_n = static_cast<uint32_t>(build_rows_.num_rows());
  ProbeBatchJoiner joiner(spec_, output_schema_, pair_schema_, input, build_rows_,
                          build_matched_.empty() ? nullptr : build_matched_.data(), ctx, out);
  const bool existence = spec_.type == JoinType::kSemi || spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark;
  uint32_t per_row = build_n;
  if (!spec_.condition && existence) per_row = std::min<uint32_t>(build_n, 1);
  if (!spec_.condition && spec_.type == JoinType::kSingle) per_row = std::min<uint32_t>(build_n, 2);
  for (size_t r = 0; r < n; ++r) {
    ctx.check_cancelled();
    for (uint32_t b = 0; b < per_row; ++b) joiner.add(static_cast<uint32_t>(r), b);
  }
  joiner.flush();
  if (spec_.null_aware) {
    // Without keys, the unknown of NOT IN / IN is a pair whose condition was NULL.
    std::vector<uint8_t> unknown(n);
    for (size_t r = 0; r < n; ++r) unknown[r] = joiner.saw_null(r);
    joiner.finish(&unknown);
  } else {
    joiner.finish(nullptr);
  }
}

void NestedLoopJoinUnmatchedSource::read(size_t morsel, ExecContext&, std::vector<Batch>& out) {
  const Batch& rows = probe_->build_rows();
  size_t first = morsel * morsel_rows_;
  size_t count = std::min(morsel_rows_, rows.num_rows() - first);
  const auto& schema = probe_->output_schema();
  emit_unmatched_build_rows(rows, probe_->build_matched().data(), first, count, schema,
                            schema->size() - rows.num_columns(), probe_->spec().max_output_rows, out);
}

}  // namespace kestrel::exec
