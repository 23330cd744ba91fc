#pragma once
/// Type resolution of scalar function calls: given a ScalarFunction and the types of its arguments, the result
/// type and the type every argument must be cast to, so that the evaluators (CPU and GPU) see exactly the types
/// they expect (planner/expression.hpp).
///
/// Choices where SQL dialects differ (see also type_rules.hpp for the implicit conversions):
/// - Integer / integer is integer division truncating toward zero (PostgreSQL); integer overflow and division
///   by zero (integers, decimals and floats alike) are runtime errors.
/// - DECIMAL arithmetic follows Presto's precision/scale rules (type_rules.hpp). Add/subtract cast both
///   arguments to the result type; modulo casts both to the result scale; multiply and divide keep their
///   argument types. When s1 + s2 > 38 in a multiplication, the operand scales are reduced first (the larger
///   one first, rounding half away from zero) until s1 + s2 = 38.
/// - Any REAL or DOUBLE operand makes arithmetic floating point (DECIMAL with REAL gives DOUBLE).
/// - DATE +/- INTERVAL is a DATE: the interval's months and days are applied, its time part is rounded down to
///   whole days (TPC-H's `date '1998-12-01' - interval '90' day` stays a DATE; PostgreSQL would give a
///   TIMESTAMP). TIMESTAMP +/- INTERVAL is a TIMESTAMP. DATE +/- integer is a DATE, DATE - DATE an INTEGER count
///   of days, INTERVAL + INTERVAL an INTERVAL. `+` and `-` on these types resolve to the kDate... functions;
///   the integer or interval may stand on either side of `+`.
/// - extract returns BIGINT for every field: `second` is the whole seconds (Presto), `epoch` whole seconds
///   since 1970, `dow` 0 = Sunday (PostgreSQL), `isodow` 1 = Monday, `week` the ISO week.
/// - date_trunc(unit, x) has x's type (DATE stays DATE).
/// - round(DECIMAL(p,s)) -> DECIMAL(p-s+min(s,1), 0); round(DECIMAL(p,s), d) -> DECIMAL(min(38,p+1), s) with the
///   digits past d zeroed (Presto); floor/ceil like round(x); round on integers, REAL and DOUBLE keeps the type.
///   sign(DECIMAL) -> DECIMAL(1,0). sqrt, ln, log10, exp and power take and return DOUBLE.
/// - length and position return BIGINT; substring's start and length are BIGINT.
/// - concat and || cast every non-VARCHAR argument to VARCHAR; the result is NULL when any argument is NULL.
/// - coalesce, greatest, least and nullif cast all arguments to their common super type, which is the result.
/// - An argument of type NULL (an untyped NULL literal) takes the type the other arguments call for, INTEGER
///   for numeric functions with nothing else to go by, VARCHAR for string ones; all-NULL conditionals give
///   VARCHAR.
/// - Presto's functions: lpad/rpad(VARCHAR, BIGINT, VARCHAR), reverse, split_part(VARCHAR, VARCHAR, BIGINT) and
///   chr(BIGINT) give VARCHAR, codepoint INTEGER; cbrt and log2 DOUBLE; truncate keeps a float's or integer's
///   type and gives DECIMAL(max(1, p - s), 0) for DECIMAL(p, s). date_add(unit, BIGINT, x) has x's type,
///   date_diff(unit, x, y) is BIGINT (a DATE against a TIMESTAMP is its midnight), last_day_of_month a DATE.
/// - ends_with and regexp_like give BOOLEAN; levenshtein_distance, hamming_distance, regexp_count and
///   url_extract_port BIGINT; regexp_position INTEGER; regexp_extract, regexp_replace and the other url_extract_
///   functions VARCHAR (group, start and occurrence arguments are BIGINT). from_unixtime takes DOUBLE and gives
///   TIMESTAMP; to_unixtime, date_format and format_datetime take a TIMESTAMP (a DATE is cast to its midnight);
///   date_parse gives TIMESTAMP. width_bucket(DOUBLE, DOUBLE, DOUBLE, BIGINT) is BIGINT. random() is DOUBLE and
///   random(n) has n's integer type. try(x) has x's type.

#include <optional>
#include <string_view>
#include <vector>

#include "common/datetime_ops.hpp"
#include "common/error.hpp"
#include "planner/expression.hpp"

namespace kestrel::plan {

/// The outcome of resolving a call.
struct ResolvedFunction {
  /// The function to build: the requested one, or its variant for the argument types (`+` on DATE and INTERVAL
  /// is kDateAddInterval, `-` on two DATEs kDateDiffDays, unary `-` on an INTERVAL kIntervalNegate).
  ScalarFunction function;
  LogicalType result;
  /// The type each argument must have; the binder casts where the argument's type differs.
  std::vector<LogicalType> arg_types;
};

/// Resolves `f` applied to arguments of types `args`. Throws BinderError (code 42883) naming the function and
/// the argument types, with `pos`, when no signature matches: `no function matches substring(INTEGER, VARCHAR)`,
/// `no operator matches DATE * INTEGER`.
ResolvedFunction resolve_scalar_function(ScalarFunction f, const std::vector<LogicalType>& args,
                                         std::optional<SourcePosition> pos);

/// The field of extract / unit of date_trunc named by a constant argument; throws BinderError (code 22023)
/// `unknown date part 'x'` or `date_trunc does not support unit 'dow'`.
DatePart resolve_date_part(ScalarFunction f, std::string_view name, std::optional<SourcePosition> pos);

/// The unit of date_add / date_diff (`f`) named by a constant argument, for a value of `value_type`: day, week,
/// month, quarter, year, and on a TIMESTAMP also hour, minute, second, millisecond. Throws BinderError (code
/// 22023) `date_add: 'hour' is not a valid DATE unit` otherwise (defined in resolve_presto.cpp).
DatePart resolve_date_add_unit(ScalarFunction f, std::string_view name, const LogicalType& value_type,
                               std::optional<SourcePosition> pos);

}  // namespace kestrel::plan
