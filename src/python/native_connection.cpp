#include "python/native_connection.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "catalog/loaded_table.hpp"
#include "main/database_state.hpp"
#include "main/statement_parameters.hpp"
#include "python/python_errors.hpp"
#include "vector/arrow_import.hpp"

namespace nb = nanobind;

namespace kestrel::python {

namespace {

/// How often the waiting thread looks for signals (Ctrl-C) while a statement runs.
constexpr auto kSignalPoll = std::chrono::milliseconds(50);

/// Thrown on the worker thread when the connection was closed before its statement started.
struct ConnectionClosed {};

[[noreturn]] void raise_closed() {
  nb::object error = nb::module_::import_("kestrel.exceptions").attr("InterfaceError")("the connection is closed");
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw nb::python_error();
}

/// One statement of a script and the byte offset where it starts.
struct ScriptStatement {
  std::string text;
  size_t offset;
};

std::vector<ScriptStatement> split_script(const std::string& sql) {
  std::vector<ScriptStatement> out;
  size_t cursor = 0;
  for (auto& [text, line] : Connection::split_statements(sql)) {
    // Each statement is the script's text from its first non-blank character on.
    size_t at = sql.find(text, cursor);
    if (at == std::string::npos) at = cursor;
    cursor = at + text.size();
    out.push_back({std::move(text), at});
  }
  if (out.empty()) out.push_back({sql, 0});  // nothing but blanks and comments: the parser says what is wrong
  return out;
}

/// `error` with its position moved into the text the caller wrote.
Error in_caller_text(const Error& error, const std::string& sql, const ScriptStatement& statement,
                     const BoundStatement* bound) {
  if (!error.position()) return error;
  const SourcePosition p = bound != nullptr ? bound->original_position(*error.position())
                                            : position_of_offset(sql, statement.offset + error.position()->offset);
  return Error(error.category(), error.code(), error.message(), p);
}

/// Joins a thread however the scope is left.
struct JoinOnExit {
  std::thread& thread;
  ~JoinOnExit() {
    if (thread.joinable()) thread.join();
  }
};

}  // namespace

NativeConnection::NativeConnection(const std::vector<std::string>& data, const std::string& device, int threads,
                                   bool gpu_fallback) {
  DatabaseOptions options;
  auto choice = parse_device_choice(device);
  if (!choice) throw nb::value_error(("device must be 'auto', 'cpu' or 'gpu', not '" + device + "'").c_str());
  options.device = *choice;
  options.threads = threads;
  options.gpu_fallback = gpu_fallback;
  std::vector<std::string> files;
  for (const auto& path : data) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      options.data_dirs.push_back(path);
    } else if (std::filesystem::is_regular_file(path, ec)) {
      files.push_back(path);
    } else {
      throw IoError("data path '" + path + "' is neither a folder nor a file");
    }
  }
  auto open = std::make_shared<Open>();
  {
    // Finding the GPU and listing the data folders can take a while.
    nb::gil_scoped_release release;
    open->database = std::make_unique<Database>(options);
    for (const auto& path : files) {
      const std::string name = std::filesystem::path(path).stem().string();
      auto table = catalog::open_file_table(name, path);
      if (!table) throw InvalidInput("data file '" + path + "' is not a Parquet, CSV or kcol file");
      open->database->state().catalog.add_table(std::move(table), true);
    }
    open->connection = std::make_unique<Connection>(*open->database);
  }
  open_ = std::move(open);
}

NativeConnection::Open& NativeConnection::open() {
  std::lock_guard lock(state_mutex_);
  if (!open_) raise_closed();
  return *open_;
}

std::unique_ptr<NativeResult> NativeConnection::execute(const std::string& sql,
                                                        std::optional<std::vector<std::string>> literals,
                                                        bool device_rows) {
  open();  // fail early when closed
  std::optional<BoundStatement> bound;
  std::vector<ScriptStatement> statements;
  if (literals) {
    try {
      bound = BoundStatement::bind(sql, *literals);
    } catch (const Error& e) {
      raise_error(e, sql);
    }
    statements.push_back({bound->sql(), 0});
  } else {
    statements = split_script(sql);
  }

  // The statements run on a worker thread; this one waits without the GIL and looks for signals meanwhile. The two
  // flags settle an interrupt that comes while the worker waits for the connection: either the worker sees
  // `abandoned` before it starts, or this thread sees `running` and cancels the statement.
  std::atomic<bool> abandoned{false}, running{false};
  std::atomic<size_t> current{0};
  std::packaged_task<QueryResult()> task([&]() -> QueryResult {
    std::lock_guard run(run_mutex_);
    database_while_running();  // throws when closed meanwhile
    Connection* connection = open_->connection.get();
    running = true;
    QueryResult last;
    for (size_t i = 0; i < statements.size(); ++i) {
      current = i;
      if (abandoned) throw Cancelled();
      last = connection->query(statements[i].text, device_rows && i + 1 == statements.size());
    }
    return last;
  });
  auto future = task.get_future();
  std::thread worker(std::move(task));
  std::optional<nb::python_error> interrupt;
  {
    nb::gil_scoped_release release;
    JoinOnExit join{worker};
    auto cancel_if_running = [&] {
      if (running) cancel();
    };
    while (future.wait_for(kSignalPoll) != std::future_status::ready) {
      if (interrupt) {
        cancel_if_running();  // again: a statement that was about to start cleared the earlier request
        continue;
      }
      nb::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        interrupt.emplace();  // takes the pending KeyboardInterrupt (or whatever the handler raised)
        abandoned = true;
        cancel_if_running();
      }
    }
  }
  if (interrupt) throw std::move(*interrupt);
  const ScriptStatement& failed = statements[current];
  try {
    QueryResult result = future.get();
    for (const Batch& b : result.batches) {
      if (b.residency() != gpu::MemoryKind::kDevice) continue;
      // Rows in the database's device pool: the result keeps the database.
      std::shared_ptr<Open> keep;
      {
        std::lock_guard state(state_mutex_);
        keep = open_;
      }
      if (!keep) raise_closed();
      gpu::MemoryResource* pool = keep->database->state().device_pool.get();
      return std::make_unique<NativeResult>(std::move(result), std::move(keep), pool);
    }
    return std::make_unique<NativeResult>(std::move(result));
  } catch (const Error& e) {
    raise_error(in_caller_text(e, sql, failed, bound ? &*bound : nullptr), sql);
  } catch (const ConnectionClosed&) {
    raise_closed();
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    raise_error(InternalError(e.what()), sql);
  }
}

size_t NativeConnection::register_arrow(const std::string& name, nb::capsule capsule, size_t batch_rows) {
  if (name.empty()) throw nb::value_error("a table name must not be empty");
  if (batch_rows == 0) throw nb::value_error("batch_rows must be positive");
  auto* source = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), "arrow_array_stream"));
  if (source == nullptr) throw nb::python_error();
  if (source->release == nullptr) throw nb::value_error("the Arrow stream was already consumed");
  open();  // fail early when closed
  // Take the stream over, as the PyCapsule protocol says: the capsule's destructor then leaves it alone.
  ArrowArrayStream stream = *source;
  source->release = nullptr;
  size_t rows = 0;
  try {
    // The producer's callbacks take the GIL themselves where they need it (pyarrow's do).
    nb::gil_scoped_release release;
    std::lock_guard run(run_mutex_);
    Database& database = database_while_running();
    auto imported = arrow::import_stream(&stream, batch_rows);
    auto table = std::make_shared<catalog::MemoryTable>(name, imported.schema);
    for (const auto& batch : imported.batches) rows += table->append(batch);
    database.state().catalog.add_table(std::move(table), /*replace=*/true);
  } catch (const Error& e) {
    raise_error(e, "");
  } catch (const ConnectionClosed&) {
    if (stream.release != nullptr) stream.release(&stream);
    raise_closed();
  }
  return rows;
}

bool NativeConnection::unregister(const std::string& name) {
  open();
  try {
    nb::gil_scoped_release release;
    std::lock_guard run(run_mutex_);
    return database_while_running().state().catalog.drop_table(name);
  } catch (const ConnectionClosed&) {
    raise_closed();
  }
}

Database& NativeConnection::database_while_running() {
  std::lock_guard state(state_mutex_);
  if (!open_) throw ConnectionClosed{};
  return *open_->database;
}

void NativeConnection::cancel() {
  std::lock_guard lock(state_mutex_);
  if (open_) open_->connection->cancel();
}

void NativeConnection::close() {
  nb::gil_scoped_release release;
  std::lock_guard run(run_mutex_);
  std::shared_ptr<Open> closing;
  {
    std::lock_guard state(state_mutex_);
    closing = std::move(open_);
  }
  // The database (GPU memory pool, table cache) goes here, outside the state lock, unless results whose rows are in
  // its device memory still hold it (it goes with the last of them).
}

bool NativeConnection::closed() const {
  std::lock_guard lock(state_mutex_);
  return open_ == nullptr;
}

std::string NativeConnection::device() const {
  std::lock_guard lock(state_mutex_);
  return open_ ? device_choice_name(open_->database->effective_device()) : "closed";
}

std::string NativeConnection::device_note() const {
  std::lock_guard lock(state_mutex_);
  return open_ ? open_->database->device_note() : "";
}

}  // namespace kestrel::python
