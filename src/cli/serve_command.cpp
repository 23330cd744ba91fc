#include "cli/serve_command.hpp"

#include <csignal>
#include <iostream>
#include <mutex>

#include "common/error.hpp"
#include "server/pg_server.hpp"

namespace kestrel::cli {

namespace {

/// The engine as the servers see it: one Connection per client session. Statements of all sessions run one at a
/// time for now (the Database's execution state is not yet shared safely between concurrent queries; the query
/// queue with admission by memory is a later part of issue 14).
class ServedDatabase final : public server::SqlBackend {
 public:
  explicit ServedDatabase(const DatabaseOptions& options) : database_(options) {}

  std::unique_ptr<server::SqlSession> open_session(const std::string& user) override;
  std::vector<std::string> split_statements(std::string_view script) const override {
    std::vector<std::string> out;
    for (auto& [text, line] : Connection::split_statements(script)) out.push_back(std::move(text));
    return out;
  }
  Database& database() { return database_; }
  std::mutex& run_mutex() { return run_mutex_; }

 private:
  Database database_;
  std::mutex run_mutex_;
};

class ServedSession final : public server::SqlSession {
 public:
  explicit ServedSession(ServedDatabase& served) : served_(served), connection_(served.database()) {}

  server::StatementResult execute(std::string_view sql) override {
    std::lock_guard lock(served_.run_mutex());
    QueryResult result = connection_.query(sql);
    return {std::move(result.schema), std::move(result.batches), std::move(result.message)};
  }
  void cancel() override { connection_.cancel(); }

 private:
  ServedDatabase& served_;
  Connection connection_;
};

std::unique_ptr<server::SqlSession> ServedDatabase::open_session(const std::string&) {
  return std::make_unique<ServedSession>(*this);
}

server::pg::PgServer* g_server = nullptr;

extern "C" void on_stop_signal(int) {
  if (g_server != nullptr) g_server->stop();
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* serve = app.add_subcommand("serve", "serve the engine to PostgreSQL clients (psql, psycopg, ...)");
  serve->add_option("--data", options.data_dirs, "attach the sub-folders (or files) of DIR as tables")
      ->check(CLI::ExistingDirectory);
  serve->add_option("--device", options.device, "where queries run: cpu, gpu or auto")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  serve->add_option("--listen", options.listen, "address to listen on (default 127.0.0.1)");
  serve->add_option("--pg-port", options.pg_port, "PostgreSQL protocol port; 0 picks a free port (default 5432)")
      ->check(CLI::Range(0, 65535));
  return serve;
}

int run_serve(const ServeOptions& options) {
  if (!server::pg::is_loopback_address(options.listen)) {
    std::cerr << "kestrel serve: --listen " << options.listen
              << " is not a loopback address; serving other machines requires authentication, and no users are "
                 "configured (user authentication is not available yet), so Kestrel listens only on 127.0.0.1, ::1 "
                 "or localhost\n";
    return 2;
  }
  DatabaseOptions database_options;
  database_options.device = *parse_device_choice(options.device);
  database_options.data_dirs = options.data_dirs;
  try {
    ServedDatabase served(database_options);
    if (!served.database().device_note().empty()) std::cerr << "kestrel: " << served.database().device_note() << '\n';
    server::pg::PgServer pg(served, {options.listen, options.pg_port});
    int port = pg.bind();
    std::cout << "pg: listening on " << options.listen << ":" << port << std::endl;
    g_server = &pg;
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    std::signal(SIGPIPE, SIG_IGN);
    pg.run();
    g_server = nullptr;
    std::cerr << "kestrel serve: stopped\n";
  } catch (const Error& e) {
    std::cerr << "kestrel serve: " << e.what() << '\n';
    return 1;
  }
  // Connection threads are detached and may still hold the database: leave without running destructors.
  std::cout.flush();
  std::_Exit(0);
}

}  // namespace kestrel::cli
