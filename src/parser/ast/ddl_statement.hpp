#pragma once
/// Statements that define or change data: CREATE TABLE [AS], CREATE VIEW, CREATE INDEX, DROP, INSERT, UPDATE,
/// DELETE.

#include <optional>
#include <string>
#include <vector>

#include "parser/ast/statement.hpp"
#include "parser/ast/type_name.hpp"
#include "parser/ast/utility_statement.hpp"

namespace kestrel::ast {

/// One column of CREATE TABLE: `name type [NOT NULL | NULL] [DEFAULT e] [PRIMARY KEY] [UNIQUE]`.
struct ColumnDefinition {
  std::string name;
  TypeName type;
  bool not_null = false;
  bool primary_key = false;
  bool unique = false;
  /// DEFAULT expression; null when absent.
  ExprPtr default_value;
  SourcePosition position;
};

/// A table constraint after the columns: PRIMARY KEY (a, b) or UNIQUE (a).
struct TableConstraint {
  enum class Kind : uint8_t { kPrimaryKey, kUnique };
  Kind constraint = Kind::kPrimaryKey;
  std::vector<std::string> columns;
  SourcePosition position;
};

/// `CREATE [OR REPLACE] [TEMP] TABLE [IF NOT EXISTS] name (columns, constraints)`.
struct CreateTableStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateTable;
  explicit CreateTableStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  bool temporary = false;
  std::vector<ColumnDefinition> columns;
  std::vector<TableConstraint> constraints;
};

/// `CREATE [OR REPLACE] [TEMP] TABLE [IF NOT EXISTS] name [(c1, c2)] [WITH (option = value, ...)] AS query`.
struct CreateTableAsStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateTableAs;
  explicit CreateTableAsStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  bool temporary = false;
  /// Column names replacing the query's; empty when not given.
  std::vector<std::string> column_names;
  /// WITH (format = 'kcol', compression = 'zstd', ...): the file format and its writer's options, as for COPY.
  std::vector<CopyOption> options;
  QueryPtr query;
};

/// `CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name [(c1, c2)] AS query`.
struct CreateViewStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateView;
  explicit CreateViewStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  bool temporary = false;
  std::vector<std::string> column_names;
  QueryPtr query;
  /// The query's SQL text exactly as written (for catalogs that store view text).
  std::string query_text;
};

/// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON table (c1, c2)`; accepted so scripts written for other
/// engines run; Kestrel may treat it as a no-op.
struct CreateIndexStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateIndex;
  explicit CreateIndexStatement(SourcePosition pos) : Statement(kKind, pos) {}

  /// Empty when the index is not named.
  std::string name;
  QualifiedName table;
  std::vector<std::string> columns;
  bool unique = false;
  bool if_not_exists = false;
};

/// What DROP removes.
enum class ObjectType : uint8_t { kTable, kView, kIndex };

/// "TABLE", "VIEW", "INDEX".
const char* object_type_name(ObjectType type);

/// `DROP TABLE|VIEW|INDEX [IF EXISTS] name [, name ...] [CASCADE | RESTRICT]`.
struct DropStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kDrop;
  explicit DropStatement(SourcePosition pos) : Statement(kKind, pos) {}

  ObjectType object_type = ObjectType::kTable;
  std::vector<QualifiedName> names;
  bool if_exists = false;
  bool cascade = false;
};

/// `INSERT INTO table [(c1, c2)] {VALUES (...), (...) | query}`. The source is always a Query: VALUES lists are a
/// Query whose body is a Values node.
struct InsertStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kInsert;
  explicit InsertStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName table;
  /// Target columns; empty means all columns in table order.
  std::vector<std::string> columns;
  QueryPtr source;
};

/// One `column = value` of UPDATE ... SET.
struct Assignment {
  std::string column;
  ExprPtr value;
  /// The column name's token.
  SourcePosition position;
};

/// `UPDATE table [[AS] alias] SET c1 = e1 [, c2 = e2 ...] [WHERE condition]`. The values and the condition read
/// the row's old values; rows where the condition is not TRUE keep theirs.
struct UpdateStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kUpdate;
  explicit UpdateStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName table;
  /// The name expressions qualify columns with instead of the table's; absent when not given.
  std::optional<TableAlias> alias;
  std::vector<Assignment> assignments;
  /// Null when absent (every row).
  ExprPtr where;
};

/// `DELETE FROM table [[AS] alias] [WHERE condition]`: removes the rows where the condition is TRUE.
struct DeleteStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kDelete;
  explicit DeleteStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QualifiedName table;
  std::optional<TableAlias> alias;
  /// Null when absent (every row).
  ExprPtr where;
};

}  // namespace kestrel::ast
