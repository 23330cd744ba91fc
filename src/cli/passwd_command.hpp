#pragma once
/// `kestrel passwd NAME`: reads a password from stdin and prints the line that gives user NAME that password in a
/// users file of `kestrel serve --users FILE` (NAME:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>).

#include <CLI/CLI.hpp>
#include <string>

namespace kestrel::cli {

/// The options of `kestrel passwd`.
struct PasswdOptions {
  std::string user;
  int iterations = 4096;  ///< PBKDF2 iterations of the verifier (PostgreSQL's default)
};

/// Declares the `passwd` sub-command on `app`, filling `options` when it is parsed.
CLI::App* add_passwd_command(CLI::App& app, PasswdOptions& options);

/// Reads the password (the first line of stdin; without echo when stdin is a terminal) and prints the users-file
/// line; returns the exit status.
int run_passwd(const PasswdOptions& options);

}  // namespace kestrel::cli
