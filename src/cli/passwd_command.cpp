#include "cli/passwd_command.hpp"

#include <termios.h>
#include <unistd.h>

#include <iostream>

#include "common/error.hpp"
#include "server/scram_verifier.hpp"

namespace kestrel::cli {

namespace {

/// The first line of stdin, without its line end; prompts without echo when stdin is a terminal.
std::string read_password() {
  termios saved{};
  bool terminal = isatty(STDIN_FILENO) != 0 && tcgetattr(STDIN_FILENO, &saved) == 0;
  if (terminal) {
    std::cerr << "Password: " << std::flush;
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  std::string password;
  std::getline(std::cin, password);
  if (terminal) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::cerr << '\n';
  }
  if (!password.empty() && password.back() == '\r') password.pop_back();
  return password;
}

}  // namespace

CLI::App* add_passwd_command(CLI::App& app, PasswdOptions& options) {
  CLI::App* passwd = app.add_subcommand(
      "passwd",
      "read a password from stdin and print a line for `kestrel serve --users FILE` (NAME:SCRAM-SHA-256$...)");
  passwd->add_option("name", options.user, "the user name")->required();
  passwd->add_option("--iterations", options.iterations, "PBKDF2 iterations (default 4096, as PostgreSQL)")
      ->check(CLI::Range(1000, 10000000));
  return passwd;
}

int run_passwd(const PasswdOptions& options) {
  if (options.user.empty() || options.user.find_first_of(": \t\r\n#") != std::string::npos) {
    std::cerr << "kestrel passwd: user name '" << options.user
              << "' must be non-empty without ':', '#', spaces or line breaks\n";
    return 2;
  }
  std::string password = read_password();
  if (password.empty()) {
    std::cerr << "kestrel passwd: empty password (give it as the first line of stdin)\n";
    return 2;
  }
  try {
    server::auth::ScramVerifier verifier = server::auth::make_scram_verifier(password, options.iterations);
    std::cout << options.user << ':' << server::auth::format_scram_verifier(verifier) << '\n';
  } catch (const Error& e) {
    std::cerr << "kestrel passwd: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace kestrel::cli
