#include "runner.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <ostream>

#include "result_compare.hpp"

namespace kestrel::slt {

namespace {

/// Splits text into lines for a report.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

void print_block(std::ostream& out, const char* title, const std::vector<std::string>& lines) {
  out << "  " << title << ":";
  if (lines.empty()) {
    out << " (nothing)\n";
    return;
  }
  out << "\n";
  for (const auto& line : lines) out << "    " << line << "\n";
}

std::string record_title(const Record& record) {
  switch (record.kind) {
    case RecordKind::kStatement: return record.expect_error ? "statement error" : "statement ok";
    case RecordKind::kQuery: {
      std::string title = "query " + record.types + " " + sort_mode_name(record.sort_mode);
      if (!record.label.empty()) title += " " + record.label;
      return title;
    }
    case RecordKind::kHashThreshold: return "hash-threshold " + std::to_string(record.hash_threshold);
    case RecordKind::kHalt: return "halt";
    case RecordKind::kMode: return "mode " + record.argument;
    case RecordKind::kRequire: return "require " + record.argument;
    case RecordKind::kInvalid: return "invalid record";
  }
  return "?";
}

/// Runs `sql` on `engine`, turning an escaping exception into an error result.
EngineResult execute_guarded(Engine& engine, const std::string& sql) {
  try {
    return engine.execute(sql);
  } catch (const std::exception& e) {
    return EngineResult::failure(e.what());
  }
}

}  // namespace

EngineResult EngineResult::failure(std::string message, std::string category) {
  EngineResult result;
  result.ok = false;
  result.error_message = std::move(message);
  result.error_category = std::move(category);
  return result;
}

std::string summary_line(const RunStats& stats) {
  return std::to_string(stats.passed) + " passed, " + std::to_string(stats.failed) + " failed, " +
         std::to_string(stats.skipped) + " skipped";
}

Runner::Runner(EngineFactory factory, RunnerOptions options, std::ostream& out)
    : factory_(std::move(factory)), options_(std::move(options)), out_(out) {}

bool Runner::conditions_allow(const Record& record) const {
  for (const auto& condition : record.conditions) {
    bool ours = options_.engine_names.count(condition.engine) > 0;
    if (condition.only_if != ours) return false;
  }
  return true;
}

void Runner::skip_rest(const TestFile& file, size_t from) {
  for (size_t k = from; k < file.records.size(); ++k) {
    RecordKind kind = file.records[k].kind;
    if (kind == RecordKind::kStatement || kind == RecordKind::kQuery) ++stats_.skipped;
  }
}

void Runner::skip_file(const TestFile& file) { skip_rest(file, 0); }

void Runner::fail_file(const std::string& path, const std::string& reason) {
  ++stats_.failed;
  out_ << "FAILED " << path << ": " << reason << "\n";
  if (options_.stop_on_failure) stopped_ = true;
}

void Runner::report_failure(const TestFile& file, const Record& record, const std::string& reason,
                            const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
  ++stats_.failed;
  out_ << "FAILED " << file.path << ":" << record.line << ": " << record_title(record) << ": " << reason << "\n";
  if (!record.sql.empty()) print_block(out_, "sql", lines_of(record.sql));
  print_block(out_, "expected", expected);
  print_block(out_, "actual", actual);
  out_ << std::flush;
  if (options_.stop_on_failure) stopped_ = true;
}

void Runner::run_file(const TestFile& file) {
  std::unique_ptr<Engine> engine;
  try {
    engine = factory_();
  } catch (const std::exception& e) {
    size_t records = count_runnable_records(file);
    stats_.failed += records;
    out_ << "FAILED " << file.path << ": cannot open a database: " << e.what() << " (" << records
         << " records failed)\n";
    if (options_.stop_on_failure) stopped_ = true;
    return;
  }
  FileState state;
  for (size_t k = 0; k < file.records.size() && !stopped_; ++k) {
    const Record& record = file.records[k];
    bool runnable = record.kind == RecordKind::kStatement || record.kind == RecordKind::kQuery;
    if (!conditions_allow(record) || (runnable && state.skipping)) {
      if (runnable) ++stats_.skipped;
      continue;
    }
    if (options_.verbose) {
      out_ << file.path << ":" << record.line << ": " << record_title(record);
      if (!record.sql.empty()) out_ << ": " << lines_of(record.sql).front();
      out_ << "\n" << std::flush;
    }
    switch (record.kind) {
      case RecordKind::kStatement: run_statement(file, record, *engine); break;
      case RecordKind::kQuery: run_query(file, record, *engine, state); break;
      case RecordKind::kHashThreshold: state.hash_threshold = record.hash_threshold; break;
      case RecordKind::kMode:
        if (record.argument == "skip") state.skipping = true;
        if (record.argument == "unskip") state.skipping = false;
        break;
      case RecordKind::kHalt:
        if (options_.verbose) out_ << file.path << ":" << record.line << ": halt: the rest of the file is skipped\n";
        skip_rest(file, k + 1);
        return;
      case RecordKind::kRequire:
        if (options_.features.count(record.argument) == 0) {
          size_t before = stats_.skipped;
          skip_rest(file, k + 1);
          out_ << file.path << ":" << record.line << ": require " << record.argument
               << ": not available in this run, " << (stats_.skipped - before) << " records skipped\n";
          return;
        }
        break;
      case RecordKind::kInvalid: report_failure(file, record, "cannot parse: " + record.error, {}, {}); break;
    }
  }
}

void Runner::run_statement(const TestFile& file, const Record& record, Engine& engine) {
  EngineResult result = execute_guarded(engine, record.sql);
  if (!record.expect_error) {
    if (result.ok) return pass();
    return report_failure(file, record, "the statement failed", {"ok"}, lines_of(result.error_message));
  }
  std::vector<std::string> expected{record.expected_error.empty() ? "an error" : record.expected_error};
  if (result.ok) return report_failure(file, record, "the statement succeeded but an error was expected", expected,
                                       {"ok"});
  if (error_matches(record.expected_error, result.error_message, result.error_category)) return pass();
  report_failure(file, record, "the error message does not match", expected, lines_of(result.error_message));
}

void Runner::run_query(const TestFile& file, const Record& record, Engine& engine, const FileState& state) {
  EngineResult result = execute_guarded(engine, record.sql);
  if (!result.ok) {
    return report_failure(file, record, "the query failed", record.expected_lines, lines_of(result.error_message));
  }
  TextRows rows;
  rows.reserve(result.rows.size());
  for (const auto& row : result.rows) {
    std::vector<std::string> text;
    text.reserve(row.size());
    for (size_t c = 0; c < row.size(); ++c) {
      text.push_back(render_value(row[c], c < record.types.size() ? record.types[c] : 'T'));
    }
    rows.push_back(std::move(text));
  }
  Comparison comparison = compare_query_result(record, rows, result.column_count, state.hash_threshold);
  if (comparison.ok) return pass();
  report_failure(file, record, comparison.reason, comparison.expected_lines, comparison.actual_lines);
}

std::vector<std::string> collect_test_files(const std::vector<std::string>& paths, bool include_slow,
                                            std::vector<std::string>* missing) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        std::string ext = it->path().extension().string();
        if (ext == ".test" || (include_slow && ext == ".test_slow")) found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, ec)) {
      files.push_back(path);
    } else if (missing) {
      missing->push_back(path);
    }
  }
  return files;
}

}  // namespace kestrel::slt
