#include <string>

#include "common/check.hpp"
#include "exec/expr/arith_ops.hpp"
#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// r[i] = op(a[i], b[i]) converting storage A and B to the compute type C and the result to R; returns the OR
/// of the statuses.
template <typename A, typename B, typename C, typename R, typename Op>
int binary_loop(const Operand& x, const Operand& y, R* out, size_t rows, const Op& op) {
  const A* a = x.data<A>();
  const B* b = y.data<B>();
  int status = 0;
  C r{};
  if (x.constant && !y.constant) {
    const C av = static_cast<C>(a[0]);
    for (size_t i = 0; i < rows; ++i) {
      status |= op(av, static_cast<C>(b[i]), r);
      out[i] = static_cast<R>(r);
    }
  } else if (!x.constant && y.constant) {
    const C bv = static_cast<C>(b[0]);
    for (size_t i = 0; i < rows; ++i) {
      status |= op(static_cast<C>(a[i]), bv, r);
      out[i] = static_cast<R>(r);
    }
  } else {
    for (size_t i = 0; i < rows; ++i) {
      status |= op(static_cast<C>(a[i]), static_cast<C>(b[i]), r);
      out[i] = static_cast<R>(r);
    }
  }
  return status;
}

/// Runs `op` over the rows into a new column of `type`; on a failed non-NULL row raises its error.
template <typename A, typename B, typename C, typename R, typename Op>
Operand run_binary(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, const Op& op,
                   EvalContext& ctx) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(e.type, rows, std::move(validity), ctx.memory());
  const bool any_null_constant = args[0].is_null_constant() || args[1].is_null_constant();
  if (!any_null_constant) {
    const int status = binary_loop<A, B, C, R>(args[0], args[1], out->mutable_data<R>(), rows, op);
    if (status != 0) {
      const A* a = args[0].data<A>();
      const B* b = args[1].data<B>();
      raise_first_error(
          rows, valid,
          [&](size_t i) {
            C r;
            return op(static_cast<C>(a[args[0].index(i)]), static_cast<C>(b[args[1].index(i)]), r) != 0;
          },
          [&](size_t i) {
            C r;
            const int code = op(static_cast<C>(a[args[0].index(i)]), static_cast<C>(b[args[1].index(i)]), r);
            raise_arithmetic_error(code, e.type, plan::scalar_function_name(e.function),
                                   value_text(args[0], i), value_text(args[1], i));
          });
    }
  }
  return Operand{out, args[0].constant && args[1].constant};
}

template <typename T>
Operand integer_arith(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  switch (e.function) {
    case ScalarFunction::kAdd: return run_binary<T, T, T, T>(e, args, rows, ops::IntAdd<T>{}, ctx);
    case ScalarFunction::kSubtract: return run_binary<T, T, T, T>(e, args, rows, ops::IntSub<T>{}, ctx);
    case ScalarFunction::kMultiply: return run_binary<T, T, T, T>(e, args, rows, ops::IntMul<T>{}, ctx);
    case ScalarFunction::kDivide: return run_binary<T, T, T, T>(e, args, rows, ops::IntDiv<T>{}, ctx);
    case ScalarFunction::kModulo: return run_binary<T, T, T, T>(e, args, rows, ops::IntMod<T>{}, ctx);
    default: throw InternalError(std::string("integer arithmetic: ") + plan::scalar_function_name(e.function));
  }
}

template <typename T>
Operand float_arith(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  switch (e.function) {
    case ScalarFunction::kAdd: return run_binary<T, T, T, T>(e, args, rows, ops::FloatAdd<T>{}, ctx);
    case ScalarFunction::kSubtract: return run_binary<T, T, T, T>(e, args, rows, ops::FloatSub<T>{}, ctx);
    case ScalarFunction::kMultiply: return run_binary<T, T, T, T>(e, args, rows, ops::FloatMul<T>{}, ctx);
    case ScalarFunction::kDivide: return run_binary<T, T, T, T>(e, args, rows, ops::FloatDiv<T>{}, ctx);
    case ScalarFunction::kModulo: return run_binary<T, T, T, T>(e, args, rows, ops::FloatMod<T>{}, ctx);
    default: throw InternalError(std::string("float arithmetic: ") + plan::scalar_function_name(e.function));
  }
}

template <typename A, typename B, typename R>
Operand decimal_arith_typed(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  using C = std::conditional_t<(sizeof(A) > 8 || sizeof(B) > 8 || sizeof(R) > 8), int128_t, int64_t>;
  const LogicalType& ta = args[0].column->type();
  const LogicalType& tb = args[1].column->type();
  const int p = e.type.precision();
  switch (e.function) {
    case ScalarFunction::kAdd: return run_binary<A, B, C, R>(e, args, rows, ops::DecimalAdd<C>{p}, ctx);
    case ScalarFunction::kSubtract: return run_binary<A, B, C, R>(e, args, rows, ops::DecimalSub<C>{p}, ctx);
    case ScalarFunction::kMultiply: return run_binary<A, B, C, R>(e, args, rows, ops::DecimalMul<C>{p}, ctx);
    case ScalarFunction::kModulo: return run_binary<A, B, C, R>(e, args, rows, ops::DecimalMod<C>{}, ctx);
    case ScalarFunction::kDivide: {
      const int shift = e.type.scale() + tb.scale() - ta.scale();
      KESTREL_CHECK_GE(shift, 0);
      ops::DecimalDiv op{p, numeric::pow10<int128_t>(shift)};
      return run_binary<A, B, int128_t, R>(e, args, rows, op, ctx);
    }
    default: throw InternalError(std::string("decimal arithmetic: ") + plan::scalar_function_name(e.function));
  }
}

Operand decimal_arith(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  return dispatch_decimal(args[0].column->type(), [&](auto a) {
    return dispatch_decimal(args[1].column->type(), [&](auto b) {
      return dispatch_decimal(e.type, [&](auto r) {
        return decimal_arith_typed<decltype(a), decltype(b), decltype(r)>(e, args, rows, ctx);
      });
    });
  });
}

template <typename T>
Operand negate_typed(const plan::Expr& e, const Operand& x, size_t rows, EvalContext& ctx) {
  Validity validity = and_validity({&x}, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(e.type, rows, std::move(validity), ctx.memory());
  const T* a = x.data<T>();
  T* r = out->mutable_data<T>();
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
    if (e.type.id() != TypeId::kDecimal) {
      bool bad = false;
      for (size_t i = 0; i < rows; ++i) {
        bad |= a[i] == numeric::min_of<T>();
        r[i] = static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a[i]));
      }
      if (bad && !x.is_null_constant()) {
        raise_first_error(
            rows, valid, [&](size_t i) { return a[i] == numeric::min_of<T>(); },
            [&](size_t i) {
              throw InvalidInput(e.type.to_string() + " overflow in -(" + value_text(x, i) + ")", "22003");
            });
      }
      return Operand{out, x.constant};
    }
  }
  for (size_t i = 0; i < rows; ++i) r[i] = -a[i];
  return Operand{out, x.constant};
}

}  // namespace

void raise_arithmetic_error(int code, const LogicalType& type, const char* op, const std::string& a,
                            const std::string& b) {
  if (code == ops::kDivisionByZero) throw InvalidInput("division by zero", "22012");
  throw InvalidInput(type.to_string() + " overflow in " + a + " " + op + " " + b, "22003");
}

Operand arithmetic_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (e.function == ScalarFunction::kNegate) {
    return dispatch_fixed(e.type, [&](auto tag) -> Operand {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, Interval> || std::is_same_v<T, TimestampTz> || std::is_same_v<T, uint8_t>) {
        throw InternalError("negate of " + e.type.to_string());
      } else {
        return negate_typed<T>(e, args[0], rows, ctx);
      }
    });
  }
  KESTREL_CHECK_EQ(args.size(), 2u);
  switch (e.type.id()) {
    case TypeId::kTinyInt: return integer_arith<int8_t>(e, args, rows, ctx);
    case TypeId::kSmallInt: return integer_arith<int16_t>(e, args, rows, ctx);
    case TypeId::kInteger: return integer_arith<int32_t>(e, args, rows, ctx);
    case TypeId::kBigInt: return integer_arith<int64_t>(e, args, rows, ctx);
    case TypeId::kReal: return float_arith<float>(e, args, rows, ctx);
    case TypeId::kDouble: return float_arith<double>(e, args, rows, ctx);
    case TypeId::kDecimal: return decimal_arith(e, args, rows, ctx);
    default: throw InternalError("arithmetic on " + e.type.to_string());
  }
}

}  // namespace kestrel::exec
