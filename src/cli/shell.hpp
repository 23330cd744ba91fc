#pragma once
/// The `kestrel` command: argument handling, script execution and the interactive shell.

namespace kestrel::cli {

/// Entry point of the `kestrel` command; returns the process exit status (0 when every statement succeeded).
int run_main(int argc, char** argv);

}  // namespace kestrel::cli
