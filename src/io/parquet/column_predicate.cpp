#include "io/parquet/column_predicate.hpp"

#include <cmath>

#include "common/decimal.hpp"

namespace kestrel::io {

namespace {

bool is_exact_number(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDecimal: return true;
    default: return false;
  }
}

int sign(int128_t v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

/// An exact number as (unscaled, scale).
std::pair<int128_t, int> scaled(const Value& v) {
  if (v.type().id() == TypeId::kDecimal) return {v.as_int128(), v.type().scale()};
  return {v.as_int64(), 0};
}

double as_double(const Value& v) {
  if (v.type().id() == TypeId::kReal || v.type().id() == TypeId::kDouble) return v.as_double();
  auto [unscaled, scale] = scaled(v);
  return static_cast<double>(unscaled) / std::pow(10.0, scale);
}

std::optional<int> compare_exact(const Value& a, const Value& b) {
  auto [ua, sa] = scaled(a);
  auto [ub, sb] = scaled(b);
  // Bring both to the larger scale; if that would overflow, compare the integral parts first.
  int s = std::max(sa, sb);
  if (s - sa > 38 || s - sb > 38) return std::nullopt;
  int128_t fa = pow10_i128(s - sa);
  int128_t fb = pow10_i128(s - sb);
  constexpr int128_t kLimit = static_cast<int128_t>(1) << 120;
  auto fits = [&](int128_t v, int128_t f) { return f == 1 || (v < kLimit / f && v > -kLimit / f); };
  if (!fits(ua, fa) || !fits(ub, fb)) return std::nullopt;
  return sign(ua * fa - ub * fb);
}

}  // namespace

std::optional<int> compare_values(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  TypeId ta = a.type().id();
  TypeId tb = b.type().id();
  if (is_exact_number(ta) && is_exact_number(tb)) return compare_exact(a, b);
  bool fa = ta == TypeId::kReal || ta == TypeId::kDouble;
  bool fb = tb == TypeId::kReal || tb == TypeId::kDouble;
  if ((fa || is_exact_number(ta)) && (fb || is_exact_number(tb))) {
    double x = as_double(a);
    double y = as_double(b);
    if (std::isnan(x) || std::isnan(y)) return std::nullopt;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (ta == tb && a.type().is_variable_width()) {
    int c = a.as_string().compare(b.as_string());  // bytewise, as Parquet orders UTF-8
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if ((ta == TypeId::kDate || ta == TypeId::kTimestamp) && (tb == TypeId::kDate || tb == TypeId::kTimestamp)) {
    auto micros = [](const Value& v) {
      return v.type().id() == TypeId::kDate ? static_cast<int128_t>(v.as_int64()) * 86'400'000'000LL
                                            : static_cast<int128_t>(v.as_int64());
    };
    return sign(micros(a) - micros(b));
  }
  return std::nullopt;
}

bool statistics_may_match(const ColumnStatistics& stats, const ColumnPredicate& p) {
  bool all_null = stats.null_count && *stats.null_count == stats.num_rows && stats.num_rows > 0;
  switch (p.op) {
    case PredicateOp::kIsNull: return !stats.null_count || *stats.null_count > 0;
    case PredicateOp::kIsNotNull: return !all_null;
    default: break;
  }
  if (all_null) return false;  // every comparison with NULL is unknown, never true
  for (const Value& v : p.values) {
    if (v.is_null() && p.op != PredicateOp::kIn) return false;
  }
  // below(x): every value is < x for sure; above(x): every value is > x for sure (and the inclusive forms).
  auto cmp_min = [&](const Value& v) -> std::optional<int> {
    return stats.min ? compare_values(*stats.min, v) : std::nullopt;
  };
  // Floating-point maxima leave out NaN, which SQL orders above every number: they bound nothing from above.
  bool max_usable = stats.max && stats.max->type().id() != TypeId::kReal && stats.max->type().id() != TypeId::kDouble;
  auto cmp_max = [&](const Value& v) -> std::optional<int> {
    return max_usable ? compare_values(*stats.max, v) : std::nullopt;
  };
  auto may_equal = [&](const Value& v) {
    if (v.is_null()) return false;
    auto lo = cmp_min(v);
    auto hi = cmp_max(v);
    if (lo && *lo > 0) return false;
    if (hi && *hi < 0) return false;
    return true;
  };
  switch (p.op) {
    case PredicateOp::kEqual: return may_equal(p.values.at(0));
    case PredicateOp::kLess: {
      auto lo = cmp_min(p.values.at(0));
      return !(lo && *lo >= 0);
    }
    case PredicateOp::kLessEqual: {
      auto lo = cmp_min(p.values.at(0));
      return !(lo && *lo > 0);
    }
    case PredicateOp::kGreater: {
      auto hi = cmp_max(p.values.at(0));
      return !(hi && *hi <= 0);
    }
    case PredicateOp::kGreaterEqual: {
      auto hi = cmp_max(p.values.at(0));
      return !(hi && *hi < 0);
    }
    case PredicateOp::kBetween: {
      auto hi = cmp_max(p.values.at(0));
      auto lo = cmp_min(p.values.at(1));
      if (hi && *hi < 0) return false;
      if (lo && *lo > 0) return false;
      auto order = compare_values(p.values.at(0), p.values.at(1));
      return !(order && *order > 0);  // an empty range matches nothing
    }
    case PredicateOp::kIn:
      for (const Value& v : p.values) {
        if (may_equal(v)) return true;
      }
      return false;
    default: return true;
  }
}

std::string ColumnPredicate::to_string() const {
  std::string s = "column " + std::to_string(column);
  auto lit = [](const Value& v) {
    return v.type().id() == TypeId::kVarchar && !v.is_null() ? "'" + v.to_string() + "'" : v.to_string();
  };
  switch (op) {
    case PredicateOp::kEqual: return s + " = " + lit(values.at(0));
    case PredicateOp::kLess: return s + " < " + lit(values.at(0));
    case PredicateOp::kLessEqual: return s + " <= " + lit(values.at(0));
    case PredicateOp::kGreater: return s + " > " + lit(values.at(0));
    case PredicateOp::kGreaterEqual: return s + " >= " + lit(values.at(0));
    case PredicateOp::kBetween: return s + " BETWEEN " + lit(values.at(0)) + " AND " + lit(values.at(1));
    case PredicateOp::kIn: {
      s += " IN (";
      for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + lit(values[i]);
      return s + ")";
    }
    case PredicateOp::kIsNull: return s + " IS NULL";
    case PredicateOp::kIsNotNull: return s + " IS NOT NULL";
  }
  return s;
}

}  // namespace kestrel::io
