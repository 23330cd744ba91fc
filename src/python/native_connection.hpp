#pragma once
/// A database and a session on it, as the Python module holds them (kestrel.Connection wraps one). Statements run
/// one at a time per connection, on a worker thread with the GIL released; the calling thread waits and checks for
/// signals, so Ctrl-C (KeyboardInterrupt) cancels the running statement.

#include <nanobind/nanobind.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "main/database.hpp"
#include "python/native_result.hpp"

namespace kestrel::python {

/// A Database with one Connection on it. Every method but cancel() needs the GIL when called; the ones that run
/// statements release it while they wait.
class NativeConnection {
 public:
  /// Opens a database over `data` (folders whose sub-folders and files become tables, or single files), on
  /// `device` ("auto", "cpu" or "gpu").
  NativeConnection(const std::vector<std::string>& data, const std::string& device, int threads, bool gpu_fallback);

  /// Runs `sql`: one statement with `literals` in place of its parameters, or, without literals, a script of
  /// statements separated by ';' whose last result is returned. Raises kestrel.exceptions errors (positions in
  /// `sql`), KeyboardInterrupt when interrupted.
  /// With `device_rows`, the last statement's rows stay in GPU memory when a GPU plan produced them there.
  std::unique_ptr<NativeResult> execute(const std::string& sql, std::optional<std::vector<std::string>> literals,
                                        bool device_rows);
  /// Makes the Arrow stream in `stream` (a PyCapsule "arrow_array_stream", taken over) the in-memory table `name`,
  /// replacing a table of that name. Returns the rows imported.
  size_t register_arrow(const std::string& name, nanobind::capsule stream, size_t batch_rows);
  /// Drops the table `name`; false when there is none.
  bool unregister(const std::string& name);
  /// Asks the running statement, if any, to stop; it then fails with QueryCancelledError.
  void cancel();
  /// Frees the database; later calls fail. Waits for a running statement.
  void close();
  bool closed() const;

  /// "cpu" or "gpu": where queries run.
  std::string device() const;
  /// Why the GPU is or is not used (empty for device="cpu").
  std::string device_note() const;

 private:
  struct Open {
    std::unique_ptr<Database> database;
    std::unique_ptr<Connection> connection;
  };
  /// The open database; raises InterfaceError once closed. Needs the GIL.
  Open& open();
  /// The open database, for a caller holding run_mutex_ (close() cannot run meanwhile) but maybe not the GIL;
  /// throws a private ConnectionClosed once closed.
  Database& database_while_running();

  /// Serializes statements, registrations and close (the Database runs one statement at a time).
  std::mutex run_mutex_;
  /// Guards `open_` itself, so cancel() from another thread never sees it half closed.
  mutable std::mutex state_mutex_;
  /// Shared with results whose rows are in the database's device memory: the database lives until they are gone.
  std::shared_ptr<Open> open_;
};

}  // namespace kestrel::python
