#include <string_view>

#include "common/check.hpp"
#include "common/temporal.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// Intervals order by their length with a month as 30 days (PostgreSQL), so '1 month' = '30 days'.
inline int128_t interval_key(const Interval& v) {
  return (static_cast<int128_t>(v.months) * 30 + v.days) * kMicrosPerDay + v.micros;
}

template <typename T>
inline auto comparable(const T& v) {
  if constexpr (std::is_same_v<T, Interval>) {
    return interval_key(v);
  } else if constexpr (std::is_same_v<T, TimestampTz>) {
    return v.micros;  // the instant: one value in every zone
  } else {
    return v;
  }
}

template <ScalarFunction F, typename T>
inline bool compare_values(const T& a, const T& b) {
  if constexpr (F == ScalarFunction::kEqual || F == ScalarFunction::kIsNotDistinctFrom) return a == b;
  if constexpr (F == ScalarFunction::kNotEqual || F == ScalarFunction::kIsDistinctFrom) return a != b;
  if constexpr (F == ScalarFunction::kLess) return a < b;
  if constexpr (F == ScalarFunction::kLessEqual) return a <= b;
  if constexpr (F == ScalarFunction::kGreater) return a > b;
  if constexpr (F == ScalarFunction::kGreaterEqual) return a >= b;
}

/// out[i] = a[i] F b[i], with `get(operand, row)` reading a comparable value.
template <ScalarFunction F, typename Get>
void compare_loop(const Operand& x, const Operand& y, uint8_t* out, size_t rows, Get&& get) {
  if (x.constant && !y.constant) {
    const auto a = get(x, 0);
    for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(a, get(y, i));
  } else if (!x.constant && y.constant) {
    const auto b = get(y, 0);
    for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(get(x, i), b);
  } else {
    for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(get(x, i), get(y, i));
  }
}

template <ScalarFunction F>
void compare_typed(const Operand& x, const Operand& y, uint8_t* out, size_t rows) {
  const LogicalType& type = x.column->type();
  if (type.is_variable_width()) {  // bytewise, unsigned: UTF-8 order for VARCHAR
    const int64_t* xo = x.column->offsets()->as<int64_t>();
    const int64_t* yo = y.column->offsets()->as<int64_t>();
    const char* xc = x.column->data<char>();
    const char* yc = y.column->data<char>();
    auto get = [&](const Operand& o, size_t i) {
      const int64_t* off = &o == &x ? xo : yo;
      const char* chars = &o == &x ? xc : yc;
      return std::string_view(chars + off[i], static_cast<size_t>(off[i + 1] - off[i]));
    };
    compare_loop<F>(x, y, out, rows, get);
    return;
  }
  dispatch_fixed(type, [&](auto tag) {
    using T = decltype(tag);
    const T* xd = x.data<T>();
    const T* yd = y.data<T>();
    if constexpr (std::is_same_v<T, Interval> || std::is_same_v<T, TimestampTz>) {
      auto get = [&](const Operand& o, size_t i) { return comparable((&o == &x ? xd : yd)[i]); };
      compare_loop<F>(x, y, out, rows, get);
    } else if (x.constant && !y.constant) {
      const T a = xd[0];
      for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(a, yd[i]);
    } else if (!x.constant && y.constant) {
      const T bv = yd[0];
      for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(xd[i], bv);
    } else {
      for (size_t i = 0; i < rows; ++i) out[i] = compare_values<F>(xd[i], yd[i]);
    }
  });
}

void compare_dispatch(ScalarFunction f, const Operand& x, const Operand& y, uint8_t* out, size_t rows) {
  switch (f) {
    case ScalarFunction::kEqual: return compare_typed<ScalarFunction::kEqual>(x, y, out, rows);
    case ScalarFunction::kNotEqual: return compare_typed<ScalarFunction::kNotEqual>(x, y, out, rows);
    case ScalarFunction::kLess: return compare_typed<ScalarFunction::kLess>(x, y, out, rows);
    case ScalarFunction::kLessEqual: return compare_typed<ScalarFunction::kLessEqual>(x, y, out, rows);
    case ScalarFunction::kGreater: return compare_typed<ScalarFunction::kGreater>(x, y, out, rows);
    case ScalarFunction::kGreaterEqual: return compare_typed<ScalarFunction::kGreaterEqual>(x, y, out, rows);
    case ScalarFunction::kIsDistinctFrom: return compare_typed<ScalarFunction::kNotEqual>(x, y, out, rows);
    case ScalarFunction::kIsNotDistinctFrom: return compare_typed<ScalarFunction::kEqual>(x, y, out, rows);
    default: throw InternalError(std::string("comparison ") + plan::scalar_function_name(f));
  }
}

/// IS [NOT] DISTINCT FROM: NULLs compare as equal values, the result is never NULL.
Operand distinct_from(ScalarFunction f, const Operand& x, const Operand& y, size_t rows, EvalContext& ctx) {
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, Validity{}, ctx.memory());
  uint8_t* r = out->mutable_data<uint8_t>();
  const bool distinct = f == ScalarFunction::kIsDistinctFrom;
  const bool x_null_const = x.is_null_constant(), y_null_const = y.is_null_constant();
  if (!x_null_const && !y_null_const) compare_dispatch(f, x, y, r, rows);
  if (x.validity() != nullptr || y.validity() != nullptr) {
    for (size_t i = 0; i < rows; ++i) {
      const bool vx = x.valid(i), vy = y.valid(i);
      if (!vx || !vy) r[i] = (vx == vy) != distinct;
    }
  }
  return Operand{out, x.constant && y.constant};
}

}  // namespace

Operand compare_operands(ScalarFunction f, const Operand& x, const Operand& y, size_t rows, EvalContext& ctx) {
  KESTREL_CHECK_MSG(x.column->type().id() == y.column->type().id(),
                    x.column->type().to_string() << " vs " << y.column->type().to_string());
  if (x.column->type().is_nested()) return nested_compare(f, x, y, rows, ctx);
  if (f == ScalarFunction::kIsDistinctFrom || f == ScalarFunction::kIsNotDistinctFrom) {
    return distinct_from(f, x, y, rows, ctx);
  }
  Validity validity = and_validity({&x, &y}, rows, ctx.memory());
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, std::move(validity), ctx.memory());
  if (!x.is_null_constant() && !y.is_null_constant()) compare_dispatch(f, x, y, out->mutable_data<uint8_t>(), rows);
  return Operand{out, x.constant && y.constant};
}

Operand comparison_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  KESTREL_CHECK_EQ(args.size(), 2u);
  return compare_operands(e.function, args[0], args[1], rows, ctx);
}

}  // namespace kestrel::exec
