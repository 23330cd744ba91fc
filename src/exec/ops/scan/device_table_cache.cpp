#include "exec/ops/scan/device_table_cache.hpp"

#include "exec/ops/scan/table_scan_gpu.hpp"
#include "gpu/device.hpp"

namespace kestrel::exec {

Batch DeviceTableCache::read(const catalog::TablePtr& table, const std::vector<size_t>& morsels,
                             const catalog::ScanSpec& spec, const SchemaPtr& schema, gpu::Stream stream,
                             const GpuScanRead& how) {
  std::vector<ColumnPtr> columns(spec.columns.size());
  catalog::ScanSpec missing;
  std::vector<size_t> missing_slots;
  size_t rows = 0;
  bool have_rows = false;
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < spec.columns.size(); ++i) {
      auto it = entries_.find(Key{table.get(), morsels, spec.columns[i]});
      if (it == entries_.end()) {
        missing.columns.push_back(spec.columns[i]);
        missing_slots.push_back(i);
        continue;
      }
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      it->second.query = query_;
      columns[i] = it->second.column;
      rows = it->second.column->length();
      have_rows = true;
      ++stats_.hits;
    }
    stats_.misses += missing.columns.size();
  }
  if (!missing.columns.empty() || !have_rows) {
    // Read outside the lock: decoding row groups takes a while and other drivers read other morsels meanwhile.
    Batch device = read_morsels_to_device(*table, morsels, missing, nullptr, stream, mr_, how);
    rows = device.num_rows();
    if (!missing.columns.empty()) {
      // Other queries' streams read cached columns without ordering against this one.
      stream.synchronize();
      std::lock_guard lock(mutex_);
      for (size_t m = 0; m < missing.columns.size(); ++m) {
        const ColumnPtr& column = device.column(m);
        columns[missing_slots[m]] = column;
        const Key key{table.get(), morsels, missing.columns[m]};
        const size_t bytes = column->byte_size();
        if (entries_.count(key) != 0 || bytes > budget_) continue;
        lru_.push_front(key);
        entries_.emplace(key, Entry{table, column, bytes, lru_.begin(), query_});
        stats_.bytes += bytes;
      }
      evict_locked();
    }
  }
  return Batch(schema, std::move(columns), rows, gpu::MemoryKind::kDevice, stream);
}

void DeviceTableCache::evict_locked() {
  while (stats_.bytes > budget_ && !lru_.empty()) {
    auto it = entries_.find(lru_.back());
    stats_.bytes -= it->second.bytes;
    drop_locked(it->second);
    entries_.erase(it);
    lru_.pop_back();
    ++stats_.evictions;
  }
  stats_.entries = entries_.size();
}

void DeviceTableCache::drop_locked(Entry& entry) {
  if (entry.query != query_) return;  // the entry's column is released with it
  retired_bytes_ += entry.bytes;
  retired_.push_back(std::move(entry.column));
  if (retired_bytes_ <= budget_ / 2) return;
  // All work queued so far has finished after this: a retired column that no batch holds is read by no stream.
  gpu::synchronize_device();
  std::vector<ColumnPtr> kept;
  size_t kept_bytes = 0;
  for (ColumnPtr& column : retired_) {
    if (column.use_count() > 1) {
      kept_bytes += column->byte_size();
      kept.push_back(std::move(column));
    }
  }
  retired_ = std::move(kept);
  retired_bytes_ = kept_bytes;
}

void DeviceTableCache::begin_query() {
  std::lock_guard lock(mutex_);
  ++query_;
  retired_.clear();
  retired_bytes_ = 0;
}

void DeviceTableCache::clear() {
  std::lock_guard lock(mutex_);
  for (auto& [key, entry] : entries_) drop_locked(entry);
  entries_.clear();
  lru_.clear();
  stats_.bytes = 0;
  stats_.entries = 0;
}

void DeviceTableCache::set_budget(size_t bytes) {
  std::lock_guard lock(mutex_);
  budget_ = bytes;
  evict_locked();
}

DeviceTableCache::Stats DeviceTableCache::stats() const {
  std::lock_guard lock(mutex_);
  Stats s = stats_;
  s.retired_bytes = retired_bytes_;
  return s;
}

}  // namespace kestrel::exec
