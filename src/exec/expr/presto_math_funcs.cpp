// Presto's width_bucket, random, trigonometric, floating-point class and bitwise functions on the CPU.

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// Presto's width_bucket: buckets 1..n split [min(b1, b2), max(b1, b2)) evenly; 0 and n + 1 lie outside, counted
/// from bound1's side.
int64_t width_bucket(double x, double bound1, double bound2, int64_t buckets) {
  if (buckets <= 0) {
    throw InvalidInput("width_bucket: the bucket count must be positive, got " + std::to_string(buckets), "22023");
  }
  if (std::isnan(x)) throw InvalidInput("width_bucket: the operand must not be NaN", "22023");
  if (!std::isfinite(bound1) || !std::isfinite(bound2)) {
    throw InvalidInput("width_bucket: the bounds must be finite", "22023");
  }
  if (bound1 == bound2) throw InvalidInput("width_bucket: the bounds must differ", "22023");
  const double lower = std::min(bound1, bound2);
  const double upper = std::max(bound1, bound2);
  int64_t bucket = 0;
  if (x < lower) {
    bucket = 0;
  } else if (x >= upper) {
    if (buckets == std::numeric_limits<int64_t>::max()) {
      throw InvalidInput("width_bucket: the bucket count " + std::to_string(buckets) + " is too large", "22003");
    }
    bucket = buckets + 1;
  } else {
    bucket = static_cast<int64_t>(static_cast<double>(buckets) * (x - lower) / (upper - lower)) + 1;
  }
  return bound1 > bound2 ? buckets + 1 - bucket : bucket;
}

/// One generator per thread, seeded once from the system.
std::mt19937_64& random_engine() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

/// random(n) of integer type T: a value in [0, n).
template <typename T>
Operand random_below(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const T* bound = args[0].data<T>();
  Operand result = map_rows_to_fixed<T>(e.type, args, rows, ctx, [&](size_t i, T& out) {
    const T n = bound[args[0].index(i)];
    if (n <= 0) throw InvalidInput("random: the bound must be positive, got " + std::to_string(n), "22023");
    out = static_cast<T>(std::uniform_int_distribution<int64_t>(0, static_cast<int64_t>(n) - 1)(random_engine()));
    return true;
  });
  result.constant = false;
  return result;
}

}  // namespace

Operand presto_math_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case ScalarFunction::kWidthBucket: {
      const double* x = args[0].data<double>();
      const double* b1 = args[1].data<double>();
      const double* b2 = args[2].data<double>();
      const int64_t* n = args[3].data<int64_t>();
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = width_bucket(x[args[0].index(i)], b1[args[1].index(i)], b2[args[2].index(i)], n[args[3].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kRandom:
      if (args.empty()) {
        ColumnPtr out = make_output(e.type, rows, Validity{}, ctx.memory());
        double* dst = out->mutable_data<double>();
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        for (size_t i = 0; i < rows; ++i) dst[i] = uniform(random_engine());
        return Operand{out, false};
      }
      switch (e.type.id()) {
        case TypeId::kTinyInt: return random_below<int8_t>(e, args, rows, ctx);
        case TypeId::kSmallInt: return random_below<int16_t>(e, args, rows, ctx);
        case TypeId::kInteger: return random_below<int32_t>(e, args, rows, ctx);
        default: return random_below<int64_t>(e, args, rows, ctx);
      }
    case ScalarFunction::kSin:
    case ScalarFunction::kCos:
    case ScalarFunction::kTan:
    case ScalarFunction::kAsin:
    case ScalarFunction::kAcos:
    case ScalarFunction::kAtan:
    case ScalarFunction::kSinh:
    case ScalarFunction::kCosh:
    case ScalarFunction::kTanh:
    case ScalarFunction::kAtan2: {
      // As in Presto: out-of-domain arguments give NaN, not an error.
      const ScalarFunction f = e.function;
      const double* x = args[0].data<double>();
      const double* y = args.size() > 1 ? args[1].data<double>() : nullptr;
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        const double v = x[args[0].index(i)];
        switch (f) {
          case ScalarFunction::kSin: out = std::sin(v); break;
          case ScalarFunction::kCos: out = std::cos(v); break;
          case ScalarFunction::kTan: out = std::tan(v); break;
          case ScalarFunction::kAsin: out = std::asin(v); break;
          case ScalarFunction::kAcos: out = std::acos(v); break;
          case ScalarFunction::kAtan: out = std::atan(v); break;
          case ScalarFunction::kSinh: out = std::sinh(v); break;
          case ScalarFunction::kCosh: out = std::cosh(v); break;
          case ScalarFunction::kTanh: out = std::tanh(v); break;
          default: out = std::atan2(v, y[args[1].index(i)]); break;
        }
        return true;
      });
    }
    case ScalarFunction::kIsNan:
    case ScalarFunction::kIsFinite:
    case ScalarFunction::kIsInfinite: {
      const ScalarFunction f = e.function;
      const double* x = args[0].data<double>();
      return map_rows_to_fixed<uint8_t>(e.type, args, rows, ctx, [&](size_t i, uint8_t& out) {
        const double v = x[args[0].index(i)];
        out = f == ScalarFunction::kIsNan ? std::isnan(v) : f == ScalarFunction::kIsFinite ? std::isfinite(v)
                                                                                             : std::isinf(v);
        return true;
      });
    }
    case ScalarFunction::kBitwiseAnd:
    case ScalarFunction::kBitwiseOr:
    case ScalarFunction::kBitwiseXor:
    case ScalarFunction::kBitwiseNot:
    case ScalarFunction::kBitCount: {
      const ScalarFunction f = e.function;
      const int64_t* a = args[0].data<int64_t>();
      const int64_t* b = args.size() > 1 ? args[1].data<int64_t>() : nullptr;
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const auto x = static_cast<uint64_t>(a[args[0].index(i)]);
        if (f == ScalarFunction::kBitwiseNot) {
          out = static_cast<int64_t>(~x);
          return true;
        }
        const int64_t yv = b[args[1].index(i)];
        const auto y = static_cast<uint64_t>(yv);
        switch (f) {
          case ScalarFunction::kBitwiseAnd: out = static_cast<int64_t>(x & y); break;
          case ScalarFunction::kBitwiseOr: out = static_cast<int64_t>(x | y); break;
          case ScalarFunction::kBitwiseXor: out = static_cast<int64_t>(x ^ y); break;
          default: {
            // bit_count(x, bits): x must fit a `bits`-bit two's complement number (Presto's rule).
            if (yv < 2 || yv > 64) {
              throw InvalidInput("bit_count: bits must be between 2 and 64, got " + std::to_string(yv), "22023");
            }
            const auto sx = static_cast<int64_t>(x);
            if (yv < 64) {
              const int64_t lo = -(int64_t{1} << (yv - 1)), hi = (int64_t{1} << (yv - 1)) - 1;
              if (sx < lo || sx > hi) {
                throw InvalidInput("bit_count: " + std::to_string(sx) + " does not fit in " + std::to_string(yv) +
                                       " bits",
                                   "22023");
              }
            }
            const uint64_t mask = yv == 64 ? ~uint64_t{0} : (uint64_t{1} << yv) - 1;
            out = std::popcount(x & mask);
          }
        }
        return true;
      });
    }
    default: throw InternalError(std::string("math function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
