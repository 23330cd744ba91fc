/// kestrel-sqllogictest: runs sqllogictest files on Kestrel and ends with `N passed, N failed, N skipped`.

#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "kestrel_engine.hpp"
#include "record_parser.hpp"
#include "runner.hpp"

namespace {

constexpr const char* kUsage =
    "usage: kestrel-sqllogictest [--mode cpu|gpu|gpu-fallback] [--verbose] [--stop-on-failure] [--slow] PATH...\n"
    "  PATH is a .test file or a folder searched recursively for *.test (and *.test_slow with --slow).\n";

struct Arguments {
  kestrel::slt::RunMode mode = kestrel::slt::RunMode::kCpu;
  bool verbose = false;
  bool stop_on_failure = false;
  bool slow = false;
  std::vector<std::string> paths;
};

/// Parses the command line; returns false (after printing why) on a usage error.
bool parse_arguments(int argc, char** argv, Arguments& args) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--mode" || arg.rfind("--mode=", 0) == 0) {
      std::string value;
      if (arg == "--mode") {
        if (i + 1 >= argc) {
          std::cerr << "--mode needs a value\n" << kUsage;
          return false;
        }
        value = argv[++i];
      } else {
        value = arg.substr(std::strlen("--mode="));
      }
      auto mode = kestrel::slt::parse_run_mode(value);
      if (!mode) {
        std::cerr << "unknown mode '" << value << "' (expected cpu, gpu or gpu-fallback)\n";
        return false;
      }
      args.mode = *mode;
    } else if (arg == "--verbose" || arg == "-v") {
      args.verbose = true;
    } else if (arg == "--stop-on-failure") {
      args.stop_on_failure = true;
    } else if (arg == "--slow") {
      args.slow = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "unknown option '" << arg << "'\n" << kUsage;
      return false;
    } else {
      args.paths.push_back(arg);
    }
  }
  if (args.paths.empty()) {
    std::cerr << kUsage;
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kestrel::slt;
  Arguments args;
  if (!parse_arguments(argc, argv, args)) return 2;

  RunnerOptions options;
  options.verbose = args.verbose;
  options.stop_on_failure = args.stop_on_failure;
  options.features.insert(run_mode_name(args.mode));
  if (args.mode != RunMode::kCpu) {
    options.features.insert("gpu");
    // `skipif gpu` / `onlyif gpu` records: output that differs by device (EXPLAIN shows the GPU placement).
    options.engine_names.insert("gpu");
  }

  // In a GPU mode without a usable GPU nothing can run: every record counts as skipped, said once.
  std::string no_gpu_reason;
  bool skip_all = args.mode != RunMode::kCpu && !kestrel::gpu::usable_device(&no_gpu_reason);

  const kestrel::DatabaseOptions database = database_options(args.mode);
  Runner runner([database] { return std::make_unique<KestrelEngine>(database); }, options, std::cout);

  std::vector<std::string> missing;
  std::vector<std::string> files = collect_test_files(args.paths, args.slow, &missing);
  for (const auto& path : missing) runner.fail_file(path, "no such file or folder");
  if (files.empty() && missing.empty()) std::cout << "no test files found\n";

  for (const auto& path : files) {
    if (runner.stopped()) break;
    TestFile file;
    try {
      file = read_test_file(path);
    } catch (const std::exception& e) {
      runner.fail_file(path, e.what());
      continue;
    }
    if (skip_all) {
      runner.skip_file(file);
    } else {
      runner.run_file(file);
    }
  }
  if (skip_all) {
    std::cout << run_mode_name(args.mode) << " mode: no usable GPU (" << no_gpu_reason
              << "): " << runner.stats().skipped << " records skipped\n";
  }
  if (runner.stopped()) std::cout << "stopped at the first failure (--stop-on-failure)\n";
  std::cout << summary_line(runner.stats()) << std::endl;
  return runner.stats().failed > 0 ? 1 : 0;
}
