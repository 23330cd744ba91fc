#pragma once
/// The base of every expression node of the Kestrel AST. An expression is a tree of nodes owned through ExprPtr;
/// each node says what it is with `kind` and is reached with `as<T>()`, so a walker is a switch on the kind.

#include <cstdint>
#include <memory>
#include <vector>

#include "common/check.hpp"
#include "common/error.hpp"

#include "parser/ast/node_casts.hpp"

namespace kestrel::ast {

struct Query;
/// A query owned by the expression or statement that contains it (sub-queries, CTEs, view bodies).
using QueryPtr = std::unique_ptr<Query>;

/// Which node an Expr is. Each node type below names its kind in `kKind`.
enum class ExprKind : uint8_t {
  kColumnRef,             ///< ColumnRef: `a`, `t.a`, `s.t.a`
  kStar,                  ///< Star: `*` or `t.*` (select lists and count(*)-like arguments)
  kLiteral,               ///< Literal: numbers, strings, TRUE/FALSE, NULL
  kTypedLiteral,          ///< TypedLiteral: DATE '1998-12-01', TIMESTAMP '...', any `type 'text'`
  kIntervalLiteral,       ///< IntervalLiteral: INTERVAL '3' DAY, INTERVAL '2 days'
  kParameter,             ///< Parameter: `?` or `$1`
  kUnaryOp,               ///< UnaryOp: -x, +x, NOT x
  kBinaryOp,              ///< BinaryOp: arithmetic, `||` and comparisons
  kConjunction,           ///< Conjunction: a AND b AND c, a OR b (n-ary)
  kIsTest,                ///< IsTest: x IS [NOT] NULL / TRUE / FALSE / UNKNOWN
  kIsDistinctFrom,        ///< IsDistinctFrom: x IS [NOT] DISTINCT FROM y
  kBetween,               ///< Between: x [NOT] BETWEEN a AND b
  kInList,                ///< InList: x [NOT] IN (a, b, c)
  kLike,                  ///< Like: x [NOT] LIKE / ILIKE p [ESCAPE e]
  kScalarSubquery,        ///< ScalarSubquery: (SELECT ...)
  kExists,                ///< Exists: EXISTS (SELECT ...)
  kInSubquery,            ///< InSubquery: x [NOT] IN (SELECT ...)
  kQuantifiedComparison,  ///< QuantifiedComparison: x > ALL (SELECT ...), x = ANY (SELECT ...)
  kCase,                  ///< Case: simple and searched CASE
  kCast,                  ///< Cast: CAST(x AS t), TRY_CAST(x AS t), x::t
  kExtract,               ///< Extract: EXTRACT(field FROM x)
  kFunctionCall,          ///< FunctionCall: f(args), count(*), sum(DISTINCT x); also SUBSTRING/TRIM/POSITION forms
};

/// Lower-case name of a kind ("column_ref"), for messages and tests.
const char* expr_kind_name(ExprKind kind);

/// Base of all expression nodes. Nodes are created by the parser and owned by their parent; they are not copyable
/// (use ast::clone). Fields are public: the AST is plain data that the binder reads.
struct Expr : NodeCasts<Expr> {
  Expr(ExprKind kind_of_node, SourcePosition first_token)
      : kind(kind_of_node), position(first_token), operator_position(first_token) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  /// What this node is; decides the type `as<T>()` may return.
  const ExprKind kind;
  /// Where the expression starts in the SQL text (its first token).
  SourcePosition position;
  /// For operator expressions (binary, IS, BETWEEN, IN, LIKE, `::`, ...) the operator's token, where a type error
  /// about the operator is best reported; equal to `position` for other nodes.
  SourcePosition operator_position;
};

/// An owned expression. Optional parts of a node (an ELSE, an ESCAPE) are null ExprPtrs.
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

}  // namespace kestrel::ast
