#pragma once
/// The CPU kernel families of exec/expr, called by the evaluator's dispatch (evaluate.cpp). Each takes the
/// bound node (for its function, result type and position), the evaluated arguments (plain, not dictionary,
/// unless noted) and the number of rows, and returns the result as an operand (constant when every argument
/// was constant).

#include <vector>

#include "exec/expr/kernel_util.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

/// + - * / % and unary - on integers, REAL/DOUBLE and DECIMAL.
Operand arithmetic_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// = <> < <= > >= IS [NOT] DISTINCT FROM on any type (both sides of one type).
Operand comparison_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Compares two operands of one type with `f` (kEqual .. kIsNotDistinctFrom); used by IN lists too.
Operand compare_operands(plan::ScalarFunction f, const Operand& a, const Operand& b, size_t rows, EvalContext& ctx);
/// ||, length, upper, lower, trims, substring, position, starts_with, replace.
Operand string_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's lpad, rpad, reverse, split_part, chr, codepoint, ends_with, levenshtein_distance, hamming_distance
/// (presto_string_funcs.cpp).
Operand presto_string_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's regexp_like, regexp_extract, regexp_replace, regexp_count, regexp_position (regexp_funcs.cpp).
Operand regexp_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's url_extract_ functions (url_funcs.cpp).
Operand url_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's from_unixtime, to_unixtime, date_format, date_parse, format_datetime (presto_datetime_funcs.cpp).
Operand presto_datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows,
                               EvalContext& ctx);
/// Presto's JSON functions over JSON text (json_funcs.cpp).
/// TIMESTAMP WITH TIME ZONE: with_timezone (and the casts to the type), at_timezone, timezone_hour/minute,
/// from_unixtime with a zone, from_iso8601_timestamp and the helpers the binder's rewrites use (kTzLocal, ...).
Operand timestamp_tz_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand json_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's width_bucket, random, trigonometric, is_nan/is_finite/is_infinite and bitwise functions
/// (presto_math_funcs.cpp). random's `rows` are the batch's rows even when its
/// arguments are constant, and its result is never constant.
Operand presto_math_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// The distribution functions, wilson_interval_*, from_base, to_base, the bit shifts, replace_first, strrpos,
/// trail, url_encode / url_decode, from_iso8601_date, to_iso8601, to_milliseconds, parse_duration and
/// year_of_week (presto_more_funcs.cpp).
Operand presto_more_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// Presto's binary functions: to_utf8, from_utf8, hex and base64, digests, xxhash64, crc32, the big-endian
/// conversions, and reverse, lpad and rpad of VARBINARY (binary_funcs.cpp).
Operand binary_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// bit_length, jarowinkler_similarity, longest_common_prefix, word_stem, normalize and key_sampling_percent
/// (string_extra_funcs.cpp).
Operand string_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// split_to_map, split_to_multimap, regexp_extract_all and regexp_split (split_extra_funcs.cpp).
Operand split_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// to_ieee754_32/64, from_ieee754_32/64, spooky_hash_v2_32/64 and hmac_* (binary_extra_funcs.cpp).
Operand binary_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// remainder and cosine_similarity (math_extra_funcs.cpp).
Operand math_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// parse_datetime with a Joda-Time pattern (joda_parse.cpp).
Operand parse_datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// LIKE and NOT LIKE.
Operand like_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// abs, round, floor, ceil, sign, sqrt, power, ln, log10, exp, truncate, cbrt, log2.
Operand math_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// extract, date_trunc, date/timestamp/interval arithmetic, date_add, date_diff, last_day_of_month.
Operand datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// coalesce, nullif, greatest, least.
Operand conditional_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);

/// CAST of `in` to `target`; `rows` as for the other kernels.
Operand cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx);

/// n-ary AND (`is_and`) or OR with three-valued logic over BOOLEAN operands.
Operand logic_kernel(bool is_and, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// NOT of a BOOLEAN operand.
Operand not_kernel(const Operand& arg, size_t rows, EvalContext& ctx);
/// IS NULL (`want_null`) or IS NOT NULL; never NULL itself.
Operand is_null_kernel(const Operand& arg, bool want_null, size_t rows, EvalContext& ctx);

/// A plain (decoded) copy of a dictionary operand; others are returned as they are.
Operand plain(const Operand& operand, EvalContext& ctx);

/// Raises the InvalidInput of a failed row: `division by zero` for code 1, `<TYPE> overflow in <a> <op> <b>`
/// for code 2.
[[noreturn]] void raise_arithmetic_error(int code, const LogicalType& type, const char* op, const std::string& a,
                                         const std::string& b);

}  // namespace kestrel::exec
