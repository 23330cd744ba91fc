#include <algorithm>
#include <cmath>
#include <string>

#include "exec/expr/kernels.hpp"
#include "exec/expr/math_ops.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// r[i] = op(row i) for every row, where op(i, r) returns an error code (0 = fine); `raise(i, code)` throws for
/// the first non-NULL failing row.
template <typename T, typename Op, typename Raise>
Operand map_rows(const std::vector<Operand>& args, const LogicalType& type, size_t rows, EvalContext& ctx,
                 Op&& op, Raise&& raise) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(type, rows, std::move(validity), ctx.memory());
  T* r = out->mutable_data<T>();
  int status = 0;
  for (size_t i = 0; i < rows; ++i) status |= op(i, r[i]);
  if (status != 0) {
    raise_first_error(
        rows, valid,
        [&](size_t i) {
          T tmp;
          return op(i, tmp) != 0;
        },
        [&](size_t i) {
          T tmp;
          raise(i, op(i, tmp));
        });
  }
  return Operand{out, shape_of(args, rows).constant};
}

[[noreturn]] void raise_domain(const std::string& message) { throw InvalidInput(message, "2201F"); }

Operand abs_or_sign(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[0];
  const LogicalType& in_type = x.column->type();
  const bool is_abs = e.function == ScalarFunction::kAbs;
  return dispatch_fixed(in_type, [&](auto tag) -> Operand {
    using S = decltype(tag);
    if constexpr (std::is_same_v<S, Interval> || std::is_same_v<S, TimestampTz> || std::is_same_v<S, uint8_t>) {
      throw InternalError("abs/sign of " + in_type.to_string());
    } else {
      const S* v = x.data<S>();
      if (!is_abs && in_type.id() == TypeId::kDecimal) {
        return map_rows<int64_t>(
            args, e.type, rows, ctx,
            [&](size_t i, int64_t& r) { return r = static_cast<int64_t>(ops::sign_value(v[x.index(i)])), 0; },
            [](size_t, int) {});
      }
      return map_rows<S>(
          args, e.type, rows, ctx,
          [&](size_t i, S& r) -> int {
            const S a = v[x.index(i)];
            if constexpr (is_float_v<S>) {
              r = is_abs ? std::fabs(a) : static_cast<S>((a > 0) - (a < 0));
              return 0;
            } else {
              if (!is_abs) return r = ops::sign_value(a), 0;
              return ops::abs_value(a, r) ? 1 : 0;
            }
          },
          [&](size_t i, int) {
            throw InvalidInput(e.type.to_string() + " overflow in abs(" + value_text(x, i) + ")", "22003");
          });
    }
  });
}

/// round(x), floor(x), ceil(x) without digits, and truncate(x).
Operand round_like(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[0];
  const LogicalType& in_type = x.column->type();
  if (in_type.is_integral() || (in_type.id() == TypeId::kDecimal && in_type == e.type)) return x;
  const ScalarFunction f = e.function;
  auto none = [](size_t, int) {};
  if (in_type.id() == TypeId::kDouble || in_type.id() == TypeId::kReal) {
    return dispatch_fixed(in_type, [&](auto tag) -> Operand {
      using S = decltype(tag);
      if constexpr (is_float_v<S>) {
        const S* v = x.data<S>();
        return map_rows<S>(args, e.type, rows, ctx, [&](size_t i, S& r) {
          const S a = v[x.index(i)];
          r = f == ScalarFunction::kRound   ? std::round(a)
              : f == ScalarFunction::kFloor ? std::floor(a)
              : f == ScalarFunction::kCeil  ? std::ceil(a)
                                            : std::trunc(a);
          return 0;
        }, none);
      } else {
        throw InternalError("round on " + in_type.to_string());
      }
    });
  }
  return dispatch_decimal(in_type, [&](auto s_tag) {
    return dispatch_decimal(e.type, [&](auto r_tag) {
      using S = decltype(s_tag);
      using R = decltype(r_tag);
      const S* v = x.data<S>();
      const S divisor = numeric::pow10<S>(in_type.scale());
      return map_rows<R>(args, e.type, rows, ctx, [&](size_t i, R& r) {
        const S a = v[x.index(i)];
        const S q = f == ScalarFunction::kRound   ? ops::round_decimal_to_integer(a, divisor)
                    : f == ScalarFunction::kFloor ? ops::floor_decimal(a, divisor)
                    : f == ScalarFunction::kCeil  ? ops::ceil_decimal(a, divisor)
                                                  : static_cast<S>(a / divisor);  // truncate: toward zero
        r = static_cast<R>(q);
        return 0;
      }, none);
    });
  });
}

/// round(x, d).
Operand round_digits(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[0];
  const Operand& d = args[1];
  const int32_t* digits = d.data<int32_t>();
  const LogicalType& in_type = x.column->type();
  auto overflow = [&](size_t i, int) {
    throw InvalidInput(e.type.to_string() + " overflow in round(" + value_text(x, i) + ", " + value_text(d, i) + ")",
                       "22003");
  };
  if (in_type.id() == TypeId::kDecimal) {
    return dispatch_decimal(in_type, [&](auto s_tag) {
      return dispatch_decimal(e.type, [&](auto r_tag) {
        using S = decltype(s_tag);
        using R = decltype(r_tag);
        using C = std::conditional_t<(sizeof(S) > sizeof(R)), S, R>;
        const S* v = x.data<S>();
        return map_rows<R>(args, e.type, rows, ctx, [&](size_t i, R& r) -> int {
          const int64_t shift = static_cast<int64_t>(in_type.scale()) - digits[d.index(i)];
          const C a = static_cast<C>(v[x.index(i)]);
          if (shift <= 0) return r = static_cast<R>(a), 0;
          if (shift > (sizeof(C) > 8 ? 38 : 18)) return r = 0, 0;
          C out;
          if (ops::round_to_unit(a, numeric::pow10<C>(static_cast<int>(shift)), e.type.precision(), out)) return 1;
          r = static_cast<R>(out);
          return 0;
        }, overflow);
      });
    });
  }
  return dispatch_fixed(in_type, [&](auto tag) -> Operand {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, Interval> || std::is_same_v<T, TimestampTz> || std::is_same_v<T, uint8_t> ||
                  std::is_same_v<T, int128_t>) {
      throw InternalError("round on " + in_type.to_string());
    } else {
      const T* v = x.data<T>();
      return map_rows<T>(args, e.type, rows, ctx, [&](size_t i, T& r) -> int {
        const int32_t dg = digits[d.index(i)];
        const T a = v[x.index(i)];
        if constexpr (is_float_v<T>) {
          if (dg > 300 || !std::isfinite(a)) return r = a, 0;
          const double scale = std::pow(10.0, dg);
          r = static_cast<T>(std::round(static_cast<double>(a) * scale) / scale);
          return 0;
        } else {
          if (dg >= 0) return r = a, 0;
          if (-static_cast<int64_t>(dg) > 18) return r = 0, 0;
          const int64_t unit = numeric::pow10<int64_t>(-dg);
          int64_t out;
          if (ops::round_to_unit<int64_t>(a, unit, 0, out)) return 1;
          r = static_cast<T>(out);
          return static_cast<int64_t>(r) == out ? 0 : 1;
        }
      }, overflow);
    }
  });
}

Operand double_function(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[0];
  const double* a = x.data<double>();
  const double* b = args.size() > 1 ? args[1].data<double>() : nullptr;
  const ScalarFunction f = e.function;
  // Codes: 1 negative sqrt, 2 log of zero, 3 log of negative, 4 zero to a negative power, 5 complex power.
  auto op = [&](size_t i, double& r) -> int {
    const double v = a[x.index(i)];
    switch (f) {
      case ScalarFunction::kSqrt: return v < 0 ? 1 : (r = std::sqrt(v), 0);
      case ScalarFunction::kLn: return v == 0 ? 2 : v < 0 ? 3 : (r = std::log(v), 0);
      case ScalarFunction::kLog10: return v == 0 ? 2 : v < 0 ? 3 : (r = std::log10(v), 0);
      case ScalarFunction::kExp: return r = std::exp(v), 0;
      case ScalarFunction::kCbrt: {
        // One Newton step makes perfect cubes exact, as Presto's Math.cbrt (glibc gives 3.0000000000000004 for 27).
        r = std::cbrt(v);
        if (std::isfinite(r) && r != 0) r -= (r * r * r - v) / (3 * r * r);
        return 0;
      }
      // Presto: log2(0) is -Infinity and log2 of a negative number NaN, no error.
      case ScalarFunction::kLog2: return r = std::log2(v), 0;
      default: {
        const double y = b[args[1].index(i)];
        if (v == 0 && y < 0) return 4;
        if (v < 0 && std::floor(y) != y) return 5;
        r = std::pow(v, y);
        return 0;
      }
    }
  };
  auto raise = [](size_t, int code) {
    switch (code) {
      case 1: raise_domain("cannot take square root of a negative number");
      case 2: raise_domain("cannot take logarithm of zero");
      case 3: raise_domain("cannot take logarithm of a negative number");
      case 4: raise_domain("zero raised to a negative power is undefined");
      default: raise_domain("a negative number raised to a non-integer power yields a complex result");
    }
  };
  return map_rows<double>(args, e.type, rows, ctx, op, raise);
}

}  // namespace

Operand math_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (std::any_of(args.begin(), args.end(), [](const Operand& a) { return a.is_null_constant(); })) {
    return Operand{materialize(null_operand(e.type, ctx.memory()), rows, ctx.memory()), shape_of(args, rows).constant};
  }
  switch (e.function) {
    case ScalarFunction::kAbs:
    case ScalarFunction::kSign: return abs_or_sign(e, args, rows, ctx);
    case ScalarFunction::kRound:
      return args.size() == 2 ? round_digits(e, args, rows, ctx) : round_like(e, args, rows, ctx);
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil: return round_like(e, args, rows, ctx);
    case ScalarFunction::kSqrt:
    case ScalarFunction::kPower:
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kExp:
    case ScalarFunction::kCbrt:
    case ScalarFunction::kLog2: return double_function(e, args, rows, ctx);
    case ScalarFunction::kTruncate: return round_like(e, args, rows, ctx);
    default: throw InternalError(std::string("math function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
