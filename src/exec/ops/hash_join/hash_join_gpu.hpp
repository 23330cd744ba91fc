#pragma once
/// Hash join on the GPU: the twin of HashJoinBuild / HashJoinProbe / HashJoinUnmatchedSource (hash_join.hpp) for
/// device batches, with the same join types, NULL rules, output schemas and wiring.
///
/// Table (built once, in finalize): every build row's keys are hashed (device_rows.hpp); rows are sorted by bucket
/// (hash & mask, CUB radix sort, stable so each bucket lists its rows in ascending order) and a bucket directory
/// holds where each bucket starts. Rows with a NULL key sort into one extra bucket after the others: they never
/// match, but outer joins emit them and null-aware joins look at them.
///
/// Probe (per device batch, on its stream): each probe row walks its bucket and counts its key matches, an
/// exclusive scan numbers the candidate pairs, and the pairs are written and joined in steps of at most
/// kGpuJoinStepRows (join_pairs_gpu.hpp: residual condition, then output by join type).

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/join_pairs_gpu.hpp"

namespace kestrel::exec {

/// The build side: collects the right input's device batches, then (finalize) concatenates them on the device and
/// builds the bucket table.
class HashJoinBuildGpu final : public Sink {
 public:
  HashJoinBuildGpu(SchemaPtr schema, std::vector<size_t> key_columns);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  /// Waits for the driver's batches to be complete on their streams, then hands them to the shared list.
  void combine(LocalState& local, ExecContext& ctx) override;
  /// Builds the table on the calling driver's stream and waits for it, so probes on any stream may read it.
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "HashJoinBuild [GPU]"; }

  const SchemaPtr& schema() const { return schema_; }
  const std::vector<size_t>& key_columns() const { return key_columns_; }

  // After finalize (device pointers, valid while this object lives):
  /// Every build row, in one device batch.
  const Batch& rows() const { return rows_; }
  /// The key columns of rows().
  const DeviceKeys& keys() const { return keys_; }
  /// bucket_mask() + 1 buckets of key hashes; bucket b holds sorted_rows()[bucket_offsets()[b] ..
  /// bucket_offsets()[b + 1]); rows with a NULL key follow at [null_key_first(), rows().num_rows()).
  uint64_t bucket_mask() const { return bucket_mask_; }
  const uint32_t* bucket_offsets() const { return bucket_offsets_->as<uint32_t>(); }
  /// Row ids sorted by bucket, ascending within a bucket.
  const uint32_t* sorted_rows() const { return sorted_rows_->as<uint32_t>(); }
  /// The key hash of each entry of sorted_rows().
  const uint64_t* sorted_hashes() const { return sorted_hashes_->as<uint64_t>(); }
  /// The position in sorted_rows() of the first row with a NULL key.
  size_t null_key_first() const { return null_key_first_; }

 private:
  struct Local;

  SchemaPtr schema_;
  std::vector<size_t> key_columns_;
  std::mutex mutex_;
  std::vector<Batch> batches_;
  Batch rows_;
  DeviceKeys keys_;
  uint64_t bucket_mask_ = 0;
  BufferPtr bucket_offsets_;  ///< uint32, bucket_mask_ + 3 entries
  BufferPtr sorted_rows_;     ///< uint32 per row
  BufferPtr sorted_hashes_;   ///< uint64 per row
  size_t null_key_first_ = 0;
};

/// The probe: joins each left device batch against the finished build, on the batch's stream.
class HashJoinProbeGpu final : public StreamOperator {
 public:
  HashJoinProbeGpu(std::shared_ptr<const HashJoinBuildGpu> build, SchemaPtr probe_schema,
                   std::vector<size_t> probe_keys, JoinSpec spec);

  /// Allocates the build rows' matched flags (right and full joins).
  void prepare(ExecContext& ctx) override;
  void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override;

  const SchemaPtr& output_schema() const { return output_schema_; }
  const JoinSpec& spec() const { return spec_; }
  const HashJoinBuildGpu& build() const { return *build_; }
  /// Device flags, one byte per build row, set when a probe row matched it (right and full joins; else null).
  const uint8_t* build_matched() const { return build_matched_ ? build_matched_->as<uint8_t>() : nullptr; }
  /// Most candidate pairs per step (tests lower it to exercise the steps).
  void set_step_pairs(size_t pairs) { step_pairs_ = std::max<size_t>(pairs, 1); }

 private:
  /// For probe rows without a match: 1 where the null-aware comparison is unknown (NULL) rather than FALSE.
  /// `saw_null`: the joiner's flags of rows with a pair whose condition was NULL.
  BufferPtr null_aware_unknown(const Batch& input, const DeviceKeys& keys, const uint8_t* key_null,
                               const uint32_t* matches, const uint8_t* saw_null, ExecContext& ctx) const;

  std::shared_ptr<const HashJoinBuildGpu> build_;
  SchemaPtr probe_schema_;
  std::vector<size_t> probe_keys_;
  JoinSpec spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  BufferPtr build_matched_;
  size_t step_pairs_ = kGpuJoinStepRows;
};

/// Right and full joins: the build rows that no probe row matched, after the probe pipeline finished, with NULL
/// probe columns, as device batches on the reading driver's stream.
class HashJoinUnmatchedSourceGpu final : public Source {
 public:
  explicit HashJoinUnmatchedSourceGpu(std::shared_ptr<const HashJoinProbeGpu> probe,
                                      size_t morsel_rows = kGpuJoinStepRows)
      : probe_(std::move(probe)), morsel_rows_(std::max<size_t>(morsel_rows, 1)) {}
  size_t morsel_count() const override { return morsels_for(probe_->build().rows().num_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "HashJoinUnmatched [GPU]"; }

 private:
  std::shared_ptr<const HashJoinProbeGpu> probe_;
  size_t morsel_rows_;
};

}  // namespace kestrel::exec
