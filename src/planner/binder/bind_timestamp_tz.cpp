// TIMESTAMP WITH TIME ZONE in the TIMESTAMP functions: the binder rewrites a call over such a value into the
// TIMESTAMP function over its wall-clock time (kTzLocal) or its instant (kTzInstant), and turns a TIMESTAMP result
// back into the value's zone (kTzWithLocal, kTzWithInstant). Fields, date_trunc and calendar units of date_add read
// the wall clock of the value's own zone; clock units of date_add and date_diff, to_unixtime, differences and
// day-to-second intervals read the instant, as Presto does.

#include <algorithm>

#include "common/datetime_ops.hpp"
#include "common/time_zone.hpp"
#include "planner/binder/expr_binder.hpp"

namespace kestrel::plan {

namespace {

using F = ScalarFunction;

const LogicalType kTz(TypeId::kTimestampTz);
const LogicalType kTimestamp(TypeId::kTimestamp);

bool is_tz(const ExprPtr& e) { return e->type.id() == TypeId::kTimestampTz; }

ExprPtr typed(F f, LogicalType type, std::vector<ExprPtr> args, std::optional<SourcePosition> pos) {
  auto e = make_function(f, std::move(type), std::move(args));
  const_cast<Expr&>(*e).position = pos;
  return e;
}

ExprPtr local_of(const ExprPtr& x, std::optional<SourcePosition> pos) { return typed(F::kTzLocal, kTimestamp, {x}, pos); }
ExprPtr instant_of(const ExprPtr& x, std::optional<SourcePosition> pos) {
  return typed(F::kTzInstant, kTimestamp, {x}, pos);
}

/// The constant text of a unit or field argument in lower case; empty when it is not a constant.
std::string constant_text(const ExprPtr& e) {
  if (e->kind != ExprKind::kConstant || e->constant.is_null() || e->type.id() != TypeId::kVarchar) return "";
  std::string s = e->constant.as_string();
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

/// Whether a date_add / date_diff unit counts elapsed time (hours and below) rather than calendar steps.
bool is_clock_unit(const std::string& unit) {
  auto part = parse_date_part(unit);
  return part && (*part == DatePart::kHour || *part == DatePart::kMinute || *part == DatePart::kSecond ||
                  *part == DatePart::kMillisecond);
}

}  // namespace

bool is_zone_field(std::string_view field) {
  std::string s(field);
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s == "timezone_hour" || s == "timezone_minute";
}

const Expr& unwrap_timestamp_tz_rewrite(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::kFunction && (x->function == F::kTzWithLocal || x->function == F::kTzWithInstant)) {
    x = x->children[0].get();
  }
  return *x;
}

ExprPtr ExprBinder::rewrite_timestamp_tz(ScalarFunction f, std::vector<ExprPtr>& args,
                                         std::optional<SourcePosition> pos) {
  if (f == F::kFromIso8601Timestamp && args.size() == 1) {
    // Text without an offset is a wall-clock time in the session's zone, which the plan carries.
    const std::string zone = tz::zone_name(Binder::SessionTimeZone::current());
    return make_scalar(f, {args[0], make_constant(Value::varchar(zone))}, pos);
  }
  if (f == F::kParseDatetime && args.size() == 2) {
    // A pattern without a zone reads wall-clock time in the session's zone, which the plan carries.
    const std::string zone = tz::zone_name(Binder::SessionTimeZone::current());
    return make_scalar(f, {args[0], args[1], make_constant(Value::varchar(zone))}, pos);
  }
  if (std::none_of(args.begin(), args.end(), is_tz)) return nullptr;
  switch (f) {
    case F::kExtract: {
      const std::string field = args.size() == 2 ? constant_text(args[0]) : "";
      if (field == "timezone_hour" || field == "timezone_minute") {
        return typed(field == "timezone_hour" ? F::kTimezoneHour : F::kTimezoneMinute, LogicalType(TypeId::kBigInt),
                     {args[1]}, pos);
      }
      args[1] = field == "epoch" ? instant_of(args[1], pos) : local_of(args[1], pos);
      return make_scalar(f, std::move(args), pos);
    }
    case F::kLastDayOfMonth:
    case F::kYearOfWeek:
    case F::kDateFormat:
      args[0] = local_of(args[0], pos);
      return make_scalar(f, std::move(args), pos);
    case F::kToUnixtime:
      args[0] = instant_of(args[0], pos);
      return make_scalar(f, std::move(args), pos);
    case F::kFormatDatetime: {
      // The wall clock formats the fields; the value itself (a third argument) gives z and Z their zone.
      if (args.size() != 2) return nullptr;
      ExprPtr value = args[0];
      ExprPtr pattern = Binder::cast_to(args[1], LogicalType(TypeId::kVarchar), pos);
      return typed(f, LogicalType(TypeId::kVarchar), {local_of(value, pos), std::move(pattern), value}, pos);
    }
    case F::kDateTrunc: {
      if (args.size() != 2) return nullptr;
      ExprPtr value = args[1];
      ExprPtr truncated = make_scalar(f, {args[0], local_of(value, pos)}, pos);
      return typed(F::kTzWithLocal, kTz, {std::move(truncated), value}, pos);
    }
    case F::kDateAdd: {
      if (args.size() != 3 || !is_tz(args[2])) return nullptr;
      ExprPtr value = args[2];
      if (is_clock_unit(constant_text(args[0]))) {
        ExprPtr added = make_scalar(f, {args[0], args[1], instant_of(value, pos)}, pos);
        return typed(F::kTzWithInstant, kTz, {std::move(added), value}, pos);
      }
      ExprPtr added = make_scalar(f, {args[0], args[1], local_of(value, pos)}, pos);
      return typed(F::kTzWithLocal, kTz, {std::move(added), value}, pos);
    }
    case F::kDateDiff: {
      if (args.size() != 3) return nullptr;
      ExprPtr a = Binder::cast_to(args[1], kTz, pos);
      ExprPtr b = Binder::cast_to(args[2], kTz, pos);
      if (is_clock_unit(constant_text(args[0]))) {
        return make_scalar(f, {args[0], instant_of(a, pos), instant_of(b, pos)}, pos);
      }
      // Calendar units count in the zone of the first value, as Presto does.
      ExprPtr b_in_a = typed(F::kTzWithInstant, kTz, {instant_of(b, pos), a}, pos);
      return make_scalar(f, {args[0], local_of(a, pos), local_of(b_in_a, pos)}, pos);
    }
    case F::kAdd:
    case F::kSubtract: return rewrite_timestamp_tz_arithmetic(f, args, pos);
    default: return nullptr;
  }
}

ExprPtr ExprBinder::rewrite_timestamp_tz_arithmetic(ScalarFunction f, std::vector<ExprPtr>& args,
                                                    std::optional<SourcePosition> pos) {
  if (args.size() != 2) return nullptr;
  const bool subtract = f == F::kSubtract;
  const TypeId other = (is_tz(args[0]) ? args[1] : args[0])->type.id();
  if (subtract && (other == TypeId::kTimestampTz || other == TypeId::kTimestamp || other == TypeId::kDate)) {
    // x - y: the INTERVAL DAY TO SECOND between the two instants.
    ExprPtr a = Binder::cast_to(args[0], kTz, pos);
    ExprPtr b = Binder::cast_to(args[1], kTz, pos);
    return make_scalar(f, {instant_of(a, pos), instant_of(b, pos)}, pos);
  }
  if (other != TypeId::kInterval || (subtract && !is_tz(args[0]))) return nullptr;
  ExprPtr value = is_tz(args[0]) ? args[0] : args[1];
  ExprPtr interval = is_tz(args[0]) ? args[1] : args[0];
  if (interval->kind != ExprKind::kConstant || interval->constant.is_null()) {
    // An interval known only per row steps the wall clock.
    ExprPtr moved = make_scalar(f, {local_of(value, pos), interval}, pos);
    return typed(F::kTzWithLocal, kTz, {std::move(moved), value}, pos);
  }
  // Months step the wall clock of the value's zone; days and smaller parts are elapsed time (Presto's INTERVAL DAY
  // TO SECOND is a duration).
  const Interval iv = interval->constant.as_interval();
  ExprPtr result = value;
  if (iv.months != 0) {
    ExprPtr months = make_constant(Value::interval(Interval{iv.months, 0, 0}));
    ExprPtr moved = make_scalar(f, {local_of(result, pos), std::move(months)}, pos);
    result = typed(F::kTzWithLocal, kTz, {std::move(moved), result}, pos);
  }
  if (iv.days != 0 || iv.micros != 0) {
    ExprPtr duration = make_constant(Value::interval(Interval{0, iv.days, iv.micros}));
    ExprPtr moved = make_scalar(f, {instant_of(result, pos), std::move(duration)}, pos);
    result = typed(F::kTzWithInstant, kTz, {std::move(moved), result}, pos);
  }
  return result;
}

}  // namespace kestrel::plan
