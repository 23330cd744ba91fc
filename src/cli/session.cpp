#include "cli/session.hpp"

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

/// A progress line on stderr for statements that run longer than a second (terminals only).
class ProgressLine {
 public:
  void start() {
    start_ns_.store(now_ns());
    last_ns_.store(0);
    shown_.store(false);
  }
  void update(size_t pipeline, size_t done, size_t morsels, size_t pipelines) {
    int64_t now = now_ns();
    if (now - start_ns_.load() < 1'000'000'000 || now - last_ns_.load() < 200'000'000) return;
    std::lock_guard lock(mutex_);
    if (now - last_ns_.load() < 200'000'000) return;
    last_ns_.store(now);
    shown_.store(true);
    std::fprintf(stderr, "\r[%.1f s] pipeline %zu/%zu: %zu/%zu morsels   ", (now - start_ns_.load()) / 1e9,
                 pipeline + 1, pipelines, done, morsels);
    std::fflush(stderr);
  }
  void clear() {
    std::lock_guard lock(mutex_);
    if (shown_.exchange(false)) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  static int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::mutex mutex_;
  std::atomic<int64_t> start_ns_{0};
  std::atomic<int64_t> last_ns_{0};
  std::atomic<bool> shown_{false};
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
    database_->state().progress = [](size_t p, size_t d, size_t m, size_t n) { g_progress.update(p, d, m, n); };
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
