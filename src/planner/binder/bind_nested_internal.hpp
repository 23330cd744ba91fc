#pragma once
/// Helpers shared by the binding of nested values (bind_nested.cpp, bind_nested_functions.cpp).

#include <cctype>

#include "planner/binder/expr_binder.hpp"
#include "planner/functions/function_registry.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

/// True for the array, map and lambda functions that bind_nested_function types.
bool is_nested_function(ScalarFunction f);
/// The element type to store for `type`: an untyped NULL becomes INTEGER (ARRAY[NULL] is ARRAY(INTEGER)).
LogicalType storable_element(const LogicalType& type);
/// `e` with its position set.
ExprPtr positioned(ExprPtr e, std::optional<SourcePosition> pos);
/// Field `index` (0-based) of the bound ROW value `row`.
ExprPtr row_field(ExprPtr row, size_t index, std::optional<SourcePosition> pos);

}  // namespace kestrel::plan
