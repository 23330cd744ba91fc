#include "planner/functions/resolve_function.hpp"

#include <algorithm>

#include "planner/functions/resolve_internal.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

namespace detail {

void no_match(ScalarFunction f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  const std::string name = scalar_function_name(f);
  const bool is_operator = !name.empty() && !(name[0] >= 'a' && name[0] <= 'z') && name != "negate";
  std::string message;
  if (is_operator && args.size() == 2) {
    message = "no operator matches " + args[0].to_string() + " " + name + " " + args[1].to_string();
  } else if (f == ScalarFunction::kNegate || f == ScalarFunction::kIntervalNegate) {
    message = "no operator matches -" + (args.empty() ? std::string() : args[0].to_string());
  } else {
    message = "no function matches " + name + "(";
    for (size_t i = 0; i < args.size(); ++i) message += (i ? ", " : "") + args[i].to_string();
    message += ")";
  }
  throw BinderError(message, pos, "42883");
}

}  // namespace detail

namespace {

using F = ScalarFunction;
using detail::is_integral_or_null;
using detail::is_null_type;
using detail::is_numeric_or_null;
using detail::no_match;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kVarbinary(TypeId::kVarbinary);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kDouble(TypeId::kDouble);
const LogicalType kBoolean(TypeId::kBoolean);

bool is_string_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }
bool is_binary(const LogicalType& t) { return t.id() == TypeId::kVarbinary; }
bool is_binary_or_null(const LogicalType& t) { return is_binary(t) || is_null_type(t); }

void require_count(F f, const std::vector<LogicalType>& args, size_t lo, size_t hi,
                   std::optional<SourcePosition> pos) {
  if (args.size() < lo || args.size() > hi) no_match(f, args, pos);
}

ResolvedFunction resolve_comparison(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  require_count(f, args, 2, 2, pos);
  std::optional<LogicalType> t = common_super_type(args[0], args[1]);
  if (!t) no_match(f, args, pos);
  if (is_null_type(*t)) t = kBoolean;
  // JSON values compare for equality only (their canonical text), as in Presto.
  const bool ordering = f == F::kLess || f == F::kLessEqual || f == F::kGreater || f == F::kGreaterEqual;
  if (ordering && !is_orderable(*t)) no_match(f, args, pos);
  return {f, kBoolean, {*t, *t}};
}

/// coalesce, greatest, least, nullif: every argument cast to the common super type, which is the result.
ResolvedFunction resolve_uniform(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  if (args.empty() || (f == F::kNullIf && args.size() != 2)) no_match(f, args, pos);
  std::optional<LogicalType> t = common_super_type(args);
  if (!t) no_match(f, args, pos);
  if (is_null_type(*t)) t = kVarchar;
  return {f, *t, std::vector<LogicalType>(args.size(), *t)};
}

ResolvedFunction resolve_string(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  auto all_strings = [&](size_t lo, size_t hi) {
    require_count(f, args, lo, hi, pos);
    if (!std::all_of(args.begin(), args.end(), is_string_or_null)) no_match(f, args, pos);
    return std::vector<LogicalType>(args.size(), kVarchar);
  };
  switch (f) {
    case F::kConcat:
      if (args.empty()) no_match(f, args, pos);
      if (std::any_of(args.begin(), args.end(), is_binary)) {
        // VARBINARY values join only other VARBINARY values (no text is cast to bytes, nor bytes to text).
        if (!std::all_of(args.begin(), args.end(), is_binary_or_null)) no_match(f, args, pos);
        return {f, kVarbinary, std::vector<LogicalType>(args.size(), kVarbinary)};
      }
      return {f, kVarchar, std::vector<LogicalType>(args.size(), kVarchar)};
    case F::kLike:
    case F::kNotLike: return {f, kBoolean, all_strings(2, 3)};
    case F::kLength:
      if (args.size() == 1 && is_binary(args[0])) return {f, kBigInt, {kVarbinary}};
      return {f, kBigInt, all_strings(1, 1)};
    case F::kUpper:
    case F::kLower: return {f, kVarchar, all_strings(1, 1)};
    case F::kTrim:
    case F::kLTrim:
    case F::kRTrim: return {f, kVarchar, all_strings(1, 2)};
    case F::kPosition: return {f, kBigInt, all_strings(2, 2)};
    case F::kStartsWith: return {f, kBoolean, all_strings(2, 2)};
    case F::kReplace: return {f, kVarchar, all_strings(3, 3)};
    case F::kSubstring: {
      require_count(f, args, 2, 3, pos);
      if (!is_string_or_null(args[0]) && !is_binary(args[0])) no_match(f, args, pos);
      for (size_t i = 1; i < args.size(); ++i) {
        if (!is_integral_or_null(args[i])) no_match(f, args, pos);
      }
      std::vector<LogicalType> types(args.size(), kBigInt);
      types[0] = is_binary(args[0]) ? kVarbinary : kVarchar;
      return {f, types[0], types};
    }
    default: no_match(f, args, pos);
  }
}

/// round/floor/ceil of DECIMAL(p,s) without digits: DECIMAL(p - s + min(s, 1), 0).
LogicalType decimal_to_integer_digits(const LogicalType& t) {
  return LogicalType::decimal(std::min(kMaxDecimalPrecision, t.precision() - t.scale() + std::min(t.scale(), 1)), 0);
}

ResolvedFunction resolve_math(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  const size_t max_args = f == F::kRound ? 2 : f == F::kPower ? 2 : 1;
  const size_t min_args = f == F::kPower ? 2 : 1;
  require_count(f, args, min_args, max_args, pos);
  if (!std::all_of(args.begin(), args.end(), is_numeric_or_null)) no_match(f, args, pos);
  switch (f) {
    case F::kSqrt:
    case F::kLn:
    case F::kLog10:
    case F::kExp:
    case F::kPower: return {f, kDouble, std::vector<LogicalType>(args.size(), kDouble)};
    default: break;
  }
  const LogicalType x = is_null_type(args[0]) ? kInteger : args[0];
  if (f == F::kRound && args.size() == 2) {
    if (!is_integral_or_null(args[1])) no_match(f, args, pos);
    if (x.id() == TypeId::kDecimal) {
      return {f, LogicalType::decimal(std::min(kMaxDecimalPrecision, x.precision() + 1), x.scale()), {x, kInteger}};
    }
    return {f, x, {x, kInteger}};
  }
  if (x.id() != TypeId::kDecimal) return {f, x, {x}};
  switch (f) {
    case F::kSign: return {f, LogicalType::decimal(1, 0), {x}};
    case F::kRound:
    case F::kFloor:
    case F::kCeil: return {f, decimal_to_integer_digits(x), {x}};
    default: return {f, x, {x}};
  }
}

ResolvedFunction resolve_datetime(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  require_count(f, args, 2, 2, pos);
  if (!is_string_or_null(args[0])) no_match(f, args, pos);
  const TypeId x = args[1].id();
  if (f == F::kExtract) {
    if (x != TypeId::kDate && x != TypeId::kTimestamp && x != TypeId::kInterval) no_match(f, args, pos);
    return {f, kBigInt, {kVarchar, args[1]}};
  }
  if (x != TypeId::kDate && x != TypeId::kTimestamp) no_match(f, args, pos);
  return {f, args[1], {kVarchar, args[1]}};
}

}  // namespace

ResolvedFunction resolve_scalar_function(ScalarFunction f, const std::vector<LogicalType>& args,
                                         std::optional<SourcePosition> pos) {
  switch (f) {
    case F::kAdd:
    case F::kSubtract:
    case F::kMultiply:
    case F::kDivide:
    case F::kModulo:
    case F::kNegate:
    case F::kDateAddInterval:
    case F::kDateSubtractInterval:
    case F::kDateAddDays:
    case F::kDateSubtractDays:
    case F::kDateDiffDays:
    case F::kTimestampDiff:
    case F::kIntervalAdd:
    case F::kIntervalNegate: return detail::resolve_arithmetic(f, args, pos);
    case F::kEqual:
    case F::kNotEqual:
    case F::kLess:
    case F::kLessEqual:
    case F::kGreater:
    case F::kGreaterEqual:
    case F::kIsDistinctFrom:
    case F::kIsNotDistinctFrom: return resolve_comparison(f, args, pos);
    case F::kConcat:
    case F::kLike:
    case F::kNotLike:
    case F::kLength:
    case F::kUpper:
    case F::kLower:
    case F::kTrim:
    case F::kLTrim:
    case F::kRTrim:
    case F::kSubstring:
    case F::kPosition:
    case F::kStartsWith:
    case F::kReplace: return resolve_string(f, args, pos);
    case F::kAbs:
    case F::kRound:
    case F::kFloor:
    case F::kCeil:
    case F::kSign:
    case F::kSqrt:
    case F::kPower:
    case F::kLn:
    case F::kLog10:
    case F::kExp: return resolve_math(f, args, pos);
    case F::kExtract:
    case F::kDateTrunc: return resolve_datetime(f, args, pos);
    case F::kCoalesce:
    case F::kNullIf:
    case F::kGreatest:
    case F::kLeast: return resolve_uniform(f, args, pos);
    case F::kLpad:
    case F::kRpad:
    case F::kReverse:
    case F::kSplitPart:
    case F::kChr:
    case F::kCodepoint:
    case F::kTruncate:
    case F::kCbrt:
    case F::kLog2:
    case F::kDateAdd:
    case F::kDateDiff:
    case F::kLastDayOfMonth:
    case F::kFromUnixtime:
    case F::kToUnixtime:
    case F::kDateFormat:
    case F::kDateParse:
    case F::kFormatDatetime:
    case F::kWidthBucket:
    case F::kRandom:
    case F::kTry:
    case F::kSin:
    case F::kCos:
    case F::kTan:
    case F::kAsin:
    case F::kAcos:
    case F::kAtan:
    case F::kSinh:
    case F::kCosh:
    case F::kTanh:
    case F::kAtan2:
    case F::kIsNan:
    case F::kIsFinite:
    case F::kIsInfinite:
    case F::kBitwiseAnd:
    case F::kBitwiseOr:
    case F::kBitwiseXor:
    case F::kBitwiseNot:
    case F::kBitCount: return detail::resolve_presto(f, args, pos);
    case F::kJsonExtractScalar:
    case F::kJsonExtract:
    case F::kJsonArrayLength:
    case F::kJsonSize:
    case F::kJsonArrayGet:
    case F::kJsonParse:
    case F::kJsonFormat:
    case F::kIsJsonScalar: return detail::resolve_presto_text(f, args, pos);
    case F::kEndsWith:
    case F::kLevenshteinDistance:
    case F::kHammingDistance:
    case F::kRegexpLike:
    case F::kRegexpExtract:
    case F::kRegexpReplace:
    case F::kRegexpCount:
    case F::kRegexpPosition:
    case F::kUrlExtractHost:
    case F::kUrlExtractPath:
    case F::kUrlExtractProtocol:
    case F::kUrlExtractQuery:
    case F::kUrlExtractFragment:
    case F::kUrlExtractPort:
    case F::kUrlExtractParameter: return detail::resolve_presto_text(f, args, pos);
    case F::kNormalCdf:
    case F::kInverseNormalCdf:
    case F::kCauchyCdf:
    case F::kInverseCauchyCdf:
    case F::kWeibullCdf:
    case F::kInverseWeibullCdf:
    case F::kBetaCdf:
    case F::kInverseBetaCdf:
    case F::kChiSquaredCdf:
    case F::kInverseChiSquaredCdf:
    case F::kPoissonCdf:
    case F::kInversePoissonCdf:
    case F::kBinomialCdf:
    case F::kInverseBinomialCdf:
    case F::kWilsonIntervalLower:
    case F::kWilsonIntervalUpper:
    case F::kFromBase:
    case F::kToBase:
    case F::kBitwiseShiftLeft:
    case F::kBitwiseLogicalShiftRight:
    case F::kBitwiseArithmeticShiftRight:
    case F::kBitwiseLeftShift:
    case F::kBitwiseRightShift:
    case F::kBitwiseRightShiftArithmetic:
    case F::kReplaceFirst:
    case F::kStrrpos:
    case F::kTrail:
    case F::kUrlEncode:
    case F::kUrlDecode:
    case F::kJsonArrayContains:
    case F::kFromIso8601Date:
    case F::kToIso8601:
    case F::kToMilliseconds:
    case F::kParseDuration:
    case F::kYearOfWeek: return detail::resolve_presto_more(f, args, pos);
    case F::kToUtf8:
    case F::kFromUtf8:
    case F::kToHex:
    case F::kFromHex:
    case F::kToBase64:
    case F::kFromBase64:
    case F::kToBase64Url:
    case F::kFromBase64Url:
    case F::kMd5:
    case F::kSha1:
    case F::kSha256:
    case F::kSha512:
    case F::kXxhash64:
    case F::kCrc32:
    case F::kToBigEndian64:
    case F::kFromBigEndian64:
    case F::kToBigEndian32:
    case F::kFromBigEndian32: return detail::resolve_binary(f, args, pos);
    case F::kWithTimezone:
    case F::kAtTimezone:
    case F::kTimezoneHour:
    case F::kTimezoneMinute:
    case F::kFromUnixtimeTz:
    case F::kTzLocal:
    case F::kTzInstant:
    case F::kTzWithLocal:
    case F::kTzWithInstant:
    case F::kFromIso8601Timestamp: return detail::resolve_timestamp_tz(f, args, pos);
    // The array, map, row and lambda functions are typed where they are bound (binder/bind_nested*.cpp).
    case F::kArrayConstructor:
    case F::kRowConstructor:
    case F::kMapFromArrays:
    case F::kSubscript:
    case F::kElementAt:
    case F::kRowField:
    case F::kCardinality:
    case F::kContains:
    case F::kArrayJoin:
    case F::kArrayDistinct:
    case F::kArraySort:
    case F::kArrayPosition:
    case F::kArrayMax:
    case F::kArrayMin:
    case F::kSlice:
    case F::kArrayConcat:
    case F::kSequence:
    case F::kMapKeys:
    case F::kMapValues:
    case F::kMapFromEntries:
    case F::kSplit:
    case F::kTransform:
    case F::kFilter:
    case F::kReduce:
    // Array and map functions (issue 15)
    case F::kAllMatch:
    case F::kAnyMatch:
    case F::kNoneMatch:
    case F::kArrayAverage:
    case F::kArrayCumSum:
    case F::kArrayDuplicates:
    case F::kArrayExcept:
    case F::kArrayIntersect:
    case F::kArrayUnion:
    case F::kArrayFrequency:
    case F::kArrayHasDuplicates:
    case F::kArrayLeastFrequent:
    case F::kArrayMostFrequent:
    case F::kArrayMaxBy:
    case F::kArrayMinBy:
    case F::kArrayNormalize:
    case F::kArrayRemove:
    case F::kArraySortDesc:
    case F::kArraySum:
    case F::kArrayTopN:
    case F::kArraysOverlap:
    case F::kCombinations:
    case F::kFlatten:
    case F::kFindFirst:
    case F::kFindFirstIndex:
    case F::kNgrams:
    case F::kRemoveNulls:
    case F::kRepeat:
    case F::kShuffle:
    case F::kTrimArray:
    case F::kZip:
    case F::kZipWith:
    case F::kArraySplitIntoChunks:
    case F::kArrayTranspose:
    case F::kAllKeysMatch:
    case F::kAnyKeysMatch:
    case F::kNoKeysMatch:
    case F::kAnyValuesMatch:
    case F::kNoValuesMatch:
    case F::kMultimapFromEntries:
    case F::kMapEntries:
    case F::kMapConcat:
    case F::kMapFilter:
    case F::kMapRemoveNullValues:
    case F::kMapSubset:
    case F::kMapKeyExists:
    case F::kMapTopNKeys:
    case F::kMapKeysByTopNValues:
    case F::kMapTopN:
    case F::kMapTopNValues:
    case F::kMapNormalize:
    case F::kMapZipWith:
    case F::kTransformKeys:
    case F::kTransformValues:
    case F::kMapIntKeysToArray:
    case F::kArrayToMapIntKeys:
      break;
    // More scalar functions (issue 15).
    case F::kRemainder:
    case F::kCosineSimilarity:
    case F::kBitLength:
    case F::kJaroWinklerSimilarity:
    case F::kLongestCommonPrefix:
    case F::kSplitToMap:
    case F::kSplitToMultimap:
    case F::kWordStem:
    case F::kNormalize:
    case F::kKeySamplingPercent:
    case F::kRegexpExtractAll:
    case F::kRegexpSplit:
    case F::kToIeee754_32:
    case F::kFromIeee754_32:
    case F::kToIeee754_64:
    case F::kFromIeee754_64:
    case F::kSpookyHashV2_32:
    case F::kSpookyHashV2_64:
    case F::kHmacMd5:
    case F::kHmacSha1:
    case F::kHmacSha256:
    case F::kHmacSha512:
    case F::kParseDatetime: return detail::resolve_presto_extra(f, args, pos);
  }
  no_match(f, args, pos);
}

DatePart resolve_date_part(ScalarFunction f, std::string_view name, std::optional<SourcePosition> pos) {
  std::optional<DatePart> part = parse_date_part(name);
  if (!part) throw BinderError("unknown date part '" + std::string(name) + "'", pos, "22023");
  if (f == ScalarFunction::kDateTrunc && !is_trunc_unit(*part)) {
    throw BinderError("date_trunc does not support unit '" + std::string(name) + "'", pos, "22023");
  }
  return *part;
}

}  // namespace kestrel::plan
