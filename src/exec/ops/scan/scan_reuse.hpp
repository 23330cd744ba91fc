#pragma once
/// Input columns that the scans of one statement share when they read the same file-backed table more than once
/// (a CTE referenced by the query and by a scalar sub-query, a decorrelated sub-query over the outer query's table,
/// a self-join): the first GPU scan of a morsel group keeps the columns it decoded, and later scans of that group in
/// the same statement take them instead of reading and decoding the files again. It lives for one statement, holds
/// only input columns exactly as read from the files (never results or intermediates), keeps columns first come
/// first kept until its byte budget is used (nothing is evicted, so a table larger than the budget still shares its
/// first groups) and is used only while the GPU table cache (gpu_cache) is off.

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#include "catalog/table.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

class ScanReuse {
 public:
  /// `shared`: the tables the statement scans more than once; `budget_bytes`: device bytes it may keep.
  ScanReuse(std::set<const catalog::Table*> shared, size_t budget_bytes)
      : shared_(std::move(shared)), budget_(budget_bytes) {}
  /// Waits for the device before the kept columns go back to the pool: drivers' streams of the statement may
  /// still have work queued that reads them.
  ~ScanReuse();
  ScanReuse(const ScanReuse&) = delete;
  ScanReuse& operator=(const ScanReuse&) = delete;

  /// Whether scans of `table` take part (the statement scans it more than once).
  bool shared(const catalog::Table* table) const { return shared_.count(table) != 0; }

  /// The kept columns of morsel group `morsels`, one per entry of `columns` (null where not kept), and the
  /// group's rows in `rows` when any is kept.
  std::vector<ColumnPtr> find(const catalog::Table* table, const std::vector<size_t>& morsels,
                              const std::vector<size_t>& columns, size_t* rows);
  /// Per entry of `columns`: whether the group's column is kept.
  std::vector<char> kept(const catalog::Table* table, const std::vector<size_t>& morsels,
                         const std::vector<size_t>& columns) const;

  /// Offers the columns of a batch just decoded for group `morsels` (batch column i is table column columns[i]),
  /// its work queued on `stream`: columns not yet kept are kept while the budget allows. Synchronizes `stream`
  /// first when it keeps any, so that scans on other streams may read them at once.
  void offer(const catalog::Table* table, const std::vector<size_t>& morsels, const std::vector<size_t>& columns,
             const Batch& batch, gpu::Stream stream);

  struct Stats {
    uint64_t hits = 0;  ///< columns of groups served from kept columns
    size_t bytes = 0;   ///< bytes kept
    size_t columns = 0; ///< columns kept
  };
  Stats stats() const;

 private:
  using Key = std::tuple<const catalog::Table*, std::vector<size_t>, size_t>;  ///< table, morsels, column
  std::set<const catalog::Table*> shared_;
  size_t budget_;
  mutable std::mutex mutex_;
  std::map<Key, ColumnPtr> kept_;
  Stats stats_;
};

/// Budget of a statement's ScanReuse: a quarter of the device memory the statement may use.
inline size_t scan_reuse_budget(size_t device_bytes) { return device_bytes / 4; }

}  // namespace kestrel::exec
