/// TopNSink: each driver keeps its best limit + offset rows; the drivers' candidates are reduced again in combine.

#include <algorithm>
#include <numeric>

#include "common/check.hpp"
#include "exec/ops/sort/sort.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

struct TopNSink::Local final : LocalState {
  Candidates candidates;
};

TopNSink::TopNSink(SchemaPtr schema, std::vector<SortKeySpec> keys, uint64_t limit, uint64_t offset)
    : schema_(std::move(schema)), keys_(std::move(keys)), comparator_(make_row_comparator(keys_)), limit_(limit),
      offset_(offset) {
  uint64_t keep = limit > UINT64_MAX - offset ? UINT64_MAX : limit + offset;
  keep_ = static_cast<size_t>(std::min<uint64_t>(keep, UINT32_MAX - 1));
  for (const auto& k : keys_) KESTREL_CHECK_LT(k.column, schema_->size());
}

std::unique_ptr<Sink::LocalState> TopNSink::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void TopNSink::reduce(Candidates& c) const {
  if (c.batches.empty() || c.reduced) return;
  Batch data = concat_batches(c.batches, schema_);
  std::vector<RowOrigin> origins;
  origins.reserve(data.num_rows());
  for (auto& o : c.origins) origins.insert(origins.end(), o.begin(), o.end());
  std::vector<uint32_t> order(data.num_rows());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<ColumnView> views = make_views(data, key_columns(keys_));
  auto less = [&](uint32_t a, uint32_t b) {
    int cmp = comparator_.compare(views.data(), a, views.data(), b);
    return cmp != 0 ? cmp < 0 : origins[a] < origins[b];
  };
  size_t keep = std::min(keep_, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(keep), order.end(), less);
  order.resize(keep);
  std::vector<RowOrigin> kept;
  kept.reserve(keep);
  for (uint32_t i : order) kept.push_back(origins[i]);
  c.batches = {gather_batch(data, order)};
  c.origins = {std::move(kept)};
  c.rows = keep;
  c.reduced = true;
}

void TopNSink::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  auto& c = static_cast<Local&>(local).candidates;
  if (batch.num_rows() == 0) return;
  std::vector<RowOrigin> origins(batch.num_rows());
  for (size_t r = 0; r < origins.size(); ++r) origins[r] = {morsel, sequence, r};
  c.rows += batch.num_rows();
  c.reduced = false;
  c.batches.push_back(std::move(batch));
  c.origins.push_back(std::move(origins));
  if (c.rows >= 2 * keep_ + 1024) reduce(c);
}

void TopNSink::combine(LocalState& local, ExecContext&) {
  auto& c = static_cast<Local&>(local).candidates;
  reduce(c);
  for (size_t i = 0; i < c.batches.size(); ++i) {
    global_.batches.push_back(std::move(c.batches[i]));
    global_.origins.push_back(std::move(c.origins[i]));
  }
  global_.rows += c.rows;
  global_.reduced = false;
  c = Candidates{};
  reduce(global_);
}

void TopNSink::finalize(ExecContext&) {
  reduce(global_);
  if (global_.batches.empty() || global_.rows <= offset_) {
    output_ = empty_batch(schema_);
  } else {
    size_t first = static_cast<size_t>(offset_);
    size_t count = static_cast<size_t>(std::min<uint64_t>(limit_, global_.rows - offset_));
    output_ = first == 0 && count == global_.rows ? global_.batches[0] : slice_batch(global_.batches[0], first, count);
  }
  global_ = Candidates{};
}

Batch TopNSink::read_rows(size_t first, size_t count) const {
  if (first == 0 && count == output_.num_rows()) return output_;
  return slice_batch(output_, first, count);
}

}  // namespace kestrel::exec
