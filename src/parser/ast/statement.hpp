#pragma once
/// The base of statements and the query statement. DDL/DML statements are in ddl_statement.hpp, the others
/// (COPY, EXPLAIN, SET, RESET, SHOW, DESCRIBE) in utility_statement.hpp.

#include <cstdint>
#include <memory>

#include "parser/ast/query.hpp"

#include "parser/ast/node_casts.hpp"

namespace kestrel::ast {

/// Which node a Statement is.
enum class StatementKind : uint8_t {
  kQuery,          ///< QueryStatement: SELECT, WITH, VALUES, (query)
  kCreateTable,    ///< CreateTableStatement
  kCreateTableAs,  ///< CreateTableAsStatement
  kCreateView,     ///< CreateViewStatement
  kCreateIndex,    ///< CreateIndexStatement
  kDrop,           ///< DropStatement
  kInsert,         ///< InsertStatement
  kUpdate,         ///< UpdateStatement
  kDelete,         ///< DeleteStatement
  kCopy,           ///< CopyStatement
  kExplain,        ///< ExplainStatement
  kSet,            ///< SetStatement
  kReset,          ///< ResetStatement
  kShow,           ///< ShowStatement
  kDescribe,       ///< DescribeStatement
};

/// Lower-case name ("create_table"), for messages and tests.
const char* statement_kind_name(StatementKind kind);

/// Base of statements.
struct Statement : NodeCasts<Statement> {
  Statement(StatementKind kind_of_node, SourcePosition first_token) : kind(kind_of_node), position(first_token) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  const StatementKind kind;
  /// The first token.
  SourcePosition position;
  /// Byte offset just past the statement's last token (the `;` excluded): the statement's text is
  /// sql.substr(position.offset, end_offset - position.offset).
  uint32_t end_offset = 0;
};

using StatementPtr = std::unique_ptr<Statement>;

/// A query run for its rows.
struct QueryStatement final : Statement {
  static constexpr StatementKind kKind = StatementKind::kQuery;
  explicit QueryStatement(SourcePosition pos) : Statement(kKind, pos) {}

  QueryPtr query;
};

}  // namespace kestrel::ast
