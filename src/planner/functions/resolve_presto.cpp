#include <algorithm>

#include "planner/functions/resolve_internal.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kDouble(TypeId::kDouble);
const LogicalType kDate(TypeId::kDate);
const LogicalType kTimestamp(TypeId::kTimestamp);

bool is_string_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }
bool is_datetime(const LogicalType& t) { return t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp; }

/// A DATE or TIMESTAMP argument; an untyped NULL is taken as a DATE.
LogicalType datetime_argument(F f, const std::vector<LogicalType>& args, size_t i, std::optional<SourcePosition> pos) {
  if (is_null_type(args[i])) return kDate;
  if (!is_datetime(args[i])) no_match(f, args, pos);
  return args[i];
}

}  // namespace

ResolvedFunction resolve_presto(ScalarFunction f, const std::vector<LogicalType>& args,
                                std::optional<SourcePosition> pos) {
  auto check = [&](size_t count, bool ok) {
    if (args.size() != count || !ok) no_match(f, args, pos);
  };
  switch (f) {
    case F::kLpad:
    case F::kRpad:
      if (args.size() == 3 && args[0].id() == TypeId::kVarbinary) {
        check(3, is_integral_or_null(args[1]) && (args[2].id() == TypeId::kVarbinary || is_null_type(args[2])));
        return {f, args[0], {args[0], kBigInt, args[0]}};
      }
      check(3, args.size() == 3 && is_string_or_null(args[0]) && is_integral_or_null(args[1]) &&
                   is_string_or_null(args[2]));
      return {f, kVarchar, {kVarchar, kBigInt, kVarchar}};
    case F::kReverse:
      if (args.size() == 1 && args[0].id() == TypeId::kVarbinary) return {f, args[0], {args[0]}};
      check(1, !args.empty() && is_string_or_null(args[0]));
      return {f, kVarchar, {kVarchar}};
    case F::kSplitPart:
      check(3, args.size() == 3 && is_string_or_null(args[0]) && is_string_or_null(args[1]) &&
                   is_integral_or_null(args[2]));
      return {f, kVarchar, {kVarchar, kVarchar, kBigInt}};
    case F::kChr:
      check(1, !args.empty() && is_integral_or_null(args[0]));
      return {f, kVarchar, {kBigInt}};
    case F::kCodepoint:
      check(1, !args.empty() && is_string_or_null(args[0]));
      return {f, kInteger, {kVarchar}};
    case F::kCbrt:
    case F::kLog2:
    case F::kSin:
    case F::kCos:
    case F::kTan:
    case F::kAsin:
    case F::kAcos:
    case F::kAtan:
    case F::kSinh:
    case F::kCosh:
    case F::kTanh:
      check(1, !args.empty() && is_numeric_or_null(args[0]));
      return {f, kDouble, {kDouble}};
    case F::kAtan2:
      check(2, args.size() == 2 && is_numeric_or_null(args[0]) && is_numeric_or_null(args[1]));
      return {f, kDouble, {kDouble, kDouble}};
    case F::kIsNan:
    case F::kIsFinite:
    case F::kIsInfinite:
      check(1, !args.empty() && is_numeric_or_null(args[0]));
      return {f, LogicalType(TypeId::kBoolean), {kDouble}};
    case F::kBitwiseAnd:
    case F::kBitwiseOr:
    case F::kBitwiseXor:
    case F::kBitCount:
      check(2, args.size() == 2 && is_integral_or_null(args[0]) && is_integral_or_null(args[1]));
      return {f, kBigInt, {kBigInt, kBigInt}};
    case F::kBitwiseNot:
      check(1, !args.empty() && is_integral_or_null(args[0]));
      return {f, kBigInt, {kBigInt}};
    case F::kTruncate: {
      check(1, !args.empty() && is_numeric_or_null(args[0]));
      const LogicalType x = is_null_type(args[0]) ? kDouble : args[0];
      if (x.id() != TypeId::kDecimal) return {f, x, {x}};
      return {f, LogicalType::decimal(std::max(1, x.precision() - x.scale()), 0), {x}};
    }
    case F::kLastDayOfMonth: {
      check(1, !args.empty());
      return {f, kDate, {datetime_argument(f, args, 0, pos)}};
    }
    case F::kDateAdd: {
      check(3, args.size() == 3 && is_string_or_null(args[0]) && is_integral_or_null(args[1]));
      const LogicalType x = datetime_argument(f, args, 2, pos);
      return {f, x, {kVarchar, kBigInt, x}};
    }
    case F::kDateDiff: {
      check(3, args.size() == 3 && is_string_or_null(args[0]));
      const LogicalType a = datetime_argument(f, args, 1, pos);
      const LogicalType b = datetime_argument(f, args, 2, pos);
      // DATE against TIMESTAMP compares the date as its midnight.
      const LogicalType t = a == b ? a : LogicalType(TypeId::kTimestamp);
      return {f, kBigInt, {kVarchar, t, t}};
    }
    case F::kFromUnixtime:
      if (args.size() >= 2) return resolve_timestamp_tz(F::kFromUnixtimeTz, args, pos);
      check(1, !args.empty() && is_numeric_or_null(args[0]));
      return {f, kTimestamp, {kDouble}};
    case F::kToUnixtime:
      check(1, !args.empty() && (is_datetime(args[0]) || is_null_type(args[0])));
      return {f, kDouble, {kTimestamp}};
    case F::kDateFormat:
    case F::kFormatDatetime:
      check(2, args.size() == 2 && (is_datetime(args[0]) || is_null_type(args[0])) && is_string_or_null(args[1]));
      return {f, kVarchar, {kTimestamp, kVarchar}};
    case F::kDateParse:
      check(2, args.size() == 2 && is_string_or_null(args[0]) && is_string_or_null(args[1]));
      return {f, kTimestamp, {kVarchar, kVarchar}};
    case F::kWidthBucket:
      check(4, args.size() == 4 && is_numeric_or_null(args[0]) && is_numeric_or_null(args[1]) &&
                   is_numeric_or_null(args[2]) && is_integral_or_null(args[3]));
      return {f, kBigInt, {kDouble, kDouble, kDouble, kBigInt}};
    case F::kRandom: {
      if (args.empty()) return {f, kDouble, {}};
      check(1, is_integral_or_null(args[0]));
      const LogicalType n = is_null_type(args[0]) ? kInteger : args[0];
      return {f, n, {n}};
    }
    case F::kTry: {
      check(1, !args.empty());
      const LogicalType x = is_null_type(args[0]) ? kVarchar : args[0];
      return {f, x, {x}};
    }
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail

namespace kestrel::plan {

DatePart resolve_date_add_unit(ScalarFunction f, std::string_view name, const LogicalType& value_type,
                               std::optional<SourcePosition> pos) {
  const std::optional<DatePart> part = parse_date_part(name);
  const bool timestamp = value_type.id() == TypeId::kTimestamp;
  if (!part || !is_date_add_unit(*part, timestamp)) {
    throw BinderError(std::string(scalar_function_name(f)) + ": '" + std::string(name) + "' is not a valid " +
                          (timestamp ? "TIMESTAMP" : "DATE") + " unit",
                      pos, "22023");
  }
  return *part;
}

}  // namespace kestrel::plan
