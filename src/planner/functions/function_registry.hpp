#pragma once
/// The function registry: every SQL function and operator name Kestrel knows, how the binder builds a call of it,
/// and its documentation. `docs/functions.md` is generated from it (`kestrel --list-functions-markdown`, see
/// function_docs.hpp) and a unit test fails when the two differ, so the documentation cannot drift from the code;
/// another test runs every entry's example and compares the documented result.
///
/// The entries live in one file per family (registry_math.cpp, registry_strings.cpp, registry_datetime.cpp,
/// registry_other.cpp, registry_aggregates.cpp). Names are matched case-insensitively.
/// - kScalar and kOperator entries map to a ScalarFunction with an argument count range; the binder resolves
///   their types in resolve_function.cpp. The operators `+` and `-` map to kAdd/kSubtract, and
///   `resolve_scalar_function` turns them into the date and interval variants from the argument types.
/// - kRewrite entries are bound into other expressions by the binder (bind_presto.cpp, bind_system_table.cpp):
///   year, month, ... as extract; if as CASE; pi() and e() as constants; typeof as a constant; try and try_cast as
///   kTry; current_date, current_timestamp and now() as the statement's start time.
/// - kAggregate and kWindow entries are documentation only: aggregates and window functions are plan nodes,
///   resolved by name in the binder (expr_binder.cpp, presto_aggregates.cpp).

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "planner/expression.hpp"

namespace kestrel::plan {

/// How a registered name is bound.
enum class FunctionKind : uint8_t {
  kScalar,     ///< a kFunction node of `FunctionEntry::function`
  kOperator,   ///< an operator (`+`, `=`, `LIKE`, ...): a kFunction node too, documented apart
  kRewrite,    ///< another expression built by the binder
  kAggregate,  ///< an aggregate function (documentation only)
  kWindow,     ///< a window function (documentation only)
};

/// What docs/functions.md says of one name.
struct FunctionDoc {
  /// One line per form: `regexp_extract(string VARCHAR, pattern VARCHAR[, group BIGINT]) -> VARCHAR`.
  std::string_view signature;
  std::string_view description;
  /// What a NULL argument gives.
  std::string_view nulls;
  /// Text that follows SELECT in an example statement (an expression, or for aggregates an expression and its FROM).
  std::string_view example;
  /// The example's value, printed as `Value::to_string` prints it (NULL as `NULL`); empty when it varies
  /// (random(), current_timestamp), so the examples test only runs it.
  std::string_view result;
};

/// One registered name.
struct FunctionEntry {
  std::string_view name;
  FunctionKind kind;
  ScalarFunction function;  ///< kScalar and kOperator only
  size_t min_args;          ///< kScalar and kOperator only
  size_t max_args;
  /// Set for another name of `alias_of` (ceiling for ceil), whose documentation is that entry's.
  std::string_view alias_of;
  FunctionDoc doc;
};

/// A section of docs/functions.md and the entries it documents.
struct FunctionCategory {
  std::string_view title;
  std::string_view introduction;  ///< a paragraph under the title; may be empty
  std::span<const FunctionEntry> entries;
};

/// Every category, in the order of docs/functions.md.
std::span<const FunctionCategory> function_categories();

/// The function an SQL name denotes when called with `arg_count` arguments, or nullopt (unknown name, a name bound
/// otherwise, or a wrong number of arguments).
std::optional<ScalarFunction> lookup_scalar_function(std::string_view sql_name, size_t arg_count);

/// True when the SQL name takes its first two arguments in the opposite order of the ScalarFunction it maps to:
/// `strpos(haystack, needle)` is `position(needle IN haystack)`. The binder swaps them.
bool function_swaps_arguments(std::string_view sql_name);

/// True when `name` names a scalar function or operator at all (for "does not take N arguments" messages).
bool is_scalar_function_name(std::string_view sql_name);

}  // namespace kestrel::plan
