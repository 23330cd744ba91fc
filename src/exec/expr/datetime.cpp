#include <algorithm>
#include <limits>
#include <string>

#include "common/check.hpp"
#include "common/datetime_ops.hpp"
#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// r[i] = op(i) over the rows, NULL where any argument is NULL.
template <typename T, typename Op>
Operand map_rows(const std::vector<Operand>& args, const LogicalType& type, size_t rows, EvalContext& ctx, Op&& op) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  ColumnPtr out = make_output(type, rows, std::move(validity), ctx.memory());
  T* r = out->mutable_data<T>();
  for (size_t i = 0; i < rows; ++i) r[i] = op(i);
  return Operand{out, shape_of(args, rows).constant};
}

DatePart part_named(std::string_view name, ScalarFunction f) {
  std::optional<DatePart> part = parse_date_part(name);
  if (!part) throw InvalidInput("unknown date part '" + std::string(name) + "'", "22023");
  if (f == ScalarFunction::kDateTrunc && !is_trunc_unit(*part)) {
    throw InvalidInput("date_trunc does not support unit '" + std::string(name) + "'", "22023");
  }
  return *part;
}

/// The date part of every row: one parse when the field is a constant.
std::vector<DatePart> parts_of(const Operand& field, size_t rows, ScalarFunction f) {
  const StringReader names(field);
  if (field.constant) return std::vector<DatePart>(1, part_named(names[0], f));
  std::vector<DatePart> parts(rows, DatePart::kYear);
  for (size_t i = 0; i < rows; ++i) {
    if (field.valid(i)) parts[i] = part_named(names[i], f);
  }
  return parts;
}

Operand extract_or_trunc(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const std::vector<DatePart> parts = parts_of(args[0], rows, e.function);
  auto part = [&](size_t i) { return parts[parts.size() == 1 ? 0 : i]; };
  const Operand& x = args[1];
  const TypeId t = x.column->type().id();
  if (e.function == ScalarFunction::kExtract) {
    if (t == TypeId::kDate) {
      const int32_t* v = x.data<int32_t>();
      return map_rows<int64_t>(args, e.type, rows, ctx,
                               [&](size_t i) { return datetime::extract_from_date(part(i), v[x.index(i)]); });
    }
    if (t == TypeId::kTimestamp) {
      const int64_t* v = x.data<int64_t>();
      return map_rows<int64_t>(args, e.type, rows, ctx,
                               [&](size_t i) { return datetime::extract_from_timestamp(part(i), v[x.index(i)]); });
    }
    const Interval* v = x.data<Interval>();
    return map_rows<int64_t>(args, e.type, rows, ctx,
                             [&](size_t i) { return datetime::extract_from_interval(part(i), v[x.index(i)]); });
  }
  if (t == TypeId::kDate) {
    const int32_t* v = x.data<int32_t>();
    return map_rows<int32_t>(args, e.type, rows, ctx,
                             [&](size_t i) { return datetime::trunc_date(part(i), v[x.index(i)]); });
  }
  const int64_t* v = x.data<int64_t>();
  return map_rows<int64_t>(args, e.type, rows, ctx,
                           [&](size_t i) { return datetime::trunc_timestamp(part(i), v[x.index(i)]); });
}

/// date/timestamp +/- interval, the interval on either side of +.
Operand add_interval(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const bool interval_first = args[0].column->type().id() == TypeId::kInterval;
  const Operand& x = args[interval_first ? 1 : 0];
  const Operand& iv = args[interval_first ? 0 : 1];
  const Interval* d = iv.data<Interval>();
  const bool subtract = e.function == ScalarFunction::kDateSubtractInterval;
  auto interval_at = [&](size_t i) {
    const Interval v = d[iv.index(i)];
    return subtract ? datetime::negate_interval(v) : v;
  };
  if (x.column->type().id() == TypeId::kDate) {
    const int32_t* v = x.data<int32_t>();
    return map_rows<int32_t>(args, e.type, rows, ctx,
                             [&](size_t i) { return datetime::date_add_interval(v[x.index(i)], interval_at(i)); });
  }
  const int64_t* v = x.data<int64_t>();
  return map_rows<int64_t>(args, e.type, rows, ctx,
                           [&](size_t i) { return datetime::timestamp_add_interval(v[x.index(i)], interval_at(i)); });
}

Operand add_days(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const bool days_first = args[0].column->type().id() != TypeId::kDate;
  const Operand& x = args[days_first ? 1 : 0];
  const Operand& n = args[days_first ? 0 : 1];
  const int32_t* v = x.data<int32_t>();
  const int32_t* k = n.data<int32_t>();
  const int64_t sign = e.function == ScalarFunction::kDateSubtractDays ? -1 : 1;
  return map_rows<int32_t>(args, e.type, rows, ctx, [&](size_t i) {
    return static_cast<int32_t>(static_cast<int64_t>(v[x.index(i)]) + sign * k[n.index(i)]);
  });
}

/// The date_add / date_diff unit, a constant checked by the binder.
DatePart unit_of(const Operand& unit, const LogicalType& value_type, ScalarFunction f) {
  const StringReader names(unit);
  const std::string name(names[0]);
  const std::optional<DatePart> part = parse_date_part(name);
  if (!unit.constant || !part || !is_date_add_unit(*part, value_type.id() == TypeId::kTimestamp)) {
    throw InvalidInput(std::string(plan::scalar_function_name(f)) + ": '" + name + "' is not a valid " +
                           value_type.to_string() + " unit",
                       "22023");
  }
  return *part;
}

[[noreturn]] void raise_date_add_overflow(const Operand& n, const Operand& x, size_t i) {
  throw InvalidInput("date_add: " + value_text(x, i) + " plus " + value_text(n, i) + " units is out of range",
                     "22008");
}

/// date_add(unit, n, x): months (day clamped to the month's end), or a whole number of fixed-length units.
Operand date_add(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[2];
  const Operand& n = args[1];
  const DatePart unit = unit_of(args[0], x.column->type(), e.function);
  const int64_t months_per = datetime::months_per_unit(unit);
  const int64_t unit_micros = datetime::micros_per_unit(unit);
  const int64_t* k = n.data<int64_t>();
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(e.type, rows, std::move(validity), ctx.memory());
  auto row_valid = [&](size_t i) { return valid == nullptr || bits::get(valid, i); };
  if (x.column->type().id() == TypeId::kDate) {
    const int32_t* v = x.data<int32_t>();
    int32_t* r = out->mutable_data<int32_t>();
    const int64_t unit_days = unit_micros / kMicrosPerDay;
    for (size_t i = 0; i < rows; ++i) {
      r[i] = 0;
      if (!row_valid(i)) continue;
      const int32_t d = v[x.index(i)];
      const int64_t amount = k[n.index(i)];
      if (months_per != 0) {
        if (!datetime::date_add_months(d, amount, months_per, r[i])) raise_date_add_overflow(n, x, i);
        continue;
      }
      int64_t delta = 0, sum = 0;
      if (__builtin_mul_overflow(amount, unit_days, &delta) || __builtin_add_overflow(delta, d, &sum) ||
          sum < std::numeric_limits<int32_t>::min() || sum > std::numeric_limits<int32_t>::max()) {
        raise_date_add_overflow(n, x, i);
      }
      r[i] = static_cast<int32_t>(sum);
    }
  } else {
    const int64_t* v = x.data<int64_t>();
    int64_t* r = out->mutable_data<int64_t>();
    for (size_t i = 0; i < rows; ++i) {
      r[i] = 0;
      if (!row_valid(i)) continue;
      const int64_t t = v[x.index(i)];
      const int64_t amount = k[n.index(i)];
      if (months_per != 0) {
        const datetime::DayTime dt = datetime::day_time_of_timestamp(t);
        int32_t day = 0;
        int64_t micros = 0;
        if (!datetime::date_add_months(static_cast<int32_t>(dt.day), amount, months_per, day) ||
            __builtin_mul_overflow(static_cast<int64_t>(day), kMicrosPerDay, &micros) ||
            __builtin_add_overflow(micros, dt.micros, &r[i])) {
          raise_date_add_overflow(n, x, i);
        }
        continue;
      }
      int64_t delta = 0;
      if (__builtin_mul_overflow(amount, unit_micros, &delta) || __builtin_add_overflow(t, delta, &r[i])) {
        raise_date_add_overflow(n, x, i);
      }
    }
  }
  return Operand{out, shape_of(args, rows).constant};
}

datetime::DayTime day_time_at(const Operand& x, size_t i) {
  if (x.column->type().id() == TypeId::kDate) return datetime::DayTime{x.data<int32_t>()[x.index(i)], 0};
  return datetime::day_time_of_timestamp(x.data<int64_t>()[x.index(i)]);
}

}  // namespace

Operand datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (std::any_of(args.begin(), args.end(), [](const Operand& a) { return a.is_null_constant(); })) {
    return Operand{materialize(null_operand(e.type, ctx.memory()), rows, ctx.memory()), shape_of(args, rows).constant};
  }
  switch (e.function) {
    case ScalarFunction::kExtract:
    case ScalarFunction::kDateTrunc: return extract_or_trunc(e, args, rows, ctx);
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval: return add_interval(e, args, rows, ctx);
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays: return add_days(e, args, rows, ctx);
    case ScalarFunction::kDateDiffDays: {
      const int32_t* a = args[0].data<int32_t>();
      const int32_t* b = args[1].data<int32_t>();
      return map_rows<int32_t>(args, e.type, rows, ctx,
                               [&](size_t i) { return a[args[0].index(i)] - b[args[1].index(i)]; });
    }
    case ScalarFunction::kTimestampDiff: {
      // As PostgreSQL prints it: whole days, then the rest in microseconds, both with the difference's sign.
      const int64_t* a = args[0].data<int64_t>();
      const int64_t* b = args[1].data<int64_t>();
      constexpr int64_t kDayMicros = int64_t{86400} * 1000000;
      return map_rows<Interval>(args, e.type, rows, ctx, [&](size_t i) {
        int64_t diff = 0;
        if (__builtin_sub_overflow(a[args[0].index(i)], b[args[1].index(i)], &diff)) {
          throw InvalidInput("timestamp difference out of range", "22008");
        }
        return Interval{0, static_cast<int32_t>(diff / kDayMicros), diff % kDayMicros};
      });
    }
    case ScalarFunction::kIntervalAdd: {
      const Interval* a = args[0].data<Interval>();
      const Interval* b = args[1].data<Interval>();
      return map_rows<Interval>(args, e.type, rows, ctx, [&](size_t i) {
        const Interval x = a[args[0].index(i)], y = b[args[1].index(i)];
        return Interval{x.months + y.months, x.days + y.days, x.micros + y.micros};
      });
    }
    case ScalarFunction::kIntervalNegate: {
      const Interval* a = args[0].data<Interval>();
      return map_rows<Interval>(args, e.type, rows, ctx,
                                [&](size_t i) { return datetime::negate_interval(a[args[0].index(i)]); });
    }
    case ScalarFunction::kDateAdd: return date_add(e, args, rows, ctx);
    case ScalarFunction::kDateDiff: {
      const DatePart unit = unit_of(args[0], args[1].column->type(), e.function);
      return map_rows<int64_t>(args, e.type, rows, ctx, [&](size_t i) {
        return datetime::date_diff(unit, day_time_at(args[1], i), day_time_at(args[2], i));
      });
    }
    case ScalarFunction::kLastDayOfMonth:
      return map_rows<int32_t>(args, e.type, rows, ctx, [&](size_t i) {
        const CivilDate c = civil_from_days(static_cast<int32_t>(day_time_at(args[0], i).day));
        return days_from_civil(c.year, c.month, days_in_month(c.year, c.month));
      });
    default: throw InternalError(std::string("date function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
