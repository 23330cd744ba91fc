/// HashJoinProbe: chain walks per probe row into candidate pairs, the NOT IN rules of null-aware joins, and the
/// source of unmatched build rows.

#include "common/check.hpp"
#include "exec/ops/common/row_compare.hpp"
#include "exec/ops/common/row_hash.hpp"
#include "exec/ops/hash_join/hash_join.hpp"

namespace kestrel::exec {

using plan::JoinType;

HashJoinProbe::HashJoinProbe(std::shared_ptr<const HashJoinBuild> build, SchemaPtr probe_schema,
                             std::vector<size_t> probe_keys, JoinSpec spec)
    : build_(std::move(build)), probe_schema_(std::move(probe_schema)), probe_keys_(std::move(probe_keys)),
      spec_(std::move(spec)) {
  KESTREL_CHECK_EQ(probe_keys_.size(), build_->key_columns().size());
  KESTREL_CHECK_MSG(spec_.type != JoinType::kCross, "a cross join has no keys: use NestedLoopJoin");
  for (size_t c : probe_keys_) KESTREL_CHECK_LT(c, probe_schema_->size());
  output_schema_ = join_output_schema(spec_.type, *probe_schema_, *build_->schema());
  pair_schema_ = join_pair_schema(*probe_schema_, *build_->schema());
  spec_.max_output_rows = std::max<size_t>(spec_.max_output_rows, 1);
}

std::string HashJoinProbe::name() const {
  return std::string("HashJoinProbe(") + plan::join_type_name(spec_.type) + (spec_.null_aware ? ", null-aware" : "") +
         ")";
}

void HashJoinProbe::prepare(ExecContext&) {
  if (emits_unmatched_build(spec_.type)) build_matched_.assign(build_->rows().num_rows(), 0);
}

void HashJoinProbe::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  const size_t n = input.num_rows();
  if (n == 0) return;
  std::vector<ColumnView> keys = make_views(input, probe_keys_);
  std::vector<uint64_t> hashes(n);
  hash_rows(keys, n, hashes.data());
  std::vector<uint8_t> key_valid;
  mark_null_keys(keys, n, key_valid);
  ProbeBatchJoiner joiner(spec_, output_schema_, pair_schema_, input, build_->rows(),
                          build_matched_.empty() ? nullptr : build_matched_.data(), ctx, out);
  // Without a residual condition, semi/anti/mark need one match per row and single needs two (to fail).
  const bool existence = spec_.type == JoinType::kSemi || spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark;
  size_t per_row = SIZE_MAX;
  if (!spec_.condition && existence) per_row = 1;
  if (!spec_.condition && spec_.type == JoinType::kSingle) per_row = 2;
  const std::vector<ColumnView>& build_keys = build_->key_views();
  const size_t k = keys.size();
  for (size_t r = 0; r < n; ++r) {
    if (!key_valid[r]) continue;
    const uint64_t h = hashes[r];
    size_t found = 0;
    for (uint32_t b = build_->first_row(h); b != HashJoinBuild::kEnd; b = build_->next_row(b)) {
      if (build_->row_hash(b) != h || !rows_equal(keys.data(), r, build_keys.data(), b, k)) continue;
      joiner.add(static_cast<uint32_t>(r), b);
      if (++found >= per_row) break;
    }
  }
  joiner.flush();
  if (spec_.null_aware && (spec_.type == JoinType::kAnti || spec_.type == JoinType::kMark)) {
    std::vector<uint8_t> unknown = null_aware_unknown(input, keys, key_valid, joiner, ctx);
    joiner.finish(&unknown);
  } else {
    joiner.finish(nullptr);
  }
}

namespace {

/// Whether the row comparison (a = b) over key columns can be TRUE or NULL: every column where both sides are
/// non-NULL is equal.
bool possibly_equal(const std::vector<ColumnView>& a, size_t i, const std::vector<ColumnView>& b, size_t j) {
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].is_null(i) || b[k].is_null(j)) continue;
    if (!non_null_equal(a[k], i, b[k], j)) return false;
  }
  return true;
}

}  // namespace

std::vector<uint8_t> HashJoinProbe::null_aware_unknown(const Batch& input, const std::vector<ColumnView>& keys,
                                                       const std::vector<uint8_t>& key_valid,
                                                       const ProbeBatchJoiner& joiner, ExecContext& ctx) const {
  const size_t n = input.num_rows();
  std::vector<uint8_t> unknown(n, 0);
  const size_t build_rows = build_->rows().num_rows();
  if (build_rows == 0) return unknown;  // x NOT IN (empty) is TRUE, even for a NULL x
  const auto& null_rows = build_->null_key_rows();
  if (keys.size() == 1 && !spec_.condition) {
    // One key: a NULL on either side makes every non-match unknown.
    for (size_t r = 0; r < n; ++r) unknown[r] = joiner.matches(r) == 0 && (!key_valid[r] || !null_rows.empty());
    return unknown;
  }
  // General rule: unknown when some build row equals the row on every key column where neither side is NULL and
  // the condition is not FALSE there (TRUE or NULL). Candidates: build rows with a NULL key, or every build row for
  // a NULL probe key; and the build rows whose keys all equal the row's, where the joiner saw a NULL condition (a
  // residual comparison, as in x > ALL (...) of a correlated sub-query, whose keys are the domain's).
  const auto& build_keys = build_->key_views();
  RowIndices pair_probe;
  RowIndices pair_build;
  auto resolve = [&] {
    auto results = evaluate_pairs(spec_.condition, pair_schema_, input, build_->rows(), pair_probe, pair_build,
                                  spec_.max_output_rows, ctx);
    for (size_t i = 0; i < results.size(); ++i) unknown[pair_probe[i]] |= results[i] != PairResult::kFalse;
    pair_probe.clear();
    pair_build.clear();
  };
  for (size_t r = 0; r < n; ++r) {
    if (joiner.matches(r) > 0) continue;
    if (joiner.saw_null(r)) {
      unknown[r] = 1;
      continue;
    }
    auto consider = [&](uint32_t b) {
      if (!possibly_equal(keys, r, build_keys, b)) return false;
      if (!spec_.condition) return true;
      pair_probe.push_back(static_cast<uint32_t>(r));
      pair_build.push_back(b);
      if (pair_probe.size() >= spec_.max_output_rows) resolve();
      return false;
    };
    if (key_valid[r]) {
      for (uint32_t b : null_rows) {
        if (consider(b)) {
          unknown[r] = 1;
          break;
        }
      }
    } else {
      for (uint32_t b = 0; b < build_rows; ++b) {
        if (consider(b)) {
          unknown[r] = 1;
          break;
        }
      }
    }
  }
  if (!pair_probe.empty()) resolve();
  return unknown;
}

void HashJoinUnmatchedSource::read(size_t morsel, ExecContext&, std::vector<Batch>& out) {
  const Batch& rows = probe_->build().rows();
  size_t first = morsel * morsel_rows_;
  size_t count = std::min(morsel_rows_, rows.num_rows() - first);
  const auto& schema = probe_->output_schema();
  emit_unmatched_build_rows(rows, probe_->build_matched().data(), first, count, schema,
                            schema->size() - rows.num_columns(), probe_->spec().max_output_rows, out);
}

}  // namespace kestrel::exec
