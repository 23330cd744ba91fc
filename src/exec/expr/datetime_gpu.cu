/// DATE and TIMESTAMP functions on the GPU: +/- INTERVAL, +/- days, date differences and extract, with the CPU's
/// calendar rules (common/datetime_ops.hpp).

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

/// out[i] = fn(i) as T, NULL where any of the (up to two) operands is NULL.
template <typename T, typename Fn>
__global__ void map_kernel(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, Fn fn) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    static_cast<T*>(out.values)[i] = fn(i);
  }
  write_validity(out.validity, i, in, valid);
}

template <typename T, typename Fn>
void launch_map(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, gpu::Stream stream, Fn fn) {
  if (rows == 0) return;
  map_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, out, rows, fn);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_add_interval(TypeId x_type, bool subtract, DeviceArg x, DeviceArg interval, DeviceOut out, size_t rows,
                         gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_add_interval");
  if (x_type == TypeId::kDate) {
    return launch_map<int32_t>(x, interval, out, rows, stream, [=] __device__(size_t i) {
      Interval v = arg_value<Interval>(interval, i);
      if (subtract) v = datetime::negate_interval(v);
      return datetime::date_add_interval(arg_value<int32_t>(x, i), v);
    });
  }
  if (x_type == TypeId::kTimestamp) {
    return launch_map<int64_t>(x, interval, out, rows, stream, [=] __device__(size_t i) {
      Interval v = arg_value<Interval>(interval, i);
      if (subtract) v = datetime::negate_interval(v);
      return datetime::timestamp_add_interval(arg_value<int64_t>(x, i), v);
    });
  }
  throw NotImplemented("GPU interval arithmetic on " + LogicalType(x_type).to_string());
}

void launch_extract(DatePart part, TypeId x_type, DeviceArg x, DeviceOut out, size_t rows,
                    gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_extract");
  if (x_type == TypeId::kDate) {
    return launch_map<int64_t>(x, x, out, rows, stream, [=] __device__(size_t i) {
      return datetime::extract_from_date(part, arg_value<int32_t>(x, i));
    });
  }
  if (x_type == TypeId::kTimestamp) {
    return launch_map<int64_t>(x, x, out, rows, stream, [=] __device__(size_t i) {
      return datetime::extract_from_timestamp(part, arg_value<int64_t>(x, i));
    });
  }
  throw NotImplemented("GPU extract from " + LogicalType(x_type).to_string());
}

void launch_add_days(int sign, DeviceArg date, DeviceArg days, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_add_days");
  launch_map<int32_t>(date, days, out, rows, stream, [=] __device__(size_t i) {
    return static_cast<int32_t>(static_cast<int64_t>(arg_value<int32_t>(date, i)) +
                                static_cast<int64_t>(sign) * arg_value<int32_t>(days, i));
  });
}

void launch_diff_days(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_diff_days");
  launch_map<int32_t>(a, b, out, rows, stream,
                      [=] __device__(size_t i) { return arg_value<int32_t>(a, i) - arg_value<int32_t>(b, i); });
}

}  // namespace kestrel::exec::gpu_expr
