#pragma once
/// What a Database holds besides its options: the catalog and the settings.

#include <functional>

#include "catalog/catalog.hpp"
#include "exec/ops/scan/device_table_cache.hpp"
#include "exec/ops/scan/scan_reuse.hpp"
#include "gpu/memory_resource.hpp"
#include "main/database.hpp"
#include "main/settings.hpp"

namespace kestrel {

struct Database::State {
  catalog::Catalog catalog;
  Settings settings;
  /// Queries are to run on the GPU (the effective device is the GPU).
  bool gpu = false;
  /// The GPU's total memory (GPU only): the default budgets are shares of it.
  size_t device_memory = 0;
  /// Device memory of queries and of the table cache: one stream-ordered pool kept across queries, so memory a
  /// query freed is reused by the next without returning to the driver. Created on the first GPU query.
  std::unique_ptr<gpu::DevicePoolMemoryResource> device_pool;
  /// The GPU table cache (in device_pool); created on the first GPU query while the gpu_cache setting is on.
  std::unique_ptr<exec::DeviceTableCache> table_cache;
  /// The running statement's shared scan columns (its scalar sub-queries run inside it); null outside a statement
  /// or when it scans no table twice.
  exec::ScanReuse* scan_reuse = nullptr;
  /// The running statement's GPU scan statistics, which its scalar sub-queries add to; null outside a statement.
  io::DeviceScanStats* scan_stats = nullptr;
  /// Progress of the running statement (pipeline, morsels done, morsels, pipelines); set by the CLI on a terminal.
  std::function<void(size_t, size_t, size_t, size_t)> progress;
};

}  // namespace kestrel
