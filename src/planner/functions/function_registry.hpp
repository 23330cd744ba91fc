#pragma once
/// SQL names of the built-in scalar functions and operators, mapped to `ScalarFunction`.
///
/// Registered names (case-insensitive), with their argument counts:
///   abs 1, round 1-2, floor 1, ceil/ceiling 1, sign 1, sqrt 1, power/pow 2, ln 1, log10 1, exp 1, mod 2;
///   length/char_length/character_length 1, upper 1, lower 1, trim/ltrim/rtrim 1-2 (btrim = trim),
///   substring/substr 2-3, position 2 (needle, haystack), strpos 2 (haystack, needle: see
///   `function_swaps_arguments`), starts_with 2, replace 3, concat 1+;
///   coalesce 1+, nullif 2, greatest 1+, least 1+;
///   date_trunc 2 (unit, value), extract/date_part 2 (field, value);
///   operators + - * / % (unary - is negate), = <> != < <= > >=, ||, like / not like 2-3;
///   Presto's lpad/rpad 3, reverse 1, split_part 3, chr 1, codepoint 1, truncate 1, cbrt 1, log2 1,
///   date_add 3 (unit, amount, value), date_diff 3 (unit, from, to), last_day_of_month 1.
/// Not registered: aggregates (plan nodes, not expressions), and the Presto names the binder rewrites into other
/// expressions (see `bind_presto_rewrite`): year, month, day, ... as extract; if as CASE; pi() and e() as constants.
/// The operators `+` and `-` map to kAdd/kSubtract; `resolve_scalar_function` turns them into the date and
/// interval variants from the argument types.

#include <optional>
#include <string_view>

#include "planner/expression.hpp"

namespace kestrel::plan {

/// The function an SQL name denotes when called with `arg_count` arguments, or nullopt (unknown name or wrong
/// number of arguments).
std::optional<ScalarFunction> lookup_scalar_function(std::string_view sql_name, size_t arg_count);

/// True when the SQL name takes its first two arguments in the opposite order of the ScalarFunction it maps to:
/// `strpos(haystack, needle)` is `position(needle IN haystack)`. The binder swaps them.
bool function_swaps_arguments(std::string_view sql_name);

/// True when `name` names a scalar function or operator at all (for "did you mean an aggregate" messages).
bool is_scalar_function_name(std::string_view sql_name);

}  // namespace kestrel::plan
