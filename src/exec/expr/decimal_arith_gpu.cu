/// Exact DECIMAL arithmetic on the GPU (int64 and int128 storage), with the CPU's functors (arith_ops.hpp) so both
/// sides round and overflow identically.

#include "common/error.hpp"
#include "exec/expr/arith_ops.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

/// DECIMAL add/subtract in int128 with the rules of ops::DecimalAdd / ops::DecimalSub (overflow of int128 or of the
/// precision). numeric::add_overflow's device path cannot instantiate for int128 in strict C++20 (make_unsigned of
/// __int128), so the wrapping sum is formed here on unsigned __int128.
template <bool kSubtract>
struct WideDecimalAddSub {
  int precision;
  __device__ int operator()(int128_t a, int128_t b, int128_t& r) const {
    using U = unsigned __int128;
    r = static_cast<int128_t>(kSubtract ? static_cast<U>(a) - static_cast<U>(b) : static_cast<U>(a) + static_cast<U>(b));
    const bool overflow = kSubtract ? ((a >= 0) != (b >= 0) && (r >= 0) != (a >= 0))
                                    : ((a >= 0) == (b >= 0) && (r >= 0) != (a >= 0));
    return overflow || !numeric::fits_precision(r, precision) ? ops::kOverflow : ops::kOk;
  }
};

/// out[i] = R(op(C(a[i]), C(b[i]))), storage A and B, compute type C, result storage R.
template <typename A, typename B, typename C, typename R, typename Op>
__global__ void decimal_kernel(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, Op op) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    C r{};
    const int status = op(static_cast<C>(arg_value<A>(a, i)), static_cast<C>(arg_value<B>(b, i)), r);
    static_cast<R*>(out.values)[i] = static_cast<R>(r);
    failed = status != 0 && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename A, typename B, typename C, typename R, typename Op>
void launch(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Op op) {
  if (rows == 0) return;
  decimal_kernel<A, B, C, R><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, out, rows, err, op);
  KESTREL_CUDA_CHECK_LAUNCH();
}

template <typename A, typename B, typename R>
void decimal_typed(const LogicalType& ta, const LogicalType& tb, const LogicalType& result, ArithOp op, DeviceArg a,
                   DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  using C = std::conditional_t<(sizeof(A) > 8 || sizeof(B) > 8 || sizeof(R) > 8), int128_t, int64_t>;
  const int p = result.precision();
  switch (op) {
    case ArithOp::kAdd:
      if constexpr (std::is_same_v<C, int128_t>) {
        return launch<A, B, C, R>(a, b, out, rows, err, stream, WideDecimalAddSub<false>{p});
      } else {
        return launch<A, B, C, R>(a, b, out, rows, err, stream, ops::DecimalAdd<C>{p});
      }
    case ArithOp::kSubtract:
      if constexpr (std::is_same_v<C, int128_t>) {
        return launch<A, B, C, R>(a, b, out, rows, err, stream, WideDecimalAddSub<true>{p});
      } else {
        return launch<A, B, C, R>(a, b, out, rows, err, stream, ops::DecimalSub<C>{p});
      }
    case ArithOp::kMultiply: return launch<A, B, C, R>(a, b, out, rows, err, stream, ops::DecimalMul<C>{p});
    case ArithOp::kModulo: return launch<A, B, C, R>(a, b, out, rows, err, stream, ops::DecimalMod<C>{});
    case ArithOp::kDivide: {
      const int shift = result.scale() + tb.scale() - ta.scale();
      if (shift < 0) throw InternalError("DECIMAL division with a negative rescale");
      ops::DecimalDiv div{p, numeric::pow10<int128_t>(shift)};
      return launch<A, B, int128_t, R>(a, b, out, rows, err, stream, div);
    }
  }
}

template <typename A, typename B>
void decimal_result(const LogicalType& ta, const LogicalType& tb, const LogicalType& result, ArithOp op, DeviceArg a,
                    DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  if (result.is_wide_decimal()) return decimal_typed<A, B, int128_t>(ta, tb, result, op, a, b, out, rows, err, stream);
  return decimal_typed<A, B, int64_t>(ta, tb, result, op, a, b, out, rows, err, stream);
}

template <typename A>
void decimal_second(const LogicalType& ta, const LogicalType& tb, const LogicalType& result, ArithOp op, DeviceArg a,
                    DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  if (tb.is_wide_decimal()) return decimal_result<A, int128_t>(ta, tb, result, op, a, b, out, rows, err, stream);
  return decimal_result<A, int64_t>(ta, tb, result, op, a, b, out, rows, err, stream);
}

}  // namespace

void launch_decimal_arith(const LogicalType& ta, const LogicalType& tb, const LogicalType& result, ArithOp op,
                          DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_decimal_arith");
  if (ta.id() != TypeId::kDecimal || tb.id() != TypeId::kDecimal || result.id() != TypeId::kDecimal) {
    throw NotImplemented("GPU DECIMAL arithmetic on " + ta.to_string() + " and " + tb.to_string());
  }
  if (ta.is_wide_decimal()) return decimal_second<int128_t>(ta, tb, result, op, a, b, out, rows, err, stream);
  return decimal_second<int64_t>(ta, tb, result, op, a, b, out, rows, err, stream);
}

}  // namespace kestrel::exec::gpu_expr
