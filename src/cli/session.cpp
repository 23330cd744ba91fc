#include "cli/session.hpp"

#include "cli/progress_line.hpp"

#include "common/error.hpp"
#include "main/database_state.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <chrono>
#include <csignal>
#include <iostream>

namespace kestrel::cli {

namespace {

/// The connection whose running statement Ctrl-C cancels (null between statements).
std::atomic<Connection*> g_running{nullptr};

extern "C" void on_interrupt(int) {
  Connection* connection = g_running.load();
  if (connection != nullptr) connection->cancel();
}

/// Cancels the statement on SIGINT while it runs, restoring the previous handler afterwards.
class InterruptScope {
 public:
  explicit InterruptScope(Connection& connection) {
    g_running.store(&connection);
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptScope() {
    sigaction(SIGINT, &previous_, nullptr);
    g_running.store(nullptr);
  }

 private:
  struct sigaction previous_ {};
};

ProgressLine g_progress;

}  // namespace

Session::Session(const DatabaseOptions& options, OutputFormat format, bool timing)
    : database_(std::make_unique<Database>(options)),
      connection_(std::make_unique<Connection>(*database_)),
      format_(format),
      timing_(timing) {
  if (!database_->device_note().empty()) std::cerr << "kestrel: " << database_->device_note() << '\n';
  if (isatty(STDERR_FILENO)) {
    connection_->set_progress([](size_t p, size_t d, size_t m, size_t n) { g_progress.update(p, d, m, n); });
  }
}

bool Session::run_script(const std::string& script, const std::string& source) {
  for (const auto& [sql, line] : Connection::split_statements(script)) {
    if (!run_statement(sql, source, line)) return false;
  }
  return true;
}

bool Session::run_statement(const std::string& sql, const std::string& source, uint32_t first_line) {
  auto start = std::chrono::steady_clock::now();
  try {
    QueryResult result;
    {
      InterruptScope scope(*connection_);
      g_progress.start();
      try {
        result = connection_->query(sql);
      } catch (...) {
        g_progress.clear();
        throw;
      }
      g_progress.clear();
    }
    write_result(result, format_, std::cout);
    std::cout.flush();
  } catch (const Error& e) {
    std::cout.flush();
    if (first_line > 1 && e.position()) {
      std::cerr << source << ": in the statement starting at line " << first_line << ":\n";
    }
    std::cerr << format_error(e, sql) << std::endl;
    return false;
  } catch (const std::exception& e) {
    std::cerr << "Internal Error: " << e.what() << std::endl;
    return false;
  }
  if (timing_) {
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "Run Time: " << ms << " ms" << std::endl;
  }
  return true;
}

}  // namespace kestrel::cli
