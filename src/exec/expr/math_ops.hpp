#pragma once
/// Per-value numeric functions (abs, sign, round, floor, ceil) on integers and decimals, shared with the GPU
/// twin (KESTREL_HD, header-only). Each returns true on overflow.

#include "common/numeric_ops.hpp"

namespace kestrel::exec::ops {

/// abs of an integer or unscaled decimal; overflows only for the minimum integer.
template <typename T>
KESTREL_HD inline bool abs_value(T v, T& r) {
  if (v == numeric::min_of<T>()) return true;
  r = v < 0 ? static_cast<T>(-v) : v;
  return false;
}

/// sign as -1, 0 or 1.
template <typename T>
KESTREL_HD inline T sign_value(T v) {
  return static_cast<T>((v > 0) - (v < 0));
}

/// Rounds v to a multiple of `unit` (> 0), half away from zero: round(123, -1) uses unit 10. For DECIMAL
/// round(x, d) with d < scale, unit is 10^(scale - d) and the scale stays. Overflow when it leaves T or
/// `precision` digits (precision <= 0: no digit check).
template <typename T>
KESTREL_HD inline bool round_to_unit(T v, T unit, int precision, T& r) {
  const T q = numeric::div_round_half_away(v, unit);
  if (numeric::mul_overflow(q, unit, &r)) return true;
  return precision > 0 && !numeric::fits_precision(r, precision);
}

/// Rounds an unscaled decimal to an integer number of units of 10^scale (divisor), half away from zero; the
/// result has scale 0.
template <typename T>
KESTREL_HD inline T round_decimal_to_integer(T v, T divisor) {
  return numeric::div_round_half_away(v, divisor);
}

/// floor / ceil of an unscaled decimal to scale 0.
template <typename T>
KESTREL_HD inline T floor_decimal(T v, T divisor) {
  return numeric::floor_div(v, divisor);
}
template <typename T>
KESTREL_HD inline T ceil_decimal(T v, T divisor) {
  return numeric::ceil_div(v, divisor);
}

}  // namespace kestrel::exec::ops
