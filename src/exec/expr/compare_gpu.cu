/// Comparisons on the GPU: fixed-width values (numbers, DECIMAL, DATE, TIMESTAMP, BOOLEAN) and VARCHAR (plain or
/// through a dictionary's indices), with SQL NULL rules and IS [NOT] DISTINCT FROM.

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

using plan::ScalarFunction;

enum CompareOp : int { kEq, kNe, kLt, kLe, kGt, kGe };  // the numbering of compare_values

/// The result of `op` given the sign of a <=> b.
__device__ inline bool from_order(int op, int order) {
  switch (op) {
    case kEq: return order == 0;
    case kNe: return order != 0;
    case kLt: return order < 0;
    case kLe: return order <= 0;
    case kGt: return order > 0;
    default: return order >= 0;
  }
}

/// Byte-wise (unsigned) comparison, then length, like std::string_view::compare.
__device__ inline int compare_strings(DeviceString a, DeviceString b) {
  const int64_t n = a.size < b.size ? a.size : b.size;
  for (int64_t k = 0; k < n; ++k) {
    const auto x = static_cast<uint8_t>(a.data[k]), y = static_cast<uint8_t>(b.data[k]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size == b.size ? 0 : (a.size < b.size ? -1 : 1);
}

/// `distinct` >= 0 selects IS DISTINCT FROM (1) / IS NOT DISTINCT FROM (0): NULLs compare as values, never NULL.
template <typename T>
__global__ void compare_kernel(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, int op, int distinct) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    const bool va = arg_valid(a, i), vb = arg_valid(b, i);
    bool r;
    if constexpr (std::is_same_v<T, DeviceString>) {
      r = (va && vb) ? from_order(op, compare_strings(arg_string(a, i), arg_string(b, i))) : false;
    } else {
      r = compare_values(op, arg_value<T>(a, i), arg_value<T>(b, i));
    }
    valid = va && vb;
    if (distinct >= 0 && !valid) {
      r = (va == vb) != (distinct != 0);
      valid = true;
    }
    static_cast<uint8_t*>(out.values)[i] = r;
  }
  write_validity(out.validity, i, in, valid);
}

template <typename T>
void launch(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, int op, int distinct, gpu::Stream stream) {
  if (rows == 0) return;
  compare_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, out, rows, op, distinct);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_compare(const LogicalType& type, ScalarFunction f, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                    gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_compare");
  int op = kEq, distinct = -1;
  switch (f) {
    case ScalarFunction::kEqual: op = kEq; break;
    case ScalarFunction::kNotEqual: op = kNe; break;
    case ScalarFunction::kLess: op = kLt; break;
    case ScalarFunction::kLessEqual: op = kLe; break;
    case ScalarFunction::kGreater: op = kGt; break;
    case ScalarFunction::kGreaterEqual: op = kGe; break;
    case ScalarFunction::kIsDistinctFrom: op = kNe, distinct = 1; break;
    case ScalarFunction::kIsNotDistinctFrom: op = kEq, distinct = 0; break;
    default: throw InternalError(std::string("GPU comparison ") + plan::scalar_function_name(f));
  }
  switch (type.id()) {
    case TypeId::kBoolean: return launch<uint8_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kTinyInt: return launch<int8_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kSmallInt: return launch<int16_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kInteger:
    case TypeId::kDate: return launch<int32_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return launch<int64_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kReal: return launch<float>(a, b, out, rows, op, distinct, stream);
    case TypeId::kDouble: return launch<double>(a, b, out, rows, op, distinct, stream);
    case TypeId::kDecimal:
      if (type.is_wide_decimal()) return launch<int128_t>(a, b, out, rows, op, distinct, stream);
      return launch<int64_t>(a, b, out, rows, op, distinct, stream);
    case TypeId::kVarchar: return launch<DeviceString>(a, b, out, rows, op, distinct, stream);
    default: throw NotImplemented("GPU comparison of " + type.to_string());
  }
}

}  // namespace kestrel::exec::gpu_expr
