#pragma once
/// The GPU table cache: device copies of scanned input columns, kept between queries so a table read once is
/// scanned from GPU memory afterwards. It holds columns of catalog tables as read_morsel returns them, the morsels
/// of a scan group concatenated (one entry per table, group of morsels and column), never results or
/// intermediates: every query still runs every operator. Least recently used entries are evicted beyond a byte
/// budget.

#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "catalog/table.hpp"
#include "exec/ops/scan/table_scan_gpu.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

class DeviceTableCache {
 public:
  /// Cached columns live in `mr` (which must outlive the cache and every batch read from it).
  DeviceTableCache(gpu::MemoryResource& mr, size_t budget_bytes) : mr_(mr), budget_(budget_bytes) {}

  /// The morsels `morsels` of `table` (spec.columns, named by `schema`) as one device batch ordered on `stream`:
  /// cached columns as they are, the others read from the table, copied to the device, concatenated and cached.
  /// Thread-safe.
  Batch read(const catalog::TablePtr& table, const std::vector<size_t>& morsels, const catalog::ScanSpec& spec,
             const SchemaPtr& schema, gpu::Stream stream, const GpuScanRead& how);

  /// Starts a query. The caller has waited for all device work (gpu::synchronize_device): columns evicted during
  /// the previous query are released now.
  void begin_query();
  /// Drops every entry (memory returns once running queries release their batches).
  void clear();
  void set_budget(size_t bytes);

  struct Stats {
    uint64_t hits = 0;       ///< columns served from the cache
    uint64_t misses = 0;     ///< columns read from the table
    uint64_t evictions = 0;  ///< entries dropped for the budget
    size_t bytes = 0;        ///< bytes held now
    size_t entries = 0;
    size_t retired_bytes = 0;  ///< evicted columns the running query read, kept until no stream can read them
  };
  Stats stats() const;

 private:
  using Key = std::tuple<const catalog::Table*, std::vector<size_t>, size_t>;  ///< table, morsels, column
  struct Entry {
    catalog::TablePtr table;  ///< keeps the key's table address from being reused while cached
    ColumnPtr column;
    size_t bytes = 0;
    std::list<Key>::iterator lru;
    uint64_t query = 0;  ///< the last query (begin_query count) that read it
  };
  void evict_locked();
  /// Drops an entry's column: at once when no stream of the running query read it, else at the next begin_query.
  /// A cached column is freed on the stream of the query that read it first (its buffers' allocation stream) while
  /// other drivers' streams may still be reading it: only the end of the query orders it after all of them. When
  /// retired columns outgrow half the budget (a query scanning more than the cache holds), the device is
  /// synchronized and those no batch holds any more are freed.
  void drop_locked(Entry& entry);

  gpu::MemoryResource& mr_;
  size_t budget_;
  mutable std::mutex mutex_;
  std::map<Key, Entry> entries_;
  std::list<Key> lru_;  ///< most recently used first
  Stats stats_;
  uint64_t query_ = 0;
  std::vector<ColumnPtr> retired_;  ///< evicted while the running query may read them
  size_t retired_bytes_ = 0;
};

}  // namespace kestrel::exec
