#pragma once
/// `kestrel convert`: every table of a data folder (or the ones named) written as files of another format into a
/// target folder, table by table, with progress: the way to turn a Parquet dataset into kcol (or back).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kestrel::cli {

/// The options of `kestrel convert`.
struct ConvertOptions {
  std::string data_dir;
  std::string target_dir;
  std::string format = "kcol";
  std::vector<std::string> tables;
  std::vector<std::string> writer_options;  ///< KEY=VALUE, as COPY's options
  std::string device = "cpu";
};

/// Declares the `convert` sub-command on `app`, filling `options` when it is parsed.
CLI::App* add_convert_command(CLI::App& app, ConvertOptions& options);

/// Converts the tables; prints one line per table on stdout and returns the exit status (1 if any table failed).
int run_convert(const ConvertOptions& options);

}  // namespace kestrel::cli
