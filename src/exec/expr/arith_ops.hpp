#pragma once
/// Per-value arithmetic functors of the expression kernels, shared with the GPU twin (KESTREL_HD, header-only).
/// Each writes its result to `r` and returns an ArithStatus: kernels OR the statuses of a whole batch and look
/// for the offending (non-NULL) row only when the OR is non-zero.

#include <cmath>

#include "common/numeric_ops.hpp"

namespace kestrel::exec::ops {

/// Outcome of one arithmetic operation.
enum ArithStatus : int { kOk = 0, kDivisionByZero = 1, kOverflow = 2 };

template <typename T>
struct IntAdd {
  KESTREL_HD int operator()(T a, T b, T& r) const { return numeric::add_overflow(a, b, &r) ? kOverflow : kOk; }
};
template <typename T>
struct IntSub {
  KESTREL_HD int operator()(T a, T b, T& r) const { return numeric::sub_overflow(a, b, &r) ? kOverflow : kOk; }
};
template <typename T>
struct IntMul {
  KESTREL_HD int operator()(T a, T b, T& r) const { return numeric::mul_overflow(a, b, &r) ? kOverflow : kOk; }
};
/// Truncating division (PostgreSQL): MIN / -1 overflows.
template <typename T>
struct IntDiv {
  KESTREL_HD int operator()(T a, T b, T& r) const {
    const int s = numeric::checked_div(a, b, &r);
    return s == 1 ? kDivisionByZero : s == 2 ? kOverflow : kOk;
  }
};
template <typename T>
struct IntMod {
  KESTREL_HD int operator()(T a, T b, T& r) const { return numeric::checked_mod(a, b, &r) ? kDivisionByZero : kOk; }
};

template <typename T>
struct FloatAdd {
  KESTREL_HD int operator()(T a, T b, T& r) const { return r = a + b, kOk; }
};
template <typename T>
struct FloatSub {
  KESTREL_HD int operator()(T a, T b, T& r) const { return r = a - b, kOk; }
};
template <typename T>
struct FloatMul {
  KESTREL_HD int operator()(T a, T b, T& r) const { return r = a * b, kOk; }
};
/// Division by zero is an error for floats too (PostgreSQL), not Infinity.
template <typename T>
struct FloatDiv {
  KESTREL_HD int operator()(T a, T b, T& r) const {
    if (b == 0) return kDivisionByZero;
    r = a / b;
    return kOk;
  }
};
template <typename T>
struct FloatMod {
  KESTREL_HD int operator()(T a, T b, T& r) const {
    if (b == 0) return kDivisionByZero;
    r = std::fmod(a, b);
    return kOk;
  }
};

/// DECIMAL add/subtract of two values already at the result scale, computed in C (int64 or int128); overflow
/// when the result has more than `precision` digits.
template <typename C>
struct DecimalAdd {
  int precision;
  KESTREL_HD int operator()(C a, C b, C& r) const {
    return numeric::add_overflow(a, b, &r) || !numeric::fits_precision(r, precision) ? kOverflow : kOk;
  }
};
template <typename C>
struct DecimalSub {
  int precision;
  KESTREL_HD int operator()(C a, C b, C& r) const {
    return numeric::sub_overflow(a, b, &r) || !numeric::fits_precision(r, precision) ? kOverflow : kOk;
  }
};
/// DECIMAL multiply: the unscaled product is the result at scale s1 + s2.
template <typename C>
struct DecimalMul {
  int precision;
  KESTREL_HD int operator()(C a, C b, C& r) const {
    return numeric::mul_overflow(a, b, &r) || !numeric::fits_precision(r, precision) ? kOverflow : kOk;
  }
};
/// DECIMAL divide: r = round_half_away(a * factor / b) with factor = 10^(s + s2 - s1), in int128.
struct DecimalDiv {
  int precision;
  int128_t factor;
  KESTREL_HD int operator()(int128_t a, int128_t b, int128_t& r) const {
    if (b == 0) return kDivisionByZero;
    int128_t num;
    if (numeric::mul_overflow(a, factor, &num)) {
      // a * 10^k leaves int128 although the quotient may not: divide the 256-bit product.
      if (numeric::mul_div_round_wide(a, factor, b, &r)) return kOverflow;
      return numeric::fits_precision(r, precision) ? kOk : kOverflow;
    }
    r = numeric::div_round_half_away(num, b);
    return numeric::fits_precision(r, precision) ? kOk : kOverflow;
  }
};
/// DECIMAL modulo of two values at the same scale.
template <typename C>
struct DecimalMod {
  KESTREL_HD int operator()(C a, C b, C& r) const { return numeric::checked_mod(a, b, &r) ? kDivisionByZero : kOk; }
};

}  // namespace kestrel::exec::ops
