#include "cli/serve_command.hpp"

#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.hpp"
#include "server/auth_users.hpp"
#include "server/pg_server.hpp"
#include "server/tls_context.hpp"
#include "server/trino_server.hpp"

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

server::pg::PgServer* g_pg_server = nullptr;
server::trino::TrinoServer* g_trino_server = nullptr;

extern "C" void on_stop_signal(int) {
  if (g_pg_server != nullptr) g_pg_server->stop();
  if (g_trino_server != nullptr) g_trino_server->stop();
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* serve =
      app.add_subcommand("serve", "serve the engine to PostgreSQL clients (psql, psycopg, ...) and Trino clients");
  serve->add_option("--data", options.data_dirs, "attach the sub-folders (or files) of DIR as tables")
      ->check(CLI::ExistingDirectory);
  serve
      ->add_option("--allow-dir", options.allowed_dirs,
                   "a folder whose files SQL may also read and write (read_csv, COPY TO, ...; repeatable); served "
                   "sessions may use no files outside it and the data folders")
      ->check(CLI::ExistingDirectory);
  serve->add_option("--device", options.device, "where queries run: cpu, gpu or auto")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  serve->add_option("--listen", options.listen, "address to listen on (default 127.0.0.1)");
  serve
      ->add_option("--pg-port", options.pg_port,
                   "PostgreSQL protocol port; 0 picks a free port (default 5432, none when only --trino-port is given)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--trino-port", options.trino_port, "Trino client protocol (HTTP) port; 0 picks a free port")
      ->check(CLI::Range(0, 65535));
  serve
      ->add_option("--trino-idle-timeout", options.trino_idle_timeout_s,
                   "seconds after which a Trino query its client stopped reading is cancelled (default 300)")
      ->check(CLI::Range(1, 86400));
  serve->add_option("--tls-cert", options.tls_cert,
                    "PEM certificate (chain) for TLS on both protocols; needs --tls-key");
  serve->add_option("--tls-key", options.tls_key, "PEM private key of --tls-cert");
  serve->add_option("--users", options.users_file,
                    "users file (lines from `kestrel passwd NAME`): every client must authenticate (SCRAM-SHA-256 for "
                    "PostgreSQL, HTTP Basic for Trino)");
  return serve;
}

int run_serve(const ServeOptions& options) {
  const bool loopback = server::pg::is_loopback_address(options.listen);
  if (!loopback && options.users_file.empty()) {
    std::cerr << "kestrel serve: --listen " << options.listen
              << " is not a loopback address; serving other machines requires authentication: give --users FILE "
                 "(make its lines with `kestrel passwd NAME`), or listen on 127.0.0.1, ::1 or localhost\n";
    return 2;
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    std::cerr << "kestrel serve: --tls-cert and --tls-key go together: give both or neither\n";
    return 2;
  }
  std::shared_ptr<const server::tls::TlsContext> tls;
  std::shared_ptr<const server::auth::UserFile> users;
  try {
    if (!options.tls_cert.empty()) tls = server::tls::TlsContext::load(options.tls_cert, options.tls_key);
    if (!options.users_file.empty()) {
      users = std::make_shared<const server::auth::UserFile>(server::auth::UserFile::load(options.users_file));
    }
  } catch (const Error& e) {
    std::cerr << "kestrel serve: " << e.what() << '\n';
    return 2;
  }
  if (users && !tls && !loopback) {
    std::cerr << "kestrel serve: warning: TLS is off (no --tls-cert): PostgreSQL clients authenticate with "
                 "SCRAM-SHA-256, which never sends the password, but Trino clients' Basic authentication would send "
                 "passwords in clear text (Trino clients refuse it over http), and all query data travels "
                 "unencrypted\n";
  }
  DatabaseOptions database_options;
  database_options.device = *parse_device_choice(options.device);
  database_options.data_dirs = options.data_dirs;
  database_options.restrict_files = true;
  database_options.allowed_dirs = options.allowed_dirs;
  bool serve_pg = options.pg_port >= 0 || options.trino_port < 0;
  try {
    ServedDatabase served(database_options);
    if (!served.database().device_note().empty()) std::cerr << "kestrel: " << served.database().device_note() << '\n';
    std::optional<server::pg::PgServer> pg;
    std::optional<server::trino::TrinoServer> trino;
    if (serve_pg) {
      pg.emplace(served, server::pg::PgServerOptions{options.listen, options.pg_port >= 0 ? options.pg_port : 5432,
                                                     tls, users});
      int port = pg->bind();
      std::cout << "pg: listening on " << options.listen << ":" << port << std::endl;
    }
    if (options.trino_port >= 0) {
      trino.emplace(served,
                    server::trino::TrinoServerOptions{options.listen, options.trino_port,
                                                      std::chrono::seconds(options.trino_idle_timeout_s), tls, users});
      int port = trino->bind();
      std::cout << "trino: listening on " << options.listen << ":" << port << std::endl;
    }
    g_pg_server = pg ? &*pg : nullptr;
    g_trino_server = trino ? &*trino : nullptr;
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    std::signal(SIGPIPE, SIG_IGN);
    if (pg && trino) {
      std::thread trino_thread([&] { trino->run(); });
      pg->run();
      trino->stop();
      trino_thread.join();
    } else if (pg) {
      pg->run();
    } else {
      trino->run();
    }
    std::cerr << "kestrel serve: stopped\n";
    // Connection and query threads are detached and may still hold the servers and the database: leave without
    // running destructors.
    std::cout.flush();
    std::_Exit(0);
  } catch (const Error& e) {
    std::cerr << "kestrel serve: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace kestrel::cli
