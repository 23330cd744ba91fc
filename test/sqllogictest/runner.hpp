#pragma once
/// The sqllogictest runner: executes parsed records against an engine, compares and counts. The engine is an
/// interface so the runner's logic can be tested with a fake; the real one wraps a kestrel::Database.
///
/// A `statement error` record passes when its SQL fails with an error that matches its expected text, which is
/// written either on the header line (`statement error division by zero`) or after a `----` line (DuckDB's form, one
/// or more lines). Both forms follow one rule (error_matches): the text matches when it occurs in the error message
/// as it is (a case-sensitive substring; no regular expressions, a backslash is just a backslash), or when it starts
/// with the error's category name (`Binder Error`, or DuckDB's `Catalog Error` and the like, in any case), optionally
/// followed by `:` and a substring of the message. A bare `statement error` (SQLite's form) takes any error.
/// `query error` is rejected as an invalid record: a query that must fail is written as `statement error`.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "record_parser.hpp"

namespace kestrel::slt {

/// What an engine returns for one SQL text.
struct EngineResult {
  bool ok = true;
  std::string error_message;   ///< the full error text when !ok
  std::string error_category;  ///< the error's category name ("Binder Error", ...); empty when unknown
  size_t column_count = 0;     ///< 0 for statements that return no rows
  std::vector<std::vector<Value>> rows;

  static EngineResult failure(std::string message, std::string category = {});
};

/// Something that runs SQL: Kestrel in the real runner, a table of canned answers in the unit tests.
class Engine {
 public:
  virtual ~Engine() = default;
  /// Runs the SQL of one record. Reports errors in the result; exceptions are treated as errors too.
  virtual EngineResult execute(const std::string& sql) = 0;
};

/// Makes a fresh engine for each file (a fresh database: files do not see each other's tables).
using EngineFactory = std::function<std::unique_ptr<Engine>()>;

/// Settings of a run.
struct RunnerOptions {
  /// Engine names that `onlyif` accepts and `skipif` refuses. Kestrel runs as `postgresql`.
  std::set<std::string> engine_names{"postgresql"};
  /// Features that satisfy `require <feature>`: the mode name (`cpu`, `gpu`, `gpu-fallback`) and `gpu` in GPU modes.
  std::set<std::string> features;
  bool verbose = false;
  bool stop_on_failure = false;
};

/// Record counts of a run.
struct RunStats {
  size_t passed = 0;
  size_t failed = 0;
  size_t skipped = 0;
};

/// The closing line of a run: `N passed, N failed, N skipped`.
std::string summary_line(const RunStats& stats);

/// Runs files one after another and accumulates the counts; failures are printed to `out` as they happen.
class Runner {
 public:
  Runner(EngineFactory factory, RunnerOptions options, std::ostream& out);

  /// Runs every record of `file` on a fresh engine.
  void run_file(const TestFile& file);
  /// Counts every runnable record of `file` as skipped without running anything.
  void skip_file(const TestFile& file);
  /// Counts a file that could not be read or parsed at all as one failure and prints why.
  void fail_file(const std::string& path, const std::string& reason);

  const RunStats& stats() const { return stats_; }
  /// True once a failure happened with stop_on_failure set; the caller should run no more files.
  bool stopped() const { return stopped_; }

 private:
  /// Per-file state that directives change.
  struct FileState {
    int64_t hash_threshold = 0;
    bool skipping = false;  ///< inside `mode skip`
  };

  bool conditions_allow(const Record& record) const;
  void run_statement(const TestFile& file, const Record& record, Engine& engine);
  void run_query(const TestFile& file, const Record& record, Engine& engine, const FileState& state);
  void report_failure(const TestFile& file, const Record& record, const std::string& reason,
                      const std::vector<std::string>& expected, const std::vector<std::string>& actual);
  void pass() { ++stats_.passed; }
  /// Counts the runnable records of `file` from index `from` on as skipped.
  void skip_rest(const TestFile& file, size_t from);

  EngineFactory factory_;
  RunnerOptions options_;
  std::ostream& out_;
  RunStats stats_;
  bool stopped_ = false;
};

/// Expands the paths given on the command line: a file is taken as it is; a folder is searched recursively for
/// `*.test` (and `*.test_slow` when `include_slow`), in sorted order. Paths that do not exist go to `missing`.
std::vector<std::string> collect_test_files(const std::vector<std::string>& paths, bool include_slow,
                                            std::vector<std::string>* missing);

}  // namespace kestrel::slt
