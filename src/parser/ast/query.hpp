#pragma once
/// Queries: WITH + a body (SELECT, set operations, VALUES) + ORDER BY + LIMIT/OFFSET.
///
/// Walking a query: `Query` holds the CTEs, the body and the ordering/limit that apply to the whole body. The body
/// is a QueryBody: a `Select` (one SELECT ... FROM ... WHERE ... GROUP BY ... HAVING), a `SetOperation` of two
/// bodies, a `Values` list, or a `ParenthesizedQuery` (a nested Query that has its own WITH, ORDER BY or LIMIT,
/// like `(SELECT ... ORDER BY x LIMIT 1) UNION ...`; a parenthesised query without those is unwrapped to its body).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parser/ast/expr.hpp"
#include "parser/ast/order_item.hpp"
#include "parser/ast/table_ref.hpp"

#include "parser/ast/node_casts.hpp"

namespace kestrel::ast {

/// Which node a QueryBody is.
enum class QueryBodyKind : uint8_t { kSelect, kSetOperation, kValues, kParenthesized };

/// Base of query bodies.
struct QueryBody : NodeCasts<QueryBody> {
  QueryBody(QueryBodyKind kind_of_node, SourcePosition first_token) : kind(kind_of_node), position(first_token) {}
  virtual ~QueryBody() = default;
  QueryBody(const QueryBody&) = delete;
  QueryBody& operator=(const QueryBody&) = delete;

  const QueryBodyKind kind;
  /// The first token (SELECT, VALUES, the left operand's first token, the opening parenthesis).
  SourcePosition position;
};

using QueryBodyPtr = std::unique_ptr<QueryBody>;

/// One entry of a select list: an expression (a Star node for `*` and `t.*`) and its alias.
struct SelectItem {
  ExprPtr expr;
  /// `AS name` or a bare `name`; nullopt when not given.
  std::optional<std::string> alias;
  /// The alias token (meaningful when `alias` is set).
  SourcePosition alias_position;
};

/// `SELECT [ALL | DISTINCT [ON (...)]] items [FROM ...] [WHERE ...] [GROUP BY ...] [HAVING ...]`; GROUP BY elements
/// may be ROLLUP (...), CUBE (...), GROUPING SETS (...) and ().
struct Select final : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kSelect;
  explicit Select(SourcePosition pos) : QueryBody(kKind, pos) {}

  /// SELECT DISTINCT (also true with DISTINCT ON).
  bool distinct = false;
  /// The expressions of DISTINCT ON (...); empty otherwise.
  ExprList distinct_on;
  std::vector<SelectItem> items;
  /// FROM items separated by commas (cross joined); empty without FROM.
  std::vector<TableRefPtr> from;
  /// null when absent.
  ExprPtr where;
  /// GROUP BY expressions as written; an integer Literal is an ordinal and a bare name may be a select alias,
  /// both resolved by the binder.
  ExprList group_by;
  /// GROUP BY ROLLUP / CUBE / GROUPING SETS / (): the grouping sets, each a list of indices into group_by (the
  /// cross product of the GROUP BY elements, expanded by the parser). Empty for a plain GROUP BY, which groups by
  /// all of group_by.
  std::vector<std::vector<size_t>> grouping_sets;
  /// null when absent.
  ExprPtr having;
};

enum class SetOperator : uint8_t { kUnion, kIntersect, kExcept };

/// "UNION", "INTERSECT", "EXCEPT".
const char* set_operator_name(SetOperator op);

/// `left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right`. INTERSECT binds tighter than UNION and EXCEPT, which
/// associate to the left: a UNION b INTERSECT c is a UNION (b INTERSECT c).
struct SetOperation final : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kSetOperation;
  explicit SetOperation(SourcePosition pos) : QueryBody(kKind, pos) {}

  SetOperator op = SetOperator::kUnion;
  /// ALL keeps duplicates; DISTINCT (the default) removes them.
  bool all = false;
  QueryBodyPtr left;
  QueryBodyPtr right;
  /// The operator keyword.
  SourcePosition operator_position;
};

/// `VALUES (a, b), (c, d)`. Every row has the same number of values (checked by the parser).
struct Values final : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kValues;
  explicit Values(SourcePosition pos) : QueryBody(kKind, pos) {}

  std::vector<ExprList> rows;
};

/// A parenthesised query that has its own WITH, ORDER BY or LIMIT, used as an operand of a set operation.
struct ParenthesizedQuery final : QueryBody {
  static constexpr QueryBodyKind kKind = QueryBodyKind::kParenthesized;
  explicit ParenthesizedQuery(SourcePosition pos);
  ~ParenthesizedQuery() override;

  QueryPtr query;
};

/// `name [(c1, c2)] AS (query)` in a WITH clause.
struct CommonTableExpr {
  std::string name;
  /// Column names; empty when not given.
  std::vector<std::string> columns;
  QueryPtr query;
  SourcePosition position;
};

/// A window frame: ROWS or RANGE from UNBOUNDED PRECEDING to CURRENT ROW or UNBOUNDED FOLLOWING (the parser
/// refuses other bounds).
enum class FrameUnit : uint8_t { kRows, kRange };
enum class FrameEnd : uint8_t { kCurrentRow, kUnboundedFollowing };
struct WindowFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameEnd end = FrameEnd::kCurrentRow;
};

/// `OVER ([PARTITION BY ...] [ORDER BY ...] [frame])` of a window function call.
struct WindowSpec {
  ExprList partition_by;
  std::vector<OrderItem> order_by;
  std::optional<WindowFrame> frame;  ///< nullopt: the default frame
};

/// A complete query.
struct Query {
  explicit Query(SourcePosition pos) : position(pos) {}
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  /// The first token (WITH, SELECT, VALUES or an opening parenthesis).
  SourcePosition position;
  /// Non-recursive CTEs, in order; each may reference the ones before it.
  std::vector<CommonTableExpr> ctes;
  QueryBodyPtr body;
  /// ORDER BY of the whole body (for a set operation: of its result).
  std::vector<OrderItem> order_by;
  /// LIMIT n or FETCH FIRST n ROWS ONLY; null when absent (or LIMIT ALL).
  ExprPtr limit;
  /// OFFSET n [ROWS]; null when absent.
  ExprPtr offset;

  /// True when the query is only its body (no WITH, ORDER BY, LIMIT or OFFSET).
  bool is_bare_body() const { return ctes.empty() && order_by.empty() && !limit && !offset; }
};

}  // namespace kestrel::ast
