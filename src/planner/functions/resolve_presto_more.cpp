#include "planner/functions/resolve_internal.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kDouble(TypeId::kDouble);
const LogicalType kBoolean(TypeId::kBoolean);
const LogicalType kDate(TypeId::kDate);
const LogicalType kInterval(TypeId::kInterval);

bool is_string_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }

/// The argument kinds of a signature: d DOUBLE (any number), i BIGINT (any integer), s VARCHAR.
std::vector<LogicalType> expect(F f, const std::vector<LogicalType>& args, std::string_view kinds,
                                std::optional<SourcePosition> pos, size_t optional = 0) {
  if (args.size() > kinds.size() || args.size() + optional < kinds.size()) no_match(f, args, pos);
  std::vector<LogicalType> types;
  for (size_t i = 0; i < args.size(); ++i) {
    const LogicalType& a = args[i];
    switch (kinds[i]) {
      case 'd':
        if (!is_numeric_or_null(a)) no_match(f, args, pos);
        types.push_back(kDouble);
        break;
      case 'i':
        if (!is_integral_or_null(a)) no_match(f, args, pos);
        types.push_back(kBigInt);
        break;
      default:
        if (!is_string_or_null(a)) no_match(f, args, pos);
        types.push_back(kVarchar);
        break;
    }
  }
  return types;
}

}  // namespace

ResolvedFunction resolve_presto_more(ScalarFunction f, const std::vector<LogicalType>& args,
                                     std::optional<SourcePosition> pos) {
  switch (f) {
    case F::kNormalCdf:
    case F::kInverseNormalCdf:
    case F::kCauchyCdf:
    case F::kInverseCauchyCdf:
    case F::kWeibullCdf:
    case F::kInverseWeibullCdf:
    case F::kBetaCdf:
    case F::kInverseBetaCdf: return {f, kDouble, expect(f, args, "ddd", pos)};
    case F::kChiSquaredCdf:
    case F::kInverseChiSquaredCdf: return {f, kDouble, expect(f, args, "dd", pos)};
    case F::kPoissonCdf: return {f, kDouble, expect(f, args, "di", pos)};
    case F::kInversePoissonCdf: return {f, kInteger, expect(f, args, "dd", pos)};
    case F::kBinomialCdf: return {f, kDouble, expect(f, args, "idi", pos)};
    case F::kInverseBinomialCdf: return {f, kInteger, expect(f, args, "idd", pos)};
    case F::kWilsonIntervalLower:
    case F::kWilsonIntervalUpper: return {f, kDouble, expect(f, args, "iid", pos)};
    case F::kFromBase: return {f, kBigInt, expect(f, args, "si", pos)};
    case F::kToBase: return {f, kVarchar, expect(f, args, "ii", pos)};
    case F::kBitwiseShiftLeft:
    case F::kBitwiseLogicalShiftRight: return {f, kBigInt, expect(f, args, "iii", pos)};
    case F::kBitwiseArithmeticShiftRight: return {f, kBigInt, expect(f, args, "ii", pos)};
    case F::kBitwiseLeftShift:
    case F::kBitwiseRightShift:
    case F::kBitwiseRightShiftArithmetic: {
      // The value keeps its integer type (TINYINT .. BIGINT), as in Presto.
      if (args.size() != 2 || !is_integral_or_null(args[0]) || !is_integral_or_null(args[1])) no_match(f, args, pos);
      const LogicalType x = is_null_type(args[0]) ? kBigInt : args[0];
      return {f, x, {x, kBigInt}};
    }
    case F::kReplaceFirst: return {f, kVarchar, expect(f, args, "sss", pos)};
    case F::kStrrpos: return {f, kBigInt, expect(f, args, "ssi", pos, 1)};
    case F::kTrail: return {f, kVarchar, expect(f, args, "si", pos)};
    case F::kUrlEncode:
    case F::kUrlDecode: return {f, kVarchar, expect(f, args, "s", pos)};
    case F::kJsonArrayContains: {
      // The value: a BOOLEAN, a number (compared as DOUBLE, or BIGINT for integers) or a VARCHAR.
      const bool json = args.size() == 2 && args[0].id() == TypeId::kJson;
      if (args.size() != 2 || !(json || is_string_or_null(args[0]))) no_match(f, args, pos);
      const LogicalType& v = args[1];
      LogicalType value = kVarchar;
      if (v.id() == TypeId::kBoolean) {
        value = kBoolean;
      } else if (v.is_integral()) {
        value = kBigInt;
      } else if (v.is_numeric()) {
        value = kDouble;
      } else if (!is_string_or_null(v)) {
        no_match(f, args, pos);
      }
      return {f, kBoolean, {json ? args[0] : kVarchar, value}};
    }
    case F::kFromIso8601Date: return {f, kDate, expect(f, args, "s", pos)};
    case F::kToIso8601:
    case F::kYearOfWeek: {
      if (args.size() != 1) no_match(f, args, pos);
      const LogicalType x = is_null_type(args[0]) ? kDate : args[0];
      const bool zoned = x.id() == TypeId::kTimestampTz && f == F::kToIso8601;
      if (x.id() != TypeId::kDate && x.id() != TypeId::kTimestamp && !zoned) no_match(f, args, pos);
      return {f, f == F::kToIso8601 ? kVarchar : kBigInt, {x}};
    }
    case F::kToMilliseconds: {
      if (args.size() != 1 || (args[0].id() != TypeId::kInterval && !is_null_type(args[0]))) no_match(f, args, pos);
      return {f, kBigInt, {kInterval}};
    }
    case F::kParseDuration: return {f, kInterval, expect(f, args, "s", pos)};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
