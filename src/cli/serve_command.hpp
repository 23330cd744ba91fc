#pragma once
/// `kestrel serve`: the engine behind the PostgreSQL wire protocol (more protocols to come, issue 14).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "main/database.hpp"

namespace kestrel::cli {

/// The options of `kestrel serve`.
struct ServeOptions {
  std::vector<std::string> data_dirs;
  std::string device = "auto";
  std::string listen = "127.0.0.1";
  int pg_port = 5432;
};

/// Declares the `serve` sub-command on `app`, filling `options` when it is parsed.
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);

/// Runs the server until SIGINT or SIGTERM; returns the exit status.
int run_serve(const ServeOptions& options);

}  // namespace kestrel::cli
