#pragma once
/// Utility statements: COPY, EXPLAIN, SET, RESET, SHOW and DESCRIBE.

#include <string>
#include <vector>

#include "parser/ast/statement.hpp"

namespace kestrel::ast {

/// The value of a setting (SET) or an option (COPY ... (FORMAT parquet)).
struct OptionValue {
  enum class Kind : uint8_t {
    kNone,     ///< no value: an option given by its name alone, like (HEADER)
    kWord,     ///< a bare word or keyword, lower-case: parquet, zstd, on, true, auto
    kString,   ///< a quoted string, unescaped
    kNumber,   ///< a number as written, with its sign: 4, -1, 0.5
    kDefault,  ///< DEFAULT (SET x TO DEFAULT resets the setting)
  };
  Kind kind = Kind::kNone;
  std::string text;
  SourcePosition position;
};

/// One `NAME value` entry of a COPY option list.
struct CopyOption {
  /// Lower-case: "format", "compression", "header", "delimiter".
  std::string name;
  OptionValue value;
  SourcePosition position;
};

/// `COPY table [(c1, c2)] TO|FROM 'file' [[WITH] (options)]` or `COPY (query) TO 'file' [(options)]`.
/// Exactly one of `table` (non-empty parts) and `query` is set; FROM only with a table.
struct CopyStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kCopy;
  explicit CopyStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName table;
  std::vector<std::string> columns;
  QueryPtr query;
  /// TO writes the file; FROM reads it into the table.
  bool to = true;
  /// The file path, unescaped.
  std::string file;
  std::vector<CopyOption> options;
};

/// `EXPLAIN [ANALYZE] [VERBOSE] statement`, also `EXPLAIN (ANALYZE, VERBOSE) statement`.
struct ExplainStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kExplain;
  explicit ExplainStatement(SourcePosition pos) : Statement(kKind, pos) {}

  bool analyze = false;
  bool verbose = false;
  StatementPtr statement;
};

/// `SET [SESSION | LOCAL] name {= | TO} value`. The name is lower-case; dotted names keep their dots.
struct SetStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kSet;
  explicit SetStatement(SourcePosition pos) : Statement(kKind, pos) {}

  std::string name;
  OptionValue value;
  /// SET LOCAL
  bool local = false;
};

/// `RESET name` or `RESET ALL`.
struct ResetStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kReset;
  explicit ResetStatement(SourcePosition pos) : Statement(kKind, pos) {}

  /// Empty for RESET ALL.
  std::string name;
  bool all = false;
};

/// What SHOW shows.
enum class ShowKind : uint8_t {
  kSetting,  ///< SHOW name
  kAll,      ///< SHOW ALL: every setting
  kTables,   ///< SHOW TABLES [FROM schema]
  kSchemas,  ///< SHOW SCHEMAS [FROM catalog]
  kCatalogs, ///< SHOW CATALOGS
  kColumns,  ///< SHOW COLUMNS FROM table
};

/// `SHOW name`, `SHOW ALL`, and the Trino listings `SHOW TABLES`, `SHOW SCHEMAS`, `SHOW CATALOGS`,
/// `SHOW COLUMNS FROM t`.
struct ShowStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kShow;
  explicit ShowStatement(SourcePosition pos) : Statement(kKind, pos) {}

  ShowKind show = ShowKind::kSetting;
  /// The setting's lower-case name for kSetting; empty otherwise.
  std::string name;
  /// What FROM (or IN) names: the schema of SHOW TABLES, the catalog of SHOW SCHEMAS, the table of SHOW COLUMNS;
  /// no parts when not given.
  QualifiedName from;
};

/// `DESCRIBE table` (its columns) or `DESCRIBE query` (the result columns). Exactly one of `table` (non-empty
/// parts) and `query` is set.
struct DescribeStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kDescribe;
  explicit DescribeStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName table;
  QueryPtr query;
};

}  // namespace kestrel::ast
