// Argument and result types of the TIMESTAMP WITH TIME ZONE functions.

#include "planner/functions/resolve_internal.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kTz(TypeId::kTimestampTz);
const LogicalType kTimestamp(TypeId::kTimestamp);
const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kDouble(TypeId::kDouble);

bool is(const LogicalType& t, TypeId id) { return t.id() == id || is_null_type(t); }

}  // namespace

ResolvedFunction resolve_timestamp_tz(ScalarFunction f, const std::vector<LogicalType>& args,
                                      std::optional<SourcePosition> pos) {
  auto need = [&](bool ok) {
    if (!ok) no_match(f, args, pos);
  };
  switch (f) {
    case F::kWithTimezone: {
      need(args.size() == 2 && is(args[1], TypeId::kVarchar));
      const TypeId x = args[0].id();
      need(x == TypeId::kNull || x == TypeId::kTimestamp || x == TypeId::kDate || x == TypeId::kVarchar);
      return {f, kTz, {x == TypeId::kNull ? kTimestamp : args[0], kVarchar}};
    }
    case F::kAtTimezone: {
      // A TIMESTAMP or DATE is first taken in the session's zone (the implicit cast), as Presto does.
      need(args.size() == 2 && is(args[1], TypeId::kVarchar));
      const TypeId x = args[0].id();
      need(x == TypeId::kNull || x == TypeId::kTimestampTz || x == TypeId::kTimestamp || x == TypeId::kDate);
      return {f, kTz, {kTz, kVarchar}};
    }
    case F::kTimezoneHour:
    case F::kTimezoneMinute:
      need(args.size() == 1 && (is(args[0], TypeId::kTimestampTz) || args[0].id() == TypeId::kTimestamp));
      return {f, kBigInt, {kTz}};
    case F::kFromUnixtimeTz:
      need(args.size() >= 2 && args.size() <= 3 && is_numeric_or_null(args[0]));
      if (args.size() == 2) {
        need(is(args[1], TypeId::kVarchar));
        return {f, kTz, {kDouble, kVarchar}};
      }
      need(is_integral_or_null(args[1]) && is_integral_or_null(args[2]));
      return {f, kTz, {kDouble, kBigInt, kBigInt}};
    case F::kTzLocal:
    case F::kTzInstant:
      need(args.size() == 1 && is(args[0], TypeId::kTimestampTz));
      return {f, kTimestamp, {kTz}};
    case F::kTzWithLocal:
    case F::kTzWithInstant:
      need(args.size() == 2 && is(args[0], TypeId::kTimestamp) && is(args[1], TypeId::kTimestampTz));
      return {f, kTz, {kTimestamp, kTz}};
    case F::kFromIso8601Timestamp:
      need(args.size() == 2 && is(args[0], TypeId::kVarchar) && is(args[1], TypeId::kVarchar));
      return {f, kTz, {kVarchar, kVarchar}};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
