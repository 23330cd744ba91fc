#include "planner/expression.hpp"

namespace kestrel::plan {

const char* scalar_function_name(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kAdd: return "+";
    case ScalarFunction::kSubtract: return "-";
    case ScalarFunction::kMultiply: return "*";
    case ScalarFunction::kDivide: return "/";
    case ScalarFunction::kModulo: return "%";
    case ScalarFunction::kNegate: return "negate";
    case ScalarFunction::kEqual: return "=";
    case ScalarFunction::kNotEqual: return "<>";
    case ScalarFunction::kLess: return "<";
    case ScalarFunction::kLessEqual: return "<=";
    case ScalarFunction::kGreater: return ">";
    case ScalarFunction::kGreaterEqual: return ">=";
    case ScalarFunction::kIsDistinctFrom: return "IS DISTINCT FROM";
    case ScalarFunction::kIsNotDistinctFrom: return "IS NOT DISTINCT FROM";
    case ScalarFunction::kConcat: return "||";
    case ScalarFunction::kLike: return "LIKE";
    case ScalarFunction::kNotLike: return "NOT LIKE";
    case ScalarFunction::kLength: return "length";
    case ScalarFunction::kUpper: return "upper";
    case ScalarFunction::kLower: return "lower";
    case ScalarFunction::kTrim: return "trim";
    case ScalarFunction::kLTrim: return "ltrim";
    case ScalarFunction::kRTrim: return "rtrim";
    case ScalarFunction::kSubstring: return "substring";
    case ScalarFunction::kPosition: return "position";
    case ScalarFunction::kStartsWith: return "starts_with";
    case ScalarFunction::kReplace: return "replace";
    case ScalarFunction::kAbs: return "abs";
    case ScalarFunction::kRound: return "round";
    case ScalarFunction::kFloor: return "floor";
    case ScalarFunction::kCeil: return "ceil";
    case ScalarFunction::kSign: return "sign";
    case ScalarFunction::kSqrt: return "sqrt";
    case ScalarFunction::kPower: return "power";
    case ScalarFunction::kLn: return "ln";
    case ScalarFunction::kLog10: return "log10";
    case ScalarFunction::kExp: return "exp";
    case ScalarFunction::kExtract: return "extract";
    case ScalarFunction::kDateTrunc: return "date_trunc";
    case ScalarFunction::kDateAddInterval: return "+";
    case ScalarFunction::kDateSubtractInterval: return "-";
    case ScalarFunction::kDateAddDays: return "+";
    case ScalarFunction::kDateDiffDays: return "-";
    case ScalarFunction::kTimestampDiff: return "-";
    case ScalarFunction::kIntervalAdd: return "+";
    case ScalarFunction::kIntervalNegate: return "negate";
    case ScalarFunction::kCoalesce: return "coalesce";
    case ScalarFunction::kNullIf: return "nullif";
    case ScalarFunction::kGreatest: return "greatest";
    case ScalarFunction::kLeast: return "least";
    case ScalarFunction::kDateSubtractDays: return "-";
    case ScalarFunction::kLpad: return "lpad";
    case ScalarFunction::kRpad: return "rpad";
    case ScalarFunction::kReverse: return "reverse";
    case ScalarFunction::kSplitPart: return "split_part";
    case ScalarFunction::kChr: return "chr";
    case ScalarFunction::kCodepoint: return "codepoint";
    case ScalarFunction::kTruncate: return "truncate";
    case ScalarFunction::kCbrt: return "cbrt";
    case ScalarFunction::kLog2: return "log2";
    case ScalarFunction::kDateAdd: return "date_add";
    case ScalarFunction::kDateDiff: return "date_diff";
    case ScalarFunction::kLastDayOfMonth: return "last_day_of_month";
    case ScalarFunction::kEndsWith: return "ends_with";
    case ScalarFunction::kLevenshteinDistance: return "levenshtein_distance";
    case ScalarFunction::kHammingDistance: return "hamming_distance";
    case ScalarFunction::kRegexpLike: return "regexp_like";
    case ScalarFunction::kRegexpExtract: return "regexp_extract";
    case ScalarFunction::kRegexpReplace: return "regexp_replace";
    case ScalarFunction::kRegexpCount: return "regexp_count";
    case ScalarFunction::kRegexpPosition: return "regexp_position";
    case ScalarFunction::kUrlExtractHost: return "url_extract_host";
    case ScalarFunction::kUrlExtractPath: return "url_extract_path";
    case ScalarFunction::kUrlExtractProtocol: return "url_extract_protocol";
    case ScalarFunction::kUrlExtractQuery: return "url_extract_query";
    case ScalarFunction::kUrlExtractFragment: return "url_extract_fragment";
    case ScalarFunction::kUrlExtractPort: return "url_extract_port";
    case ScalarFunction::kUrlExtractParameter: return "url_extract_parameter";
    case ScalarFunction::kFromUnixtime: return "from_unixtime";
    case ScalarFunction::kToUnixtime: return "to_unixtime";
    case ScalarFunction::kDateFormat: return "date_format";
    case ScalarFunction::kDateParse: return "date_parse";
    case ScalarFunction::kFormatDatetime: return "format_datetime";
    case ScalarFunction::kWidthBucket: return "width_bucket";
    case ScalarFunction::kRandom: return "random";
    case ScalarFunction::kTry: return "try";
    case ScalarFunction::kSin: return "sin";
    case ScalarFunction::kCos: return "cos";
    case ScalarFunction::kTan: return "tan";
    case ScalarFunction::kAsin: return "asin";
    case ScalarFunction::kAcos: return "acos";
    case ScalarFunction::kAtan: return "atan";
    case ScalarFunction::kSinh: return "sinh";
    case ScalarFunction::kCosh: return "cosh";
    case ScalarFunction::kTanh: return "tanh";
    case ScalarFunction::kAtan2: return "atan2";
    case ScalarFunction::kIsNan: return "is_nan";
    case ScalarFunction::kIsFinite: return "is_finite";
    case ScalarFunction::kIsInfinite: return "is_infinite";
    case ScalarFunction::kBitwiseAnd: return "bitwise_and";
    case ScalarFunction::kBitwiseOr: return "bitwise_or";
    case ScalarFunction::kBitwiseXor: return "bitwise_xor";
    case ScalarFunction::kBitwiseNot: return "bitwise_not";
    case ScalarFunction::kBitCount: return "bit_count";
    case ScalarFunction::kJsonExtractScalar: return "json_extract_scalar";
    case ScalarFunction::kJsonExtract: return "json_extract";
    case ScalarFunction::kJsonArrayLength: return "json_array_length";
    case ScalarFunction::kJsonSize: return "json_size";
    case ScalarFunction::kJsonArrayGet: return "json_array_get";
    case ScalarFunction::kJsonParse: return "json_parse";
    case ScalarFunction::kJsonFormat: return "json_format";
    case ScalarFunction::kIsJsonScalar: return "is_json_scalar";
    case ScalarFunction::kNormalCdf: return "normal_cdf";
    case ScalarFunction::kInverseNormalCdf: return "inverse_normal_cdf";
    case ScalarFunction::kCauchyCdf: return "cauchy_cdf";
    case ScalarFunction::kInverseCauchyCdf: return "inverse_cauchy_cdf";
    case ScalarFunction::kWeibullCdf: return "weibull_cdf";
    case ScalarFunction::kInverseWeibullCdf: return "inverse_weibull_cdf";
    case ScalarFunction::kBetaCdf: return "beta_cdf";
    case ScalarFunction::kInverseBetaCdf: return "inverse_beta_cdf";
    case ScalarFunction::kChiSquaredCdf: return "chi_squared_cdf";
    case ScalarFunction::kInverseChiSquaredCdf: return "inverse_chi_squared_cdf";
    case ScalarFunction::kPoissonCdf: return "poisson_cdf";
    case ScalarFunction::kInversePoissonCdf: return "inverse_poisson_cdf";
    case ScalarFunction::kBinomialCdf: return "binomial_cdf";
    case ScalarFunction::kInverseBinomialCdf: return "inverse_binomial_cdf";
    case ScalarFunction::kWilsonIntervalLower: return "wilson_interval_lower";
    case ScalarFunction::kWilsonIntervalUpper: return "wilson_interval_upper";
    case ScalarFunction::kFromBase: return "from_base";
    case ScalarFunction::kToBase: return "to_base";
    case ScalarFunction::kBitwiseShiftLeft: return "bitwise_shift_left";
    case ScalarFunction::kBitwiseLogicalShiftRight: return "bitwise_logical_shift_right";
    case ScalarFunction::kBitwiseArithmeticShiftRight: return "bitwise_arithmetic_shift_right";
    case ScalarFunction::kBitwiseLeftShift: return "bitwise_left_shift";
    case ScalarFunction::kBitwiseRightShift: return "bitwise_right_shift";
    case ScalarFunction::kBitwiseRightShiftArithmetic: return "bitwise_right_shift_arithmetic";
    case ScalarFunction::kReplaceFirst: return "replace_first";
    case ScalarFunction::kStrrpos: return "strrpos";
    case ScalarFunction::kTrail: return "trail";
    case ScalarFunction::kUrlEncode: return "url_encode";
    case ScalarFunction::kUrlDecode: return "url_decode";
    case ScalarFunction::kJsonArrayContains: return "json_array_contains";
    case ScalarFunction::kFromIso8601Date: return "from_iso8601_date";
    case ScalarFunction::kToIso8601: return "to_iso8601";
    case ScalarFunction::kToMilliseconds: return "to_milliseconds";
    case ScalarFunction::kParseDuration: return "parse_duration";
    case ScalarFunction::kYearOfWeek: return "year_of_week";
    case ScalarFunction::kToUtf8: return "to_utf8";
    case ScalarFunction::kFromUtf8: return "from_utf8";
    case ScalarFunction::kToHex: return "to_hex";
    case ScalarFunction::kFromHex: return "from_hex";
    case ScalarFunction::kToBase64: return "to_base64";
    case ScalarFunction::kFromBase64: return "from_base64";
    case ScalarFunction::kToBase64Url: return "to_base64url";
    case ScalarFunction::kFromBase64Url: return "from_base64url";
    case ScalarFunction::kMd5: return "md5";
    case ScalarFunction::kSha1: return "sha1";
    case ScalarFunction::kSha256: return "sha256";
    case ScalarFunction::kSha512: return "sha512";
    case ScalarFunction::kXxhash64: return "xxhash64";
    case ScalarFunction::kCrc32: return "crc32";
    case ScalarFunction::kToBigEndian64: return "to_big_endian_64";
    case ScalarFunction::kFromBigEndian64: return "from_big_endian_64";
    case ScalarFunction::kToBigEndian32: return "to_big_endian_32";
    case ScalarFunction::kFromBigEndian32: return "from_big_endian_32";
    case ScalarFunction::kWithTimezone: return "with_timezone";
    case ScalarFunction::kAtTimezone: return "at_timezone";
    case ScalarFunction::kTimezoneHour: return "timezone_hour";
    case ScalarFunction::kTimezoneMinute: return "timezone_minute";
    case ScalarFunction::kFromUnixtimeTz: return "from_unixtime";
    case ScalarFunction::kTzLocal: return "local_timestamp";
    case ScalarFunction::kTzInstant: return "utc_timestamp";
    case ScalarFunction::kTzWithLocal: return "with_local_timestamp";
    case ScalarFunction::kTzWithInstant: return "with_utc_timestamp";
    case ScalarFunction::kFromIso8601Timestamp: return "from_iso8601_timestamp";
    case ScalarFunction::kArrayConstructor: return "array";
    case ScalarFunction::kRowConstructor: return "row";
    case ScalarFunction::kMapFromArrays: return "map";
    case ScalarFunction::kSubscript: return "subscript";
    case ScalarFunction::kElementAt: return "element_at";
    case ScalarFunction::kRowField: return "field";
    case ScalarFunction::kCardinality: return "cardinality";
    case ScalarFunction::kContains: return "contains";
    case ScalarFunction::kArrayJoin: return "array_join";
    case ScalarFunction::kArrayDistinct: return "array_distinct";
    case ScalarFunction::kArraySort: return "array_sort";
    case ScalarFunction::kArrayPosition: return "array_position";
    case ScalarFunction::kArrayMax: return "array_max";
    case ScalarFunction::kArrayMin: return "array_min";
    case ScalarFunction::kSlice: return "slice";
    case ScalarFunction::kArrayConcat: return "concat";
    case ScalarFunction::kSequence: return "sequence";
    case ScalarFunction::kMapKeys: return "map_keys";
    case ScalarFunction::kMapValues: return "map_values";
    case ScalarFunction::kMapFromEntries: return "map_from_entries";
    case ScalarFunction::kSplit: return "split";
    case ScalarFunction::kTransform: return "transform";
    case ScalarFunction::kFilter: return "filter";
    case ScalarFunction::kReduce: return "reduce";
    case ScalarFunction::kRemainder: return "remainder";
    case ScalarFunction::kCosineSimilarity: return "cosine_similarity";
    case ScalarFunction::kBitLength: return "bit_length";
    case ScalarFunction::kJaroWinklerSimilarity: return "jarowinkler_similarity";
    case ScalarFunction::kLongestCommonPrefix: return "longest_common_prefix";
    case ScalarFunction::kSplitToMap: return "split_to_map";
    case ScalarFunction::kSplitToMultimap: return "split_to_multimap";
    case ScalarFunction::kWordStem: return "word_stem";
    case ScalarFunction::kNormalize: return "normalize";
    case ScalarFunction::kKeySamplingPercent: return "key_sampling_percent";
    case ScalarFunction::kRegexpExtractAll: return "regexp_extract_all";
    case ScalarFunction::kRegexpSplit: return "regexp_split";
    case ScalarFunction::kToIeee754_32: return "to_ieee754_32";
    case ScalarFunction::kFromIeee754_32: return "from_ieee754_32";
    case ScalarFunction::kToIeee754_64: return "to_ieee754_64";
    case ScalarFunction::kFromIeee754_64: return "from_ieee754_64";
    case ScalarFunction::kSpookyHashV2_32: return "spooky_hash_v2_32";
    case ScalarFunction::kSpookyHashV2_64: return "spooky_hash_v2_64";
    case ScalarFunction::kHmacMd5: return "hmac_md5";
    case ScalarFunction::kHmacSha1: return "hmac_sha1";
    case ScalarFunction::kHmacSha256: return "hmac_sha256";
    case ScalarFunction::kHmacSha512: return "hmac_sha512";
    case ScalarFunction::kParseDatetime: return "parse_datetime";
    // Array and map functions (issue 15)
    case ScalarFunction::kAllMatch: return "all_match";
    case ScalarFunction::kAnyMatch: return "any_match";
    case ScalarFunction::kNoneMatch: return "none_match";
    case ScalarFunction::kArrayAverage: return "array_average";
    case ScalarFunction::kArrayCumSum: return "array_cum_sum";
    case ScalarFunction::kArrayDuplicates: return "array_duplicates";
    case ScalarFunction::kArrayExcept: return "array_except";
    case ScalarFunction::kArrayIntersect: return "array_intersect";
    case ScalarFunction::kArrayUnion: return "array_union";
    case ScalarFunction::kArrayFrequency: return "array_frequency";
    case ScalarFunction::kArrayHasDuplicates: return "array_has_duplicates";
    case ScalarFunction::kArrayLeastFrequent: return "array_least_frequent";
    case ScalarFunction::kArrayMostFrequent: return "array_most_frequent";
    case ScalarFunction::kArrayMaxBy: return "array_max_by";
    case ScalarFunction::kArrayMinBy: return "array_min_by";
    case ScalarFunction::kArrayNormalize: return "array_normalize";
    case ScalarFunction::kArrayRemove: return "array_remove";
    case ScalarFunction::kArraySortDesc: return "array_sort_desc";
    case ScalarFunction::kArraySum: return "array_sum";
    case ScalarFunction::kArrayTopN: return "array_top_n";
    case ScalarFunction::kArraysOverlap: return "arrays_overlap";
    case ScalarFunction::kCombinations: return "combinations";
    case ScalarFunction::kFlatten: return "flatten";
    case ScalarFunction::kFindFirst: return "find_first";
    case ScalarFunction::kFindFirstIndex: return "find_first_index";
    case ScalarFunction::kNgrams: return "ngrams";
    case ScalarFunction::kRemoveNulls: return "remove_nulls";
    case ScalarFunction::kRepeat: return "repeat";
    case ScalarFunction::kShuffle: return "shuffle";
    case ScalarFunction::kTrimArray: return "trim_array";
    case ScalarFunction::kZip: return "zip";
    case ScalarFunction::kZipWith: return "zip_with";
    case ScalarFunction::kArraySplitIntoChunks: return "array_split_into_chunks";
    case ScalarFunction::kArrayTranspose: return "array_transpose";
    case ScalarFunction::kAllKeysMatch: return "all_keys_match";
    case ScalarFunction::kAnyKeysMatch: return "any_keys_match";
    case ScalarFunction::kNoKeysMatch: return "no_keys_match";
    case ScalarFunction::kAnyValuesMatch: return "any_values_match";
    case ScalarFunction::kNoValuesMatch: return "no_values_match";
    case ScalarFunction::kMultimapFromEntries: return "multimap_from_entries";
    case ScalarFunction::kMapEntries: return "map_entries";
    case ScalarFunction::kMapConcat: return "map_concat";
    case ScalarFunction::kMapFilter: return "map_filter";
    case ScalarFunction::kMapRemoveNullValues: return "map_remove_null_values";
    case ScalarFunction::kMapSubset: return "map_subset";
    case ScalarFunction::kMapKeyExists: return "map_key_exists";
    case ScalarFunction::kMapTopNKeys: return "map_top_n_keys";
    case ScalarFunction::kMapKeysByTopNValues: return "map_keys_by_top_n_values";
    case ScalarFunction::kMapTopN: return "map_top_n";
    case ScalarFunction::kMapTopNValues: return "map_top_n_values";
    case ScalarFunction::kMapNormalize: return "map_normalize";
    case ScalarFunction::kMapZipWith: return "map_zip_with";
    case ScalarFunction::kTransformKeys: return "transform_keys";
    case ScalarFunction::kTransformValues: return "transform_values";
    case ScalarFunction::kMapIntKeysToArray: return "map_int_keys_to_array";
    case ScalarFunction::kArrayToMapIntKeys: return "array_to_map_int_keys";
  }
  return "?";
}

bool is_lambda_function(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kTransform:
    case ScalarFunction::kFilter:
    case ScalarFunction::kReduce:
    case ScalarFunction::kAllMatch:
    case ScalarFunction::kAnyMatch:
    case ScalarFunction::kNoneMatch:
    case ScalarFunction::kArrayMaxBy:
    case ScalarFunction::kArrayMinBy:
    case ScalarFunction::kFindFirst:
    case ScalarFunction::kFindFirstIndex:
    case ScalarFunction::kZipWith:
    case ScalarFunction::kAllKeysMatch:
    case ScalarFunction::kAnyKeysMatch:
    case ScalarFunction::kNoKeysMatch:
    case ScalarFunction::kAnyValuesMatch:
    case ScalarFunction::kNoValuesMatch:
    case ScalarFunction::kMapFilter:
    case ScalarFunction::kMapZipWith:
    case ScalarFunction::kTransformKeys:
    case ScalarFunction::kTransformValues: return true;
    default: return false;
  }
}

bool is_deterministic(ScalarFunction f) { return f != ScalarFunction::kRandom && f != ScalarFunction::kShuffle; }

namespace {

bool is_infix(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kAdd:
    case ScalarFunction::kSubtract:
    case ScalarFunction::kMultiply:
    case ScalarFunction::kDivide:
    case ScalarFunction::kModulo:
    case ScalarFunction::kEqual:
    case ScalarFunction::kNotEqual:
    case ScalarFunction::kLess:
    case ScalarFunction::kLessEqual:
    case ScalarFunction::kGreater:
    case ScalarFunction::kGreaterEqual:
    case ScalarFunction::kIsDistinctFrom:
    case ScalarFunction::kIsNotDistinctFrom:
    case ScalarFunction::kConcat:
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval:
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateDiffDays:
    case ScalarFunction::kTimestampDiff:
    case ScalarFunction::kDateSubtractDays:
    case ScalarFunction::kIntervalAdd: return true;
    default: return false;
  }
}

std::string join_children(const Expr& e, const char* separator, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < e.children.size(); ++i) {
    if (i > from) out += separator;
    out += e.children[i]->to_string();
  }
  return out;
}

}  // namespace

std::string Expr::to_string() const {
  switch (kind) {
    case ExprKind::kConstant:
      if (type.id() == TypeId::kVarbinary && !constant.is_null()) {
        std::string hex = constant.to_string();
        std::erase(hex, ' ');
        return "X'" + hex + "'";
      }
      return type.id() == TypeId::kVarchar && !constant.is_null() ? "'" + constant.to_string() + "'"
                                                                  : constant.to_string();
    case ExprKind::kColumnRef:
      return std::string(outer_depth > 0 ? "outer." : "") + "#" + std::to_string(column_index) +
             (name.empty() ? "" : " " + name);
    case ExprKind::kFunction:
      if (is_infix(function) && children.size() == 2) {
        return "(" + children[0]->to_string() + " " + scalar_function_name(function) + " " +
               children[1]->to_string() + ")";
      }
      if ((function == ScalarFunction::kLike || function == ScalarFunction::kNotLike) && children.size() >= 2) {
        return "(" + children[0]->to_string() + " " + scalar_function_name(function) + " " +
               children[1]->to_string() + ")";
      }
      return std::string(scalar_function_name(function)) + "(" + join_children(*this, ", ") + ")";
    case ExprKind::kCast: return "CAST(" + children[0]->to_string() + " AS " + type.to_string() + ")";
    case ExprKind::kCase: {
      std::string out = "CASE";
      for (size_t i = 0; i + 1 < children.size(); i += 2) {
        out += " WHEN " + children[i]->to_string() + " THEN " + children[i + 1]->to_string();
      }
      return out + " ELSE " + children.back()->to_string() + " END";
    }
    case ExprKind::kAnd: return "(" + join_children(*this, " AND ") + ")";
    case ExprKind::kOr: return "(" + join_children(*this, " OR ") + ")";
    case ExprKind::kNot: return "(NOT " + children[0]->to_string() + ")";
    case ExprKind::kIsNull: return "(" + children[0]->to_string() + " IS NULL)";
    case ExprKind::kIsNotNull: return "(" + children[0]->to_string() + " IS NOT NULL)";
    case ExprKind::kInList: return "(" + children[0]->to_string() + " IN (" + join_children(*this, ", ", 1) + "))";
    case ExprKind::kSubquery: return "(scalar subquery)";
    case ExprKind::kLambda: return "(" + name + ") -> " + children[0]->to_string();
    case ExprKind::kLambdaParam: return name;
  }
  return "?";
}

ExprPtr make_constant(Value value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kConstant;
  e->type = value.type();
  e->constant = std::move(value);
  return e;
}

ExprPtr make_column_ref(size_t index, LogicalType type, std::string name) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumnRef;
  e->type = type;
  e->column_index = index;
  e->name = std::move(name);
  return e;
}

ExprPtr make_function(ScalarFunction f, LogicalType result, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kFunction;
  e->type = result;
  e->function = f;
  e->children = std::move(args);
  return e;
}

ExprPtr make_cast(ExprPtr child, LogicalType target) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCast;
  e->type = target;
  e->children = {std::move(child)};
  return e;
}

ExprPtr make_node(ExprKind kind, LogicalType result, std::vector<ExprPtr> children) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = result;
  e->children = std::move(children);
  return e;
}

}  // namespace kestrel::plan
