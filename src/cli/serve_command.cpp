#include "cli/serve_command.hpp"

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <csignal>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.hpp"
#include "main/database_state.hpp"
#include "server/auth_users.hpp"
#include "server/query_board.hpp"
#include "server/pg_server.hpp"
#include "server/tls_context.hpp"
#include "server/trino_server.hpp"

namespace kestrel::cli {

namespace {

/// The engine as the servers see it: one Connection per client session, each with its own settings. Statements of
/// several sessions run at once, up to the board's limit (the database orders those that change the catalog and those
/// on the GPU).
class ServedDatabase final : public server::SqlBackend {
 public:
  ServedDatabase(const DatabaseOptions& options, double query_timeout_s, int max_queries)
      : database_(options), board_(query_timeout_s, static_cast<size_t>(std::max(max_queries, 1))) {}

  std::unique_ptr<server::SqlSession> open_session(const std::string& user, server::ClientProtocol protocol) override;
  std::vector<std::string> split_statements(std::string_view script) const override {
    std::vector<std::string> out;
    for (auto& [text, line] : Connection::split_statements(script)) out.push_back(std::move(text));
    return out;
  }
  Database& database() { return database_; }
  server::QueryBoard& board() { return board_; }

 private:
  Database database_;
  server::QueryBoard board_;
};

/// A cancellation with its reason (a time limit, KILL QUERY): SQLSTATE 57014 as Cancelled.
Error cancelled(const std::string& why) { return Error(ErrorCategory::kCancelled, "57014", why); }

/// Whether a statement with these words only reads (a query, EXPLAIN, SHOW, DESCRIBE) and may run again.
bool rerunnable(const std::vector<std::string>& words) {
  if (words.empty()) return false;
  const std::string& w = words[0];
  return w == "SELECT" || w == "WITH" || w == "VALUES" || w == "TABLE" || w == "EXPLAIN" || w == "SHOW" ||
         w == "DESCRIBE" || w.front() == '(';
}

/// The words of a statement, upper-cased, without a trailing `;` (for the server's own statements).
std::vector<std::string> statement_words(std::string_view sql) {
  std::vector<std::string> words;
  std::string word;
  for (char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

class ServedSession final : public server::SqlSession {
 public:
  ServedSession(ServedDatabase& served, std::string user)
      : served_(served), user_(std::move(user)), connection_(served.database()) {}

  int32_t time_zone() override { return connection_.settings().time_zone(); }

  server::StatementResult execute(std::string_view sql) override {
    const std::vector<std::string> words = statement_words(sql);
    if (words.size() == 2 && words[0] == "SHOW" && words[1] == "QUERIES") return show_queries();
    if (words.size() == 3 && words[0] == "KILL" && words[1] == "QUERY") {
      char* end = nullptr;
      const unsigned long long id = std::strtoull(words[2].c_str(), &end, 10);
      if (words[2].empty() || *end != '\0') throw InvalidInput("KILL QUERY takes a query id from SHOW QUERIES", "22023");
      served_.board().kill(id, user_);
      return {nullptr, {}, "KILL QUERY"};
    }
    server::QueryBoard& board = served_.board();
    const uint64_t id = board.add(user_, sql, [this] { connection_.cancel(); });
    struct Done {
      server::QueryBoard& board;
      uint64_t id;
      bool finished = false;
      ~Done() {
        if (!finished) board.finish(id);
      }
    } done{board, id};
    try {
      if (std::string why = board.start(id); !why.empty()) throw cancelled(why);
      QueryResult result;
      try {
        result = connection_.query(sql);
      } catch (const ResourceExhausted&) {
        // Out of memory while other statements held some: a statement that changes nothing waits until it can run
        // alone and tries once more; alone, its error is its own.
        if (!rerunnable(words) || !board.ran_beside_others(id)) throw;
        if (std::string why = board.run_alone(id); !why.empty()) throw cancelled(why);
        result = connection_.query(sql);
      }
      // A statement that finished before a cancellation reached it keeps its result (its writes are done).
      done.finished = true;
      board.finish(id);
      return {std::move(result.schema), std::move(result.batches), std::move(result.message)};
    } catch (const Cancelled&) {
      // The reason the board gave (a time limit, KILL QUERY) names what stopped the statement.
      std::string why = done.finished ? std::string() : board.finish(id);
      done.finished = true;
      if (!why.empty()) throw cancelled(why);
      throw;
    }
  }
  void cancel() override { connection_.cancel(); }
  Connection& connection() { return connection_; }

 private:
  server::StatementResult show_queries() {
    const auto now = server::QueryBoard::Clock::now();
    std::vector<Value> ids, users, states, elapsed, texts;
    for (const server::QueryBoard::Entry& e : served_.board().snapshot()) {
      ids.push_back(Value::bigint(static_cast<int64_t>(e.id)));
      users.push_back(Value::varchar(e.user));
      states.push_back(Value::varchar(e.running ? "running" : "queued"));
      elapsed.push_back(Value::bigint(
          std::chrono::duration_cast<std::chrono::milliseconds>(now - e.submitted).count()));
      texts.push_back(Value::varchar(e.text));
    }
    std::vector<Field> fields{{"query_id", TypeId::kBigInt, false},
                              {"user", TypeId::kVarchar, false},
                              {"state", TypeId::kVarchar, false},
                              {"elapsed_ms", TypeId::kBigInt, false},
                              {"query", TypeId::kVarchar, false}};
    auto schema = std::make_shared<Schema>(fields);
    std::vector<ColumnPtr> columns{Column::from_values(TypeId::kBigInt, ids), Column::from_values(TypeId::kVarchar, users),
                                   Column::from_values(TypeId::kVarchar, states),
                                   Column::from_values(TypeId::kBigInt, elapsed),
                                   Column::from_values(TypeId::kVarchar, texts)};
    const size_t rows = ids.size();
    return {schema, {Batch(schema, std::move(columns), rows, gpu::MemoryKind::kHost)}, ""};
  }

  ServedDatabase& served_;
  std::string user_;
  Connection connection_;  ///< its settings are this session's: SET changes only them
};

std::unique_ptr<server::SqlSession> ServedDatabase::open_session(const std::string& user,
                                                                server::ClientProtocol protocol) {
  auto session = std::make_unique<ServedSession>(*this, user);
  // The protocol's own defaults: RESET and RESET ALL restore them, not the database's.
  if (protocol == server::ClientProtocol::kTrino) session->connection().settings().set_default("type_names", "trino");
  return session;
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
  serve
      ->add_option("--query-timeout", options.query_timeout_s,
                   "seconds a statement may take, time waiting for its turn included (default 0: no limit)")
      ->check(CLI::Range(0.0, 31536000.0));
  serve
      ->add_option("--max-queries", options.max_queries,
                   "statements that run at the same time; the others wait for a turn (default 4)")
      ->check(CLI::Range(1, 1024));
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
    ServedDatabase served(database_options, options.query_timeout_s, options.max_queries);
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
