#pragma once
/// ORDER BY keys, of queries, of window specifications and of ordered aggregates (`string_agg(x, ',' ORDER BY
/// y)`, `... WITHIN GROUP (ORDER BY x)`).

#include <cstdint>

#include "parser/ast/expr.hpp"

namespace kestrel::ast {

enum class SortDirection : uint8_t { kAscending, kDescending };
/// kDefault: not written (PostgreSQL puts NULLs last ascending and first descending).
enum class NullOrder : uint8_t { kDefault, kNullsFirst, kNullsLast };

/// One ORDER BY key. In a query's ORDER BY an integer Literal is an ordinal and a bare name may be a select alias
/// (binder's job); in an aggregate's ORDER BY it is an expression over the aggregate's input.
struct OrderItem {
  ExprPtr expr;
  SortDirection direction = SortDirection::kAscending;
  NullOrder nulls = NullOrder::kDefault;
};

}  // namespace kestrel::ast
