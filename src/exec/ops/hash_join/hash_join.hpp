#pragma once
/// Hash join on the CPU: the build side (the plan's right input) is hashed on its key columns, the probe side (the
/// left input) streams through it. Join types: inner, left, right, full, semi, anti, mark, single, each with an
/// optional residual condition; anti and mark optionally null-aware (NOT IN / IN). NULL keys never match.
///
/// Wiring (pipeline indices are examples):
///   0: right input -> HashJoinBuild
///   1: left input -> HashJoinProbe(build) -> ... -> sink                 (depends on 0)
///   2: HashJoinUnmatchedSource(probe) -> ... -> the same sink            (right/full only; depends on 1)
/// Pipeline 2 emits the build rows no probe row matched, with NULL left columns. When the sink of 1 and 2 is an
/// order-preserving collector, give the two pipelines distinct morsel ranges (or accept that row order is
/// unspecified, as SQL allows without ORDER BY).

#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/column_view.hpp"
#include "exec/ops/common/join_pairs.hpp"

namespace kestrel::exec {

/// The build side: collects the right input, then (finalize) concatenates it and chains its rows by key hash.
/// Rows with a NULL key are kept (outer joins emit them) but never enter the hash chains.
class HashJoinBuild final : public Sink {
 public:
  HashJoinBuild(SchemaPtr schema, std::vector<size_t> key_columns);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "HashJoinBuild"; }

  const SchemaPtr& schema() const { return schema_; }
  const std::vector<size_t>& key_columns() const { return key_columns_; }

  // After finalize:
  const Batch& rows() const { return rows_; }
  const std::vector<ColumnView>& key_views() const { return key_views_; }
  /// Rows with at least one NULL key, ascending.
  const std::vector<uint32_t>& null_key_rows() const { return null_key_rows_; }
  static constexpr uint32_t kEnd = UINT32_MAX;
  /// The first row of the chain for `hash` (kEnd when none); next_row() walks it in ascending row order.
  uint32_t first_row(uint64_t hash) const { return buckets_[hash & bucket_mask_]; }
  uint32_t next_row(uint32_t row) const { return next_[row]; }
  uint64_t row_hash(uint32_t row) const { return hashes_[row]; }

 private:
  struct Local;

  SchemaPtr schema_;
  std::vector<size_t> key_columns_;
  std::mutex mutex_;
  std::vector<Batch> batches_;
  std::vector<std::vector<uint64_t>> batch_hashes_;
  Batch rows_;
  std::vector<ColumnView> key_views_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> buckets_;
  std::vector<uint32_t> next_;
  uint64_t bucket_mask_ = 0;
  std::vector<uint32_t> null_key_rows_;
};

/// The probe: joins each left batch against the finished build.
class HashJoinProbe final : public StreamOperator {
 public:
  HashJoinProbe(std::shared_ptr<const HashJoinBuild> build, SchemaPtr probe_schema, std::vector<size_t> probe_keys,
                JoinSpec spec);

  void prepare(ExecContext& ctx) override;
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override;

  const SchemaPtr& output_schema() const { return output_schema_; }
  const JoinSpec& spec() const { return spec_; }
  const HashJoinBuild& build() const { return *build_; }
  /// One flag per build row, set when a probe row matched it (right and full joins).
  const std::vector<uint8_t>& build_matched() const { return build_matched_; }

 private:
  /// For probe rows without a match: whether the null-aware comparison is unknown (NULL) rather than FALSE.
  std::vector<uint8_t> null_aware_unknown(const Batch& input, const std::vector<ColumnView>& keys,
                                          const std::vector<uint8_t>& key_valid, const ProbeBatchJoiner& joiner,
                                          ExecContext& ctx) const;

  std::shared_ptr<const HashJoinBuild> build_;
  SchemaPtr probe_schema_;
  std::vector<size_t> probe_keys_;
  JoinSpec spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  std::vector<uint8_t> build_matched_;
};

/// Right and full joins: the build rows that no probe row matched, after the probe pipeline finished.
class HashJoinUnmatchedSource final : public Source {
 public:
  explicit HashJoinUnmatchedSource(std::shared_ptr<const HashJoinProbe> probe, size_t morsel_rows = kCpuOutputRows)
      : probe_(std::move(probe)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override { return morsels_for(probe_->build().rows().num_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "HashJoinUnmatched"; }

 private:
  std::shared_ptr<const HashJoinProbe> probe_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
