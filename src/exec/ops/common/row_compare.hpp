#pragma once
/// Equality and ordering of rows across two batches, shared by every CPU operator that compares keys: group and
/// set-operation lookups and join probes (equality, NULL equal to NULL where grouping needs it) and sorts
/// (ordering with ASC/DESC and NULLS FIRST/LAST). Strings compare byte-wise; -0.0 equals 0.0; NaN equals NaN and
/// sorts above every other number.

#include <cmath>
#include <cstring>
#include <vector>

#include "exec/ops/common/column_view.hpp"

namespace kestrel::exec {

namespace detail {

template <typename T>
inline bool fixed_equal(T a, T b) {
  if constexpr (std::is_same_v<T, TimestampTz>) {
    return a.micros == b.micros;  // the same instant in two zones is one value
  } else if constexpr (std::is_floating_point_v<T>) {
    return a == b || (std::isnan(a) && std::isnan(b));
  } else {
    return a == b;
  }
}

/// Total order of intervals by their length, with 30-day months (PostgreSQL's rule).
inline int128_t interval_length(const Interval& v) {
  return (static_cast<int128_t>(v.months) * 30 + v.days) * 86'400'000'000LL + v.micros;
}

template <typename T>
inline int fixed_compare(T a, T b) {
  if constexpr (std::is_same_v<T, Interval>) {
    return fixed_compare(interval_length(a), interval_length(b));
  } else if constexpr (std::is_same_v<T, TimestampTz>) {
    return fixed_compare(a.micros, b.micros);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (a < b) return -1;
    if (a > b) return 1;
    bool na = std::isnan(a);
    bool nb = std::isnan(b);
    return na == nb ? 0 : (na ? 1 : -1);
  } else {
    return a < b ? -1 : (a > b ? 1 : 0);
  }
}

inline int string_compare(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace detail

/// Whether the non-NULL value at row `i` of `a` equals the non-NULL value at row `j` of `b` (same kind).
inline bool non_null_equal(const ColumnView& a, size_t i, const ColumnView& b, size_t j) {
  switch (a.kind) {
    case PhysicalKind::kBool:
    case PhysicalKind::kInt8: return a.get<int8_t>(i) == b.get<int8_t>(j);
    case PhysicalKind::kInt16: return a.get<int16_t>(i) == b.get<int16_t>(j);
    case PhysicalKind::kInt32: return a.get<int32_t>(i) == b.get<int32_t>(j);
    case PhysicalKind::kInt64: return a.get<int64_t>(i) == b.get<int64_t>(j);
    case PhysicalKind::kInt128: return a.get<int128_t>(i) == b.get<int128_t>(j);
    case PhysicalKind::kFloat: return detail::fixed_equal(a.get<float>(i), b.get<float>(j));
    case PhysicalKind::kDouble: return detail::fixed_equal(a.get<double>(i), b.get<double>(j));
    case PhysicalKind::kInterval: return a.get<Interval>(i) == b.get<Interval>(j);
    case PhysicalKind::kTimestampTz: return a.get<TimestampTz>(i).micros == b.get<TimestampTz>(j).micros;
    case PhysicalKind::kString: return a.string(i) == b.string(j);
  }
  return false;
}

/// Whether two values are equal with NULL equal to NULL (grouping, DISTINCT and set-operation semantics).
inline bool values_equal(const ColumnView& a, size_t i, const ColumnView& b, size_t j) {
  bool an = a.is_null(i);
  bool bn = b.is_null(j);
  if (an || bn) return an == bn;
  return non_null_equal(a, i, b, j);
}

/// Whether row `i` of the key columns `a` equals row `j` of `b` (both `n` columns), NULL equal to NULL.
inline bool rows_equal(const ColumnView* a, size_t i, const ColumnView* b, size_t j, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (!values_equal(a[k], i, b[k], j)) return false;
  }
  return true;
}

/// Ascending order of two non-NULL values of the same kind: -1, 0 or 1.
inline int compare_non_null(const ColumnView& a, size_t i, const ColumnView& b, size_t j) {
  switch (a.kind) {
    case PhysicalKind::kBool: return detail::fixed_compare(a.get<uint8_t>(i), b.get<uint8_t>(j));
    case PhysicalKind::kInt8: return detail::fixed_compare(a.get<int8_t>(i), b.get<int8_t>(j));
    case PhysicalKind::kInt16: return detail::fixed_compare(a.get<int16_t>(i), b.get<int16_t>(j));
    case PhysicalKind::kInt32: return detail::fixed_compare(a.get<int32_t>(i), b.get<int32_t>(j));
    case PhysicalKind::kInt64: return detail::fixed_compare(a.get<int64_t>(i), b.get<int64_t>(j));
    case PhysicalKind::kInt128: return detail::fixed_compare(a.get<int128_t>(i), b.get<int128_t>(j));
    case PhysicalKind::kFloat: return detail::fixed_compare(a.get<float>(i), b.get<float>(j));
    case PhysicalKind::kDouble: return detail::fixed_compare(a.get<double>(i), b.get<double>(j));
    case PhysicalKind::kInterval: return detail::fixed_compare(a.get<Interval>(i), b.get<Interval>(j));
    case PhysicalKind::kTimestampTz:
      return detail::fixed_compare(a.get<TimestampTz>(i).micros, b.get<TimestampTz>(j).micros);
    case PhysicalKind::kString: return detail::string_compare(a.string(i), b.string(j));
  }
  return 0;
}

/// Direction and NULL placement of one sort key.
struct SortOrder {
  bool descending = false;
  bool nulls_first = false;
};

/// Orders rows of sort-key columns by a list of keys (ASC/DESC, NULLS FIRST/LAST per key). The key columns are
/// passed as views, one per key, in key order.
class RowComparator {
 public:
  RowComparator() = default;
  explicit RowComparator(std::vector<SortOrder> orders) : orders_(std::move(orders)) {}

  /// -1, 0 or 1: how row `i` of `a` sorts against row `j` of `b`.
  int compare(const ColumnView* a, size_t i, const ColumnView* b, size_t j) const {
    for (size_t k = 0; k < orders_.size(); ++k) {
      bool an = a[k].is_null(i);
      bool bn = b[k].is_null(j);
      if (an || bn) {
        if (an == bn) continue;
        return an == orders_[k].nulls_first ? -1 : 1;
      }
      int c = compare_non_null(a[k], i, b[k], j);
      if (c != 0) return orders_[k].descending ? -c : c;
    }
    return 0;
  }

  const std::vector<SortOrder>& orders() const { return orders_; }

 private:
  std::vector<SortOrder> orders_;
};

}  // namespace kestrel::exec
