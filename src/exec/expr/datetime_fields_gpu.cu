/// Presto's DATE and TIMESTAMP functions on the GPU: year_of_week, last_day_of_month, date_trunc, date_add,
/// date_diff, to_unixtime and from_unixtime, with the CPU's rules (per row: presto_datetime_ops.hpp and
/// common/datetime_ops.hpp). Timestamps are UTC microseconds; TIMESTAMP WITH TIME ZONE never reaches these kernels.

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/presto_datetime_ops.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

/// out[i] = fn(i, r) as T, NULL where `a` or `b` is NULL; fn returns true when the row fails, which raises the
/// error flag for a valid and active row.
template <typename T, typename Fn>
__global__ void checked_map_kernel(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, Fn fn) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    T r{};
    const bool bad = fn(i, r);
    static_cast<T*>(out.values)[i] = r;
    failed = bad && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename T, typename Fn>
void launch_checked(DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Fn fn) {
  if (rows == 0) return;
  checked_map_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, out, rows, err, fn);
  KESTREL_CUDA_CHECK_LAUNCH();
}

/// The day number of row i of a DATE or (`timestamp`) TIMESTAMP operand.
__device__ inline int32_t day_of(bool timestamp, const DeviceArg& x, size_t i) {
  return timestamp ? presto_ops::day_of_timestamp(arg_value<int64_t>(x, i)) : arg_value<int32_t>(x, i);
}

/// Row i of a DATE or TIMESTAMP operand as days and microseconds into the day (datetime.cpp's day_time_at).
__device__ inline datetime::DayTime day_time_of(bool timestamp, const DeviceArg& x, size_t i) {
  if (!timestamp) return datetime::DayTime{arg_value<int32_t>(x, i), 0};
  return datetime::day_time_of_timestamp(arg_value<int64_t>(x, i));
}

bool is_timestamp(TypeId x_type, const char* function) {
  if (x_type == TypeId::kTimestamp) return true;
  if (x_type == TypeId::kDate) return false;
  throw NotImplemented(std::string("GPU ") + function + " of " + LogicalType(x_type).to_string());
}

}  // namespace

void launch_year_of_week(TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_year_of_week");
  const bool timestamp = is_timestamp(x_type, "year_of_week");
  launch_checked<int64_t>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int64_t& r) {
    r = presto_ops::year_of_week(day_of(timestamp, x, i));
    return false;
  });
}

void launch_last_day_of_month(TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_last_day_of_month");
  const bool timestamp = is_timestamp(x_type, "last_day_of_month");
  launch_checked<int32_t>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int32_t& r) {
    r = presto_ops::last_day_of_month(day_of(timestamp, x, i));
    return false;
  });
}

void launch_date_trunc(DatePart unit, TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_date_trunc");
  if (is_timestamp(x_type, "date_trunc")) {
    return launch_checked<int64_t>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int64_t& r) {
      r = datetime::trunc_timestamp(unit, arg_value<int64_t>(x, i));
      return false;
    });
  }
  launch_checked<int32_t>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int32_t& r) {
    r = datetime::trunc_date(unit, arg_value<int32_t>(x, i));
    return false;
  });
}

void launch_date_add(DatePart unit, TypeId x_type, DeviceArg n, DeviceArg x, DeviceOut out, size_t rows,
                     ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_date_add");
  const int64_t months_per = datetime::months_per_unit(unit);
  const int64_t unit_micros = datetime::micros_per_unit(unit);
  if (is_timestamp(x_type, "date_add")) {
    return launch_checked<int64_t>(n, x, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
      return presto_ops::date_add_timestamp(months_per, unit_micros, arg_value<int64_t>(n, i), arg_value<int64_t>(x, i),
                                            r);
    });
  }
  launch_checked<int32_t>(n, x, out, rows, err, stream, [=] __device__(size_t i, int32_t& r) {
    return presto_ops::date_add_date(months_per, unit_micros, arg_value<int64_t>(n, i), arg_value<int32_t>(x, i), r);
  });
}

void launch_date_diff(DatePart unit, TypeId x_type, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                      gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_date_diff");
  const bool timestamp = is_timestamp(x_type, "date_diff");
  launch_checked<int64_t>(a, b, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int64_t& r) {
    r = datetime::date_diff(unit, day_time_of(timestamp, a, i), day_time_of(timestamp, b, i));
    return false;
  });
}

void launch_to_unixtime(DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_to_unixtime");
  launch_checked<double>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, double& r) {
    r = presto_ops::to_unixtime(arg_value<int64_t>(x, i));
    return false;
  });
}

void launch_from_unixtime(DeviceArg x, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_from_unixtime");
  launch_checked<int64_t>(x, x, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
    return presto_ops::from_unixtime(arg_value<double>(x, i), r);
  });
}

}  // namespace kestrel::exec::gpu_expr
