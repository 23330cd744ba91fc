#pragma once
/// FROM-clause items: tables, sub-queries, table functions and joins.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parser/ast/expr.hpp"

#include "parser/ast/node_casts.hpp"

namespace kestrel::ast {

/// A dotted object name: `lineitem`, `tpch.lineitem`, `cat.tpch.lineitem`. Parts are folded to lower case unless
/// quoted.
struct QualifiedName {
  std::vector<std::string> parts;
  /// The first part's token.
  SourcePosition position;

  /// The object's own name (last part).
  const std::string& name() const { return parts.back(); }
  /// "tpch.lineitem" (parts joined with dots, no quoting), for messages.
  std::string to_string() const;
};

/// `[AS] name [(c1, c2, ...)]` after a FROM item.
struct TableAlias {
  std::string name;
  /// Column aliases; empty when not given.
  std::vector<std::string> columns;
  SourcePosition position;
};

/// Which node a TableRef is.
enum class TableRefKind : uint8_t {
  kBaseTable,      ///< BaseTableRef: a table, view or CTE by name
  kSubquery,       ///< SubqueryRef: (SELECT ...) or (VALUES ...) with an alias
  kTableFunction,  ///< TableFunctionRef: read_parquet('x/*.parquet'), read_csv('f', delim = '|')
  kJoin,           ///< JoinRef: a JOIN b ON ... (explicit joins; comma joins are Select::from entries)
};

/// Base of FROM items.
struct TableRef : NodeCasts<TableRef> {
  TableRef(TableRefKind kind_of_node, SourcePosition first_token) : kind(kind_of_node), position(first_token) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

  const TableRefKind kind;
  /// The item's first token.
  SourcePosition position;
  /// The alias; for a JoinRef only when a parenthesised join was given one: (a JOIN b) AS j.
  std::optional<TableAlias> alias;
};

using TableRefPtr = std::unique_ptr<TableRef>;

/// A table, view or CTE name.
struct BaseTableRef final : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kBaseTable;
  explicit BaseTableRef(SourcePosition pos) : TableRef(kKind, pos) {}

  QualifiedName name;
};

/// A parenthesised query in FROM: `(SELECT ...) AS t (a, b)`, `(VALUES (1, 2)) v(x, y)`. The alias is optional
/// in the syntax (as in newer PostgreSQL); the binder may name it.
struct SubqueryRef final : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kSubquery;
  explicit SubqueryRef(SourcePosition pos);
  ~SubqueryRef() override;

  QueryPtr query;
  /// LATERAL (SELECT ...): may reference earlier FROM items.
  bool lateral = false;
};

/// A `name => value` or `name = value` argument of a table function.
struct NamedArgument {
  /// Lower-case unless quoted.
  std::string name;
  ExprPtr value;
  SourcePosition position;
};

/// A table function call in FROM: read_parquet('data/*.parquet'), read_csv('f.csv', delim = '|', header = true).
struct TableFunctionRef final : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kTableFunction;
  explicit TableFunctionRef(SourcePosition pos) : TableRef(kKind, pos) {}

  /// The function name, lower-case unless quoted.
  std::string name;
  /// Positional arguments, in order; all of them come before the named ones.
  ExprList args;
  std::vector<NamedArgument> named_args;
  /// UNNEST(...) WITH ORDINALITY: a last BIGINT column numbering each row's elements from 1.
  bool ordinality = false;
};

/// The kinds of explicit joins.
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross };

/// Upper-case SQL spelling: "INNER", "LEFT", "RIGHT", "FULL", "CROSS".
const char* join_type_name(JoinType type);

/// `left [NATURAL] {INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER] | CROSS} JOIN right [ON c | USING (...)]`.
/// Joins nest to the left: a JOIN b JOIN c is JoinRef(JoinRef(a, b), c). A CROSS or NATURAL join has neither
/// `condition` nor `using_columns`; an INNER/outer join has exactly one of them.
struct JoinRef final : TableRef {
  static constexpr TableRefKind kKind = TableRefKind::kJoin;
  explicit JoinRef(SourcePosition pos) : TableRef(kKind, pos) {}

  JoinType join_type = JoinType::kInner;
  bool natural = false;
  TableRefPtr left;
  TableRefPtr right;
  /// ON condition; null when absent.
  ExprPtr condition;
  /// USING (a, b) columns; empty when absent.
  std::vector<std::string> using_columns;
  /// The JOIN keyword's first token (INNER, LEFT, ... or JOIN), where join errors are reported.
  SourcePosition join_position;
};

}  // namespace kestrel::ast
