#include "exec/ops/scan/scan_reuse.hpp"

#include "gpu/device.hpp"

namespace kestrel::exec {

ScanReuse::~ScanReuse() {
  if (kept_.empty()) return;
  try {
    gpu::synchronize_device();
  } catch (...) {  // a failed device: nothing is left to wait for
  }
}

std::vector<ColumnPtr> ScanReuse::find(const catalog::Table* table, const std::vector<size_t>& morsels,
                                       const std::vector<size_t>& columns, size_t* rows) {
  std::vector<ColumnPtr> out(columns.size());
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < columns.size(); ++i) {
    auto it = kept_.find(Key{table, morsels, columns[i]});
    if (it == kept_.end()) continue;
    out[i] = it->second;
    if (rows != nullptr) *rows = it->second->length();
    ++stats_.hits;
  }
  return out;
}

std::vector<char> ScanReuse::kept(const catalog::Table* table, const std::vector<size_t>& morsels,
                                  const std::vector<size_t>& columns) const {
  std::vector<char> out(columns.size(), 0);
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < columns.size(); ++i) out[i] = kept_.count(Key{table, morsels, columns[i]}) != 0 ? 1 : 0;
  return out;
}

void ScanReuse::offer(const catalog::Table* table, const std::vector<size_t>& morsels,
                      const std::vector<size_t>& columns, const Batch& batch, gpu::Stream stream) {
  std::vector<size_t> take;
  {
    std::lock_guard lock(mutex_);
    size_t bytes = stats_.bytes;
    for (size_t i = 0; i < columns.size() && i < batch.num_columns(); ++i) {
      if (kept_.count(Key{table, morsels, columns[i]}) != 0) continue;
      const size_t b = batch.column(i)->byte_size();
      if (bytes + b > budget_) continue;
      bytes += b;
      take.push_back(i);
    }
    if (take.empty()) return;
  }
  // Other drivers read kept columns on their own streams without ordering against this one.
  stream.synchronize();
  std::lock_guard lock(mutex_);
  for (size_t i : take) {
    const Key key{table, morsels, columns[i]};
    const size_t b = batch.column(i)->byte_size();
    if (kept_.count(key) != 0 || stats_.bytes + b > budget_) continue;
    kept_.emplace(key, batch.column(i));
    stats_.bytes += b;
    ++stats_.columns;
  }
}

ScanReuse::Stats ScanReuse::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace kestrel::exec
