#pragma once
/// One `kestrel` session: a database, a connection and the output settings, shared by script and interactive mode.

#include <memory>
#include <string>

#include "cli/result_format.hpp"
#include "main/database.hpp"

namespace kestrel::cli {

/// Runs statements and prints their results or errors; knows nothing about where the SQL came from.
class Session {
 public:
  Session(const DatabaseOptions& options, OutputFormat format, bool timing);

  /// Runs every statement of `script`, stopping at the first failure. `source` names the script in error messages
  /// ("-c", a file name, "stdin"). Returns false when a statement failed.
  bool run_script(const std::string& script, const std::string& source);

  OutputFormat format() const { return format_; }
  void set_format(OutputFormat format) { format_ = format; }
  bool timing() const { return timing_; }
  void set_timing(bool timing) { timing_ = timing; }
  Connection& connection() { return *connection_; }

 private:
  bool run_statement(const std::string& sql, const std::string& source, uint32_t first_line);

  std::unique_ptr<Database> database_;
  std::unique_ptr<Connection> connection_;
  OutputFormat format_;
  bool timing_;
};

}  // namespace kestrel::cli
