#include "exec/ops/collect/collect.hpp"

#include <algorithm>

namespace kestrel::exec {

struct BatchCollector::Local final : LocalState {
  std::vector<Entry> entries;
};

std::unique_ptr<Sink::LocalState> BatchCollector::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void BatchCollector::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  // Keep the collector's schema (names from the plan) on every batch.
  Batch renamed(schema_, batch.columns(), batch.num_rows(), batch.residency(), batch.stream());
  static_cast<Local&>(local).entries.push_back({morsel, sequence, std::move(renamed)});
}

void BatchCollector::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  // Device batches are read later on other streams (the next pipeline's drivers, LIMIT): finish the work that
  // produced them first. A driver's batches share its stream, so this waits once per stream.
  gpu::Stream last = gpu::Stream::host();
  for (const auto& e : l.entries) {
    if (e.batch.on_device() && !(e.batch.stream() == last)) {
      e.batch.stream().synchronize();
      last = e.batch.stream();
    }
  }
  std::lock_guard lock(mutex_);
  for (auto& e : l.entries) entries_.push_back(std::move(e));
  l.entries.clear();
}

void BatchCollector::finalize(ExecContext&) {
  // Several pipelines may feed one collector (UNION ALL, the unmatched rows of outer joins): each pipeline's
  // output follows the earlier ones', in its own source order.
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.morsel != b.morsel ? a.morsel < b.morsel : a.sequence < b.sequence;
  });
  batches_.reserve(batches_.size() + entries_.size());
  for (auto& e : entries_) batches_.push_back(std::move(e.batch));
  entries_.clear();
}

size_t BatchCollector::row_count() const {
  size_t n = 0;
  for (const auto& b : batches_) n += b.num_rows();
  return n;
}

}  // namespace kestrel::exec
