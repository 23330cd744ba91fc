#pragma once
/// Per-value integer and decimal arithmetic shared by the CPU kernels and their GPU twins: checked integer
/// operations, powers of ten, division rounding half away from zero and decimal rescaling, for int32, int64 and
/// int128 storage. Header-only and KESTREL_HD so CUDA kernels use exactly the same rules as the CPU.

#include <cstdint>
#include <type_traits>

#include "common/temporal.hpp"  // KESTREL_HD
#include "common/types.hpp"

namespace kestrel::numeric {

using uint128_t = unsigned __int128;

/// The largest value of a signed integer type T (int8..int128).
template <typename T>
KESTREL_HD constexpr T max_of() {
  if constexpr (std::is_same_v<T, int128_t>) {
    return static_cast<int128_t>(~static_cast<uint128_t>(0) >> 1);
  } else {
    return static_cast<T>(~static_cast<std::make_unsigned_t<T>>(0) >> 1);
  }
}
template <typename T>
KESTREL_HD constexpr T min_of() {
  return static_cast<T>(-max_of<T>() - 1);
}

/// a + b into *out; true on overflow of T.
template <typename T>
KESTREL_HD inline bool add_overflow(T a, T b, T* out) {
#if defined(__CUDA_ARCH__)
  using U = std::conditional_t<std::is_same_v<T, int128_t>, uint128_t, std::make_unsigned_t<T>>;
  T r = static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  *out = r;
  return (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0);
#else
  return __builtin_add_overflow(a, b, out);
#endif
}

/// a - b into *out; true on overflow of T.
template <typename T>
KESTREL_HD inline bool sub_overflow(T a, T b, T* out) {
#if defined(__CUDA_ARCH__)
  using U = std::conditional_t<std::is_same_v<T, int128_t>, uint128_t, std::make_unsigned_t<T>>;
  T r = static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  *out = r;
  return (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0);
#else
  return __builtin_sub_overflow(a, b, out);
#endif
}

/// a * b into *out; true on overflow of T.
template <typename T>
KESTREL_HD inline bool mul_overflow(T a, T b, T* out) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) < 16) {
    using W = std::conditional_t<sizeof(T) < 8, int64_t, int128_t>;
    W r = static_cast<W>(a) * static_cast<W>(b);
    *out = static_cast<T>(r);
    return r > max_of<T>() || r < min_of<T>();
  } else {
    bool negative = (a < 0) != (b < 0);
    uint128_t ua = a < 0 ? uint128_t{0} - static_cast<uint128_t>(a) : static_cast<uint128_t>(a);
    uint128_t ub = b < 0 ? uint128_t{0} - static_cast<uint128_t>(b) : static_cast<uint128_t>(b);
    uint128_t limit = static_cast<uint128_t>(max_of<int128_t>()) + (negative ? 1 : 0);
    if (ua != 0 && ub > limit / ua) return true;
    uint128_t m = ua * ub;
    *out = negative ? static_cast<int128_t>(uint128_t{0} - m) : static_cast<int128_t>(m);
    return false;
  }
#else
  if constexpr (std::is_same_v<T, int128_t>) {
    // Decimal products mostly have int64-sized factors, whose product cannot overflow: skip the slow check.
    if (a == static_cast<int64_t>(a) && b == static_cast<int64_t>(b)) {
      *out = a * b;
      return false;
    }
  }
  return __builtin_mul_overflow(a, b, out);
#endif
}

namespace detail {

/// 10^0 .. 10^38, built at compile time.
struct Pow10Table {
  int128_t value[39];
  constexpr Pow10Table() : value() {
    value[0] = 1;
    for (int i = 1; i < 39; ++i) value[i] = value[i - 1] * 10;
  }
};

inline constexpr Pow10Table kPow10Table{};

}  // namespace detail

/// 10^e for e in 0..38 (0..18 for int64). A table lookup on the host (hot in every decimal kernel); a loop in
/// device code, where the GPU kernels keep their own table in constant memory when it matters.
template <typename T = int128_t>
KESTREL_HD constexpr T pow10(int e) {
#if defined(__CUDA_ARCH__)
  T r = 1;
  for (int i = 0; i < e; ++i) r *= 10;
  return r;
#else
  if (std::is_constant_evaluated()) {
    T r = 1;
    for (int i = 0; i < e; ++i) r *= 10;
    return r;
  }
  return static_cast<T>(detail::kPow10Table.value[e]);
#endif
}

/// |v| as an unsigned 128-bit value (defined for the minimum too).
KESTREL_HD constexpr uint128_t magnitude(int128_t v) {
  return v < 0 ? uint128_t{0} - static_cast<uint128_t>(v) : static_cast<uint128_t>(v);
}

/// True when v has at most `precision` decimal digits.
template <typename T>
KESTREL_HD constexpr bool fits_precision(T v, int precision) {
  const T limit = pow10<T>(precision);
  return v < limit && v > -limit;
}
KESTREL_HD constexpr bool fits_precision(int128_t v, int precision) {
  return magnitude(v) < static_cast<uint128_t>(pow10<int128_t>(precision));
}

/// num / den rounded half away from zero; den != 0 and the quotient representable (callers check).
template <typename T>
KESTREL_HD constexpr T div_round_half_away(T num, T den) {
  T q = num / den;
  T r = num % den;
  if (r == 0) return q;
  // |r| >= |den| - |r| means the remainder is at least half of the divisor.
  T ar = r < 0 ? -r : r;
  T ad = den < 0 ? -den : den;
  if (ar >= ad - ar) q += ((num < 0) != (den < 0)) ? -1 : 1;
  return q;
}

/// floor(num / den) for den > 0.
template <typename T>
KESTREL_HD constexpr T floor_div(T num, T den) {
  T q = num / den;
  return (num % den != 0 && num < 0) ? q - 1 : q;
}

/// ceil(num / den) for den > 0.
template <typename T>
KESTREL_HD constexpr T ceil_div(T num, T den) {
  T q = num / den;
  return (num % den != 0 && num > 0) ? q + 1 : q;
}

/// Changes the scale of an unscaled decimal by `delta` digits (positive: multiply by 10^delta, negative: divide,
/// rounding half away from zero) into *out; true when the result does not fit `precision` digits or T.
template <typename T>
KESTREL_HD inline bool rescale_overflow(T v, int delta, int precision, T* out) {
  constexpr int kMaxDigits = sizeof(T) >= 16 ? 38 : 18;
  T r;
  if (delta > kMaxDigits) {
    *out = 0;
    return v != 0;
  }
  if (delta >= 0) {
    if (mul_overflow(v, pow10<T>(delta), &r)) return true;
  } else {
    r = -delta > kMaxDigits ? T{0} : div_round_half_away(v, pow10<T>(-delta));
  }
  *out = r;
  return !fits_precision(r, precision);
}

/// Integer division that truncates toward zero into *out; returns 1 on division by zero, 2 on overflow
/// (the minimum divided by -1), 0 when fine. The divisor is never used when zero, so no trap can happen.
template <typename T>
KESTREL_HD inline int checked_div(T a, T b, T* out) {
  if (b == 0) return 1;
  if (b == -1 && a == min_of<T>()) return 2;
  *out = a / b;
  return 0;
}

/// Remainder with the sign of the dividend, like C++ and PostgreSQL; 1 on division by zero.
template <typename T>
KESTREL_HD inline int checked_mod(T a, T b, T* out) {
  if (b == 0) return 1;
  *out = b == -1 ? T{0} : a % b;
  return 0;
}

/// round_half_away(a * f / b) for f > 0 and b != 0 when a * f may exceed int128: the product is formed in 256
/// bits and divided by long division. Returns true when the quotient does not fit int128.
KESTREL_HD inline bool mul_div_round_wide(int128_t a, int128_t f, int128_t b, int128_t* out) {
  const bool negative = (a < 0) != (b < 0);
  const uint128_t ua = magnitude(a), uf = magnitude(f), ub = magnitude(b);
  // 256-bit product hi:lo of ua * uf from 64-bit limbs.
  const uint128_t mask = (uint128_t{1} << 64) - 1;
  const uint128_t a0 = ua & mask, a1 = ua >> 64, f0 = uf & mask, f1 = uf >> 64;
  const uint128_t p00 = a0 * f0, p01 = a0 * f1, p10 = a1 * f0, p11 = a1 * f1;
  const uint128_t mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);
  uint128_t lo = (p00 & mask) | (mid << 64);
  uint128_t hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  // Long division of hi:lo by ub, one bit at a time; the remainder stays below ub.
  uint128_t q_hi = 0, q_lo = 0, rem = 0;
  for (int bit = 255; bit >= 0; --bit) {
    const bool top = (rem >> 127) != 0;
    rem = (rem << 1) | ((bit >= 128 ? (hi >> (bit - 128)) : (lo >> bit)) & 1);
    if (top || rem >= ub) {
      rem -= ub;
      if (bit >= 128) {
        q_hi |= uint128_t{1} << (bit - 128);
      } else {
        q_lo |= uint128_t{1} << bit;
      }
    }
  }
  if (q_hi != 0) return true;
  if (rem >= ub - rem) ++q_lo;  // half away from zero on the magnitude
  if (q_lo > static_cast<uint128_t>(max_of<int128_t>())) return true;
  *out = negative ? -static_cast<int128_t>(q_lo) : static_cast<int128_t>(q_lo);
  return false;
}

}  // namespace kestrel::numeric
