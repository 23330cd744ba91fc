/// Integer, REAL and DOUBLE arithmetic and unary minus on the GPU, with the CPU's per-value rules (arith_ops.hpp).

#include "common/error.hpp"
#include "exec/expr/arith_ops.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

/// out[i] = op(a[i], b[i]); a failing, valid and active row raises the error flag.
template <typename T, typename Op>
__global__ void binary_kernel(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, Op op) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    T r{};
    const int status = op(arg_value<T>(a, i), arg_value<T>(b, i), r);
    static_cast<T*>(out.values)[i] = r;
    failed = status != 0 && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

/// 0 - v without signed overflow (the minimum stays the minimum, as on the CPU).
template <typename T>
__device__ inline T wrapping_negate(T v) {
  if constexpr (std::is_same_v<T, int128_t>) {
    return static_cast<T>(static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v));
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(U{0} - static_cast<U>(v));
  }
}

template <typename T>
__global__ void negate_kernel(DeviceArg a, DeviceOut out, size_t rows, ErrorScope err, bool checked) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i);
    const T v = arg_value<T>(a, i);
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, int128_t>) {
      static_cast<T*>(out.values)[i] = wrapping_negate(v);
      failed = checked && v == numeric::min_of<T>() && valid && row_active(err, i);
    } else {
      static_cast<T*>(out.values)[i] = -v;
    }
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename T, typename Op>
void launch_binary(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Op op) {
  if (rows == 0) return;
  binary_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, out, rows, err, op);
  KESTREL_CUDA_CHECK_LAUNCH();
}

template <typename T>
void integer_arith(ArithOp op, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err,
                   gpu::Stream stream) {
  switch (op) {
    case ArithOp::kAdd: return launch_binary<T>(a, b, out, rows, err, stream, ops::IntAdd<T>{});
    case ArithOp::kSubtract: return launch_binary<T>(a, b, out, rows, err, stream, ops::IntSub<T>{});
    case ArithOp::kMultiply: return launch_binary<T>(a, b, out, rows, err, stream, ops::IntMul<T>{});
    case ArithOp::kDivide: return launch_binary<T>(a, b, out, rows, err, stream, ops::IntDiv<T>{});
    case ArithOp::kModulo: return launch_binary<T>(a, b, out, rows, err, stream, ops::IntMod<T>{});
  }
}

template <typename T>
void float_arith(ArithOp op, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err,
                 gpu::Stream stream) {
  switch (op) {
    case ArithOp::kAdd: return launch_binary<T>(a, b, out, rows, err, stream, ops::FloatAdd<T>{});
    case ArithOp::kSubtract: return launch_binary<T>(a, b, out, rows, err, stream, ops::FloatSub<T>{});
    case ArithOp::kMultiply: return launch_binary<T>(a, b, out, rows, err, stream, ops::FloatMul<T>{});
    case ArithOp::kDivide: return launch_binary<T>(a, b, out, rows, err, stream, ops::FloatDiv<T>{});
    case ArithOp::kModulo: return launch_binary<T>(a, b, out, rows, err, stream, ops::FloatMod<T>{});
  }
}

template <typename T>
void launch_negate_typed(DeviceArg a, DeviceOut out, size_t rows, ErrorScope err, bool checked, gpu::Stream stream) {
  if (rows == 0) return;
  negate_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, out, rows, err, checked);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_numeric_arith(TypeId type, ArithOp op, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                          ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_numeric_arith");
  switch (type) {
    case TypeId::kTinyInt: return integer_arith<int8_t>(op, a, b, out, rows, err, stream);
    case TypeId::kSmallInt: return integer_arith<int16_t>(op, a, b, out, rows, err, stream);
    case TypeId::kInteger: return integer_arith<int32_t>(op, a, b, out, rows, err, stream);
    case TypeId::kBigInt: return integer_arith<int64_t>(op, a, b, out, rows, err, stream);
    case TypeId::kReal: return float_arith<float>(op, a, b, out, rows, err, stream);
    case TypeId::kDouble: return float_arith<double>(op, a, b, out, rows, err, stream);
    default: throw NotImplemented("GPU arithmetic on " + LogicalType(type).to_string());
  }
}

void launch_negate(const LogicalType& type, DeviceArg a, DeviceOut out, size_t rows, ErrorScope err,
                   gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_negate");
  switch (type.id()) {
    case TypeId::kTinyInt: return launch_negate_typed<int8_t>(a, out, rows, err, true, stream);
    case TypeId::kSmallInt: return launch_negate_typed<int16_t>(a, out, rows, err, true, stream);
    case TypeId::kInteger: return launch_negate_typed<int32_t>(a, out, rows, err, true, stream);
    case TypeId::kBigInt: return launch_negate_typed<int64_t>(a, out, rows, err, true, stream);
    case TypeId::kReal: return launch_negate_typed<float>(a, out, rows, err, false, stream);
    case TypeId::kDouble: return launch_negate_typed<double>(a, out, rows, err, false, stream);
    case TypeId::kDecimal:
      // DECIMAL negation cannot leave the precision; the CPU negates without a check too.
      if (type.is_wide_decimal()) return launch_negate_typed<int128_t>(a, out, rows, err, false, stream);
      return launch_negate_typed<int64_t>(a, out, rows, err, false, stream);
    default: throw NotImplemented("GPU negation of " + type.to_string());
  }
}

}  // namespace kestrel::exec::gpu_expr
