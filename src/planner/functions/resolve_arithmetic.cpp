#include <algorithm>

#include "planner/functions/resolve_internal.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

bool is(const LogicalType& t, TypeId id) { return t.id() == id; }

/// DECIMAL(p,s) with `drop` fewer fraction digits (precision reduced alike, at least 1).
LogicalType drop_scale(const LogicalType& t, int drop) {
  return LogicalType::decimal(std::max(1, t.precision() - drop), t.scale() - drop);
}

ResolvedFunction resolve_decimal(F f, LogicalType a, LogicalType b) {
  a = integer_as_decimal(a);
  b = integer_as_decimal(b);
  switch (f) {
    case F::kAdd:
    case F::kSubtract: {
      LogicalType r = decimal_add_type(a, b);
      return {f, r, {r, r}};
    }
    case F::kMultiply: {
      int excess = a.scale() + b.scale() - kMaxDecimalPrecision;
      if (excess > 0) {
        LogicalType& larger = a.scale() >= b.scale() ? a : b;
        LogicalType& smaller = a.scale() >= b.scale() ? b : a;
        const int from_larger = std::min(excess, larger.scale());
        larger = drop_scale(larger, from_larger);
        smaller = drop_scale(smaller, excess - from_larger);
      }
      return {f, decimal_multiply_type(a, b), {a, b}};
    }
    case F::kDivide: return {f, decimal_divide_type(a, b), {a, b}};
    default: {
      LogicalType r = decimal_modulo_type(a, b);
      const int s = r.scale();
      auto at_scale = [s](const LogicalType& t) {
        return LogicalType::decimal(std::min(kMaxDecimalPrecision, t.precision() - t.scale() + s), s);
      };
      return {f, r, {at_scale(a), at_scale(b)}};
    }
  }
}

ResolvedFunction resolve_numeric(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  LogicalType a = args[0];
  LogicalType b = args[1];
  if (!is_numeric_or_null(a) || !is_numeric_or_null(b)) no_match(f, args, pos);
  if (is_null_type(a)) a = is_null_type(b) ? LogicalType(TypeId::kInteger) : b;
  if (is_null_type(b)) b = a;
  const LogicalType super = *common_super_type(a, b);
  if (super.id() == TypeId::kDecimal) return resolve_decimal(f, a, b);
  return {f, super, {super, super}};
}

/// The date/time/interval forms of + and -, or nullopt when the arguments are not of those types.
std::optional<ResolvedFunction> resolve_temporal(F f, const std::vector<LogicalType>& args) {
  const LogicalType& a = args[0];
  const LogicalType& b = args[1];
  const bool a_time = is(a, TypeId::kDate) || is(a, TypeId::kTimestamp);
  const bool b_time = is(b, TypeId::kDate) || is(b, TypeId::kTimestamp);
  const LogicalType integer(TypeId::kInteger);
  if (f == F::kAdd) {
    if (a_time && (is(b, TypeId::kInterval) || is_null_type(b))) {
      return ResolvedFunction{F::kDateAddInterval, a, {a, LogicalType(TypeId::kInterval)}};
    }
    if (b_time && is(a, TypeId::kInterval)) return ResolvedFunction{F::kDateAddInterval, b, {a, b}};
    if (is(a, TypeId::kDate) && b.is_integral()) return ResolvedFunction{F::kDateAddDays, a, {a, integer}};
    if (is(b, TypeId::kDate) && a.is_integral()) return ResolvedFunction{F::kDateAddDays, b, {integer, b}};
    if (is(a, TypeId::kInterval) && (is(b, TypeId::kInterval) || is_null_type(b))) {
      return ResolvedFunction{F::kIntervalAdd, a, {a, a}};
    }
    return std::nullopt;
  }
  if (a_time && (is(b, TypeId::kInterval) || is_null_type(b))) {
    return ResolvedFunction{F::kDateSubtractInterval, a, {a, LogicalType(TypeId::kInterval)}};
  }
  if (is(a, TypeId::kDate) && is(b, TypeId::kDate)) return ResolvedFunction{F::kDateDiffDays, integer, {a, b}};
  if (is(a, TypeId::kTimestamp) && is(b, TypeId::kTimestamp)) {
    return ResolvedFunction{F::kTimestampDiff, LogicalType(TypeId::kInterval), {a, b}};
  }
  if (is(a, TypeId::kDate) && b.is_integral()) return ResolvedFunction{F::kDateSubtractDays, a, {a, integer}};
  return std::nullopt;
}

bool is_temporal(const LogicalType& t) {
  return is(t, TypeId::kDate) || is(t, TypeId::kTimestamp) || is(t, TypeId::kInterval);
}

}  // namespace

ResolvedFunction resolve_arithmetic(F f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  if (f == F::kNegate || f == F::kIntervalNegate) {
    if (args.size() != 1) no_match(f, args, pos);
    const LogicalType& a = args[0];
    if (is(a, TypeId::kInterval)) return {F::kIntervalNegate, a, {a}};
    if (f == F::kNegate && is_numeric_or_null(a)) {
      LogicalType t = is_null_type(a) ? LogicalType(TypeId::kInteger) : a;
      return {f, t, {t}};
    }
    no_match(f, args, pos);
  }
  if (args.size() != 2) no_match(f, args, pos);
  switch (f) {
    case F::kAdd:
    case F::kSubtract:
    case F::kDateAddInterval:
    case F::kDateSubtractInterval:
    case F::kDateAddDays:
    case F::kDateSubtractDays:
    case F::kDateDiffDays:
    case F::kTimestampDiff:
    case F::kIntervalAdd: {
      const bool add = f == F::kAdd || f == F::kDateAddInterval || f == F::kDateAddDays || f == F::kIntervalAdd;
      if (is_temporal(args[0]) || is_temporal(args[1])) {
        if (auto r = resolve_temporal(add ? F::kAdd : F::kSubtract, args)) {
          if (f == F::kAdd || f == F::kSubtract || r->function == f) return *r;
        }
        no_match(f, args, pos);
      }
      if (f != F::kAdd && f != F::kSubtract) no_match(f, args, pos);
      return resolve_numeric(f, args, pos);
    }
    case F::kMultiply:
    case F::kDivide:
    case F::kModulo: return resolve_numeric(f, args, pos);
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
