// Types of the scalar functions of issue 15's last slice: remainder, cosine_similarity, the string functions
// (bit_length, jarowinkler_similarity, longest_common_prefix, split_to_map, split_to_multimap, word_stem, normalize,
// key_sampling_percent), regexp_extract_all and regexp_split, the IEEE 754 conversions, SpookyHash, HMAC and
// parse_datetime.

#include <algorithm>

#include "planner/functions/resolve_internal.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kVarbinary(TypeId::kVarbinary);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kDouble(TypeId::kDouble);
const LogicalType kReal(TypeId::kReal);

bool is_text_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }
bool is_binary_or_null(const LogicalType& t) { return t.id() == TypeId::kVarbinary || is_null_type(t); }

/// cosine_similarity's sparse vectors: maps of text keys and numeric values (a NULL literal too).
bool is_sparse_vector(const LogicalType& t) {
  if (is_null_type(t)) return true;
  if (t.id() != TypeId::kMap) return false;
  return is_text_or_null(t.key_type()) && is_numeric_or_null(t.value_type());
}

/// remainder's type: the common type of two numbers; DECIMAL operands are computed in DOUBLE.
LogicalType remainder_type(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  if (args.size() != 2 || !is_numeric_or_null(args[0]) || !is_numeric_or_null(args[1])) no_match(f, args, pos);
  std::optional<LogicalType> t = common_super_type(args[0], args[1]);
  if (!t) no_match(f, args, pos);
  if (is_null_type(*t)) return kInteger;
  if (t->id() == TypeId::kDecimal) return kDouble;
  return *t;
}

}  // namespace

ResolvedFunction resolve_presto_extra(ScalarFunction f, const std::vector<LogicalType>& args,
                                      std::optional<SourcePosition> pos) {
  // `count` arguments between `least` and `most`, each passing `ok`, all of type `as`.
  auto same = [&](size_t least, size_t most, bool (*ok)(const LogicalType&), const LogicalType& as) {
    if (args.size() < least || args.size() > most || !std::all_of(args.begin(), args.end(), ok)) {
      no_match(f, args, pos);
    }
    return std::vector<LogicalType>(args.size(), as);
  };
  switch (f) {
    case F::kRemainder: {
      const LogicalType t = remainder_type(f, args, pos);
      return {f, t, {t, t}};
    }
    case F::kCosineSimilarity: {
      if (args.size() != 2 || !is_sparse_vector(args[0]) || !is_sparse_vector(args[1])) no_match(f, args, pos);
      const LogicalType map = LogicalType::map(kVarchar, kDouble);
      return {f, kDouble, {map, map}};
    }
    case F::kBitLength: return {f, kBigInt, same(1, 1, is_text_or_null, kVarchar)};
    case F::kJaroWinklerSimilarity: return {f, kDouble, same(2, 2, is_text_or_null, kVarchar)};
    case F::kLongestCommonPrefix: return {f, kVarchar, same(2, 2, is_text_or_null, kVarchar)};
    case F::kSplitToMap: return {f, LogicalType::map(kVarchar, kVarchar), same(3, 3, is_text_or_null, kVarchar)};
    case F::kSplitToMultimap:
      return {f, LogicalType::map(kVarchar, LogicalType::array(kVarchar)), same(3, 3, is_text_or_null, kVarchar)};
    case F::kWordStem:
    case F::kNormalize: return {f, kVarchar, same(1, 2, is_text_or_null, kVarchar)};
    case F::kKeySamplingPercent: return {f, kDouble, same(1, 1, is_text_or_null, kVarchar)};
    case F::kRegexpExtractAll: {
      if (args.size() < 2 || args.size() > 3 || !is_text_or_null(args[0]) || !is_text_or_null(args[1])) {
        no_match(f, args, pos);
      }
      if (args.size() == 3 && !is_integral_or_null(args[2])) no_match(f, args, pos);
      std::vector<LogicalType> types{kVarchar, kVarchar};
      if (args.size() == 3) types.push_back(kBigInt);
      return {f, LogicalType::array(kVarchar), types};
    }
    case F::kRegexpSplit: return {f, LogicalType::array(kVarchar), same(2, 2, is_text_or_null, kVarchar)};
    case F::kToIeee754_32: return {f, kVarbinary, same(1, 1, is_numeric_or_null, kReal)};
    case F::kToIeee754_64: return {f, kVarbinary, same(1, 1, is_numeric_or_null, kDouble)};
    case F::kFromIeee754_32: return {f, kReal, same(1, 1, is_binary_or_null, kVarbinary)};
    case F::kFromIeee754_64: return {f, kDouble, same(1, 1, is_binary_or_null, kVarbinary)};
    case F::kSpookyHashV2_32:
    case F::kSpookyHashV2_64: return {f, kVarbinary, same(1, 1, is_binary_or_null, kVarbinary)};
    case F::kHmacMd5:
    case F::kHmacSha1:
    case F::kHmacSha256:
    case F::kHmacSha512: return {f, kVarbinary, same(2, 2, is_binary_or_null, kVarbinary)};
    case F::kParseDatetime:
      // The binder adds the session's zone as the third argument (a pattern without a zone reads wall-clock time
      // in it).
      return {f, LogicalType(TypeId::kTimestampTz), same(3, 3, is_text_or_null, kVarchar)};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
