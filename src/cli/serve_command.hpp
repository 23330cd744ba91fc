#pragma once
/// `kestrel serve`: the engine behind the PostgreSQL wire protocol and the Trino client protocol (issue 14).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "main/database.hpp"

namespace kestrel::cli {

/// The options of `kestrel serve`.
struct ServeOptions {
  std::vector<std::string> data_dirs;
  /// Folders besides the data folders whose files SQL may read and write (read_csv, COPY TO, ...); served sessions
  /// may touch no other file.
  std::vector<std::string> allowed_dirs;
  std::string device = "auto";
  std::string listen = "127.0.0.1";
  /// -1 when not given: the PostgreSQL protocol is then served on 5432 unless --trino-port alone was given.
  int pg_port = -1;
  /// -1 when not given: no Trino protocol.
  int trino_port = -1;
  /// Seconds after which a Trino query that its client stopped asking about is cancelled and dropped.
  int trino_idle_timeout_s = 300;
  /// PEM certificate chain and private key: both or neither. With them, PostgreSQL clients may ask for TLS and the
  /// Trino port speaks HTTPS.
  std::string tls_cert;
  std::string tls_key;
  /// A users file (`kestrel passwd NAME` makes its lines): every connection must then authenticate, and --listen may
  /// name a non-loopback address. Empty: no authentication, loopback only.
  std::string users_file;
  /// The longest a statement may take, queued time included, in seconds (0: no limit); past it the statement is
  /// cancelled with an error that names the limit.
  double query_timeout_s = 0;
  /// Statements that run at the same time (the others wait for a turn, listed by SHOW QUERIES as queued).
  int max_queries = 4;
};

/// Declares the `serve` sub-command on `app`, filling `options` when it is parsed.
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);

/// Runs the server until SIGINT or SIGTERM; returns the exit status.
int run_serve(const ServeOptions& options);

}  // namespace kestrel::cli
