#pragma once
/// Helpers shared by the resolution files of planner/functions (not part of the binder's API).

#include <optional>
#include <string>
#include <vector>

#include "planner/functions/resolve_function.hpp"

namespace kestrel::plan::detail {

/// Throws the 42883 BinderError for `f` applied to `args`.
[[noreturn]] void no_match(ScalarFunction f, const std::vector<LogicalType>& args,
                           std::optional<SourcePosition> pos);

inline bool is_null_type(const LogicalType& t) { return t.id() == TypeId::kNull; }
inline bool is_numeric_or_null(const LogicalType& t) { return t.is_numeric() || is_null_type(t); }
inline bool is_integral_or_null(const LogicalType& t) { return t.is_integral() || is_null_type(t); }

/// The arithmetic operators + - * / % and unary -, including the date and interval forms.
ResolvedFunction resolve_arithmetic(ScalarFunction f, const std::vector<LogicalType>& args,
                                    std::optional<SourcePosition> pos);

/// Presto's functions: lpad, rpad, reverse, split_part, chr, codepoint, truncate, cbrt, log2, date_add,
/// date_diff, last_day_of_month, from_unixtime, to_unixtime, date_format, date_parse, format_datetime,
/// width_bucket, random and try (resolve_presto.cpp).
ResolvedFunction resolve_presto(ScalarFunction f, const std::vector<LogicalType>& args,
                                std::optional<SourcePosition> pos);

/// Presto's text functions: ends_with, levenshtein_distance, hamming_distance, the regexp_ and url_extract_
/// functions (resolve_presto_text.cpp).
ResolvedFunction resolve_presto_text(ScalarFunction f, const std::vector<LogicalType>& args,
                                     std::optional<SourcePosition> pos);

/// Presto's functions of the fourth slice: the distribution functions, wilson_interval_*, from_base, to_base, the
/// bit shifts, replace_first, strrpos, trail, url_encode/decode, json_array_contains and the ISO 8601 and duration
/// functions (resolve_presto_more.cpp).
ResolvedFunction resolve_presto_more(ScalarFunction f, const std::vector<LogicalType>& args,
                                     std::optional<SourcePosition> pos);

/// Presto's binary functions: to_utf8, from_utf8, hex and base64 encodings, digests, xxhash64, crc32 and the
/// big-endian conversions (resolve_binary.cpp).
ResolvedFunction resolve_binary(ScalarFunction f, const std::vector<LogicalType>& args,
                                std::optional<SourcePosition> pos);

/// TIMESTAMP WITH TIME ZONE: with_timezone, at_timezone, timezone_hour/minute, from_unixtime with a zone,
/// from_iso8601_timestamp and the binder's helpers kTzLocal, kTzInstant, kTzWithLocal, kTzWithInstant
/// (resolve_timestamp_tz.cpp).
ResolvedFunction resolve_timestamp_tz(ScalarFunction f, const std::vector<LogicalType>& args,
                                      std::optional<SourcePosition> pos);

/// Issue 15's last slice: remainder, cosine_similarity, bit_length, jarowinkler_similarity, longest_common_prefix,
/// split_to_map, split_to_multimap, word_stem, normalize, key_sampling_percent, regexp_extract_all, regexp_split,
/// the IEEE 754 conversions, spooky_hash_v2_*, hmac_* and parse_datetime (resolve_presto_extra.cpp).
ResolvedFunction resolve_presto_extra(ScalarFunction f, const std::vector<LogicalType>& args,
                                      std::optional<SourcePosition> pos);

}  // namespace kestrel::plan::detail
