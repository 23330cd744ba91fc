#pragma once
/// The engine the runner uses for real: a kestrel::Database (fresh per file) and one Connection on it.

#include <memory>
#include <optional>
#include <string>

#include "main/database.hpp"
#include "runner.hpp"

namespace kestrel::slt {

/// The modes the corpus runs in.
enum class RunMode : uint8_t {
  kCpu,          ///< device = cpu
  kGpu,          ///< device = gpu, no fallback: an operator the GPU cannot run is an error
  kGpuFallback,  ///< device = gpu, operators the GPU cannot run fall back to the CPU
};

/// Parses "cpu", "gpu" or "gpu-fallback".
std::optional<RunMode> parse_run_mode(const std::string& text);
const char* run_mode_name(RunMode mode);
/// The database options of a mode.
DatabaseOptions database_options(RunMode mode);

/// Runs each record's SQL through Connection::query and converts the result to values.
class KestrelEngine : public Engine {
 public:
  explicit KestrelEngine(const DatabaseOptions& options);
  EngineResult execute(const std::string& sql) override;

 private:
  std::unique_ptr<Database> database_;
  std::unique_ptr<Connection> connection_;
};

}  // namespace kestrel::slt
