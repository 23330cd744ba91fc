#include "kestrel_engine.hpp"

#include <exception>

#include "common/error.hpp"

namespace kestrel::slt {

std::optional<RunMode> parse_run_mode(const std::string& text) {
  if (text == "cpu") return RunMode::kCpu;
  if (text == "gpu") return RunMode::kGpu;
  if (text == "gpu-fallback") return RunMode::kGpuFallback;
  return std::nullopt;
}

const char* run_mode_name(RunMode mode) {
  switch (mode) {
    case RunMode::kCpu: return "cpu";
    case RunMode::kGpu: return "gpu";
    case RunMode::kGpuFallback: return "gpu-fallback";
  }
  return "?";
}

DatabaseOptions database_options(RunMode mode) {
  DatabaseOptions options;
  options.device = mode == RunMode::kCpu ? DeviceChoice::kCpu : DeviceChoice::kGpu;
  options.gpu_fallback = mode == RunMode::kGpuFallback;
  return options;
}

KestrelEngine::KestrelEngine(const DatabaseOptions& options)
    : database_(std::make_unique<Database>(options)), connection_(std::make_unique<Connection>(*database_)) {}

EngineResult KestrelEngine::execute(const std::string& sql) {
  try {
    // A record normally holds one statement; when it holds several, all run and the last one's result counts.
    auto statements = Connection::split_statements(sql);
    if (statements.empty()) statements.emplace_back(sql, 1);
    QueryResult result;
    for (const auto& [text, line] : statements) result = connection_->query(text);
    EngineResult out;
    if (!result.has_rows()) return out;
    out.column_count = result.schema->size();
    out.rows.reserve(result.row_count());
    for (const auto& batch : result.batches) {
      for (size_t r = 0; r < batch.num_rows(); ++r) {
        std::vector<Value> row;
        row.reserve(out.column_count);
        for (size_t c = 0; c < out.column_count; ++c) row.push_back(batch.column(c)->value_at(r));
        out.rows.push_back(std::move(row));
      }
    }
    return out;
  } catch (const Error& e) {
    return EngineResult::failure(e.what(), category_name(e.category()));
  } catch (const std::exception& e) {
    return EngineResult::failure(std::string("unexpected exception: ") + e.what());
  }
}

}  // namespace kestrel::slt
