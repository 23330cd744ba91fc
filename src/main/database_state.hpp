#pragma once
/// What a Database holds besides its options (the catalog, the settings new connections start from, the GPU's
/// memory pool and table cache, and the locks that let connections run statements at the same time), and what a
/// Connection holds of its own (its settings and the running statement's state).

#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "catalog/catalog.hpp"
#include "catalog/system_tables.hpp"
#include "exec/ops/scan/device_table_cache.hpp"
#include "exec/ops/scan/scan_reuse.hpp"
#include "gpu/memory_resource.hpp"
#include "main/database.hpp"
#include "main/settings.hpp"

namespace kestrel {

struct Database::State {
  catalog::Catalog catalog;
  /// The settings a new connection starts from (its SET changes only its own copy).
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
  /// Statements of several connections at once: those that change the catalog or a table's rows hold it
  /// exclusively, all others (queries, EXPLAIN, SHOW, COPY ... TO) shared.
  std::shared_timed_mutex catalog_mutex;
  /// Taken before catalog_mutex; a statement that changes the catalog keeps it while it waits for the running ones.
  std::timed_mutex catalog_gate;
  /// Statements that run on the GPU run one at a time (the device pool's budget and peak, the table cache's query
  /// marks and the synchronization before a query are per statement); the others run beside them.
  std::timed_mutex device_mutex;
};

/// A connection's side of a database: the shared parts by reference (so statements read `state.catalog` whichever
/// connection runs them), its own settings, and the running statement's shared scans and statistics.
struct SessionState {
  explicit SessionState(Database::State& database)
      : db(database), catalog(database.catalog), gpu(database.gpu), device_memory(database.device_memory),
        device_pool(database.device_pool), table_cache(database.table_cache) {
    settings.copy_from(database.settings);
  }
  SessionState(const SessionState&) = delete;
  SessionState& operator=(const SessionState&) = delete;

  Database::State& db;
  catalog::Catalog& catalog;
  /// This connection's settings (SET, RESET, SHOW).
  Settings settings;
  const bool gpu;
  const size_t device_memory;
  std::unique_ptr<gpu::DevicePoolMemoryResource>& device_pool;
  std::unique_ptr<exec::DeviceTableCache>& table_cache;
  /// The running statement's shared scan columns (its scalar sub-queries run inside it); null outside a statement
  /// or when it scans no table twice.
  exec::ScanReuse* scan_reuse = nullptr;
  /// The running statement's GPU scan statistics, which its scalar sub-queries add to; null outside a statement.
  io::DeviceScanStats* scan_stats = nullptr;
  /// Progress of the running statement (pipeline, morsels done, morsels, pipelines); set by the CLI on a terminal.
  std::function<void(size_t, size_t, size_t, size_t)> progress;

  /// How this connection's information_schema spells types (its type_names setting).
  catalog::TypeNames type_names() const {
    return settings.get("type_names") == "trino" ? catalog::TypeNames::kTrino : catalog::TypeNames::kSqlStandard;
  }
};

}  // namespace kestrel
