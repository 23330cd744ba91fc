/// CAST between fixed-width types on the GPU, with the CPU's per-value conversions (cast_ops.hpp).

#include <cmath>

#include "common/error.hpp"
#include "exec/expr/cast_ops.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// A conversion (true when the value converts) as a map_kernel operation (true when the row fails).
template <typename Conv>
struct FailsUnless {
  Conv conv;
  template <typename S, typename T>
  __device__ bool operator()(S v, T& r) const {
    return !conv(v, r);
  }
};

template <typename S, typename T, typename Conv>
void convert(DeviceArg a, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Conv conv) {
  launch_map<S, T>(a, out, rows, err, stream, FailsUnless<Conv>{conv});
}

/// Numeric to numeric, as the CPU's numeric_cast.
template <typename S, typename T>
void numeric_cast(const LogicalType& source, const LogicalType& target, DeviceArg a, DeviceOut out, size_t rows,
                  ErrorScope err, gpu::Stream stream) {
  const bool from_decimal = source.id() == TypeId::kDecimal;
  const bool to_decimal = target.id() == TypeId::kDecimal;
  if constexpr (is_float_v<T>) {
    if (from_decimal) {
      return convert<S, T>(a, out, rows, err, stream, ops::DecimalToFloat<S, T>{std::pow(10.0, source.scale())});
    }
    return convert<S, T>(a, out, rows, err, stream, ops::ToFloat<S, T>{});
  } else if constexpr (is_float_v<S>) {
    if (to_decimal) {
      ops::FloatToDecimal<S, T> conv{target.precision(), std::pow(10.0, target.scale()),
                                     std::pow(10.0, target.precision())};
      return convert<S, T>(a, out, rows, err, stream, conv);
    }
    return convert<S, T>(a, out, rows, err, stream, ops::FloatToInt<S, T>{});
  } else {
    if (from_decimal && to_decimal) {
      ops::DecimalToDecimal<S, T> conv{target.scale() - source.scale(), target.precision()};
      return convert<S, T>(a, out, rows, err, stream, conv);
    }
    if (from_decimal) {
      return convert<S, T>(a, out, rows, err, stream, ops::DecimalToInt<S, T>{numeric::pow10<S>(source.scale())});
    }
    if (to_decimal) {
      ops::IntToDecimal<S, T> conv{target.precision(), numeric::pow10<T>(target.scale())};
      return convert<S, T>(a, out, rows, err, stream, conv);
    }
    return convert<S, T>(a, out, rows, err, stream, ops::IntToInt<S, T>{});
  }
}

/// Calls fn(T{}) with the storage of a numeric type or BOOLEAN; false for other types.
template <typename Fn>
bool dispatch_numeric(const LogicalType& type, Fn&& fn) {
  switch (type.id()) {
    case TypeId::kBoolean: fn(uint8_t{}); return true;
    case TypeId::kTinyInt: fn(int8_t{}); return true;
    case TypeId::kSmallInt: fn(int16_t{}); return true;
    case TypeId::kInteger: fn(int32_t{}); return true;
    case TypeId::kBigInt: fn(int64_t{}); return true;
    case TypeId::kReal: fn(float{}); return true;
    case TypeId::kDouble: fn(double{}); return true;
    case TypeId::kDecimal:
      if (type.is_wide_decimal()) {
        fn(int128_t{});
      } else {
        fn(int64_t{});
      }
      return true;
    default: return false;
  }
}

}  // namespace

bool cast_supported(const LogicalType& from, const LogicalType& to) {
  const TypeId s = from.id(), t = to.id();
  if (from == to) return true;
  if (t == TypeId::kVarchar) return cast_to_string_supported(from);
  if ((s == TypeId::kDate && t == TypeId::kTimestamp) || (s == TypeId::kTimestamp && t == TypeId::kDate)) return true;
  if (t == TypeId::kBoolean) return from.is_integral();
  if (s == TypeId::kBoolean) return to.is_integral();
  return from.is_numeric() && to.is_numeric();
}

void launch_cast(const LogicalType& from, const LogicalType& to, DeviceArg a, DeviceOut out, size_t rows,
                 ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_cast");
  if (!cast_supported(from, to) || from == to || to.id() == TypeId::kVarchar) {
    throw NotImplemented("GPU CAST from " + from.to_string() + " to " + to.to_string());
  }
  const TypeId s = from.id(), t = to.id();
  if (s == TypeId::kDate && t == TypeId::kTimestamp) {
    return convert<int32_t, int64_t>(a, out, rows, err, stream, ops::DateToTimestamp{});
  }
  if (s == TypeId::kTimestamp && t == TypeId::kDate) {
    return convert<int64_t, int32_t>(a, out, rows, err, stream, ops::TimestampToDate{});
  }
  dispatch_numeric(from, [&](auto s_tag) {
    using S = decltype(s_tag);
    dispatch_numeric(to, [&](auto t_tag) {
      using T = decltype(t_tag);
      if constexpr (std::is_same_v<T, uint8_t>) {
        if constexpr (std::is_integral_v<S> || std::is_same_v<S, int128_t>) {
          if constexpr (!std::is_same_v<S, uint8_t> && !std::is_same_v<S, int128_t>) {
            convert<S, uint8_t>(a, out, rows, err, stream, ops::IntToBool<S>{});
          }
        }
      } else {
        numeric_cast<S, T>(from, to, a, out, rows, err, stream);
      }
    });
  });
}

}  // namespace kestrel::exec::gpu_expr
