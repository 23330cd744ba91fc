#pragma once
namespace kestrel::cli {
/// Entry point of the `kestrel` command; returns the process exit status.
int run_main(int argc, char** argv);
}  // namespace kestrel::cli
