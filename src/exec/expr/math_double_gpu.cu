/// Presto's DOUBLE functions on the GPU (ln, log2, log10, exp, cbrt, power, the trigonometric and hyperbolic
/// functions, atan2, is_nan / is_finite / is_infinite) with the CPU's rules for errors and special values
/// (math.cpp, presto_math_funcs.cpp). The device's libm may differ from the host's in the last bit of a
/// transcendental result (its documented error is a few units in the last place); exact functions (is_*) agree.

#include <cmath>

#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

using plan::ScalarFunction;

/// One DOUBLE argument to DOUBLE; true for a row that raises (the CPU twin then finds it and its message).
struct DoubleUnary {
  ScalarFunction f;
  __device__ bool operator()(double v, double& r) const {
    switch (f) {
      case ScalarFunction::kLn: return v <= 0 ? true : (r = log(v), false);
      case ScalarFunction::kLog10: return v <= 0 ? true : (r = log10(v), false);
      case ScalarFunction::kLog2: return r = log2(v), false;  // Presto: -Infinity for 0, NaN below
      case ScalarFunction::kExp: return r = exp(v), false;
      case ScalarFunction::kCbrt:
        // One Newton step makes perfect cubes exact, as on the CPU.
        r = cbrt(v);
        if (isfinite(r) && r != 0) r -= (r * r * r - v) / (3 * r * r);
        return false;
      case ScalarFunction::kSin: return r = sin(v), false;
      case ScalarFunction::kCos: return r = cos(v), false;
      case ScalarFunction::kTan: return r = tan(v), false;
      case ScalarFunction::kAsin: return r = asin(v), false;
      case ScalarFunction::kAcos: return r = acos(v), false;
      case ScalarFunction::kAtan: return r = atan(v), false;
      case ScalarFunction::kSinh: return r = sinh(v), false;
      case ScalarFunction::kCosh: return r = cosh(v), false;
      default: return r = tanh(v), false;  // kTanh
    }
  }
};

struct DoubleClass {
  ScalarFunction f;
  __device__ bool operator()(double v, uint8_t& r) const {
    r = f == ScalarFunction::kIsNan ? isnan(v) : f == ScalarFunction::kIsFinite ? isfinite(v) : isinf(v);
    return false;
  }
};

/// power(x, y) and atan2(y, x): two DOUBLE operands (either may be a constant).
__global__ void double_binary_kernel(ScalarFunction f, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                                     ErrorScope err) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    const double x = arg_value<double>(a, i), y = arg_value<double>(b, i);
    double r = 0;
    bool bad = false;
    if (f == ScalarFunction::kAtan2) {
      r = atan2(x, y);
    } else if ((x == 0 && y < 0) || (x < 0 && floor(y) != y)) {
      bad = true;  // zero to a negative power; a complex result
    } else {
      r = pow(x, y);
    }
    static_cast<double*>(out.values)[i] = r;
    failed = bad && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

bool unary(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kLog2:
    case ScalarFunction::kExp:
    case ScalarFunction::kCbrt:
    case ScalarFunction::kSin:
    case ScalarFunction::kCos:
    case ScalarFunction::kTan:
    case ScalarFunction::kAsin:
    case ScalarFunction::kAcos:
    case ScalarFunction::kAtan:
    case ScalarFunction::kSinh:
    case ScalarFunction::kCosh:
    case ScalarFunction::kTanh: return true;
    default: return false;
  }
}

bool classifies(ScalarFunction f) {
  return f == ScalarFunction::kIsNan || f == ScalarFunction::kIsFinite || f == ScalarFunction::kIsInfinite;
}

}  // namespace

bool is_double_math(ScalarFunction f) {
  return unary(f) || classifies(f) || f == ScalarFunction::kPower || f == ScalarFunction::kAtan2;
}

bool double_math_supported(ScalarFunction f, const LogicalType& x, const LogicalType* y, const LogicalType& result) {
  if (x.id() != TypeId::kDouble) return false;
  if (f == ScalarFunction::kPower || f == ScalarFunction::kAtan2) {
    return y != nullptr && y->id() == TypeId::kDouble && result.id() == TypeId::kDouble;
  }
  if (y != nullptr) return false;
  if (unary(f)) return result.id() == TypeId::kDouble;
  return classifies(f) && result.id() == TypeId::kBoolean;
}

void launch_double_math(ScalarFunction f, DeviceArg x, const DeviceArg* y, DeviceOut out, size_t rows, ErrorScope err,
                        gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_double_math");
  if (rows == 0) return;
  if (y != nullptr) {
    double_binary_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(f, x, *y, out, rows, err);
    KESTREL_CUDA_CHECK_LAUNCH();
  } else if (classifies(f)) {
    launch_map<double, uint8_t>(x, out, rows, err, stream, DoubleClass{f});
  } else {
    launch_map<double, double>(x, out, rows, err, stream, DoubleUnary{f});
  }
}

}  // namespace kestrel::exec::gpu_expr
