/// Presto's DATE and TIMESTAMP functions on the GPU: year_of_week, last_day_of_month, date_trunc, date_add,
/// date_diff, to_unixtime and from_unixtime, with the CPU's rules (datetime.cpp, presto_more_funcs.cpp,
/// presto_datetime_funcs.cpp) and its calendar arithmetic (common/datetime_ops.hpp). Timestamps are UTC
/// microseconds; TIMESTAMP WITH TIME ZONE never reaches these kernels.

#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "common/numeric_ops.hpp"
#include "exec/expr/expr_device_gpu.cuh"

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
  if (!timestamp) return arg_value<int32_t>(x, i);
  return static_cast<int32_t>(datetime::floor_div64(arg_value<int64_t>(x, i), kMicrosPerDay));
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
    // The ISO week-numbering year is the year of the week's Thursday.
    const int32_t days = day_of(timestamp, x, i);
    r = civil_from_days(days - datetime::iso_weekday(days) + 4).year;
    return false;
  });
}

void launch_last_day_of_month(TypeId x_type, DeviceArg x, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_last_day_of_month");
  const bool timestamp = is_timestamp(x_type, "last_day_of_month");
  launch_checked<int32_t>(x, x, out, rows, ErrorScope{}, stream, [=] __device__(size_t i, int32_t& r) {
    const CivilDate c = civil_from_days(day_of(timestamp, x, i));
    r = days_from_civil(c.year, c.month, days_in_month(c.year, c.month));
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
      const int64_t t = arg_value<int64_t>(x, i);
      const int64_t amount = arg_value<int64_t>(n, i);
      if (months_per != 0) {
        // The calendar day moves by whole months (clamped to the month's end); the time of day stays.
        const datetime::DayTime dt = datetime::day_time_of_timestamp(t);
        int32_t day = 0;
        int64_t micros = 0;
        return !datetime::date_add_months(static_cast<int32_t>(dt.day), amount, months_per, day) ||
               numeric::mul_overflow(static_cast<int64_t>(day), kMicrosPerDay, &micros) ||
               numeric::add_overflow(micros, dt.micros, &r);
      }
      int64_t delta = 0;
      return numeric::mul_overflow(amount, unit_micros, &delta) || numeric::add_overflow(t, delta, &r);
    });
  }
  const int64_t unit_days = unit_micros / kMicrosPerDay;
  launch_checked<int32_t>(n, x, out, rows, err, stream, [=] __device__(size_t i, int32_t& r) {
    const int32_t d = arg_value<int32_t>(x, i);
    const int64_t amount = arg_value<int64_t>(n, i);
    if (months_per != 0) return !datetime::date_add_months(d, amount, months_per, r);
    int64_t delta = 0, sum = 0;
    if (numeric::mul_overflow(amount, unit_days, &delta) || numeric::add_overflow(delta, static_cast<int64_t>(d), &sum) ||
        sum < std::numeric_limits<int32_t>::min() || sum > std::numeric_limits<int32_t>::max()) {
      return true;
    }
    r = static_cast<int32_t>(sum);
    return false;
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
    r = static_cast<double>(arg_value<int64_t>(x, i)) / 1e6;  // one correctly rounded division, as on the CPU
    return false;
  });
}

void launch_from_unixtime(DeviceArg x, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_from_unixtime");
  launch_checked<int64_t>(x, x, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
    // seconds * 1e6 + 0.5 rounded after each step, as the CPU computes it (no fused multiply-add).
    const double micros = floor(__dadd_rn(__dmul_rn(arg_value<double>(x, i), 1e6), 0.5));
    if (!isfinite(micros) || fabs(micros) >= 9.2e18) return true;
    r = static_cast<int64_t>(micros);
    return false;
  });
}

}  // namespace kestrel::exec::gpu_expr
