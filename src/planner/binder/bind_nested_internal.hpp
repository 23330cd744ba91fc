#pragma once
/// Helpers shared by the binding of nested values (bind_nested.cpp, bind_nested_functions.cpp, bind_array_more.cpp,
/// bind_map_more.cpp, bind_lambda_more.cpp).

#include <cctype>

#include "planner/binder/expr_binder.hpp"
#include "planner/functions/function_registry.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

/// True for the array, map and lambda functions that bind_nested_function types.
bool is_nested_function(ScalarFunction f);
/// True for the array and map functions of issue 15 that bind_more_nested_function types (bind_array_more.cpp);
/// is_map_more_function: those of them bind_map_more types (bind_map_more.cpp).
bool is_more_nested_function(ScalarFunction f);
bool is_map_more_function(ScalarFunction f);

/// Throws the BinderError of `function` given `got` where it needs `wanted` ("an ARRAY").
[[noreturn]] void wrong_argument(const std::string& function, const std::string& wanted, const Expr& got,
                                 SourcePosition pos);
/// Checks that `e` is an ARRAY (or NULL, made an ARRAY(INTEGER)).
ExprPtr require_array(ExprPtr e, const std::string& function, SourcePosition pos);
/// Checks that `e` is a MAP (or NULL, made a MAP(INTEGER, INTEGER)).
ExprPtr require_map(ExprPtr e, const std::string& function, SourcePosition pos);
/// An array and a value meet at their common element type (contains, array_position, array_remove).
void unify_element(ExprPtr& array, ExprPtr& value, const std::string& function, SourcePosition pos);
/// Two arrays meet at their common element type (array_except, array_union, zip_with, ...).
void unify_arrays(ExprPtr& a, ExprPtr& b, const std::string& function, SourcePosition pos);
/// `e` cast to BIGINT; it must be an integer or NULL (`what` names it in the error: "n", "count").
ExprPtr require_integer(ExprPtr e, const std::string& function, const char* what, SourcePosition pos);
/// The element type to store for `type`: an untyped NULL becomes INTEGER (ARRAY[NULL] is ARRAY(INTEGER)).
LogicalType storable_element(const LogicalType& type);
/// `e` with its position set.
ExprPtr positioned(ExprPtr e, std::optional<SourcePosition> pos);
/// Field `index` (0-based) of the bound ROW value `row`.
ExprPtr row_field(ExprPtr row, size_t index, std::optional<SourcePosition> pos);

}  // namespace kestrel::plan
