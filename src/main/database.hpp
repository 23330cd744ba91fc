#pragma once
/// The embedding API: a Database holds the catalog and settings; a Connection runs SQL statements on it and returns
/// results as host batches. The CLI, the test runner and (later) the servers all go through this.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.hpp"
#include "vector/batch.hpp"

namespace kestrel {

/// Where queries run.
enum class DeviceChoice : uint8_t {
  kCpu,   ///< always the CPU
  kGpu,   ///< the GPU; an error when none is usable
  kAuto,  ///< the GPU when one is usable, else the CPU
};

const char* device_choice_name(DeviceChoice choice);
/// Parses "cpu", "gpu" or "auto"; nullopt otherwise.
std::optional<DeviceChoice> parse_device_choice(std::string_view text);

/// Options fixed when a database is opened.
struct DatabaseOptions {
  DeviceChoice device = DeviceChoice::kAuto;
  /// Folders whose sub-folders (or files) are attached as tables.
  std::vector<std::string> data_dirs;
  /// With the GPU: run operators the GPU cannot run on the CPU (true) or fail (false).
  bool gpu_fallback = true;
  /// Worker threads for CPU execution; 0 = all cores.
  int threads = 0;
  /// SQL may read and write files only below `data_dirs` and `allowed_dirs` (served sessions); otherwise any file.
  bool restrict_files = false;
  std::vector<std::string> allowed_dirs;
};

/// The result of one statement: a schema and host batches for queries, a status message for others.
struct QueryResult {
  SchemaPtr schema;            ///< null for statements that return no rows
  std::vector<Batch> batches;  ///< host batches, in result order
  std::string message;         ///< "CREATE TABLE", "INSERT 0 3", ... (empty for queries)
  double elapsed_ms = 0;

  bool has_rows() const { return schema != nullptr; }
  size_t row_count() const;
  /// Cell (row, column) across batches; slow, for printing and tests.
  Value value(size_t row, size_t column) const;
};

class Connection;
class Settings;
struct SessionState;

/// A database: catalog, settings and the execution resources (thread pool, GPU runtime). Connections on one
/// database may run statements from several threads at once: queries run side by side (those on the GPU one at a
/// time), statements that change the catalog or a table's rows alone.
class Database {
 public:
  explicit Database(DatabaseOptions options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const DatabaseOptions& options() const { return options_; }
  /// The device queries run on after resolving kAuto: kCpu or kGpu.
  DeviceChoice effective_device() const { return effective_device_; }
  /// Why the GPU is not used when the choice was kAuto and the effective device is the CPU (empty otherwise).
  const std::string& device_note() const { return device_note_; }

  struct State;
  State& state() { return *state_; }

 private:
  DatabaseOptions options_;
  DeviceChoice effective_device_ = DeviceChoice::kCpu;
  std::string device_note_;
  std::unique_ptr<State> state_;
};

/// A session on a database: runs statements one after another, with its own settings (they start as the
/// database's; SET changes only this connection's). Not thread-safe itself (one thread per connection); cancel() may
/// be called from another thread (a signal handler's helper thread, a server's watchdog).
class Connection {
 public:
  explicit Connection(Database& database);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// This connection's settings.
  Settings& settings();
  /// Called as the running statement progresses: (pipeline, morsels done, morsels, pipelines).
  void set_progress(std::function<void(size_t, size_t, size_t, size_t)> progress);

  /// Runs one SQL statement (a trailing `;` is allowed). Throws a kestrel::Error subclass on failure. With
  /// `device_rows`, a query that runs on the GPU leaves its rows in device memory (batches of MemoryKind::kDevice,
  /// ready on any stream, from the database's device pool: the Database must outlive them); otherwise, and for rows a
  /// CPU step produced, they are host batches.
  QueryResult query(std::string_view sql, bool device_rows = false);
  /// Splits a script into statements at top-level `;`, respecting quotes and comments. Each entry is the text of
  /// one statement and its 1-based starting line within the script.
  static std::vector<std::pair<std::string, uint32_t>> split_statements(std::string_view script);
  /// Asks the running statement to stop; it then throws Cancelled.
  void cancel() { cancel_requested_.store(true); }

 private:
  Database& database_;
  std::unique_ptr<SessionState> session_;
  std::atomic<bool> cancel_requested_{false};
};

}  // namespace kestrel
