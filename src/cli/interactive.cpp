#include "cli/interactive.hpp"

#include <editline/readline.h>

#include <cctype>
#include <cstdlib>
#include <iostream>

namespace kestrel::cli {

namespace {

std::string history_path() {
  const char* home = std::getenv("HOME");
  return home != nullptr ? std::string(home) + "/.kestrel_history" : std::string();
}

void print_help() {
  std::cout << "Enter SQL statements ending with ';'. Commands:\n"
               "  .help                      this text\n"
               "  .quit                      leave the shell (also Ctrl-D)\n"
               "  .timing on|off             print each statement's run time\n"
               "  .format aligned|csv|json   how results are printed\n"
               "Ctrl-C cancels the running statement.\n";
}

/// Handles a dot command; returns false when the shell should end.
bool dot_command(Session& session, const std::string& line) {
  std::string cmd = line.substr(0, line.find(' '));
  std::string arg = line.size() > cmd.size() ? line.substr(cmd.size() + 1) : "";
  while (!arg.empty() && std::isspace(static_cast<unsigned char>(arg.back()))) arg.pop_back();
  if (cmd == ".quit" || cmd == ".exit") return false;
  if (cmd == ".help") {
    print_help();
  } else if (cmd == ".timing" && (arg == "on" || arg == "off")) {
    session.set_timing(arg == "on");
  } else if (cmd == ".format" && parse_output_format(arg)) {
    session.set_format(*parse_output_format(arg));
  } else {
    std::cerr << "unknown command '" << line << "'; .help lists the commands\n";
  }
  return true;
}

}  // namespace

bool statement_complete(const std::string& buffer) {
  char last = 0;
  for (size_t i = 0; i < buffer.size(); ++i) {
    char c = buffer[i];
    if (c == '\'' || c == '"') {
      size_t close = buffer.find(c, i + 1);
      if (close == std::string::npos) return false;
      i = close;
      last = c;
    } else if (c == '-' && i + 1 < buffer.size() && buffer[i + 1] == '-') {
      while (i < buffer.size() && buffer[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < buffer.size() && buffer[i + 1] == '*') {
      size_t close = buffer.find("*/", i + 2);
      if (close == std::string::npos) return false;
      i = close + 1;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      last = c;
    }
  }
  return last == ';';
}

int run_interactive(Session& session) {
  std::cout << "Kestrel 0.1.0. Enter \".help\" for usage hints.\n";
  std::string history = history_path();
  using_history();
  if (!history.empty()) read_history(history.c_str());
  std::string buffer;
  bool failed = false;
  while (true) {
    char* raw = readline(buffer.empty() ? "kestrel> " : "     ...> ");
    if (raw == nullptr) {
      std::cout << '\n';
      break;
    }
    std::string line(raw);
    std::free(raw);
    if (buffer.empty() && !line.empty() && line[0] == '.') {
      add_history(line.c_str());
      if (!dot_command(session, line)) break;
      continue;
    }
    if (buffer.empty() && line.find_first_not_of(" \t") == std::string::npos) continue;
    buffer += buffer.empty() ? line : "\n" + line;
    if (!statement_complete(buffer)) continue;
    add_history(buffer.c_str());
    failed = !session.run_script(buffer, "input") || failed;
    buffer.clear();
  }
  if (!history.empty()) write_history(history.c_str());
  return 0;
}

}  // namespace kestrel::cli
