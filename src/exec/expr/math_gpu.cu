/// abs, sign, round, floor, ceil, truncate and sqrt on the GPU, with the CPU's per-value rules (math_ops.hpp, math.cpp).

#include <cmath>
#include <type_traits>

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/math_ops.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

using plan::ScalarFunction;

/// round(x, digits) with INTEGER digits: out[i] = op(a[i], digits[i]).
template <typename In, typename Out, typename Op>
__global__ void digits_kernel(DeviceArg a, DeviceArg digits, DeviceOut out, size_t rows, ErrorScope err, Op op) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(digits, i);
    Out r{};
    const bool bad = op(arg_value<In>(a, i), arg_value<int32_t>(digits, i), r);
    static_cast<Out*>(out.values)[i] = r;
    failed = bad && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename T>
struct AbsInteger {
  __device__ bool operator()(T v, T& r) const { return ops::abs_value(v, r); }
};
template <typename T>
struct AbsFloat {
  __device__ bool operator()(T v, T& r) const { return r = fabs(v), false; }
};
template <typename In, typename Out>
struct Sign {
  __device__ bool operator()(In v, Out& r) const { return r = static_cast<Out>((v > 0) - (v < 0)), false; }
};
template <typename T>
struct FloatRoundLike {
  ScalarFunction f;
  __device__ bool operator()(T v, T& r) const {
    r = f == ScalarFunction::kRound   ? round(v)
        : f == ScalarFunction::kFloor ? floor(v)
        : f == ScalarFunction::kCeil  ? ceil(v)
                                      : trunc(v);
    return false;
  }
};
template <typename S, typename R>
struct DecimalRoundLike {
  ScalarFunction f;
  S divisor;
  __device__ bool operator()(S v, R& r) const {
    const S q = f == ScalarFunction::kRound   ? ops::round_decimal_to_integer(v, divisor)
                : f == ScalarFunction::kFloor ? ops::floor_decimal(v, divisor)
                : f == ScalarFunction::kCeil  ? ops::ceil_decimal(v, divisor)
                                              : v / divisor;  // truncate: toward zero
    r = static_cast<R>(q);
    return false;
  }
};
struct Sqrt {
  __device__ bool operator()(double v, double& r) const { return v < 0 ? true : (r = sqrt(v), false); }
};
/// round(decimal, digits): the CPU's round_digits, computed in C (the wider of S and R).
template <typename S, typename R>
struct DecimalRoundDigits {
  int scale;
  int precision;
  __device__ bool operator()(S v, int32_t digits, R& r) const {
    using C = std::conditional_t<(sizeof(S) > sizeof(R)), S, R>;
    const int64_t shift = static_cast<int64_t>(scale) - digits;
    const C a = static_cast<C>(v);
    if (shift <= 0) return r = static_cast<R>(a), false;
    if (shift > (sizeof(C) > 8 ? 38 : 18)) return r = 0, false;
    C out;
    if (ops::round_to_unit(a, numeric::pow10<C>(static_cast<int>(shift)), precision, out)) return true;
    r = static_cast<R>(out);
    return false;
  }
};
/// round(integer, digits): negative digits round to a power of ten.
template <typename T>
struct IntegerRoundDigits {
  __device__ bool operator()(T v, int32_t digits, T& r) const {
    if (digits >= 0) return r = v, false;
    if (-static_cast<int64_t>(digits) > 18) return r = 0, false;
    int64_t out;
    if (ops::round_to_unit<int64_t>(v, numeric::pow10<int64_t>(-digits), 0, out)) return true;
    r = static_cast<T>(out);
    return static_cast<int64_t>(r) != out;
  }
};

template <typename In, typename Out, typename Op>
void launch_digits(DeviceArg a, DeviceArg digits, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream,
                   Op op) {
  if (rows == 0) return;
  digits_kernel<In, Out><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, digits, out, rows, err, op);
  KESTREL_CUDA_CHECK_LAUNCH();
}

/// Calls fn(T{}) with the C++ type of a numeric type's values (integers, REAL, DOUBLE, DECIMAL of both widths).
template <typename Fn>
void dispatch_numeric(const LogicalType& t, Fn&& fn) {
  switch (t.id()) {
    case TypeId::kTinyInt: return fn(int8_t{});
    case TypeId::kSmallInt: return fn(int16_t{});
    case TypeId::kInteger: return fn(int32_t{});
    case TypeId::kBigInt: return fn(int64_t{});
    case TypeId::kReal: return fn(float{});
    case TypeId::kDouble: return fn(double{});
    case TypeId::kDecimal: return t.is_wide_decimal() ? fn(int128_t{}) : fn(int64_t{});
    default: throw NotImplemented("GPU math on " + t.to_string());
  }
}

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace

bool math_supported_types(ScalarFunction f, const LogicalType& x, const LogicalType& result, bool has_digits) {
  const bool decimal = x.id() == TypeId::kDecimal;
  const bool floating = x.id() == TypeId::kReal || x.id() == TypeId::kDouble;
  if (!x.is_numeric() || (has_digits && f != ScalarFunction::kRound)) return false;
  switch (f) {
    case ScalarFunction::kAbs: return result == x;
    case ScalarFunction::kSign:
      return decimal ? result.id() == TypeId::kDecimal && !result.is_wide_decimal() : result == x;
    case ScalarFunction::kRound:
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil:
    case ScalarFunction::kTruncate:
      // Floats with digits would need the CPU's pow and division to the last bit.
      if (has_digits) return !floating && result.id() == x.id();
      if (decimal) return result.id() == TypeId::kDecimal && result.scale() == 0;
      return result == x;
    case ScalarFunction::kSqrt: return x.id() == TypeId::kDouble && result.id() == TypeId::kDouble;
    default: return false;
  }
}

void launch_math(ScalarFunction f, const LogicalType& x_type, const LogicalType& result, DeviceArg x,
                 const DeviceArg* digits, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_math");
  if (!math_supported_types(f, x_type, result, digits != nullptr)) {
    throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(f) + " of " + x_type.to_string());
  }
  const bool decimal = x_type.id() == TypeId::kDecimal;
  dispatch_numeric(x_type, [&](auto tag) {
    using S = decltype(tag);
    switch (f) {
      case ScalarFunction::kAbs:
        if constexpr (is_float_v<S>) {
          return launch_map<S, S>(x, out, rows, err, stream, AbsFloat<S>{});
        } else {
          return launch_map<S, S>(x, out, rows, err, stream, AbsInteger<S>{});
        }
      case ScalarFunction::kSign:
        if (decimal) return launch_map<S, int64_t>(x, out, rows, err, stream, Sign<S, int64_t>{});
        return launch_map<S, S>(x, out, rows, err, stream, Sign<S, S>{});
      case ScalarFunction::kSqrt:
        if constexpr (std::is_same_v<S, double>) return launch_map<S, S>(x, out, rows, err, stream, Sqrt{});
        break;
      default:  // round, floor, ceil, truncate
        if (digits != nullptr) {
          if constexpr (!is_float_v<S>) {
            if (!decimal) return launch_digits<S, S>(x, *digits, out, rows, err, stream, IntegerRoundDigits<S>{});
            auto run = [&](auto r_tag) {
              using R = decltype(r_tag);
              launch_digits<S, R>(x, *digits, out, rows, err, stream,
                                  DecimalRoundDigits<S, R>{x_type.scale(), result.precision()});
            };
            return result.is_wide_decimal() ? run(int128_t{}) : run(int64_t{});
          }
          break;
        }
        if constexpr (is_float_v<S>) {
          return launch_map<S, S>(x, out, rows, err, stream, FloatRoundLike<S>{f});
        } else {
          if (!decimal) break;  // integers are their own round: the evaluator returns them as they are
          const S divisor = numeric::pow10<S>(x_type.scale());
          auto run = [&](auto r_tag) {
            using R = decltype(r_tag);
            launch_map<S, R>(x, out, rows, err, stream, DecimalRoundLike<S, R>{f, divisor});
          };
          return result.is_wide_decimal() ? run(int128_t{}) : run(int64_t{});
        }
    }
    throw InternalError(std::string("GPU ") + plan::scalar_function_name(f) + " of " + x_type.to_string());
  });
}

}  // namespace kestrel::exec::gpu_expr
