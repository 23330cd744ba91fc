#include "cli/convert_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/progress_line.hpp"
#include "common/error.hpp"
#include "main/database.hpp"
#include "main/database_state.hpp"
#include "parser/ast_printer.hpp"

namespace kestrel::cli {

namespace fs = std::filesystem;

namespace {

/// SQL text of a string literal.
std::string quote_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string human_bytes(uintmax_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buffer;
}

}  // namespace

CLI::App* add_convert_command(CLI::App& app, ConvertOptions& options) {
  CLI::App* convert = app.add_subcommand(
      "convert", "write the tables of a data folder as files of another format (Parquet to kcol, or back)");
  convert->add_option("--data", options.data_dir, "the folder whose tables are converted")
      ->required()
      ->check(CLI::ExistingDirectory);
  convert->add_option("--to", options.target_dir, "the folder the files are written into (made if missing)")
      ->required();
  convert->add_option("--format", options.format, "kcol (default) or parquet")
      ->check(CLI::IsMember({"kcol", "parquet"}));
  convert->add_option("--table", options.tables, "convert only this table (repeatable)");
  convert->add_option("--option", options.writer_options,
                      "a writer option as KEY=VALUE, as in COPY (e.g. row_group_size=1000000; repeatable)");
  convert->add_option("--device", options.device, "where the reading query runs: cpu (default), gpu or auto")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  return convert;
}

int run_convert(const ConvertOptions& options) {
  std::error_code ec;
  const fs::path source = fs::weakly_canonical(options.data_dir, ec);
  fs::create_directories(options.target_dir, ec);
  if (ec) {
    std::cerr << "kestrel convert: cannot make '" << options.target_dir << "': " << ec.message() << '\n';
    return 1;
  }
  const fs::path target = fs::weakly_canonical(options.target_dir, ec);
  if (target == source) {
    std::cerr << "kestrel convert: --to names the data folder itself; the new files would attach beside the old "
                 "ones as second tables of the same names\n";
    return 2;
  }
  std::string with;
  for (const std::string& kv : options.writer_options) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "kestrel convert: --option '" << kv << "' is not KEY=VALUE\n";
      return 2;
    }
    with += ", " + kv.substr(0, eq) + " " + quote_literal(kv.substr(eq + 1));
  }
  DatabaseOptions database_options;
  database_options.device = *parse_device_choice(options.device);
  database_options.data_dirs = {options.data_dir};
  try {
    Database database(database_options);
    if (!database.device_note().empty()) std::cerr << "kestrel: " << database.device_note() << '\n';
    std::vector<std::string> tables = options.tables;
    const std::vector<std::string> attached = database.state().catalog.table_names();
    if (tables.empty()) tables = attached;
    for (const std::string& t : tables) {
      if (std::find(attached.begin(), attached.end(), t) == attached.end()) {
        std::cerr << "kestrel convert: no table '" << t << "' in '" << options.data_dir << "'\n";
        return 2;
      }
    }
    if (tables.empty()) {
      std::cerr << "kestrel convert: no tables in '" << options.data_dir << "'\n";
      return 1;
    }
    ProgressLine progress;
    Connection connection(database);
    if (isatty(STDERR_FILENO)) {
      connection.set_progress([&progress](size_t p, size_t d, size_t m, size_t n) { progress.update(p, d, m, n); });
    }
    int failed = 0;
    uintmax_t written = 0;
    const auto all_start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < tables.size(); ++i) {
      const std::string& table = tables[i];
      const fs::path file = target / (table + "." + options.format);
      const std::string sql = "COPY (SELECT * FROM " + ast::quote_identifier(table) + ") TO " +
                              quote_literal(file.string()) + " (FORMAT " + options.format + with + ")";
      const auto start = std::chrono::steady_clock::now();
      progress.start("[" + std::to_string(i + 1) + "/" + std::to_string(tables.size()) + "] " + table);
      try {
        QueryResult result = connection.query(sql);
        progress.clear();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const uintmax_t bytes = fs::file_size(file, ec);
        written += ec ? 0 : bytes;
        std::string rows = result.message.substr(std::min(result.message.size(), size_t{5}));  // "COPY n"
        std::printf("[%zu/%zu] %s: %s rows, %s of %s in %.1f s\n", i + 1, tables.size(), table.c_str(),
                    rows.c_str(), human_bytes(ec ? 0 : bytes).c_str(), options.format.c_str(), seconds);
      } catch (const Error& e) {
        progress.clear();
        std::printf("[%zu/%zu] %s: failed\n", i + 1, tables.size(), table.c_str());
        std::cerr << "kestrel convert: table '" << table << "': " << e.what() << '\n';
        ++failed;
      }
      std::fflush(stdout);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - all_start).count();
    std::printf("%zu of %zu tables converted into '%s': %s in %.1f s\n", tables.size() - failed, tables.size(),
                options.target_dir.c_str(), human_bytes(written).c_str(), seconds);
    return failed == 0 ? 0 : 1;
  } catch (const Error& e) {
    std::cerr << "kestrel convert: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace kestrel::cli
