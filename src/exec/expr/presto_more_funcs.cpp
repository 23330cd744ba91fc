// Presto's functions of the fourth slice on the CPU: the distribution functions (normal, Cauchy, Weibull, beta,
// chi-squared, Poisson, binomial and their inverses), the Wilson score interval, from_base / to_base, the bit
// shifts, replace_first, strrpos, trail, url_encode / url_decode and the ISO 8601 and duration functions.

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <string_view>

#include "common/datetime_ops.hpp"
#include "common/temporal.hpp"
#include "common/time_zone.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

[[noreturn]] void bad_argument(const char* function, const std::string& what) {
  throw InvalidInput(std::string(function) + ": " + what, "22023");
}

// ---- special functions -------------------------------------------------------------------------------------------

/// The regularized lower incomplete gamma function P(a, x): a series below a + 1, Lentz's continued fraction for
/// Q = 1 - P above.
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_prefix = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 10000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
    }
    return std::min(1.0, sum * std::exp(log_prefix));
  }
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int n = 1; n < 10000; ++n) {
    const double an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return std::max(0.0, 1 - std::exp(log_prefix) * h);
}

/// The continued fraction of the incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < 10000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return h;
}

/// The regularized incomplete beta function I_x(a, b).
double beta_i(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double standard_normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

/// The x in [lo, hi] where the increasing `cdf` reaches p (bisection to the precision of a double).
template <typename Cdf>
double invert(Cdf&& cdf, double p, double lo, double hi) {
  for (int i = 0; i < 2000 && hi - lo > 0; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

/// An upper bound where `cdf` reaches p, doubling from `start`.
template <typename Cdf>
double upper_bound_for(Cdf&& cdf, double p, double start) {
  double hi = std::max(start, 1.0);
  while (cdf(hi) < p && hi < 1e300) hi *= 2;
  return hi;
}

void check_probability(const char* f, double p, bool open_low = false, bool open_high = false) {
  const bool ok = (open_low ? p > 0 : p >= 0) && (open_high ? p < 1 : p <= 1);
  if (!ok || std::isnan(p)) {
    bad_argument(f, std::string("p must be in the interval ") + (open_low ? "(" : "[") + "0, 1" +
                        (open_high ? ")" : "]") + ", got " + std::to_string(p));
  }
}

void check_positive(const char* f, const char* name, double v) {
  if (!(v > 0)) bad_argument(f, std::string(name) + " must be greater than 0, got " + std::to_string(v));
}

double binomial_cdf(int64_t trials, double probability, int64_t value) {
  if (value < 0) return 0;
  if (value >= trials) return 1;
  return beta_i(static_cast<double>(trials - value), static_cast<double>(value + 1), 1 - probability);
}

double poisson_cdf(double lambda, int64_t value) {
  if (value < 0) return 0;
  return 1 - gamma_p(static_cast<double>(value) + 1, lambda);
}

/// The smallest integer n in [0, limit] with cdf(n) >= p.
template <typename Cdf>
int64_t smallest_reaching(Cdf&& cdf, double p, int64_t limit) {
  int64_t lo = 0, hi = limit;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (cdf(mid) >= p) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

/// One row of a three-argument DOUBLE distribution function.
double distribution3(ScalarFunction f, double a, double b, double v) {
  switch (f) {
    case ScalarFunction::kNormalCdf:
      check_positive("normal_cdf", "sd", b);
      return standard_normal_cdf((v - a) / b);
    case ScalarFunction::kInverseNormalCdf:
      check_positive("inverse_normal_cdf", "sd", b);
      check_probability("inverse_normal_cdf", v, true, true);
      return a + b * invert(standard_normal_cdf, v, -40, 40);
    case ScalarFunction::kCauchyCdf:
      check_positive("cauchy_cdf", "scale", b);
      return 0.5 + std::atan((v - a) / b) / std::numbers::pi;
    case ScalarFunction::kInverseCauchyCdf:
      check_positive("inverse_cauchy_cdf", "scale", b);
      check_probability("inverse_cauchy_cdf", v);
      return a + b * std::tan(std::numbers::pi * (v - 0.5));
    case ScalarFunction::kWeibullCdf:
      check_positive("weibull_cdf", "a", a);
      check_positive("weibull_cdf", "b", b);
      return v <= 0 ? 0 : -std::expm1(-std::pow(v / b, a));
    case ScalarFunction::kInverseWeibullCdf:
      check_positive("inverse_weibull_cdf", "a", a);
      check_positive("inverse_weibull_cdf", "b", b);
      check_probability("inverse_weibull_cdf", v);
      return b * std::pow(-std::log1p(-v), 1 / a);
    case ScalarFunction::kBetaCdf:
      check_positive("beta_cdf", "a", a);
      check_positive("beta_cdf", "b", b);
      if (!(v >= 0 && v <= 1)) bad_argument("beta_cdf", "v must be in the interval [0, 1], got " + std::to_string(v));
      return beta_i(a, b, v);
    default:  // kInverseBetaCdf
      check_positive("inverse_beta_cdf", "a", a);
      check_positive("inverse_beta_cdf", "b", b);
      check_probability("inverse_beta_cdf", v);
      if (v == 0) return 0;
      if (v == 1) return 1;
      return invert([&](double x) { return beta_i(a, b, x); }, v, 0, 1);
  }
}

// ---- bases and shifts --------------------------------------------------------------------------------------------

void check_radix(const char* f, int64_t radix) {
  if (radix < 2 || radix > 36) bad_argument(f, "radix must be between 2 and 36, got " + std::to_string(radix));
}

int64_t from_base(std::string_view text, int64_t radix) {
  check_radix("from_base", radix);
  auto fail = [&]() -> int64_t {
    bad_argument("from_base", "'" + std::string(text) + "' is not a valid base-" + std::to_string(radix) + " number");
  };
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) return fail();
  // Accumulate as a negative number, which reaches INT64_MIN.
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (digit >= radix) return fail();
    if (value < (std::numeric_limits<int64_t>::min() + digit) / radix) return fail();
    value = value * radix - digit;
  }
  if (!negative) {
    if (value == std::numeric_limits<int64_t>::min()) return fail();
    value = -value;
  }
  return value;
}

std::string to_base(int64_t x, int64_t radix) {
  check_radix("to_base", radix);
  if (x == 0) return "0";
  std::string digits;
  uint64_t v = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  while (v > 0) {
    const auto d = static_cast<int>(v % static_cast<uint64_t>(radix));
    digits.insert(digits.begin(), static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10));
    v /= static_cast<uint64_t>(radix);
  }
  return x < 0 ? "-" + digits : digits;
}

void check_shift(const char* f, int64_t shift) {
  if (shift < 0) bad_argument(f, "shift must not be negative, got " + std::to_string(shift));
}

void check_bits(const char* f, int64_t bits) {
  if (bits < 2 || bits > 64) bad_argument(f, "bits must be between 2 and 64, got " + std::to_string(bits));
}

uint64_t low_mask(int64_t bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

/// bitwise_left_shift / bitwise_right_shift / bitwise_right_shift_arithmetic of a value of integer type T.
template <typename T>
Operand typed_shift(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const T* x = args[0].data<T>();
  const int64_t* s = args[1].data<int64_t>();
  const ScalarFunction f = e.function;
  constexpr int64_t width = sizeof(T) * 8;
  using U = std::make_unsigned_t<T>;
  return map_rows_to_fixed<T>(e.type, args, rows, ctx, [&](size_t i, T& out) {
    const T v = x[args[0].index(i)];
    const int64_t shift = s[args[1].index(i)];
    check_shift(plan::scalar_function_name(f), shift);
    if (f == ScalarFunction::kBitwiseRightShiftArithmetic) {
      out = shift >= width ? static_cast<T>(v < 0 ? -1 : 0) : static_cast<T>(v >> shift);
    } else if (shift >= width) {
      out = 0;
    } else if (f == ScalarFunction::kBitwiseLeftShift) {
      out = static_cast<T>(static_cast<U>(static_cast<U>(v) << shift));
    } else {
      out = static_cast<T>(static_cast<U>(static_cast<U>(v) >> shift));
    }
    return true;
  });
}

// ---- strings -----------------------------------------------------------------------------------------------------

/// Code points of UTF-8 text (continuation bytes not counted).
size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

/// The byte offset where the last `n` code points of s start.
size_t last_chars_start(std::string_view s, int64_t n) {
  size_t i = s.size();
  while (n > 0 && i > 0) {
    --i;
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) --n;
  }
  return i;
}

bool url_unreserved(unsigned char c) {
  return std::isalnum(c) != 0 || c == '.' || c == '-' || c == '*' || c == '_';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// ---- dates and durations -----------------------------------------------------------------------------------------

[[noreturn]] void bad_iso_date(std::string_view text) {
  throw InvalidInput("from_iso8601_date: '" + std::string(text) + "' is not an ISO 8601 date", "22007");
}

/// Digits text[i, i + n) as a number; -1 when they are not all digits (or run past the end).
int read_digits(std::string_view text, size_t i, size_t n) {
  if (i + n > text.size()) return -1;
  int v = 0;
  for (size_t k = i; k < i + n; ++k) {
    if (text[k] < '0' || text[k] > '9') return -1;
    v = v * 10 + (text[k] - '0');
  }
  return v;
}

/// ISO 8601 calendar (YYYY, YYYY-MM, YYYY-MM-DD), week (YYYY-Www, YYYY-Www-D) and ordinal (YYYY-DDD) dates.
int32_t parse_iso_date(std::string_view text) {
  const int year = read_digits(text, 0, 4);
  if (year < 0) bad_iso_date(text);
  if (text.size() == 4) return days_from_civil(year, 1, 1);
  if (text[4] != '-') bad_iso_date(text);
  if (text.size() > 5 && text[5] == 'W') {
    const int week = read_digits(text, 6, 2);
    int weekday = 1;
    if (text.size() == 10 && text[8] == '-') {
      weekday = read_digits(text, 9, 1);
    } else if (text.size() != 8) {
      bad_iso_date(text);
    }
    if (week < 1 || week > 53 || weekday < 1 || weekday > 7) bad_iso_date(text);
    // Week 1 holds the year's first Thursday: its Monday is January 4th's Monday.
    const int32_t jan4 = days_from_civil(year, 1, 4);
    const int32_t monday = jan4 - datetime::iso_weekday(jan4) + 1;
    const int32_t days = monday + (week - 1) * 7 + (weekday - 1);
    if (week == 53 && datetime::iso_week(days) != 53) bad_iso_date(text);
    return days;
  }
  if (text.size() == 8) {
    const int ordinal = read_digits(text, 5, 3);
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (ordinal < 1 || ordinal > (leap ? 366 : 365)) bad_iso_date(text);
    return days_from_civil(year, 1, 1) + ordinal - 1;
  }
  const int month = read_digits(text, 5, 2);
  if (month < 1 || month > 12) bad_iso_date(text);
  if (text.size() == 7) return days_from_civil(year, month, 1);
  if (text.size() != 10 || text[7] != '-') bad_iso_date(text);
  const int day = read_digits(text, 8, 2);
  const int32_t days = days_from_civil(year, month, day);
  const CivilDate back = civil_from_days(days);
  if (day < 1 || back.month != month || back.day != day) bad_iso_date(text);
  return days;
}

/// parse_duration's text: a number and a unit (ns, us, ms, s, m, h, d), blanks allowed between them.
Interval parse_duration(std::string_view text) {
  auto fail = [&]() -> Interval {
    throw InvalidInput("parse_duration: '" + std::string(text) + "' is not a duration (a number and one of ns, us, "
                       "ms, s, m, h, d)", "22007");
  };
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  const size_t start = i;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  if (i == start) return fail();
  double value = 0;
  try {
    size_t used = 0;
    value = std::stod(std::string(text.substr(start, i - start)), &used);
    if (used != i - start) return fail();
  } catch (const std::exception&) {
    return fail();
  }
  while (i < text.size() && text[i] == ' ') ++i;
  size_t end = text.size();
  while (end > i && text[end - 1] == ' ') --end;
  const std::string_view unit = text.substr(i, end - i);
  double micros_per_unit = 0;
  if (unit == "ns") micros_per_unit = 1e-3;
  else if (unit == "us") micros_per_unit = 1;
  else if (unit == "ms") micros_per_unit = 1e3;
  else if (unit == "s") micros_per_unit = 1e6;
  else if (unit == "m") micros_per_unit = 60e6;
  else if (unit == "h") micros_per_unit = 3600e6;
  else if (unit == "d") micros_per_unit = 86400e6;
  else return fail();
  const double micros = std::round(value * micros_per_unit);
  if (!(micros < 9.2e18)) fail();
  const auto total = static_cast<int64_t>(micros);
  const int64_t days = total / kMicrosPerDay;
  if (days > std::numeric_limits<int32_t>::max()) fail();
  return Interval{0, static_cast<int32_t>(days), total - days * kMicrosPerDay};
}

/// Presto's to_iso8601 of a TIMESTAMP: 2020-05-11T11:15:05.000 (milliseconds).
std::string iso_timestamp(int64_t micros) {
  const int64_t day = datetime::floor_div64(micros, kMicrosPerDay);
  const int64_t in_day = micros - day * kMicrosPerDay;
  const int64_t ms = in_day / 1000;
  char clock[32];
  std::snprintf(clock, sizeof clock, "T%02d:%02d:%02d.%03d", static_cast<int>(ms / 3600000),
                static_cast<int>(ms / 60000 % 60), static_cast<int>(ms / 1000 % 60), static_cast<int>(ms % 1000));
  return format_date(static_cast<int32_t>(day)) + clock;
}

}  // namespace

Operand presto_more_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  const ScalarFunction f = e.function;
  auto dbl = [&](size_t a) { return args[a].data<double>(); };
  auto big = [&](size_t a) { return args[a].data<int64_t>(); };
  switch (f) {
    case ScalarFunction::kNormalCdf:
    case ScalarFunction::kInverseNormalCdf:
    case ScalarFunction::kCauchyCdf:
    case ScalarFunction::kInverseCauchyCdf:
    case ScalarFunction::kWeibullCdf:
    case ScalarFunction::kInverseWeibullCdf:
    case ScalarFunction::kBetaCdf:
    case ScalarFunction::kInverseBetaCdf: {
      const double *a = dbl(0), *b = dbl(1), *v = dbl(2);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        out = distribution3(f, a[args[0].index(i)], b[args[1].index(i)], v[args[2].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kChiSquaredCdf:
    case ScalarFunction::kInverseChiSquaredCdf: {
      const double *df = dbl(0), *v = dbl(1);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        const double k = df[args[0].index(i)], x = v[args[1].index(i)];
        const char* name = plan::scalar_function_name(f);
        check_positive(name, "df", k);
        auto cdf = [&](double t) { return gamma_p(k / 2, t / 2); };
        if (f == ScalarFunction::kChiSquaredCdf) {
          if (x < 0) bad_argument(name, "value must not be negative, got " + std::to_string(x));
          out = cdf(x);
        } else {
          check_probability(name, x);
          out = x == 0 ? 0 : x == 1 ? std::numeric_limits<double>::infinity()
                                    : invert(cdf, x, 0, upper_bound_for(cdf, x, k));
        }
        return true;
      });
    }
    case ScalarFunction::kPoissonCdf: {
      const double* lambda = dbl(0);
      const int64_t* value = big(1);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        const double l = lambda[args[0].index(i)];
        const int64_t v = value[args[1].index(i)];
        check_positive("poisson_cdf", "lambda", l);
        if (v < 0) bad_argument("poisson_cdf", "value must not be negative, got " + std::to_string(v));
        out = poisson_cdf(l, v);
        return true;
      });
    }
    case ScalarFunction::kInversePoissonCdf: {
      const double *lambda = dbl(0), *p = dbl(1);
      return map_rows_to_fixed<int32_t>(e.type, args, rows, ctx, [&](size_t i, int32_t& out) {
        const double l = lambda[args[0].index(i)], q = p[args[1].index(i)];
        check_positive("inverse_poisson_cdf", "lambda", l);
        check_probability("inverse_poisson_cdf", q, false, true);
        auto cdf = [&](int64_t n) { return poisson_cdf(l, n); };
        int64_t hi = 1;
        while (cdf(hi) < q && hi < std::numeric_limits<int32_t>::max() / 2) hi *= 2;
        out = static_cast<int32_t>(smallest_reaching(cdf, q, hi));
        return true;
      });
    }
    case ScalarFunction::kBinomialCdf:
    case ScalarFunction::kInverseBinomialCdf: {
      const int64_t* trials = big(0);
      const double* probability = dbl(1);
      const char* name = plan::scalar_function_name(f);
      auto checked = [&](size_t i) {
        const int64_t n = trials[args[0].index(i)];
        const double p = probability[args[1].index(i)];
        if (n <= 0) bad_argument(name, "the number of trials must be greater than 0, got " + std::to_string(n));
        if (!(p >= 0 && p <= 1)) {
          bad_argument(name, "the success probability must be in the interval [0, 1], got " + std::to_string(p));
        }
        return std::pair{n, p};
      };
      if (f == ScalarFunction::kBinomialCdf) {
        const int64_t* value = big(2);
        return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
          const auto [n, p] = checked(i);
          out = binomial_cdf(n, p, value[args[2].index(i)]);
          return true;
        });
      }
      const double* q = dbl(2);
      return map_rows_to_fixed<int32_t>(e.type, args, rows, ctx, [&](size_t i, int32_t& out) {
        const auto [n, p] = checked(i);
        const double target = q[args[2].index(i)];
        check_probability(name, target);
        out = static_cast<int32_t>(
            smallest_reaching([&](int64_t k) { return binomial_cdf(n, p, k); }, target,
                              std::min<int64_t>(n, std::numeric_limits<int32_t>::max())));
        return true;
      });
    }
    case ScalarFunction::kWilsonIntervalLower:
    case ScalarFunction::kWilsonIntervalUpper: {
      const int64_t *successes = big(0), *trials = big(1);
      const double* z = dbl(2);
      const char* name = plan::scalar_function_name(f);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        const int64_t s = successes[args[0].index(i)], n = trials[args[1].index(i)];
        const double zz = z[args[2].index(i)];
        if (s < 0) bad_argument(name, "successes must not be negative, got " + std::to_string(s));
        if (n <= 0) bad_argument(name, "trials must be greater than 0, got " + std::to_string(n));
        if (s > n) bad_argument(name, "successes must not exceed trials");
        if (!(zz >= 0)) bad_argument(name, "z must not be negative, got " + std::to_string(zz));
        const double nn = static_cast<double>(n), p = static_cast<double>(s) / nn, z2 = zz * zz;
        const double center = p + z2 / (2 * nn);
        const double spread = zz * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
        const double denominator = 1 + z2 / nn;
        out = (f == ScalarFunction::kWilsonIntervalLower ? center - spread : center + spread) / denominator;
        return true;
      });
    }
    case ScalarFunction::kFromBase: {
      const StringReader text(args[0]);
      const int64_t* radix = big(1);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = from_base(text[i], radix[args[1].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kToBase: {
      const int64_t *x = big(0), *radix = big(1);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        out += to_base(x[args[0].index(i)], radix[args[1].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kBitwiseShiftLeft:
    case ScalarFunction::kBitwiseLogicalShiftRight: {
      const int64_t *x = big(0), *s = big(1), *b = big(2);
      const char* name = plan::scalar_function_name(f);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const auto v = static_cast<uint64_t>(x[args[0].index(i)]);
        const int64_t shift = s[args[1].index(i)], bits = b[args[2].index(i)];
        check_shift(name, shift);
        check_bits(name, bits);
        const uint64_t mask = low_mask(bits);
        if (shift >= bits) {
          out = 0;
        } else if (f == ScalarFunction::kBitwiseShiftLeft) {
          out = static_cast<int64_t>((v << shift) & mask);
        } else {
          out = static_cast<int64_t>((v & mask) >> shift);
        }
        return true;
      });
    }
    case ScalarFunction::kBitwiseArithmeticShiftRight: {
      const int64_t *x = big(0), *s = big(1);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const int64_t v = x[args[0].index(i)], shift = s[args[1].index(i)];
        check_shift("bitwise_arithmetic_shift_right", shift);
        out = shift >= 64 ? (v < 0 ? -1 : 0) : v >> shift;
        return true;
      });
    }
    case ScalarFunction::kBitwiseLeftShift:
    case ScalarFunction::kBitwiseRightShift:
    case ScalarFunction::kBitwiseRightShiftArithmetic:
      switch (e.type.id()) {
        case TypeId::kTinyInt: return typed_shift<int8_t>(e, args, rows, ctx);
        case TypeId::kSmallInt: return typed_shift<int16_t>(e, args, rows, ctx);
        case TypeId::kInteger: return typed_shift<int32_t>(e, args, rows, ctx);
        default: return typed_shift<int64_t>(e, args, rows, ctx);
      }
    case ScalarFunction::kReplaceFirst: {
      const StringReader s(args[0]), search(args[1]), replace(args[2]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const std::string_view text = s[i], what = search[i];
        const size_t at = text.find(what);
        if (at == std::string_view::npos) {
          out += text;
        } else {
          out.append(text.substr(0, at)).append(replace[i]).append(text.substr(at + what.size()));
        }
        return true;
      });
    }
    case ScalarFunction::kStrrpos: {
      const StringReader s(args[0]), sub(args[1]);
      const int64_t* instance = args.size() > 2 ? big(2) : nullptr;
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const int64_t n = instance ? instance[args[2].index(i)] : 1;
        if (n <= 0) bad_argument("strrpos", "instance must be a positive number, got " + std::to_string(n));
        const std::string_view text = s[i], what = sub[i];
        if (what.empty()) {
          out = 1;
          return true;
        }
        size_t end = text.size(), at = std::string_view::npos;
        for (int64_t k = 0; k < n; ++k) {
          if (end < what.size()) {
            at = std::string_view::npos;
            break;
          }
          at = text.rfind(what, end - what.size());
          if (at == std::string_view::npos) break;
          end = at + what.size() - 1;  // the next match may overlap this one
        }
        out = at == std::string_view::npos ? 0 : static_cast<int64_t>(utf8_length(text.substr(0, at))) + 1;
        return true;
      });
    }
    case ScalarFunction::kTrail: {
      const StringReader s(args[0]);
      const int64_t* n = big(1);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const std::string_view text = s[i];
        const int64_t count = n[args[1].index(i)];
        if (count > 0) out += text.substr(last_chars_start(text, count));
        return true;
      });
    }
    case ScalarFunction::kUrlEncode: {
      const StringReader s(args[0]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        static const char* const kHex = "0123456789ABCDEF";
        for (const char ch : s[i]) {
          const auto c = static_cast<unsigned char>(ch);
          if (url_unreserved(c)) {
            out += ch;
          } else if (c == ' ') {
            out += '+';
          } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
          }
        }
        return true;
      });
    }
    case ScalarFunction::kUrlDecode: {
      const StringReader s(args[0]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const std::string_view text = s[i];
        for (size_t k = 0; k < text.size(); ++k) {
          if (text[k] == '+') {
            out += ' ';
          } else if (text[k] == '%') {
            const int hi = k + 2 < text.size() ? hex_value(text[k + 1]) : -1;
            const int lo = k + 2 < text.size() ? hex_value(text[k + 2]) : -1;
            if (hi < 0 || lo < 0) {
              throw InvalidInput("url_decode: '" + std::string(text) + "' has an incomplete or invalid % escape",
                                 "22023");
            }
            out += static_cast<char>(hi * 16 + lo);
            k += 2;
          } else {
            out += text[k];
          }
        }
        return true;
      });
    }
    case ScalarFunction::kFromIso8601Date: {
      const StringReader s(args[0]);
      return map_rows_to_fixed<int32_t>(e.type, args, rows, ctx, [&](size_t i, int32_t& out) {
        out = parse_iso_date(s[i]);
        return true;
      });
    }
    case ScalarFunction::kToIso8601: {
      const bool date = args[0].column->type().id() == TypeId::kDate;
      if (args[0].column->type().id() == TypeId::kTimestampTz) {
        return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
          const TimestampTz& v = args[0].data<TimestampTz>()[args[0].index(i)];
          out += iso_timestamp(tz::utc_to_local(v.zone, v.micros)) + tz::iso_offset(v.zone, v.micros);
          return true;
        });
      }
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const size_t r = args[0].index(i);
        out += date ? format_date(args[0].data<int32_t>()[r]) : iso_timestamp(args[0].data<int64_t>()[r]);
        return true;
      });
    }
    case ScalarFunction::kYearOfWeek: {
      const bool date = args[0].column->type().id() == TypeId::kDate;
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const size_t r = args[0].index(i);
        const int32_t days =
            date ? args[0].data<int32_t>()[r]
                 : static_cast<int32_t>(datetime::floor_div64(args[0].data<int64_t>()[r], kMicrosPerDay));
        out = civil_from_days(days - datetime::iso_weekday(days) + 4).year;
        return true;
      });
    }
    case ScalarFunction::kToMilliseconds: {
      const Interval* v = args[0].data<Interval>();
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const Interval x = v[args[0].index(i)];
        if (x.months != 0) {
          bad_argument("to_milliseconds", "the interval has months, which have no fixed length in milliseconds");
        }
        out = static_cast<int64_t>(x.days) * 86'400'000 + datetime::floor_div64(x.micros, 1000);
        return true;
      });
    }
    case ScalarFunction::kParseDuration: {
      const StringReader s(args[0]);
      return map_rows_to_fixed<Interval>(e.type, args, rows, ctx, [&](size_t i, Interval& out) {
        out = parse_duration(s[i]);
        return true;
      });
    }
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(f));
}

}  // namespace kestrel::exec
