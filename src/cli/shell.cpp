#include "cli/shell.hpp"

#include "common/error.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/convert_command.hpp"
#include "cli/interactive.hpp"
#include "cli/passwd_command.hpp"
#include "cli/result_format.hpp"
#include "cli/serve_command.hpp"
#include "cli/session.hpp"
#include "planner/functions/function_docs.hpp"

namespace kestrel::cli {

namespace {

std::string read_stream(std::istream& in) {
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

int run_main(int argc, char** argv) {
  CLI::App app{"Kestrel: SQL analytics on NVIDIA GPUs, with the same answers on the CPU."};
  app.set_version_flag("--version", "kestrel 0.1.0");
  std::vector<std::string> commands;
  std::vector<std::string> files;
  std::string format_name;
  std::vector<std::string> data_dirs;
  std::string device_name = "auto";
  bool timing = false;
  bool no_fallback = false;
  app.add_option("-c,--command", commands, "run SQL (several statements separated by ';') and exit");
  app.add_option("-f,--file", files, "run the SQL script in FILE and exit")->check(CLI::ExistingFile);
  app.add_option("--format", format_name, "output format: aligned, csv or json (default: aligned on a terminal, "
                                          "csv otherwise)")
      ->check(CLI::IsMember({"aligned", "csv", "json"}));
  app.add_option("--data", data_dirs, "attach the sub-folders (or files) of DIR as tables")
      ->check(CLI::ExistingDirectory);
  app.add_option("--device", device_name, "where queries run: cpu, gpu or auto (the GPU when one is usable)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  app.add_flag("--timing", timing, "print each statement's run time to stderr");
  app.add_flag("--no-gpu-fallback", no_fallback, "with the GPU, fail instead of running an operator on the CPU");
  bool list_functions = false;
  app.add_flag("--list-functions-markdown", list_functions,
               "print the function reference (docs/functions.md, generated from the function registry) and exit");
  ServeOptions serve_options;
  CLI::App* serve = add_serve_command(app, serve_options);
  ConvertOptions convert_options;
  CLI::App* convert = add_convert_command(app, convert_options);
  PasswdOptions passwd_options;
  CLI::App* passwd = add_passwd_command(app, passwd_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (serve->parsed()) return run_serve(serve_options);
  if (convert->parsed()) return run_convert(convert_options);
  if (passwd->parsed()) return run_passwd(passwd_options);
  if (list_functions) {
    std::cout << plan::functions_markdown();
    return 0;
  }

  bool stdout_tty = isatty(STDOUT_FILENO) != 0;
  bool stdin_tty = isatty(STDIN_FILENO) != 0;
  OutputFormat format = format_name.empty() ? (stdout_tty ? OutputFormat::kAligned : OutputFormat::kCsv)
                                            : *parse_output_format(format_name);
  DatabaseOptions options;
  options.device = *parse_device_choice(device_name);
  options.data_dirs = data_dirs;
  options.gpu_fallback = !no_fallback;

  std::unique_ptr<Session> session;
  try {
    session = std::make_unique<Session>(options, format, timing);
  } catch (const Error& e) {
    std::cerr << "kestrel: " << e.what() << '\n';
    return 1;
  }

  if (!commands.empty() || !files.empty()) {
    for (const auto& sql : commands) {
      if (!session->run_script(sql, "-c")) return 1;
    }
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << "kestrel: cannot read '" << path << "'\n";
        return 1;
      }
      if (!session->run_script(read_stream(in), path)) return 1;
    }
    return 0;
  }
  if (!stdin_tty) return session->run_script(read_stream(std::cin), "stdin") ? 0 : 1;
  return run_interactive(*session);
}

}  // namespace kestrel::cli
