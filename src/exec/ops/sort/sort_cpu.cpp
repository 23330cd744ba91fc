/// SortSink: sorted runs per driver, merged by origin-stable k-way merge; SortSource.

#include <algorithm>
#include <numeric>

#include "common/check.hpp"
#include "exec/ops/sort/sort.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

RowComparator make_row_comparator(const std::vector<SortKeySpec>& keys) {
  std::vector<SortOrder> orders;
  for (const auto& k : keys) orders.push_back({k.descending, k.nulls_first});
  return RowComparator(std::move(orders));
}

std::vector<size_t> key_columns(const std::vector<SortKeySpec>& keys) {
  std::vector<size_t> columns;
  for (const auto& k : keys) columns.push_back(k.column);
  return columns;
}

RowOrigin SortSink::Run::origin(uint32_t row) const {
  auto it = std::upper_bound(batch_first.begin(), batch_first.end(), static_cast<size_t>(row));
  size_t b = static_cast<size_t>(it - batch_first.begin()) - 1;
  RowOrigin o = batch_origin[b];
  o.row = row - batch_first[b];
  return o;
}

struct SortSink::Local final : LocalState {
  std::vector<Batch> pending;
  std::vector<RowOrigin> pending_origin;
  size_t pending_rows = 0;
  std::vector<Run> runs;
};

SortSink::SortSink(SchemaPtr schema, std::vector<SortKeySpec> keys, size_t run_rows)
    : schema_(std::move(schema)), keys_(std::move(keys)), comparator_(make_row_comparator(keys_)),
      run_rows_(std::max<size_t>(run_rows, 1)) {
  for (const auto& k : keys_) KESTREL_CHECK_LT(k.column, schema_->size());
}

std::unique_ptr<Sink::LocalState> SortSink::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void SortSink::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  if (batch.num_rows() == 0) return;
  l.pending_rows += batch.num_rows();
  l.pending.push_back(std::move(batch));
  l.pending_origin.push_back({morsel, sequence, 0});
  if (l.pending_rows >= run_rows_) make_run(l);
}

void SortSink::make_run(Local& l) const {
  if (l.pending.empty()) return;
  Run run;
  size_t first = 0;
  for (const auto& b : l.pending) {
    run.batch_first.push_back(first);
    first += b.num_rows();
  }
  KESTREL_CHECK_LT(first, size_t{UINT32_MAX});
  run.batch_origin = std::move(l.pending_origin);
  run.data = concat_batches(l.pending, schema_);
  run.order.resize(first);
  std::iota(run.order.begin(), run.order.end(), 0u);
  // The rows of one driver are in input order, so a stable sort keeps ties in origin order.
  std::vector<ColumnView> views = make_views(run.data, key_columns(keys_));
  std::stable_sort(run.order.begin(), run.order.end(), [&](uint32_t a, uint32_t b) {
    return comparator_.compare(views.data(), a, views.data(), b) < 0;
  });
  l.runs.push_back(std::move(run));
  l.pending.clear();
  l.pending_origin.clear();
  l.pending_rows = 0;
}

void SortSink::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  make_run(l);
  std::lock_guard lock(mutex_);
  for (auto& r : l.runs) runs_.push_back(std::move(r));
  l.runs.clear();
}

void SortSink::finalize(ExecContext&) { merge_runs(); }

void SortSink::merge_runs() {
  std::vector<Batch> data;
  std::vector<uint32_t> offset;
  size_t total = 0;
  for (const auto& r : runs_) {
    offset.push_back(static_cast<uint32_t>(total));
    total += r.data.num_rows();
    data.push_back(r.data);
  }
  KESTREL_CHECK_LT(total, size_t{UINT32_MAX});
  all_ = concat_batches(data, schema_);
  order_.clear();
  order_.reserve(total);
  if (runs_.size() == 1) {
    order_ = std::move(runs_[0].order);
    runs_.clear();
    return;
  }
  std::vector<std::vector<ColumnView>> views;
  for (const auto& r : runs_) views.push_back(make_views(r.data, key_columns(keys_)));
  struct Cursor {
    size_t run;
    size_t pos;
  };
  // "a after b": the heap keeps the smallest row (then the earliest origin) on top.
  auto after = [&](const Cursor& a, const Cursor& b) {
    uint32_t ra = runs_[a.run].order[a.pos];
    uint32_t rb = runs_[b.run].order[b.pos];
    int c = comparator_.compare(views[a.run].data(), ra, views[b.run].data(), rb);
    if (c != 0) return c > 0;
    return runs_[b.run].origin(rb) < runs_[a.run].origin(ra);
  };
  std::vector<Cursor> heap;
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (!runs_[r].order.empty()) heap.push_back({r, 0});
  }
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    Cursor& c = heap.back();
    order_.push_back(offset[c.run] + runs_[c.run].order[c.pos]);
    if (++c.pos < runs_[c.run].order.size()) {
      std::push_heap(heap.begin(), heap.end(), after);
    } else {
      heap.pop_back();
    }
  }
  runs_.clear();
}

Batch SortSink::read_rows(size_t first, size_t count) const {
  RowIndices rows(order_.begin() + static_cast<ptrdiff_t>(first),
                  order_.begin() + static_cast<ptrdiff_t>(first + count));
  return gather_batch(all_, rows);
}

void SortSource::read(size_t morsel, ExecContext&, std::vector<Batch>& out) {
  size_t first = morsel * morsel_rows_;
  out.push_back(sorted_->read_rows(first, std::min(morsel_rows_, sorted_->output_rows() - first)));
}

}  // namespace kestrel::exec
