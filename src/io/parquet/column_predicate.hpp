#pragma once
/// Simple predicates on one column against constants, as the planner pushes them into a Parquet scan, and the test
/// of a predicate against min/max statistics that lets a scan skip row groups (and pages) that cannot match.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/value.hpp"

namespace kestrel::io {

/// Min/max bounds and null count of a column within a row group (or a page). `min`/`max` are bounds: every
/// non-null value lies within them (writers may shorten long strings, keeping them bounds); absent when unknown.
struct ColumnStatistics {
  std::optional<Value> min;
  std::optional<Value> max;
  std::optional<int64_t> null_count;
  /// Rows covered (the row group's or the page's row count).
  int64_t num_rows = 0;
};

/// The comparison of a ColumnPredicate.
enum class PredicateOp : uint8_t {
  kEqual,         ///< column = values[0]
  kLess,          ///< column < values[0]
  kLessEqual,     ///< column <= values[0]
  kGreater,       ///< column > values[0]
  kGreaterEqual,  ///< column >= values[0]
  kBetween,       ///< values[0] <= column <= values[1]
  kIn,            ///< column IN (values...)
  kIsNull,
  kIsNotNull,
};

/// `column op constants`, with `column` an index into the schema of the file or dataset it is applied to. A list
/// of predicates is their conjunction.
struct ColumnPredicate {
  size_t column = 0;
  PredicateOp op = PredicateOp::kEqual;
  std::vector<Value> values;

  static ColumnPredicate compare(size_t column, PredicateOp op, Value value) { return {column, op, {std::move(value)}}; }
  static ColumnPredicate between(size_t column, Value low, Value high) {
    return {column, PredicateOp::kBetween, {std::move(low), std::move(high)}};
  }
  static ColumnPredicate in(size_t column, std::vector<Value> values) { return {column, PredicateOp::kIn, std::move(values)}; }
  static ColumnPredicate is_null(size_t column) { return {column, PredicateOp::kIsNull, {}}; }
  static ColumnPredicate is_not_null(size_t column) { return {column, PredicateOp::kIsNotNull, {}}; }

  /// "column 3 BETWEEN 1 AND 5" (for EXPLAIN and messages).
  std::string to_string() const;
};

/// Orders two non-null values of comparable types (numbers of any kind, decimals of any scale, strings bytewise,
/// dates, timestamps, booleans): -1, 0 or 1; nullopt when the types cannot be compared.
std::optional<int> compare_values(const Value& a, const Value& b);

/// False only when no row covered by `stats` can satisfy `predicate` (comparisons with NULL constants are never
/// true, so they also prune). True whenever the statistics do not tell.
bool statistics_may_match(const ColumnStatistics& stats, const ColumnPredicate& predicate);

}  // namespace kestrel::io
