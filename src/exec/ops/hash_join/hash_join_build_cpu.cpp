/// HashJoinBuild: per-driver collection with row hashes computed on the drivers, chained in finalize.

#include "common/check.hpp"
#include "exec/ops/common/row_hash.hpp"
#include "exec/ops/hash_join/hash_join.hpp"

namespace kestrel::exec {

struct HashJoinBuild::Local final : LocalState {
  std::vector<Batch> batches;
  std::vector<std::vector<uint64_t>> hashes;
};

HashJoinBuild::HashJoinBuild(SchemaPtr schema, std::vector<size_t> key_columns)
    : schema_(std::move(schema)), key_columns_(std::move(key_columns)) {
  for (size_t c : key_columns_) KESTREL_CHECK_LT(c, schema_->size());
}

std::unique_ptr<Sink::LocalState> HashJoinBuild::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void HashJoinBuild::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  auto& l = static_cast<Local&>(local);
  std::vector<uint64_t> hashes(batch.num_rows());
  hash_rows(make_views(batch, key_columns_), batch.num_rows(), hashes.data());
  l.batches.push_back(std::move(batch));
  l.hashes.push_back(std::move(hashes));
}

void HashJoinBuild::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < l.batches.size(); ++i) {
    batches_.push_back(std::move(l.batches[i]));
    batch_hashes_.push_back(std::move(l.hashes[i]));
  }
  l.batches.clear();
  l.hashes.clear();
}

void HashJoinBuild::finalize(ExecContext&) {
  rows_ = concat_batches(batches_, schema_);
  batches_.clear();
  const size_t n = rows_.num_rows();
  KESTREL_CHECK_LT(n, size_t{kEnd});
  hashes_.clear();
  hashes_.reserve(n);
  for (auto& h : batch_hashes_) hashes_.insert(hashes_.end(), h.begin(), h.end());
  batch_hashes_.clear();
  key_views_ = make_views(rows_, key_columns_);
  std::vector<uint8_t> valid;
  mark_null_keys(key_views_, n, valid);
  size_t buckets = 1024;
  while (buckets < 2 * n) buckets *= 2;
  buckets_.assign(buckets, kEnd);
  bucket_mask_ = buckets - 1;
  next_.assign(n, kEnd);
  null_key_rows_.clear();
  // Insert from the last row down so every chain lists its rows in ascending order.
  for (size_t i = n; i-- > 0;) {
    if (!valid[i]) continue;
    uint32_t& head = buckets_[hashes_[i] & bucket_mask_];
    next_[i] = head;
    head = static_cast<uint32_t>(i);
  }
  for (size_t i = 0; i < n; ++i) {
    if (!valid[i]) null_key_rows_.push_back(static_cast<uint32_t>(i));
  }
}

}  // namespace kestrel::exec
