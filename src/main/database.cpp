#include "main/database.hpp"

#include <cctype>
#include <chrono>
#include <mutex>

#include "catalog/loaded_table.hpp"
#include "common/check.hpp"
#include "exec/expr/evaluate.hpp"
#include "gpu/device.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/trace_range.hpp"
#include "main/database_state.hpp"
#include "main/statement_runner.hpp"
#include "parser/parser.hpp"
#include "planner/binder/expr_binder.hpp"

namespace kestrel {

const char* device_choice_name(DeviceChoice choice) {
  switch (choice) {
    case DeviceChoice::kCpu: return "cpu";
    case DeviceChoice::kGpu: return "gpu";
    case DeviceChoice::kAuto: return "auto";
  }
  return "?";
}

std::optional<DeviceChoice> parse_device_choice(std::string_view text) {
  if (text == "cpu") return DeviceChoice::kCpu;
  if (text == "gpu") return DeviceChoice::kGpu;
  if (text == "auto") return DeviceChoice::kAuto;
  return std::nullopt;
}

size_t QueryResult::row_count() const {
  size_t n = 0;
  for (const auto& batch : batches) n += batch.num_rows();
  return n;
}

Value QueryResult::value(size_t row, size_t column) const {
  for (const auto& batch : batches) {
    if (row < batch.num_rows()) return batch.column(column)->value_at(row);
    row -= batch.num_rows();
  }
  throw InternalError("QueryResult::value: row out of range");
}

Database::Database(DatabaseOptions options) : options_(std::move(options)), state_(std::make_unique<State>()) {
  // The binder folds constants with the CPU evaluator (the planner layer cannot link it directly).
  static std::once_flag evaluator_set;
  std::call_once(evaluator_set,
                 [] { plan::set_constant_evaluator([](const plan::Expr& e) { return exec::evaluate_constant(e); }); });
  // Startup options are the database's defaults: RESET and RESET ALL in a session go back to them.
  if (options_.threads > 0) state_->settings.set_default("threads", std::to_string(options_.threads));
  if (!options_.gpu_fallback) state_->settings.set_default("gpu_fallback", "false");
  // The host memory limit is the process's (every statement of every connection counts against it).
  gpu::host_memory().set_limit(state_->settings.host_memory_bytes());
  for (const auto& dir : options_.data_dirs) state_->catalog.attach_data_dir(dir, catalog::open_file_table);
  if (options_.restrict_files) {
    std::vector<std::string> roots = options_.data_dirs;
    roots.insert(roots.end(), options_.allowed_dirs.begin(), options_.allowed_dirs.end());
    state_->catalog.file_access().restrict_to(roots);
  }
  if (options_.device == DeviceChoice::kCpu) {
    effective_device_ = DeviceChoice::kCpu;
    return;
  }
  std::string reason;
  auto device = gpu::usable_device(&reason);
  if (device) {
    effective_device_ = DeviceChoice::kGpu;
    state_->gpu = true;
    state_->device_memory = device->total_memory;
    device_note_ = "using " + device->name + "; operators without a GPU implementation " +
                   (options_.gpu_fallback ? "run on the CPU" : "are refused (gpu_fallback is off)");
  } else if (options_.device == DeviceChoice::kGpu) {
    throw InvalidInput("--device gpu: no usable GPU: " + reason);
  } else {
    effective_device_ = DeviceChoice::kCpu;
    device_note_ = "no usable GPU (" + reason + "); running on the CPU";
  }
}

Database::~Database() = default;

Connection::Connection(Database& database)
    : database_(database), session_(std::make_unique<SessionState>(database.state())) {}
Connection::~Connection() = default;

Settings& Connection::settings() { return session_->settings; }

void Connection::set_progress(std::function<void(size_t, size_t, size_t, size_t)> progress) {
  session_->progress = std::move(progress);
}

QueryResult Connection::query(std::string_view sql, bool device_rows) {
  cancel_requested_.store(false);
  auto start = std::chrono::steady_clock::now();
  gpu::TraceRange range(sql);
  auto statement = parse_statement(sql);
  QueryResult result = run_statement(*session_, *statement, cancel_requested_, device_rows);
  result.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<std::pair<std::string, uint32_t>> Connection::split_statements(std::string_view script) {
  std::vector<std::pair<std::string, uint32_t>> out;
  size_t start = 0;
  uint32_t line = 1, start_line = 1;
  auto flush = [&](size_t end) {
    std::string_view text = script.substr(start, end - start);
    // Skip statements that hold only whitespace and comments.
    bool has_code = false;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '-' && i + 1 < text.size() && text[i + 1] == '-') {
        while (i < text.size() && text[i] != '\n') ++i;
      } else if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '*') {
        size_t close = text.find("*/", i + 2);
        i = close == std::string_view::npos ? text.size() : close + 1;
      } else if (!std::isspace(static_cast<unsigned char>(text[i]))) {
        has_code = true;
        break;
      }
    }
    if (has_code) out.emplace_back(std::string(text), start_line);
  };
  size_t i = 0;
  while (i < script.size()) {
    char c = script[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '\'' || c == '"') {
      ++i;
      while (i < script.size()) {
        if (script[i] == '\n') ++line;
        if (script[i] == c) {
          if (i + 1 < script.size() && script[i + 1] == c) {
            i += 2;
            continue;
          }
          break;
        }
        ++i;
      }
      ++i;
    } else if (c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
      while (i < script.size() && script[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < script.size() && script[i + 1] == '*') {
      i += 2;
      while (i < script.size() && !(script[i] == '*' && i + 1 < script.size() && script[i + 1] == '/')) {
        if (script[i] == '\n') ++line;
        ++i;
      }
      i += 2;
    } else if (c == ';') {
      flush(i);
      ++i;
      start = i;
      start_line = line;
    } else {
      ++i;
    }
  }
  if (start < script.size()) flush(script.size());
  // Statements start at their first non-blank line.
  for (auto& [text, first_line] : out) {
    size_t k = 0;
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) {
      if (text[k] == '\n') ++first_line;
      ++k;
    }
    text.erase(0, k);
  }
  return out;
}

}  // namespace kestrel
