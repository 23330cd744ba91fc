#pragma once
/// Parsing of sqllogictest files (the SQLite format with DuckDB's extensions) into records. The parser knows nothing
/// about Kestrel: it turns text into a list of records that the runner executes, so it can be tested on its own.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::slt {

/// How the rows of a query result are ordered before comparison.
enum class SortMode : uint8_t {
  kNoSort,     ///< compare in the order the engine returned
  kRowSort,    ///< sort rows (compared value by value as text)
  kValueSort,  ///< sort all values individually, ignoring row boundaries
};

const char* sort_mode_name(SortMode mode);

/// What one record of a test file asks for.
enum class RecordKind : uint8_t {
  kStatement,      ///< `statement ok` / `statement error [expected text]`
  kQuery,          ///< `query <types> [sort] [label]`
  kHashThreshold,  ///< `hash-threshold N`
  kHalt,           ///< `halt`: stop running this file
  kMode,           ///< `mode <name>` (`skip` and `unskip` have an effect; others are accepted and ignored)
  kRequire,        ///< `require <feature>`: skip the rest of the file unless the feature is present
  kInvalid,        ///< a record the parser could not understand; the runner reports it as a failure
};

/// A `skipif <engine>` or `onlyif <engine>` line in front of a record.
struct Condition {
  bool only_if = false;  ///< true for onlyif, false for skipif
  std::string engine;
};

/// One record: a directive, a statement or a query with its expected output.
struct Record {
  RecordKind kind = RecordKind::kInvalid;
  uint32_t line = 0;  ///< 1-based line of the record's first line (its conditions included)
  std::vector<Condition> conditions;

  /// kStatement and kQuery: the SQL text, lines joined with '\n'.
  std::string sql;

  /// kStatement: whether the statement must fail, and the expected error text ("" = any error): the rest of the
  /// `statement error` line, or the lines after `----` joined with '\n' (a record that gives both is kInvalid).
  bool expect_error = false;
  std::string expected_error;

  /// kQuery: one type letter per column (I, R, T, B), the sort mode, the optional label.
  std::string types;
  SortMode sort_mode = SortMode::kNoSort;
  std::string label;
  /// kQuery: the lines after `----`, unchanged; either values, rows of tab-separated values or one hash line.
  std::vector<std::string> expected_lines;

  /// kHashThreshold: the threshold. kMode / kRequire: the argument word(s). kInvalid: what is wrong.
  int64_t hash_threshold = 0;
  std::string argument;
  std::string error;
};

/// A parsed file.
struct TestFile {
  std::string path;
  std::vector<Record> records;
};

/// Parses the text of a test file. Never throws on bad input: malformed records become kInvalid records. `loop` /
/// `endloop` blocks are expanded here, with `${var}` replaced in the SQL and the expected output of each copy.
TestFile parse_test_file(std::string_view text, std::string path);

/// Reads and parses a file; throws std::runtime_error when it cannot be read.
TestFile read_test_file(const std::string& path);

/// The number of statement and query records (what the runner counts as passed, failed or skipped).
size_t count_runnable_records(const TestFile& file);

}  // namespace kestrel::slt
