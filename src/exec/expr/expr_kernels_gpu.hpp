#pragma once
/// Launchers of the GPU expression kernels (internal to exec/expr): one launch per expression node over whole
/// columns. The host side (evaluate_gpu.cpp) needs no CUDA headers; the kernels live in the *_gpu.cu files.
///
/// Conventions shared by every kernel:
/// - An operand is a DeviceArg: a column, or (`constant`) one value for every row. NULLs travel as validity
///   bitmaps; a NULL constant is a one-row column whose bit is 0, so it needs no special case in the kernels.
/// - Outputs write validity as whole 32-bit words (one warp ballot per 32 rows): bitmaps allocated here are rounded
///   up to 4 bytes.
/// - Runtime errors (overflow, division by zero, failed casts) set `ErrorScope::status` for rows that are not NULL
///   and active; the host reads it once per evaluation.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/datetime_ops.hpp"
#include "common/types.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec::gpu_expr {

/// A read-only view of an evaluated device operand.
struct DeviceArg {
  const void* values = nullptr;       ///< fixed-width values, or the chars of strings (the dictionary's if indexed)
  const uint8_t* validity = nullptr;  ///< row validity, LSB first (null: all valid)
  const int64_t* offsets = nullptr;   ///< strings: int64 offsets (the dictionary's if indexed)
  const int32_t* indices = nullptr;   ///< dictionary-encoded strings: the entry of each row
  bool constant = false;              ///< one value (row 0) for every row
};

/// Where kernels report runtime errors, and which rows may raise them.
struct ErrorScope {
  int* status = nullptr;              ///< device flag, set non-zero by a failing row
  const uint8_t* active = nullptr;    ///< one byte per row: rows whose errors count (null: all rows)
  const int* active_any = nullptr;    ///< device flag: some row is active (null: yes); read by one-row evaluations
  bool one_row = false;               ///< an evaluation of constants only (its row stands for every active row)
};

/// The result of a fixed-width kernel.
struct DeviceOut {
  void* values = nullptr;
  uint32_t* validity = nullptr;  ///< null when the result cannot be NULL
};

enum class ArithOp : uint8_t { kAdd, kSubtract, kMultiply, kDivide, kModulo };

/// Integer, REAL and DOUBLE arithmetic; `type` is the type of both operands and of the result.
void launch_numeric_arith(TypeId type, ArithOp op, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                          ErrorScope err, gpu::Stream stream);
/// Exact DECIMAL arithmetic with the CPU's rules (exec/expr/arith_ops.hpp).
void launch_decimal_arith(const LogicalType& ta, const LogicalType& tb, const LogicalType& result, ArithOp op,
                          DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream);
/// Unary minus (integer overflow of the minimum is an error).
void launch_negate(const LogicalType& type, DeviceArg a, DeviceOut out, size_t rows, ErrorScope err,
                   gpu::Stream stream);

/// = <> < <= > >= and IS [NOT] DISTINCT FROM on two operands of one type (fixed-width or VARCHAR).
void launch_compare(const LogicalType& type, plan::ScalarFunction f, DeviceArg a, DeviceArg b, DeviceOut out,
                    size_t rows, gpu::Stream stream);

/// The sorted distinct non-NULL items of `x IN (constants)` on the device: `values` (keys of the kind's key type:
/// int64 sign-extended, or int128) or, for strings, `offsets` (count + 1) and `chars` in bytewise order.
struct InSet {
  const void* values = nullptr;
  const int64_t* offsets = nullptr;
  const char* chars = nullptr;
  int count = 0;
  bool has_null = false;  ///< a NULL item: no match gives NULL instead of FALSE
};
/// How x's values are read: signed integers of 1 to 16 bytes (integers, DATE, TIMESTAMP, DECIMAL, BOOLEAN) or strings.
enum class InSetKind : uint8_t { kInt8, kInt16, kInt32, kInt64, kInt128, kString };
/// x IN set into BOOLEAN bytes with SQL's NULL rules (NULL x: NULL; no match with a NULL item: NULL).
void launch_in_set(InSetKind kind, DeviceArg x, InSet set, DeviceOut out, size_t rows, gpu::Stream stream);

/// Two-operand AND / OR with three-valued logic.
void launch_logic(bool is_and, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, gpu::Stream stream);
void launch_not(DeviceArg a, DeviceOut out, size_t rows, gpu::Stream stream);
/// IS NULL (`want_null`) / IS NOT NULL into bytes (never NULL).
void launch_is_null(DeviceArg a, bool want_null, uint8_t* out, size_t rows, gpu::Stream stream);
/// out[i] = a[i] (a[0] for a constant) for values of `width` bytes, validity included.
void launch_broadcast(size_t width, DeviceArg a, DeviceOut out, size_t rows, gpu::Stream stream);
/// Spreads a per-dictionary-entry result: out[i] = per_entry[indices[i]], NULL where the row or the entry is.
void launch_spread(size_t width, DeviceArg per_entry, const int32_t* indices, const uint8_t* row_validity,
                   DeviceOut out, size_t rows, gpu::Stream stream);

/// CASE: rows still `remaining` whose condition is TRUE take branch `b` (branch_of = b, remaining = 0);
/// `remaining_any` is set when some row remains afterwards (it must be zeroed before).
void launch_case_take(DeviceArg cond, uint8_t* remaining, uint8_t* branch_of, uint8_t b, int* remaining_any,
                      size_t rows, gpu::Stream stream);
/// mask[i] = branch_of[i] == b && active[i]; sets *any when a row is set (zeroed before).
void launch_branch_mask(const uint8_t* branch_of, uint8_t b, const uint8_t* active, uint8_t* mask, int* any,
                        size_t rows, gpu::Stream stream);
/// Rows of branch `b` take `piece`'s value and validity; `out` is updated in place (its validity must exist).
void launch_select_into(size_t width, DeviceArg piece, const uint8_t* branch_of, uint8_t b, DeviceOut out,
                        size_t rows, gpu::Stream stream);

/// VARCHAR CASE, pass 1: rows of branch `b` take the byte length of `piece`'s string (0 when NULL) into
/// offsets[i + 1] and its validity; `validity` is updated in place (rows of other branches keep their bits).
void launch_select_string_lengths(DeviceArg piece, const uint8_t* branch_of, uint8_t b, int64_t* offsets,
                                  uint32_t* validity, size_t rows, gpu::Stream stream);
/// VARCHAR CASE, pass 2 (once the lengths are scanned into offsets): rows of branch `b` copy `piece`'s bytes.
void launch_select_string_copy(DeviceArg piece, const uint8_t* branch_of, uint8_t b, const int64_t* offsets,
                               char* chars, size_t rows, gpu::Stream stream);

/// Adds the number of set bits among the first `rows` of `validity` to *count.
void launch_count_valid(const uint8_t* validity, size_t rows, unsigned long long* count, gpu::Stream stream);

/// CAST between numeric types (integers, REAL, DOUBLE, DECIMAL of both widths), BOOLEAN <-> integers,
/// DATE <-> TIMESTAMP. Throws NotImplemented for other pairs before launching anything.
void launch_cast(const LogicalType& from, const LogicalType& to, DeviceArg a, DeviceOut out, size_t rows,
                 ErrorScope err, gpu::Stream stream);
/// True when the GPU evaluator casts `from` to `to`: launch_cast's pairs, and the casts to VARCHAR below.
bool cast_supported(const LogicalType& from, const LogicalType& to);
/// True for the types whose CAST to VARCHAR runs on the GPU: integers, DECIMAL, BOOLEAN, DATE, TIMESTAMP (the
/// CPU's text, Value::to_string; REAL and DOUBLE stay on the CPU, whose shortest round-trip text they would need).
bool cast_to_string_supported(const LogicalType& from);
/// CAST to VARCHAR, pass 1: each row's text length, then the scan into offsets (validity as the input's).
void launch_cast_to_string_offsets(const LogicalType& from, DeviceArg a, int64_t* offsets, uint32_t* validity,
                                   size_t rows, gpu::Stream stream, gpu::MemoryResource& mr);
/// CAST to VARCHAR, pass 2: the text of each row at its offset.
void launch_cast_to_string_copy(const LogicalType& from, DeviceArg a, const int64_t* offsets, char* chars,
                                size_t rows, gpu::Stream stream);

/// DATE or TIMESTAMP (`x_type`) +/- INTERVAL; `interval` may be either operand on the host's side.
void launch_add_interval(TypeId x_type, bool subtract, DeviceArg x, DeviceArg interval, DeviceOut out, size_t rows,
                         gpu::Stream stream);
/// extract(part from DATE or TIMESTAMP) -> BIGINT.
void launch_extract(DatePart part, TypeId x_type, DeviceArg x, DeviceOut out, size_t rows,
                    gpu::Stream stream);
/// DATE +/- integer days (`sign` 1 or -1), DATE - DATE.
void launch_add_days(int sign, DeviceArg date, DeviceArg days, DeviceOut out, size_t rows, gpu::Stream stream);
void launch_diff_days(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, gpu::Stream stream);

/// LIKE of VARCHAR `s` against the device pattern `pattern[0..pattern_len)` with `escape` (-1: none).
void launch_like(DeviceArg s, const char* pattern, size_t pattern_len, int escape, bool negate, DeviceOut out,
                 size_t rows, gpu::Stream stream);
/// A LIKE pattern of literal segments between `%`s, kept in a kernel parameter.
struct LikeSegments {
  static constexpr int kMaxSegments = 8;
  bool anchored_start = false;  ///< the first segment starts the string (the pattern does not start with %)
  bool anchored_end = false;    ///< the last segment ends the string
  int count = 0;
  int16_t offset[kMaxSegments] = {};
  int16_t length[kMaxSegments] = {};
  char bytes[64] = {};
};
/// The segments of `pattern` when it has no `_` and no escape byte (`escape` -1: none), fits LikeSegments, and
/// matches exactly as the general matcher does; nothing otherwise.
std::optional<LikeSegments> like_segments(std::string_view pattern, int escape);
/// LIKE / NOT LIKE by segments: each row's bytes are read a word at a time, a byte-wise search for each segment.
void launch_like_segments(DeviceArg s, const LikeSegments& pattern, bool negate, DeviceOut out, size_t rows,
                          gpu::Stream stream);
/// SUBSTRING, pass 1: offsets[i + 1] = byte length of row i's result (offsets[0] = 0); negative lengths are errors.
void launch_substring_lengths(DeviceArg s, DeviceArg start, const DeviceArg* length, int64_t* offsets,
                              uint32_t* validity, size_t rows, ErrorScope err, gpu::Stream stream);
/// SUBSTRING, pass 2: turns the lengths into offsets (scan) and copies the bytes. `scratch` comes from `mr`.
void launch_substring_copy(DeviceArg s, DeviceArg start, const DeviceArg* length, int64_t* offsets, char* chars,
                           size_t rows, gpu::Stream stream, gpu::MemoryResource& mr);
/// Turns offsets[1..rows] holding row lengths into offsets (an inclusive scan; offsets[0] must be 0). `scratch`
/// comes from `mr`.
void launch_lengths_to_offsets(int64_t* offsets, size_t rows, gpu::Stream stream, gpu::MemoryResource& mr);
/// length(s) in code points -> BIGINT.
void launch_length(DeviceArg s, DeviceOut out, size_t rows, gpu::Stream stream);
/// upper / lower (ASCII letters only, as on the CPU) of `bytes` chars: the result keeps the input's offsets.
void launch_case_map(const char* in, char* out, size_t bytes, bool upper, gpu::Stream stream);
/// The operands of a || b || ... (all VARCHAR).
struct ConcatArgs {
  static constexpr int kMaxArgs = 8;
  DeviceArg args[kMaxArgs];
  int count = 0;
};
/// ||, pass 1: offsets[i + 1] = byte length of row i's result, offsets[0] = 0, validity = every operand valid;
/// then the scan into offsets.
void launch_concat_offsets(const ConcatArgs& args, int64_t* offsets, uint32_t* validity, size_t rows,
                           gpu::Stream stream, gpu::MemoryResource& mr);
/// ||, pass 2: copies each row's operands into chars at its offset.
void launch_concat_copy(const ConcatArgs& args, const int64_t* offsets, char* chars, size_t rows, gpu::Stream stream);

/// The characters trim removes: ASCII bytes only (a set with other characters stays on the CPU).
struct TrimSet {
  static constexpr int kMaxBytes = 16;
  char bytes[kMaxBytes] = {};
  int count = 0;
};
/// True when trim's character set fits TrimSet (ASCII, at most kMaxBytes characters).
inline bool trim_set_supported(std::string_view set) {
  if (set.size() > static_cast<size_t>(TrimSet::kMaxBytes)) return false;
  for (char c : set) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}
/// trim / ltrim (`left`) / rtrim (`right`) of plain (or constant) VARCHAR `s`: offsets of the results, then their
/// bytes into `chars`, which holds at least the input's bytes (every result is a piece of its input).
void launch_trim(DeviceArg s, const TrimSet& set, bool left, bool right, int64_t* offsets, char* chars, size_t rows,
                 gpu::Stream stream, gpu::MemoryResource& mr);

/// position(a in b) -> BIGINT (1-based in code points, 0 when absent), or (`starts_with`) starts_with(a, b) ->
/// BOOLEAN; NULL when an operand is.
void launch_string_search(bool starts_with, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                          gpu::Stream stream);
/// replace(s, from, to), pass 1: result lengths and validity, then the scan into offsets.
void launch_replace_offsets(DeviceArg s, DeviceArg from, DeviceArg to, int64_t* offsets, uint32_t* validity,
                            size_t rows, gpu::Stream stream, gpu::MemoryResource& mr);
/// replace(s, from, to), pass 2: the bytes.
void launch_replace_copy(DeviceArg s, DeviceArg from, DeviceArg to, const int64_t* offsets, char* chars, size_t rows,
                         gpu::Stream stream);

/// abs, sign, round, floor, ceil, truncate (round with INTEGER `digits` when given) and sqrt of numeric `x` into `result`
/// with the CPU's rules; round/floor/ceil of integers without digits are the integers themselves and are not
/// launched. Throws NotImplemented for combinations math_supported_types refuses.
void launch_math(plan::ScalarFunction f, const LogicalType& x_type, const LogicalType& result, DeviceArg x,
                 const DeviceArg* digits, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream);
/// True when launch_math (or the evaluator's pass-through of integer rounding) computes `f` of `x` into `result`.
bool math_supported_types(plan::ScalarFunction f, const LogicalType& x, const LogicalType& result, bool has_digits);

/// ln, log2, log10, exp, cbrt, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh (DOUBLE -> DOUBLE), power and
/// atan2 (`y` the second DOUBLE operand), is_nan, is_finite, is_infinite (DOUBLE -> BOOLEAN), with the CPU's errors.
void launch_double_math(plan::ScalarFunction f, DeviceArg x, const DeviceArg* y, DeviceOut out, size_t rows,
                        ErrorScope err, gpu::Stream stream);
/// Whether `f` is one of launch_double_math's functions.
bool is_double_math(plan::ScalarFunction f);
/// True when launch_double_math computes `f` of `x` (and `y`, null for one operand) into `result`.
bool double_math_supported(plan::ScalarFunction f, const LogicalType& x, const LogicalType* y,
                           const LogicalType& result);

/// Up to three operands of one row-wise function (the Presto string and date functions below).
struct DeviceArgs {
  static constexpr int kMaxArgs = 3;
  DeviceArg args[kMaxArgs];
  int count = 0;
};

/// Presto's DATE and TIMESTAMP functions (datetime_fields_gpu.cu), `x_type` DATE or TIMESTAMP, with the CPU's rules
/// (exec/expr/datetime.cpp, presto_more_funcs.cpp, presto_datetime_funcs.cpp). NULL where an operand is.
/// year_of_week(x) -> BIGINT.
void launch_year_of_week(TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream);
/// last_day_of_month(x) -> DATE.
void launch_last_day_of_month(TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream);
/// date_trunc(unit, x) -> x's type (`unit` a date_trunc unit).
void launch_date_trunc(DatePart unit, TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream);
/// date_add(unit, n BIGINT, x) -> x's type; a result out of range is an error (`unit` valid for x_type).
void launch_date_add(DatePart unit, TypeId x_type, DeviceArg n, DeviceArg x, DeviceOut out, size_t rows,
                     ErrorScope err, gpu::Stream stream);
/// date_diff(unit, a, b) -> BIGINT whole units from a to b, both of `x_type`.
void launch_date_diff(DatePart unit, TypeId x_type, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                      gpu::Stream stream);
/// to_unixtime(TIMESTAMP) -> DOUBLE seconds.
void launch_to_unixtime(DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream);
/// from_unixtime(DOUBLE seconds) -> TIMESTAMP, rounded half up to microseconds; not finite or out of range is an error.
void launch_from_unixtime(DeviceArg x, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream);

/// Presto's string functions with a VARCHAR result (string_build_gpu.cu), built in two passes.
enum class StringBuildOp : uint8_t {
  kReverse,              ///< (s): code points in reverse order
  kLpad,                 ///< (s, size BIGINT, padding): errors for a size outside [0, 2^31) or an empty padding
  kRpad,                 ///< as kLpad, padded on the right
  kChr,                  ///< (code point BIGINT): an error for a value that is not a code point or is a surrogate
  kSplitPart,            ///< (s, delimiter, index BIGINT): NULL past the last field; an error for index <= 0
  kReplaceFirst,         ///< (s, search, replacement)
  kTrail,                ///< (s, n BIGINT): the last n code points
  kLongestCommonPrefix,  ///< (a, b): the longest common prefix of whole code points
};
/// Pass 1: offsets[i + 1] = byte length of row i's result (0 when NULL or failing), offsets[0] = 0, validity = the
/// operands valid and the result not NULL; failing active rows raise the error flag; then the scan into offsets.
void launch_string_build_offsets(StringBuildOp op, const DeviceArgs& args, int64_t* offsets, uint32_t* validity,
                                 size_t rows, ErrorScope err, gpu::Stream stream, gpu::MemoryResource& mr);
/// Pass 2: each row's bytes at its offset.
void launch_string_build_copy(StringBuildOp op, const DeviceArgs& args, const int64_t* offsets, char* chars,
                              size_t rows, gpu::Stream stream);

/// Presto's string functions with a fixed-width result (string_measure_gpu.cu).
enum class StringMeasureOp : uint8_t {
  kCodepoint,        ///< (c) -> INTEGER; an error unless c is one character
  kEndsWith,         ///< (s, suffix) -> BOOLEAN
  kStrrpos,          ///< (s, sub[, instance BIGINT]) -> BIGINT; an error for instance <= 0
  kHammingDistance,  ///< (a, b) -> BIGINT; an error when their lengths in code points differ
  kBitLength,        ///< (s) -> BIGINT
};
void launch_string_measure(StringMeasureOp op, const DeviceArgs& args, DeviceOut out, size_t rows, ErrorScope err,
                           gpu::Stream stream);
/// levenshtein_distance(a, b), pass 1: offsets[i + 1] = the int32 scratch row i needs (one more than the shorter
/// string's length in code points; 0 when NULL or failing: the product of the lengths passes 1,000,000), then the
/// scan into offsets.
void launch_levenshtein_scratch(DeviceArg a, DeviceArg b, int64_t* offsets, size_t rows, ErrorScope err,
                                gpu::Stream stream, gpu::MemoryResource& mr);
/// levenshtein_distance(a, b), pass 2: the distances -> BIGINT, each row's dynamic programme in its scratch.
void launch_levenshtein(DeviceArg a, DeviceArg b, const int64_t* offsets, int32_t* scratch, DeviceOut out,
                        size_t rows, gpu::Stream stream);

/// A VARCHAR constant repeated `rows` times (`len` bytes at `value`).
void launch_broadcast_string(const char* value, size_t len, int64_t* offsets, char* chars, size_t rows,
                             gpu::Stream stream);

}  // namespace kestrel::exec::gpu_expr
