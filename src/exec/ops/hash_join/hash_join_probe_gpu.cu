/// HashJoinProbeGpu: bucket walks per probe row into candidate pairs, the NOT IN rules of null-aware joins, and the
/// source of unmatched build rows.

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/common/join_candidates_gpu.cuh"
#include "exec/ops/hash_join/hash_join_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

using plan::JoinType;

namespace {

BufferPtr zeroed_buffer(size_t bytes, gpu::Stream stream, gpu::MemoryResource& mr) {
  BufferPtr b = Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream);
  gpu::fill_bytes(b->data(), gpu::MemoryKind::kDevice, 0, b->size(), stream);
  return b;
}

/// The build rows whose keys equal a probe row's keys (none when a probe key is NULL), at most `cap` of them, in
/// ascending row order.
struct HashCandidates {
  DeviceKeys probe;
  DeviceKeys build;
  const uint64_t* probe_hashes;
  const uint8_t* probe_null;
  const uint32_t* bucket_offsets;
  const uint32_t* sorted_rows;
  const uint64_t* sorted_hashes;
  uint64_t mask;
  uint32_t cap;

  template <typename Visit>
  __device__ void visit(size_t r, Visit& visit) const {
    if (probe_null[r] != 0) return;
    const uint64_t h = probe_hashes[r];
    const uint64_t bucket = h & mask;
    uint32_t found = 0;
    for (uint32_t i = bucket_offsets[bucket], end = bucket_offsets[bucket + 1]; i < end; ++i) {
      if (sorted_hashes[i] != h) continue;
      const uint32_t row = sorted_rows[i];
      if (!device_rows::rows_equal(probe, r, build, row, false)) continue;
      if (!visit(row)) return;
      if (++found >= cap) return;
    }
  }
};

/// For null-aware anti and mark joins: the build rows that may equal a probe row without a match, i.e. that are
/// equal on every key column where neither side is NULL. Those are among the build rows with a NULL key when the
/// probe row has none, among all build rows otherwise.
struct NullAwareCandidates {
  DeviceKeys probe;
  DeviceKeys build;
  const uint8_t* probe_null;
  const uint32_t* matches;
  const uint32_t* null_key_rows;
  uint32_t null_key_count;
  uint32_t build_rows;

  __device__ bool possibly_equal(size_t r, uint32_t b) const {
    for (int c = 0; c < probe.count; ++c) {
      if (!device_rows::key_valid(probe.columns[c], r) || !device_rows::key_valid(build.columns[c], b)) continue;
      if (device_rows::compare_key(probe.columns[c], r, build.columns[c], b) != 0) return false;
    }
    return true;
  }

  template <typename Visit>
  __device__ void visit(size_t r, Visit& visit) const {
    if (matches[r] > 0) return;
    if (probe_null[r] == 0) {
      for (uint32_t i = 0; i < null_key_count; ++i) {
        const uint32_t b = null_key_rows[i];
        if (possibly_equal(r, b) && !visit(b)) return;
      }
    } else {
      for (uint32_t b = 0; b < build_rows; ++b) {
        if (possibly_equal(r, b) && !visit(b)) return;
      }
    }
  }
};

bool is_string_kind(DeviceKeyKind kind) { return kind == DeviceKeyKind::kString || kind == DeviceKeyKind::kDictString; }

/// The device comparison needs the same physical key types on both sides (plain and dictionary strings mix).
void check_key_kinds(const DeviceKeys& probe, const DeviceKeys& build) {
  KESTREL_CHECK_EQ(probe.count, build.count);
  for (int c = 0; c < probe.count; ++c) {
    const DeviceKeyKind a = probe.columns[c].kind;
    const DeviceKeyKind b = build.columns[c].kind;
    if (a == b || (is_string_kind(a) && is_string_kind(b))) continue;
    throw NotImplemented("GPU hash join: key " + std::to_string(c) + " has different physical types on the two sides");
  }
}

}  // namespace

HashJoinProbeGpu::HashJoinProbeGpu(std::shared_ptr<const HashJoinBuildGpu> build, SchemaPtr probe_schema,
                                   std::vector<size_t> probe_keys, JoinSpec spec)
    : build_(std::move(build)), probe_schema_(std::move(probe_schema)), probe_keys_(std::move(probe_keys)),
      spec_(std::move(spec)) {
  KESTREL_CHECK_EQ(probe_keys_.size(), build_->key_columns().size());
  KESTREL_CHECK_MSG(spec_.type != JoinType::kCross, "a cross join has no keys: use NestedLoopJoin");
  for (size_t c : probe_keys_) KESTREL_CHECK_LT(c, probe_schema_->size());
  output_schema_ = join_output_schema(spec_.type, *probe_schema_, *build_->schema());
  pair_schema_ = join_pair_schema(*probe_schema_, *build_->schema());
}

std::string HashJoinProbeGpu::name() const {
  return std::string("HashJoinProbe(") + plan::join_type_name(spec_.type) + (spec_.null_aware ? ", null-aware" : "") +
         ") [GPU]";
}

void HashJoinProbeGpu::prepare(ExecContext& ctx) {
  if (!emits_unmatched_build(spec_.type)) return;
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "HashJoinProbe [GPU] needs a device memory resource");
  const gpu::Stream stream = gpu::driver_stream();
  build_matched_ = zeroed_buffer(build_->rows().num_rows(), stream, *ctx.device_mr);
  stream.synchronize();  // probes on other streams set the flags
}

void HashJoinProbeGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(input.on_device() && ctx.device_mr != nullptr, "HashJoinProbe [GPU] needs a device batch");
  const size_t n = input.num_rows();
  if (n == 0) return;
  if (n >= size_t{INT32_MAX}) throw NotImplemented("GPU hash join: a probe batch of " + std::to_string(n) + " rows");
  const gpu::Stream stream = input.stream();
  gpu::MemoryResource& mr = *ctx.device_mr;
  const DeviceKeys keys = device_keys(input, probe_keys_);
  check_key_kinds(keys, build_->keys());
  BufferPtr hashes = Buffer::allocate(n * sizeof(uint64_t), mr, stream);
  BufferPtr key_null = Buffer::allocate(std::max<size_t>(n, 8), mr, stream);
  hash_device_rows(keys, n, hashes->as<uint64_t>(), key_null->as<uint8_t>(), stream);
  // Without a residual condition, semi/anti/mark need one match per row (and no pairs, below) and single needs two
  // (to fail).
  const bool existence =
      spec_.type == JoinType::kSemi || spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark;
  uint32_t cap = UINT32_MAX;
  if (!spec_.condition && existence) cap = 1;
  if (!spec_.condition && spec_.type == JoinType::kSingle) cap = 2;
  const HashCandidates candidates{keys,
                                  build_->keys(),
                                  hashes->as<uint64_t>(),
                                  key_null->as<uint8_t>(),
                                  build_->bucket_offsets(),
                                  build_->sorted_rows(),
                                  build_->sorted_hashes(),
                                  build_->bucket_mask(),
                                  cap};
  uint8_t* matched = build_matched_ ? build_matched_->as<uint8_t>() : nullptr;
  ProbeBatchJoinerGpu joiner(spec_, output_schema_, pair_schema_, input, build_->rows(), matched, ctx, out);
  // Every probe row matching exactly one build row (a lookup into a unique key): the probe columns are reused as
  // they are instead of gathered.
  bool identity = false;
  if (existence && !spec_.condition) {
    // Only whether a row has a match matters: one walk per row that stops at the first, no pairs.
    join_gpu::flag_rows_with_candidates(candidates, n, joiner.mutable_matches(), stream);
  } else {
    join_gpu::for_each_candidate_step(
        candidates, n, step_pairs_, stream, mr,
        [&](const uint32_t* probe_rows, const uint32_t* build_rows, size_t count) {
          joiner.add(probe_rows, build_rows, count, identity);
        },
        spec_.condition ? nullptr : &identity);
  }
  if (spec_.null_aware && (spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark)) {
    BufferPtr unknown =
        null_aware_unknown(input, keys, key_null->as<uint8_t>(), joiner.matches(), joiner.saw_null(), ctx);
    joiner.finish(unknown->as<uint8_t>());
  } else {
    joiner.finish(nullptr);
  }
  // The unmatched source reads the matched flags on another stream once the probe pipeline is done.
  if (matched != nullptr) stream.synchronize();
}

BufferPtr HashJoinProbeGpu::null_aware_unknown(const Batch& input, const DeviceKeys& keys, const uint8_t* key_null,
                                               const uint32_t* matches, const uint8_t* saw_null,
                                               ExecContext& ctx) const {
  const size_t n = input.num_rows();
  const gpu::Stream stream = input.stream();
  gpu::MemoryResource& mr = *ctx.device_mr;
  BufferPtr unknown = zeroed_buffer(n, stream, mr);
  const size_t build_rows = build_->rows().num_rows();
  if (build_rows == 0) return unknown;  // x NOT IN (empty) is TRUE, even for a NULL x
  // Unknown when some build row equals the row on every key column where neither side is NULL and the condition is
  // not FALSE there (TRUE or NULL): candidates with a NULL key, and the pairs of equal keys where the joiner saw a
  // NULL condition (a residual comparison, as in x > ALL (...) of a correlated sub-query, whose keys are the
  // domain's).
  const NullAwareCandidates candidates{keys,
                                       build_->keys(),
                                       key_null,
                                       matches,
                                       build_->sorted_rows() + build_->null_key_first(),
                                       static_cast<uint32_t>(build_rows - build_->null_key_first()),
                                       static_cast<uint32_t>(build_rows)};
  if (!spec_.condition) {
    join_gpu::flag_rows_with_candidates(candidates, n, unknown->as<uint8_t>(), stream);
    return unknown;
  }
  gpu::copy_bytes(unknown->data(), gpu::MemoryKind::kDevice, saw_null, gpu::MemoryKind::kDevice, n, stream);
  auto flag_step = [&](const uint32_t* probe_rows, const uint32_t* build_rows, size_t count) {
    Batch joined;
    ColumnPtr verdict = evaluate_pairs_gpu(spec_.condition, pair_schema_, input, build_->rows(), probe_rows,
                                           build_rows, count, stream, ctx, &joined, spec_.condition_columns);
    flag_true_pairs_gpu(probe_rows, *verdict, count, unknown->as<uint8_t>(), stream, true);
  };
  join_gpu::for_each_candidate_step(candidates, n, step_pairs_, stream, mr, flag_step);
  return unknown;
}

void HashJoinUnmatchedSourceGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "HashJoinUnmatched [GPU] needs a device memory resource");
  const Batch& rows = probe_->build().rows();
  const size_t first = morsel * morsel_rows_;
  const size_t count = std::min(morsel_rows_, rows.num_rows() - first);
  KESTREL_CHECK_MSG(probe_->build_matched() != nullptr, "HashJoinUnmatched [GPU] needs a prepared right/full probe");
  const auto& schema = probe_->output_schema();
  emit_unmatched_build_rows_gpu(rows, probe_->build_matched(), first, count, schema,
                                schema->size() - rows.num_columns(), gpu::driver_stream(), *ctx.device_mr, out);
}

}  // namespace kestrel::exec
