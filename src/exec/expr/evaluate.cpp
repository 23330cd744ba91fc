#include "exec/expr/evaluate.hpp"

#include <string>

#include "common/check.hpp"
#include "exec/expr/dictionary.hpp"
#include "exec/expr/evaluate_gpu_support.hpp"
#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

namespace {

using plan::ExprKind;
using plan::ScalarFunction;

Operand dispatch_function(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  switch (e.function) {
    case ScalarFunction::kAdd:
    case ScalarFunction::kSubtract:
    case ScalarFunction::kMultiply:
    case ScalarFunction::kDivide:
    case ScalarFunction::kModulo:
    case ScalarFunction::kNegate: return arithmetic_kernel(e, args, rows, ctx);
    case ScalarFunction::kEqual:
    case ScalarFunction::kNotEqual:
    case ScalarFunction::kLess:
    case ScalarFunction::kLessEqual:
    case ScalarFunction::kGreater:
    case ScalarFunction::kGreaterEqual:
    case ScalarFunction::kIsDistinctFrom:
    case ScalarFunction::kIsNotDistinctFrom: return comparison_kernel(e, args, rows, ctx);
    case ScalarFunction::kLike:
    case ScalarFunction::kNotLike: return like_kernel(e, args, rows, ctx);
    case ScalarFunction::kConcat:
    case ScalarFunction::kLength:
    case ScalarFunction::kUpper:
    case ScalarFunction::kLower:
    case ScalarFunction::kTrim:
    case ScalarFunction::kLTrim:
    case ScalarFunction::kRTrim:
    case ScalarFunction::kSubstring:
    case ScalarFunction::kPosition:
    case ScalarFunction::kStartsWith:
    case ScalarFunction::kReplace: return string_kernel(e, args, rows, ctx);
    case ScalarFunction::kAbs:
    case ScalarFunction::kRound:
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil:
    case ScalarFunction::kSign:
    case ScalarFunction::kSqrt:
    case ScalarFunction::kPower:
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kExp: return math_kernel(e, args, rows, ctx);
    case ScalarFunction::kExtract:
    case ScalarFunction::kDateTrunc:
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval:
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays:
    case ScalarFunction::kDateDiffDays:
    case ScalarFunction::kTimestampDiff:
    case ScalarFunction::kIntervalAdd:
    case ScalarFunction::kIntervalNegate: return datetime_kernel(e, args, rows, ctx);
    case ScalarFunction::kCoalesce:
    case ScalarFunction::kNullIf:
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast: return conditional_kernel(e, args, rows, ctx);
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad:
    case ScalarFunction::kReverse:
    case ScalarFunction::kSplitPart:
    case ScalarFunction::kChr:
    case ScalarFunction::kCodepoint: return presto_string_kernel(e, args, rows, ctx);
    case ScalarFunction::kTruncate:
    case ScalarFunction::kCbrt:
    case ScalarFunction::kLog2: return math_kernel(e, args, rows, ctx);
    case ScalarFunction::kDateAdd:
    case ScalarFunction::kDateDiff:
    case ScalarFunction::kLastDayOfMonth: return datetime_kernel(e, args, rows, ctx);
    case ScalarFunction::kEndsWith:
    case ScalarFunction::kLevenshteinDistance:
    case ScalarFunction::kHammingDistance: return presto_string_kernel(e, args, rows, ctx);
    case ScalarFunction::kRegexpLike:
    case ScalarFunction::kRegexpExtract:
    case ScalarFunction::kRegexpReplace:
    case ScalarFunction::kRegexpCount:
    case ScalarFunction::kRegexpPosition: return regexp_kernel(e, args, rows, ctx);
    case ScalarFunction::kUrlExtractHost:
    case ScalarFunction::kUrlExtractPath:
    case ScalarFunction::kUrlExtractProtocol:
    case ScalarFunction::kUrlExtractQuery:
    case ScalarFunction::kUrlExtractFragment:
    case ScalarFunction::kUrlExtractPort:
    case ScalarFunction::kUrlExtractParameter: return url_kernel(e, args, rows, ctx);
    case ScalarFunction::kFromUnixtime:
    case ScalarFunction::kToUnixtime:
    case ScalarFunction::kDateFormat:
    case ScalarFunction::kDateParse:
    case ScalarFunction::kFormatDatetime: return presto_datetime_kernel(e, args, rows, ctx);
    case ScalarFunction::kWidthBucket:
    case ScalarFunction::kRandom:
    case ScalarFunction::kSin:
    case ScalarFunction::kCos:
    case ScalarFunction::kTan:
    case ScalarFunction::kAsin:
    case ScalarFunction::kAcos:
    case ScalarFunction::kAtan:
    case ScalarFunction::kSinh:
    case ScalarFunction::kCosh:
    case ScalarFunction::kTanh:
    case ScalarFunction::kAtan2:
    case ScalarFunction::kIsNan:
    case ScalarFunction::kIsFinite:
    case ScalarFunction::kIsInfinite:
    case ScalarFunction::kBitwiseAnd:
    case ScalarFunction::kBitwiseOr:
    case ScalarFunction::kBitwiseXor:
    case ScalarFunction::kBitwiseNot:
    case ScalarFunction::kBitCount: return presto_math_kernel(e, args, rows, ctx);
    case ScalarFunction::kJsonExtractScalar:
    case ScalarFunction::kJsonExtract:
    case ScalarFunction::kJsonArrayLength:
    case ScalarFunction::kJsonSize:
    case ScalarFunction::kJsonArrayGet:
    case ScalarFunction::kJsonParse:
    case ScalarFunction::kJsonFormat:
    case ScalarFunction::kIsJsonScalar:
    case ScalarFunction::kJsonArrayContains: return json_kernel(e, args, rows, ctx);
    case ScalarFunction::kNormalCdf:
    case ScalarFunction::kInverseNormalCdf:
    case ScalarFunction::kCauchyCdf:
    case ScalarFunction::kInverseCauchyCdf:
    case ScalarFunction::kWeibullCdf:
    case ScalarFunction::kInverseWeibullCdf:
    case ScalarFunction::kBetaCdf:
    case ScalarFunction::kInverseBetaCdf:
    case ScalarFunction::kChiSquaredCdf:
    case ScalarFunction::kInverseChiSquaredCdf:
    case ScalarFunction::kPoissonCdf:
    case ScalarFunction::kInversePoissonCdf:
    case ScalarFunction::kBinomialCdf:
    case ScalarFunction::kInverseBinomialCdf:
    case ScalarFunction::kWilsonIntervalLower:
    case ScalarFunction::kWilsonIntervalUpper:
    case ScalarFunction::kFromBase:
    case ScalarFunction::kToBase:
    case ScalarFunction::kBitwiseShiftLeft:
    case ScalarFunction::kBitwiseLogicalShiftRight:
    case ScalarFunction::kBitwiseArithmeticShiftRight:
    case ScalarFunction::kBitwiseLeftShift:
    case ScalarFunction::kBitwiseRightShift:
    case ScalarFunction::kBitwiseRightShiftArithmetic:
    case ScalarFunction::kReplaceFirst:
    case ScalarFunction::kStrrpos:
    case ScalarFunction::kTrail:
    case ScalarFunction::kUrlEncode:
    case ScalarFunction::kUrlDecode:
    case ScalarFunction::kFromIso8601Date:
    case ScalarFunction::kToIso8601:
    case ScalarFunction::kToMilliseconds:
    case ScalarFunction::kParseDuration:
    case ScalarFunction::kYearOfWeek: return presto_more_kernel(e, args, rows, ctx);
    case ScalarFunction::kToUtf8:
    case ScalarFunction::kFromUtf8:
    case ScalarFunction::kToHex:
    case ScalarFunction::kFromHex:
    case ScalarFunction::kToBase64:
    case ScalarFunction::kFromBase64:
    case ScalarFunction::kToBase64Url:
    case ScalarFunction::kFromBase64Url:
    case ScalarFunction::kMd5:
    case ScalarFunction::kSha1:
    case ScalarFunction::kSha256:
    case ScalarFunction::kSha512:
    case ScalarFunction::kXxhash64:
    case ScalarFunction::kCrc32:
    case ScalarFunction::kToBigEndian64:
    case ScalarFunction::kFromBigEndian64:
    case ScalarFunction::kToBigEndian32:
    case ScalarFunction::kFromBigEndian32: return binary_kernel(e, args, rows, ctx);
    case ScalarFunction::kWithTimezone:
    case ScalarFunction::kAtTimezone:
    case ScalarFunction::kTimezoneHour:
    case ScalarFunction::kTimezoneMinute:
    case ScalarFunction::kFromUnixtimeTz:
    case ScalarFunction::kTzLocal:
    case ScalarFunction::kTzInstant:
    case ScalarFunction::kTzWithLocal:
    case ScalarFunction::kTzWithInstant:
    case ScalarFunction::kFromIso8601Timestamp: return timestamp_tz_kernel(e, args, rows, ctx);
    case ScalarFunction::kArrayConstructor:
    case ScalarFunction::kRowConstructor:
    case ScalarFunction::kMapFromArrays:
    case ScalarFunction::kSubscript:
    case ScalarFunction::kElementAt:
    case ScalarFunction::kRowField:
    case ScalarFunction::kCardinality:
    case ScalarFunction::kContains:
    case ScalarFunction::kArrayJoin:
    case ScalarFunction::kArrayDistinct:
    case ScalarFunction::kArraySort:
    case ScalarFunction::kArrayPosition:
    case ScalarFunction::kArrayMax:
    case ScalarFunction::kArrayMin:
    case ScalarFunction::kSlice:
    case ScalarFunction::kArrayConcat:
    case ScalarFunction::kSequence:
    case ScalarFunction::kMapKeys:
    case ScalarFunction::kMapValues:
    case ScalarFunction::kMapFromEntries:
    case ScalarFunction::kSplit: return nested_kernel(e, args, rows, ctx);
    // Array and map functions (issue 15); the lambda ones are evaluated by eval_lambda_function.
    case ScalarFunction::kArrayAverage:
    case ScalarFunction::kArrayCumSum:
    case ScalarFunction::kArrayDuplicates:
    case ScalarFunction::kArrayExcept:
    case ScalarFunction::kArrayIntersect:
    case ScalarFunction::kArrayUnion:
    case ScalarFunction::kArrayFrequency:
    case ScalarFunction::kArrayHasDuplicates:
    case ScalarFunction::kArrayLeastFrequent:
    case ScalarFunction::kArrayMostFrequent:
    case ScalarFunction::kArrayNormalize:
    case ScalarFunction::kArrayRemove:
    case ScalarFunction::kArraySortDesc:
    case ScalarFunction::kArraySum:
    case ScalarFunction::kArrayTopN:
    case ScalarFunction::kArraysOverlap:
    case ScalarFunction::kCombinations:
    case ScalarFunction::kFlatten:
    case ScalarFunction::kNgrams:
    case ScalarFunction::kRemoveNulls:
    case ScalarFunction::kRepeat:
    case ScalarFunction::kShuffle:
    case ScalarFunction::kTrimArray:
    case ScalarFunction::kZip:
    case ScalarFunction::kArraySplitIntoChunks:
    case ScalarFunction::kArrayTranspose:
    case ScalarFunction::kMultimapFromEntries:
    case ScalarFunction::kMapEntries:
    case ScalarFunction::kMapConcat:
    case ScalarFunction::kMapRemoveNullValues:
    case ScalarFunction::kMapSubset:
    case ScalarFunction::kMapKeyExists:
    case ScalarFunction::kMapTopNKeys:
    case ScalarFunction::kMapKeysByTopNValues:
    case ScalarFunction::kMapTopN:
    case ScalarFunction::kMapTopNValues:
    case ScalarFunction::kMapNormalize:
    case ScalarFunction::kMapIntKeysToArray:
    case ScalarFunction::kArrayToMapIntKeys: return more_nested_kernel(e, args, rows, ctx);
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
    case ScalarFunction::kTransformValues:
    case ScalarFunction::kTry: break;  // eval_function evaluates them (eval_try, eval_lambda_function)
    // More scalar functions (issue 15).
    case ScalarFunction::kBitLength:
    case ScalarFunction::kJaroWinklerSimilarity:
    case ScalarFunction::kLongestCommonPrefix:
    case ScalarFunction::kWordStem:
    case ScalarFunction::kNormalize:
    case ScalarFunction::kKeySamplingPercent: return string_extra_kernel(e, args, rows, ctx);
    case ScalarFunction::kSplitToMap:
    case ScalarFunction::kSplitToMultimap:
    case ScalarFunction::kRegexpExtractAll:
    case ScalarFunction::kRegexpSplit: return split_extra_kernel(e, args, rows, ctx);
    case ScalarFunction::kToIeee754_32:
    case ScalarFunction::kFromIeee754_32:
    case ScalarFunction::kToIeee754_64:
    case ScalarFunction::kFromIeee754_64:
    case ScalarFunction::kSpookyHashV2_32:
    case ScalarFunction::kSpookyHashV2_64:
    case ScalarFunction::kHmacMd5:
    case ScalarFunction::kHmacSha1:
    case ScalarFunction::kHmacSha256:
    case ScalarFunction::kHmacSha512: return binary_extra_kernel(e, args, rows, ctx);
    case ScalarFunction::kRemainder:
    case ScalarFunction::kCosineSimilarity: return math_extra_kernel(e, args, rows, ctx);
    case ScalarFunction::kParseDatetime: return parse_datetime_kernel(e, args, rows, ctx);
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

/// Functions that never raise and depend only on their arguments' values: over a dictionary column they can be
/// computed once per dictionary entry.
bool per_entry_safe(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kEqual:
    case ScalarFunction::kNotEqual:
    case ScalarFunction::kLess:
    case ScalarFunction::kLessEqual:
    case ScalarFunction::kGreater:
    case ScalarFunction::kGreaterEqual:
    case ScalarFunction::kLike:
    case ScalarFunction::kNotLike:
    case ScalarFunction::kConcat:
    case ScalarFunction::kLength:
    case ScalarFunction::kUpper:
    case ScalarFunction::kLower:
    case ScalarFunction::kTrim:
    case ScalarFunction::kLTrim:
    case ScalarFunction::kRTrim:
    case ScalarFunction::kSubstring:
    case ScalarFunction::kPosition:
    case ScalarFunction::kStartsWith:
    case ScalarFunction::kReplace:
    case ScalarFunction::kReverse:
    case ScalarFunction::kEndsWith:
    case ScalarFunction::kUrlExtractHost:
    case ScalarFunction::kUrlExtractPath:
    case ScalarFunction::kUrlExtractProtocol:
    case ScalarFunction::kUrlExtractQuery:
    case ScalarFunction::kUrlExtractFragment:
    case ScalarFunction::kUrlExtractPort:
    case ScalarFunction::kUrlExtractParameter:
    case ScalarFunction::kToUtf8:
    case ScalarFunction::kToHex:
    case ScalarFunction::kToBase64:
    case ScalarFunction::kToBase64Url:
    case ScalarFunction::kMd5:
    case ScalarFunction::kSha1:
    case ScalarFunction::kSha256:
    case ScalarFunction::kSha512:
    case ScalarFunction::kXxhash64:
    case ScalarFunction::kCrc32: return true;
    default: return false;
  }
}

/// Whether `f` may be computed once per dictionary entry of its argument `k`: the functions above, and the regular
/// expression functions over their text (their errors come from the pattern and the other constant arguments only,
/// so they do not depend on which entries the rows use).
bool per_entry_safe(ScalarFunction f, size_t k) {
  switch (f) {
    case ScalarFunction::kRegexpLike:
    case ScalarFunction::kRegexpExtract:
    case ScalarFunction::kRegexpReplace:
    case ScalarFunction::kRegexpCount:
    case ScalarFunction::kRegexpPosition: return k == 0;
    default: return per_entry_safe(f);
  }
}

/// The index of the only non-constant argument when it is dictionary-encoded with no more entries than rows.
std::optional<size_t> dictionary_argument(const std::vector<Operand>& args, size_t rows) {
  std::optional<size_t> found;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].constant) continue;
    if (found || !args[i].column->is_dictionary()) return std::nullopt;
    found = i;
  }
  if (found && args[*found].column->dictionary()->length() > rows) return std::nullopt;
  return found;
}

Operand eval_function(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  if (e.function == ScalarFunction::kCoalesce) {
    // An argument that may raise is evaluated only on the rows that reach it: COALESCE as its CASE.
    bool lazy = false;
    for (size_t i = 1; i < e.children.size(); ++i) lazy = lazy || can_raise(*e.children[i]);
    if (lazy) {
      if (const plan::ExprPtr as_case = conditional_as_case(e)) return eval_case(*as_case, input, ctx);
    }
  }
  if (e.function == ScalarFunction::kTry) return eval_try(e, input, ctx);
  if (plan::is_lambda_function(e.function)) return eval_lambda_function(e, input, ctx);
  std::vector<Operand> args;
  args.reserve(e.children.size());
  for (const plan::ExprPtr& child : e.children) args.push_back(eval_operand(*child, input, ctx));
  if (!plan::is_deterministic(e.function)) {
    // random(): a value per row even when every argument is constant.
    for (Operand& a : args) a = plain(a, ctx);
    return dispatch_function(e, args, input.num_rows(), ctx);
  }
  const Shape shape = shape_of(args, input.num_rows());
  if (std::optional<size_t> k = dictionary_argument(args, shape.rows); k && per_entry_safe(e.function, *k)) {
    const Column& encoded = *args[*k].column;
    std::vector<Operand> entry_args = args;
    entry_args[*k] = Operand{encoded.dictionary(), false};
    const size_t entries = encoded.dictionary()->length();
    Operand per_entry = dispatch_function(e, entry_args, entries, ctx);
    return Operand{spread_dictionary_result(encoded, per_entry.column, ctx.memory()), false};
  }
  for (Operand& a : args) a = plain(a, ctx);
  return dispatch_function(e, args, shape.rows, ctx);
}

}  // namespace

Operand plain(const Operand& operand, EvalContext& ctx) {
  if (!operand.column->is_dictionary()) return operand;
  return Operand{decode_dictionary(*operand.column, ctx.memory()), operand.constant};
}

Operand eval_operand(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  switch (e.kind) {
    case ExprKind::kConstant: return Operand{constant_column(e.constant, e.type, ctx.memory()), true};
    case ExprKind::kColumnRef: {
      KESTREL_CHECK_LT(e.column_index, input.num_columns());
      const ColumnPtr& column = input.column(e.column_index);
      KESTREL_CHECK_MSG(column != nullptr, "column #" << e.column_index << " was not provided");
      return Operand{column, false};
    }
    case ExprKind::kFunction: return eval_function(e, input, ctx);
    case ExprKind::kCast: {
      Operand in = plain(eval_operand(*e.children[0], input, ctx), ctx);
      return cast_kernel(in, e.type, in.constant ? 1 : input.num_rows(), ctx);
    }
    case ExprKind::kCase: return eval_case(e, input, ctx);
    case ExprKind::kAnd:
    case ExprKind::kOr: return eval_logic(e, input, ctx);
    case ExprKind::kNot: {
      Operand in = plain(eval_operand(*e.children[0], input, ctx), ctx);
      return not_kernel(in, in.constant ? 1 : input.num_rows(), ctx);
    }
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull: {
      Operand in = eval_operand(*e.children[0], input, ctx);
      return is_null_kernel(in, e.kind == ExprKind::kIsNull, in.constant ? 1 : input.num_rows(), ctx);
    }
    case ExprKind::kInList: return eval_in_list(e, input, ctx);
    case ExprKind::kSubquery:
      throw InternalError("a scalar sub-query reached expression evaluation; it must be computed before the query");
    case ExprKind::kLambdaParam:
      KESTREL_CHECK_LT(e.column_index, ctx.lambda_args.size());
      return Operand{ctx.lambda_args[e.column_index], false};
    case ExprKind::kLambda:
      throw InternalError("a lambda was evaluated outside transform, filter or reduce");
  }
  throw InternalError("unknown expression kind");
}

ColumnPtr evaluate(const plan::Expr& expr, const Batch& input, EvalContext& ctx) {
  KESTREL_CHECK_MSG(!input.on_device(), "CPU expression evaluation needs a host batch");
  // No row needs a value: nothing is computed, so nothing raises (a constant part is otherwise computed once, for
  // all rows).
  if (input.num_rows() == 0) return null_column(expr.type, 0, ctx.memory());
  Operand result = eval_operand(expr, input, ctx);
  return materialize(result, input.num_rows(), ctx.memory());
}

Value evaluate_constant(const plan::Expr& expr) {
  if (expr.type.id() == TypeId::kNull) return Value();
  EvalContext ctx;
  Batch one_row(std::make_shared<Schema>(), {}, 1, gpu::MemoryKind::kHost);
  ColumnPtr column = evaluate(expr, one_row, ctx);
  return column->value_at(0);
}

}  // namespace kestrel::exec
