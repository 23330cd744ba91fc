#pragma once
/// Bound scalar expressions: the typed, name-resolved expression trees the binder produces and every operator
/// (CPU and GPU) evaluates. After binding, every node's children already have exactly the types its evaluation
/// expects: the binder inserts the casts (see `resolve_function` in planner/functions/).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/types.hpp"
#include "common/value.hpp"

namespace kestrel::plan {

/// Built-in scalar functions and operators. Aggregates are not here (they are plan nodes, not expressions).
enum class ScalarFunction : uint16_t {
  // Arithmetic. Integer overflow and division by zero are InvalidInput errors; DECIMAL is exact.
  kAdd, kSubtract, kMultiply, kDivide, kModulo, kNegate,
  // Comparison (children of equal types after binding). Result BOOLEAN, NULL when an input is NULL.
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  // Never NULL: NULLs compare as equal values.
  kIsDistinctFrom, kIsNotDistinctFrom,
  // Strings.
  kConcat,      ///< a || b (NULL if either is NULL)
  kLike,        ///< (string, pattern[, escape]) with % and _
  kNotLike,
  kLength,      ///< characters (UTF-8 code points)
  kUpper, kLower,
  kTrim, kLTrim, kRTrim,  ///< (string[, characters])
  kSubstring,   ///< (string, start[, length]), 1-based, in characters
  kPosition,    ///< (needle, haystack): 1-based character index, 0 when absent
  kStartsWith,
  kReplace,     ///< (string, from, to)
  // Numbers.
  kAbs, kRound,  ///< round(x[, digits]); half away from zero
  kFloor, kCeil, kSign, kSqrt, kPower, kLn, kLog10, kExp,
  // Dates and times.
  kExtract,     ///< (field as VARCHAR constant, date/timestamp/interval) -> BIGINT (DECIMAL for seconds)
  kDateTrunc,   ///< (unit as VARCHAR constant, date/timestamp) -> same type as the input
  kDateAddInterval,       ///< date/timestamp + interval -> same type (DATE + day/month intervals stays DATE)
  kDateSubtractInterval,  ///< date/timestamp - interval
  kDateAddDays,           ///< date + integer -> DATE
  kDateDiffDays,          ///< date - date -> INTEGER days
  kTimestampDiff,         ///< timestamp - timestamp -> INTERVAL of days and microseconds (no months)
  kIntervalAdd, kIntervalNegate,
  // Conditionals that are plain functions of their arguments.
  kCoalesce, kNullIf, kGreatest, kLeast,
  kDateSubtractDays,      ///< date - integer -> DATE
  // Presto functions (CPU only for now; the GPU evaluator refuses them, so placement falls back to the CPU).
  kLpad, kRpad,  ///< (string, size, padding) in code points; a longer string is cut to `size`
  kReverse,      ///< code points in reverse order
  kSplitPart,    ///< (string, delimiter, index): 1-based field, NULL past the last one
  kChr,          ///< code point -> one-character VARCHAR
  kCodepoint,    ///< one-character VARCHAR -> INTEGER code point
  kTruncate,     ///< DOUBLE/REAL toward zero; DECIMAL(p, s) -> DECIMAL(max(1, p - s), 0)
  kCbrt, kLog2,  ///< DOUBLE -> DOUBLE
  kDateAdd,      ///< (unit as VARCHAR constant, BIGINT amount, date/timestamp) -> same type; months clamp to the end
  kDateDiff,     ///< (unit as VARCHAR constant, from, to) -> BIGINT whole units from `from` to `to` (Joda rules)
  kLastDayOfMonth,  ///< date/timestamp -> DATE of the month's last day
  // Presto functions, second slice (CPU only as well).
  kEndsWith,              ///< (string, suffix) -> BOOLEAN
  kLevenshteinDistance,   ///< (string, string) -> BIGINT edits in code points
  kHammingDistance,       ///< (string, string) of equal length in code points -> BIGINT
  kRegexpLike,            ///< (string, pattern) -> BOOLEAN: RE2 pattern found anywhere in the string
  kRegexpExtract,         ///< (string, pattern[, group]) -> VARCHAR of the first match, NULL without one
  kRegexpReplace,         ///< (string, pattern[, replacement with $N / ${name}]) -> VARCHAR
  kRegexpCount,           ///< (string, pattern) -> BIGINT matches
  kRegexpPosition,        ///< (string, pattern[, start[, occurrence]]) -> INTEGER code point index, -1 if none
  kUrlExtractHost, kUrlExtractPath, kUrlExtractProtocol, kUrlExtractQuery, kUrlExtractFragment,  ///< VARCHAR
  kUrlExtractPort,        ///< (url) -> BIGINT
  kUrlExtractParameter,   ///< (url, name) -> VARCHAR value of the first query parameter `name`
  kFromUnixtime,          ///< DOUBLE seconds since 1970 -> TIMESTAMP (UTC)
  kToUnixtime,            ///< TIMESTAMP -> DOUBLE seconds since 1970
  kDateFormat,            ///< (timestamp, MySQL format) -> VARCHAR
  kDateParse,             ///< (string, MySQL format) -> TIMESTAMP
  kFormatDatetime,        ///< (timestamp, Joda pattern) -> VARCHAR
  kWidthBucket,           ///< (DOUBLE x, DOUBLE bound1, DOUBLE bound2, BIGINT n) -> BIGINT bucket 0..n+1
  kRandom,                ///< () -> DOUBLE in [0, 1); (n) -> integer in [0, n) of n's type. Not deterministic.
  kTry,                   ///< try(x): x, or NULL on the rows where evaluating x raises a data error (InvalidInput)
  // Presto functions, third slice (CPU only as well). JSON values are VARCHAR text (Kestrel has no JSON type).
  kSin, kCos, kTan, kAsin, kAcos, kAtan, kSinh, kCosh, kTanh,  ///< DOUBLE -> DOUBLE
  kAtan2,                 ///< (DOUBLE y, DOUBLE x) -> DOUBLE
  kIsNan, kIsFinite, kIsInfinite,  ///< DOUBLE -> BOOLEAN
  kBitwiseAnd, kBitwiseOr, kBitwiseXor,  ///< (BIGINT, BIGINT) -> BIGINT
  kBitwiseNot,            ///< BIGINT -> BIGINT
  kBitCount,              ///< (BIGINT x, BIGINT bits) -> BIGINT 1 bits of x as a `bits`-bit two's complement
  kJsonExtractScalar,     ///< (json, JSONPath) -> VARCHAR of the scalar there; NULL otherwise or for invalid JSON
  kJsonExtract,           ///< (json, JSONPath) -> the JSON there, compact; NULL when absent or for invalid JSON
  kJsonArrayLength,       ///< json -> BIGINT elements; NULL when not an array
  kJsonSize,              ///< (json, JSONPath) -> BIGINT members of the object or array there, 0 for a scalar
  kJsonArrayGet,          ///< (json, BIGINT index) -> JSON of the element (negative: from the end); NULL outside
  kJsonParse,             ///< VARCHAR -> the JSON it holds, compact; an error when it is not JSON
  kJsonFormat,            ///< json -> VARCHAR, compact; NULL for invalid JSON
  kIsJsonScalar,          ///< json -> BOOLEAN: a number, string, boolean or null
  // Presto functions, fourth slice (CPU only): statistics, bases, shifts, strings, URL, JSON, ISO 8601.
  kNormalCdf,             ///< normal_cdf(DOUBLE mean, DOUBLE sd, DOUBLE v) -> DOUBLE P(N < v)
  kInverseNormalCdf,      ///< inverse_normal_cdf(mean, sd, p) -> DOUBLE
  kCauchyCdf,             ///< cauchy_cdf(median, scale, v) -> DOUBLE
  kInverseCauchyCdf,      ///< inverse_cauchy_cdf(median, scale, p) -> DOUBLE
  kWeibullCdf,            ///< weibull_cdf(a, b, v) -> DOUBLE
  kInverseWeibullCdf,     ///< inverse_weibull_cdf(a, b, p) -> DOUBLE
  kBetaCdf,               ///< beta_cdf(a, b, v) -> DOUBLE
  kInverseBetaCdf,        ///< inverse_beta_cdf(a, b, p) -> DOUBLE
  kChiSquaredCdf,         ///< chi_squared_cdf(df, v) -> DOUBLE
  kInverseChiSquaredCdf,  ///< inverse_chi_squared_cdf(df, p) -> DOUBLE
  kPoissonCdf,            ///< poisson_cdf(DOUBLE lambda, BIGINT value) -> DOUBLE P(N <= value)
  kInversePoissonCdf,     ///< inverse_poisson_cdf(DOUBLE lambda, DOUBLE p) -> INTEGER
  kBinomialCdf,           ///< binomial_cdf(BIGINT trials, DOUBLE probability, BIGINT value) -> DOUBLE P(N <= value)
  kInverseBinomialCdf,    ///< inverse_binomial_cdf(BIGINT trials, DOUBLE probability, DOUBLE p) -> INTEGER
  kWilsonIntervalLower,   ///< wilson_interval_lower(BIGINT successes, BIGINT trials, DOUBLE z) -> DOUBLE
  kWilsonIntervalUpper,   ///< wilson_interval_upper(BIGINT successes, BIGINT trials, DOUBLE z) -> DOUBLE
  kFromBase,              ///< from_base(VARCHAR, BIGINT radix) -> BIGINT
  kToBase,                ///< to_base(BIGINT, BIGINT radix) -> VARCHAR
  kBitwiseShiftLeft,      ///< bitwise_shift_left(BIGINT x, BIGINT shift, BIGINT bits) -> BIGINT
  kBitwiseLogicalShiftRight, ///< bitwise_logical_shift_right(BIGINT x, BIGINT shift, BIGINT bits) -> BIGINT
  kBitwiseArithmeticShiftRight, ///< bitwise_arithmetic_shift_right(BIGINT x, BIGINT shift) -> BIGINT
  kBitwiseLeftShift,      ///< bitwise_left_shift(T x, BIGINT shift) -> T (T an integer type)
  kBitwiseRightShift,     ///< bitwise_right_shift(T x, BIGINT shift) -> T, logical
  kBitwiseRightShiftArithmetic, ///< bitwise_right_shift_arithmetic(T x, BIGINT shift) -> T
  kReplaceFirst,          ///< replace_first(VARCHAR s, VARCHAR search, VARCHAR replace) -> VARCHAR
  kStrrpos,               ///< strrpos(VARCHAR s, VARCHAR sub[, BIGINT instance]) -> BIGINT, from the end
  kTrail,                 ///< trail(VARCHAR s, BIGINT n) -> VARCHAR: the last n characters
  kUrlEncode,             ///< url_encode: VARCHAR -> VARCHAR
  kUrlDecode,             ///< url_decode: VARCHAR -> VARCHAR
  kJsonArrayContains,     ///< json_array_contains(json, value) -> BOOLEAN
  kFromIso8601Date,       ///< from_iso8601_date: VARCHAR -> DATE
  kToIso8601,             ///< to_iso8601: DATE or TIMESTAMP -> VARCHAR
  kToMilliseconds,        ///< to_milliseconds: INTERVAL -> BIGINT
  kParseDuration,         ///< parse_duration: VARCHAR ('3.5h') -> INTERVAL
  kYearOfWeek,            ///< year_of_week: DATE or TIMESTAMP -> BIGINT ISO week-numbering year
  // Presto's binary functions (CPU only). length, ||/concat, substring, reverse, lpad and rpad also take VARBINARY
  // (in bytes); their evaluation looks at the argument type.
  kToUtf8,                ///< to_utf8: VARCHAR -> VARBINARY of its UTF-8 bytes
  kFromUtf8,              ///< from_utf8(VARBINARY[, replace]) -> VARCHAR; invalid UTF-8 replaced (U+FFFD default)
  kToHex, kFromHex,       ///< VARBINARY <-> VARCHAR of hex digits
  kToBase64, kFromBase64, kToBase64Url, kFromBase64Url,  ///< VARBINARY <-> VARCHAR (RFC 4648 alphabets)
  kMd5, kSha1, kSha256, kSha512,  ///< VARBINARY -> VARBINARY digest
  kXxhash64,              ///< VARBINARY -> VARBINARY of the 8-byte big-endian XXH64 (seed 0)
  kCrc32,                 ///< VARBINARY -> BIGINT CRC-32
  kToBigEndian64, kFromBigEndian64,  ///< BIGINT <-> 8-byte VARBINARY
  kToBigEndian32, kFromBigEndian32,  ///< INTEGER <-> 4-byte VARBINARY
  // TIMESTAMP WITH TIME ZONE (CPU only). Field functions, date_trunc, date_add and date_diff on such values are
  // rewritten by the binder into the TIMESTAMP functions over kTzLocal / kTzInstant and back with kTzWithLocal /
  // kTzWithInstant.
  kWithTimezone,          ///< (TIMESTAMP, DATE or VARCHAR x, VARCHAR zone) -> x's wall-clock time in zone (VARCHAR x:
                          ///< the zone its text names, else zone); also the cast to the type, with the session zone
  kAtTimezone,            ///< (TZ, VARCHAR zone) -> the same instant shown in zone
  kTimezoneHour, kTimezoneMinute,  ///< TZ -> BIGINT hours / minutes of its offset from UTC at that instant
  kFromUnixtimeTz,        ///< (DOUBLE seconds, VARCHAR zone) or (DOUBLE, BIGINT hours, BIGINT minutes) -> TZ
  kTzLocal,               ///< TZ -> TIMESTAMP wall-clock time in its zone (CAST(x AS TIMESTAMP))
  kTzInstant,             ///< TZ -> TIMESTAMP of its instant in UTC
  kTzWithLocal,           ///< (TIMESTAMP wall clock, TZ z) -> TZ in z's zone at that wall-clock time
  kTzWithInstant,         ///< (TIMESTAMP UTC instant, TZ z) -> TZ in z's zone at that instant
  kFromIso8601Timestamp,  ///< (VARCHAR ISO 8601, VARCHAR zone when the text has no offset) -> TZ
  // ARRAY, MAP and ROW (CPU only; exec/expr/array_funcs.cpp and its neighbours).
  kArrayConstructor,      ///< ARRAY[a, b, ...] -> ARRAY(T) of the arguments' common type
  kRowConstructor,        ///< ROW(a, b, ...) -> ROW of the arguments' types (anonymous fields)
  kMapFromArrays,         ///< map(ARRAY(K) keys, ARRAY(V) values) -> MAP(K, V); map() is the empty map
  kSubscript,             ///< a[i] (1-based; out of range an error) and m[k] (a missing key an error)
  kElementAt,             ///< element_at(a, i) (negative from the end) / element_at(m, k): NULL when absent
  kRowField,              ///< (row, constant INTEGER field index, 0-based) -> the field; r.name and r[1]
  kCardinality,           ///< ARRAY or MAP -> BIGINT
  kContains,              ///< contains(ARRAY(T), T) -> BOOLEAN (NULL when absent and an element is NULL)
  kArrayJoin,             ///< array_join(ARRAY(T), VARCHAR delimiter[, VARCHAR null_replacement]) -> VARCHAR
  kArrayDistinct,         ///< ARRAY(T) -> ARRAY(T) without repeated elements, first occurrences in order
  kArraySort,             ///< ARRAY(T) -> ARRAY(T) ascending, NULLs last
  kArrayPosition,         ///< array_position(ARRAY(T), T) -> BIGINT 1-based index of the first match, 0 if none
  kArrayMax, kArrayMin,   ///< ARRAY(T) -> T; NULL when empty or an element is NULL
  kSlice,                 ///< slice(ARRAY(T), BIGINT start (negative from the end), BIGINT length) -> ARRAY(T)
  kArrayConcat,           ///< concat / || of arrays (and of an array and an element) -> ARRAY(T)
  kSequence,              ///< sequence(start, stop[, step]) over BIGINT or DATE (step INTERVAL) -> ARRAY
  kMapKeys, kMapValues,   ///< MAP(K, V) -> ARRAY(K) / ARRAY(V)
  kMapFromEntries,        ///< ARRAY(ROW(K, V)) -> MAP(K, V)
  kSplit,                 ///< split(VARCHAR, VARCHAR delimiter[, BIGINT limit]) -> ARRAY(VARCHAR)
  kTransform,             ///< transform(ARRAY(T), lambda x -> U) -> ARRAY(U)
  kFilter,                ///< filter(ARRAY(T), lambda x -> BOOLEAN) -> ARRAY(T)
  kReduce,                ///< reduce(ARRAY(T), S initial, lambda (s, x) -> S, lambda s -> R) -> R
  // More scalar functions (issue 15)
  // CPU only: exec/expr/*_extra_funcs.cpp and joda_parse.cpp.
  kRemainder,             ///< remainder(n, m) -> n - m * round(n / m) (halves rounded up), of n's and m's type
  kCosineSimilarity,      ///< (MAP(VARCHAR, DOUBLE), MAP(VARCHAR, DOUBLE)) -> DOUBLE
  kBitLength,             ///< VARCHAR -> BIGINT bits of its UTF-8 bytes
  kJaroWinklerSimilarity, ///< (VARCHAR, VARCHAR) -> DOUBLE, over code points
  kLongestCommonPrefix,   ///< (VARCHAR, VARCHAR) -> VARCHAR, whole code points
  kSplitToMap,            ///< (VARCHAR s, VARCHAR entry_delim, VARCHAR key_value_delim) -> MAP(VARCHAR, VARCHAR)
  kSplitToMultimap,       ///< the same -> MAP(VARCHAR, ARRAY(VARCHAR)), values in order
  kWordStem,              ///< (VARCHAR word[, VARCHAR lang]) -> VARCHAR: the Porter stem of an English word
  kNormalize,             ///< (VARCHAR[, VARCHAR form NFC/NFD/NFKC/NFKD]) -> VARCHAR (utf8proc)
  kKeySamplingPercent,    ///< VARCHAR -> DOUBLE in [0, 1) from the XXH64 of its bytes
  kRegexpExtractAll,      ///< (VARCHAR, pattern[, group]) -> ARRAY(VARCHAR) of every match
  kRegexpSplit,           ///< (VARCHAR, pattern) -> ARRAY(VARCHAR) of the pieces between matches
  kToIeee754_32, kFromIeee754_32,  ///< REAL <-> 4-byte big-endian VARBINARY
  kToIeee754_64, kFromIeee754_64,  ///< DOUBLE <-> 8-byte big-endian VARBINARY
  kSpookyHashV2_32, kSpookyHashV2_64,  ///< VARBINARY -> 4 / 8-byte big-endian VARBINARY (SpookyHash V2, seeds 0)
  kHmacMd5, kHmacSha1, kHmacSha256, kHmacSha512,  ///< (VARBINARY message, VARBINARY key) -> VARBINARY
  kParseDatetime,         ///< (VARCHAR text, VARCHAR Joda pattern, VARCHAR session zone) -> TIMESTAMP WITH TIME ZONE
  // Array and map functions (issue 15). CPU only, like the nested functions above; the lambda ones (all_match,
  // find_first, array_max_by, zip_with, map_filter, transform_keys, ...) are evaluated by eval_lambda_function.
  kAllMatch, kAnyMatch, kNoneMatch,  ///< (ARRAY(T), lambda x -> BOOLEAN) -> BOOLEAN, three-valued
  kArrayAverage,          ///< ARRAY(DOUBLE) -> DOUBLE mean of the non-NULL elements, NULL without one
  kArrayCumSum,           ///< ARRAY(T) numeric -> ARRAY(T) running sums, NULL from the first NULL element on
  kArrayDuplicates,       ///< ARRAY(T) -> ARRAY(T) of the elements seen more than once, in first-seen order
  kArrayExcept, kArrayIntersect, kArrayUnion,  ///< (ARRAY(T), ARRAY(T)) -> ARRAY(T) distinct, first-seen order
  kArrayFrequency,        ///< ARRAY(T) -> MAP(T, INTEGER) occurrences of each non-NULL element
  kArrayHasDuplicates,    ///< ARRAY(T) -> BOOLEAN
  kArrayLeastFrequent, kArrayMostFrequent,  ///< (ARRAY(T)[, BIGINT n]) -> ARRAY(T) by frequency, then value
  kArrayMaxBy, kArrayMinBy,  ///< (ARRAY(T), lambda x -> U) -> T whose U is largest / smallest
  kArrayNormalize,        ///< (ARRAY(T), T p) -> ARRAY(T) divided by the p-norm; T REAL or DOUBLE
  kArrayRemove,           ///< (ARRAY(T), T) -> ARRAY(T) without the elements equal to the value
  kArraySortDesc,         ///< ARRAY(T) -> ARRAY(T) descending, NULLs last
  kArraySum,              ///< ARRAY(BIGINT) -> BIGINT, ARRAY(DOUBLE) -> DOUBLE sum of the non-NULL elements
  kArrayTopN,             ///< (ARRAY(T), BIGINT n) -> ARRAY(T) the n largest, descending, NULLs last
  kArraysOverlap,         ///< (ARRAY(T), ARRAY(T)) -> BOOLEAN a non-NULL element in common (NULL: unknown)
  kCombinations,          ///< (ARRAY(T), BIGINT n) -> ARRAY(ARRAY(T)) the n-element combinations
  kFlatten,               ///< ARRAY(ARRAY(T)) -> ARRAY(T)
  kFindFirst, kFindFirstIndex,  ///< (ARRAY(T)[, BIGINT start], lambda x -> BOOLEAN) -> T / BIGINT
  kNgrams,                ///< (ARRAY(T), BIGINT n) -> ARRAY(ARRAY(T))
  kRemoveNulls,           ///< ARRAY(T) -> ARRAY(T)
  kRepeat,                ///< (T, BIGINT count) -> ARRAY(T)
  kShuffle,               ///< ARRAY(T) -> ARRAY(T) in random order. Not deterministic.
  kTrimArray,             ///< (ARRAY(T), BIGINT n) -> ARRAY(T) without its last n elements
  kZip,                   ///< (ARRAY(T1), ARRAY(T2), ...) -> ARRAY(ROW(T1, T2, ...)), shorter arrays NULL-padded
  kZipWith,               ///< (ARRAY(T), ARRAY(U), lambda (x, y) -> R) -> ARRAY(R)
  kArraySplitIntoChunks,  ///< (ARRAY(T), BIGINT size) -> ARRAY(ARRAY(T))
  kArrayTranspose,        ///< ARRAY(ARRAY(T)) -> ARRAY(ARRAY(T)), rows of one length
  kAllKeysMatch, kAnyKeysMatch, kNoKeysMatch,  ///< (MAP(K, V), lambda k -> BOOLEAN) -> BOOLEAN
  kAnyValuesMatch, kNoValuesMatch,             ///< (MAP(K, V), lambda v -> BOOLEAN) -> BOOLEAN
  kMultimapFromEntries,   ///< ARRAY(ROW(K, V)) -> MAP(K, ARRAY(V))
  kMapEntries,            ///< MAP(K, V) -> ARRAY(ROW(K, V))
  kMapConcat,             ///< (MAP(K, V), ...) -> MAP(K, V), a key's value from the last map that has it
  kMapFilter,             ///< (MAP(K, V), lambda (k, v) -> BOOLEAN) -> MAP(K, V)
  kMapRemoveNullValues,   ///< MAP(K, V) -> MAP(K, V) without the NULL values
  kMapSubset,             ///< (MAP(K, V), ARRAY(K)) -> MAP(K, V) of the listed keys
  kMapKeyExists,          ///< (MAP(K, V), K) -> BOOLEAN
  kMapTopNKeys,           ///< (MAP(K, V), BIGINT n) -> ARRAY(K) the n largest keys, descending
  kMapKeysByTopNValues,   ///< (MAP(K, V), BIGINT n) -> ARRAY(K) the keys of the n largest values
  kMapTopN,               ///< (MAP(K, V), BIGINT n) -> MAP(K, V) the n entries of the largest values
  kMapTopNValues,         ///< (MAP(K, V), BIGINT n) -> ARRAY(V) the n largest values, descending
  kMapNormalize,          ///< MAP(K, DOUBLE) -> MAP(K, DOUBLE) values divided by their sum
  kMapZipWith,            ///< (MAP(K, V1), MAP(K, V2), lambda (k, v1, v2) -> V3) -> MAP(K, V3)
  kTransformKeys,         ///< (MAP(K, V), lambda (k, v) -> K2) -> MAP(K2, V)
  kTransformValues,       ///< (MAP(K, V), lambda (k, v) -> V2) -> MAP(K, V2)
  kMapIntKeysToArray,     ///< MAP(integer K, V) -> ARRAY(V) with the value of key i at position i
  kArrayToMapIntKeys,     ///< ARRAY(V) -> MAP(INTEGER, V) of the non-NULL elements by position
};

/// False for functions whose value is not determined by their arguments (random, shuffle): they are never folded into a
/// constant, even without arguments.
bool is_deterministic(ScalarFunction f);

/// True for the functions that take lambda arguments (transform, filter, reduce, all_match, map_filter, ...): their
/// evaluation runs the lambdas' bodies over the elements instead of calling a kernel on evaluated arguments.
bool is_lambda_function(ScalarFunction f);

/// The SQL name of a function, for EXPLAIN and errors ("+", "substring", ...).
const char* scalar_function_name(ScalarFunction f);

/// Kinds of bound expression nodes.
enum class ExprKind : uint8_t {
  kConstant,   ///< `constant`
  kColumnRef,  ///< input column `column_index` of the batch the expression is evaluated on
  kFunction,   ///< `function` applied to `children`
  kCast,       ///< children[0] converted to `type`; a failed conversion is InvalidInput
  kCase,       ///< children = [when1, then1, when2, then2, ..., else]; the else is always present (NULL if not written)
  kAnd,        ///< n-ary, three-valued logic
  kOr,         ///< n-ary, three-valued logic
  kNot,
  kIsNull,
  kIsNotNull,
  kInList,     ///< children[0] IN (children[1..]); SQL NULL semantics (NULL when no match and a NULL is in the list)
  kSubquery,   ///< an uncorrelated scalar sub-query `subquery`: run once before the query, then a constant
  /// A lambda argument of transform, filter or reduce: children[0] is the body, `column_index` the number of
  /// parameters and `name` their names; the body reads them as kLambdaParam and the input columns as usual.
  kLambda,
  /// Parameter slot `column_index` of the enclosing lambdas (numbered from the outermost lambda's first).
  kLambdaParam,
};

struct LogicalNode;

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// A node of a bound expression tree. Immutable and shareable.
struct Expr {
  ExprKind kind = ExprKind::kConstant;
  LogicalType type;                 ///< the result type
  std::vector<ExprPtr> children;
  Value constant;                   ///< kConstant
  size_t column_index = 0;          ///< kColumnRef
  std::string name;                 ///< kColumnRef: the column's name, for EXPLAIN
  ScalarFunction function = ScalarFunction::kAdd;  ///< kFunction
  std::optional<SourcePosition> position;          ///< where it was written, for runtime errors
  /// kColumnRef: 0 for the input of the node evaluating the expression; 1 for a column of the enclosing query
  /// (a correlated reference, only while binding a sub-query: decorrelation removes them before execution).
  uint32_t outer_depth = 0;
  /// kSubquery: the plan of the sub-query (one column, at most one row).
  std::shared_ptr<LogicalNode> subquery;

  /// Readable form for EXPLAIN: `(#2 l_quantity + 1)`, `CAST(x AS DOUBLE)`.
  std::string to_string() const;
};

/// Constructors that fill in the node; they do not check types (the binder does).
ExprPtr make_constant(Value value);
ExprPtr make_column_ref(size_t index, LogicalType type, std::string name);
ExprPtr make_function(ScalarFunction f, LogicalType result, std::vector<ExprPtr> args);
ExprPtr make_cast(ExprPtr child, LogicalType target);
ExprPtr make_node(ExprKind kind, LogicalType result, std::vector<ExprPtr> children);

}  // namespace kestrel::plan
