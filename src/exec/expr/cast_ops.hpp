#pragma once
/// Per-value conversions of CAST between fixed-width types, shared with the GPU twin (KESTREL_HD, header-only).
/// Each functor writes the converted value and returns false when the value does not fit the target.

#include <cmath>
#include <type_traits>

#include "common/numeric_ops.hpp"
#include "common/temporal.hpp"

namespace kestrel::exec::ops {

/// Integer (or BOOLEAN) to a narrower or wider integer, range-checked.
template <typename S, typename T>
struct IntToInt {
  KESTREL_HD bool operator()(S v, T& r) const {
    r = static_cast<T>(v);
    if constexpr (sizeof(S) > sizeof(T) || (sizeof(S) == sizeof(T) && !std::is_same_v<S, T>)) {
      return static_cast<S>(r) == v && ((r < 0) == (v < 0));
    }
    return true;
  }
};

/// Integer or floating point to floating point.
template <typename S, typename T>
struct ToFloat {
  KESTREL_HD bool operator()(S v, T& r) const {
    r = static_cast<T>(v);
    return true;
  }
};

/// Floating point to integer, rounding half away from zero; NaN and out-of-range values fail.
template <typename S, typename T>
struct FloatToInt {
  KESTREL_HD bool operator()(S v, T& r) const {
    const double x = std::round(static_cast<double>(v));
    // 2^(bits-1) is exactly representable; the valid range is [-2^(bits-1), 2^(bits-1)).
    const double limit = static_cast<double>(numeric::max_of<T>()) + 1.0;
    if (!(x >= -limit && x < limit)) return false;
    r = static_cast<T>(x);
    return true;
  }
};

/// Integer to DECIMAL(p,s): v * 10^s, at most p digits.
template <typename S, typename T>
struct IntToDecimal {
  int precision;
  T factor;  ///< 10^scale
  KESTREL_HD bool operator()(S v, T& r) const {
    return !numeric::mul_overflow(static_cast<T>(v), factor, &r) && numeric::fits_precision(r, precision);
  }
};

/// Floating point to DECIMAL(p,s), rounding half away from zero.
template <typename S, typename T>
struct FloatToDecimal {
  int precision;
  double factor;  ///< 10^scale
  double limit;   ///< 10^precision
  KESTREL_HD bool operator()(S v, T& r) const {
    const double x = std::round(static_cast<double>(v) * factor);
    if (!(x > -limit && x < limit)) return false;
    r = static_cast<T>(x);
    return numeric::fits_precision(r, precision);
  }
};

/// DECIMAL(p,s) to an integer: divide by 10^s rounding half away from zero, range-checked.
template <typename S, typename T>
struct DecimalToInt {
  S divisor;  ///< 10^scale
  KESTREL_HD bool operator()(S v, T& r) const {
    const S q = numeric::div_round_half_away(v, divisor);
    r = static_cast<T>(q);
    return static_cast<S>(r) == q;
  }
};

/// DECIMAL(p,s) to floating point.
template <typename S, typename T>
struct DecimalToFloat {
  double divisor;  ///< 10^scale
  KESTREL_HD bool operator()(S v, T& r) const {
    r = static_cast<T>(static_cast<double>(v) / divisor);
    return true;
  }
};

/// DECIMAL(p1,s1) to DECIMAL(p2,s2): rescale by s2 - s1 digits (rounding half away from zero), at most p2 digits.
template <typename S, typename T>
struct DecimalToDecimal {
  int delta;
  int precision;
  KESTREL_HD bool operator()(S v, T& r) const {
    using C = std::conditional_t<(sizeof(S) > sizeof(T)), S, T>;
    C c;
    if (numeric::rescale_overflow(static_cast<C>(v), delta, precision, &c)) return false;
    r = static_cast<T>(c);
    return true;
  }
};

/// Integer to BOOLEAN: non-zero is true.
template <typename S>
struct IntToBool {
  KESTREL_HD bool operator()(S v, uint8_t& r) const {
    r = v != 0;
    return true;
  }
};

struct DateToTimestamp {
  KESTREL_HD bool operator()(int32_t v, int64_t& r) const {
    r = static_cast<int64_t>(v) * kMicrosPerDay;
    return true;
  }
};

struct TimestampToDate {
  KESTREL_HD bool operator()(int64_t v, int32_t& r) const {
    r = static_cast<int32_t>(numeric::floor_div<int64_t>(v, kMicrosPerDay));
    return true;
  }
};

}  // namespace kestrel::exec::ops
