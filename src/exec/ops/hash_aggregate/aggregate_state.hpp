#pragma once
/// Aggregate functions of the CPU hash aggregation: their result and intermediate-state types, and per-group
/// accumulators that update from raw input, export and merge their intermediate state (partial and final
/// aggregation), and produce the final values.

#include <memory>
#include <optional>
#include <vector>

#include "exec/ops/common/row_compare.hpp"
#include "planner/logical_plan.hpp"
#include "vector/column.hpp"

namespace kestrel::exec {

/// One key of an ordered aggregate (plan::AggregateCall::order): an input column, its type and direction.
struct AggregateOrderKey {
  size_t column = 0;
  LogicalType type;
  SortOrder order;
};

/// One aggregate of a physical aggregation: `function(DISTINCT? input column)`.
struct AggregateSpec {
  AggregateSpec() = default;
  /// The plain aggregates' fields; the ordered aggregates' fields are set one by one.
  AggregateSpec(plan::AggregateFunction f, std::optional<size_t> arg, LogicalType type, bool is_distinct = false)
      : function(f), argument(arg), input_type(type), distinct(is_distinct) {}

  plan::AggregateFunction function = plan::AggregateFunction::kCountStar;
  /// Input column of the argument (raw input of single and partial mode); nullopt for count(*).
  std::optional<size_t> argument;
  /// The argument's type (BIGINT for count(*)); decides the accumulator and the result type.
  LogicalType input_type = TypeId::kBigInt;
  bool distinct = false;
  /// The keys of an ordered aggregate (max_by's y, string_agg's ORDER BY); with `distinct` each key's column is
  /// the argument's.
  std::vector<AggregateOrderKey> order;
  /// string_agg's separator, the percentiles' fraction (plan::AggregateCall::parameter).
  Value parameter;
  /// Input column of a FILTER the aggregation applies (rows where it is not TRUE are skipped); nullopt without.
  std::optional<size_t> filter;
};

/// The result type of `function` over `input` (the rules of plan::AggregateCall); NotImplemented for
/// combinations Kestrel does not aggregate (sum of VARCHAR, avg of INTERVAL, ...).
LogicalType aggregate_result_type(plan::AggregateFunction function, const LogicalType& input);

/// The columns of the intermediate state that a partial aggregation emits for `spec`: count -> [BIGINT]; sum ->
/// [running sum]; avg -> [running sum, BIGINT count]; min/max/any_value -> [input]; max_by/min_by -> [input, y];
/// checksum -> [BIGINT checksum, BIGINT count]. NotImplemented for string_agg and the percentiles, whose state is
/// every value of a group (they aggregate in single mode only).
std::vector<LogicalType> aggregate_state_types(const AggregateSpec& spec);

/// Whether `function` is an ordered aggregate (max_by, min_by, string_agg, the percentiles) or another aggregate
/// the GPU aggregation does not run (checksum, skewness, kurtosis, entropy, the bitwise aggregates, the collecting
/// aggregates of aggregate_collected.hpp): CPU only.
bool is_ordered_aggregate(plan::AggregateFunction function);

/// The per-group accumulators of one aggregate, indexed by group id. One instance per driver (partial) or per
/// sink (final); never shared between threads while it is updated.
class AggregateState {
 public:
  virtual ~AggregateState() = default;
  /// Makes room for groups [0, groups); new groups start empty.
  virtual void resize(size_t groups) = 0;
  /// Adds raw input: row r of `argument` goes to group ids[r]. `argument` is null for count(*).
  virtual void update(const uint32_t* ids, const Column* argument, size_t rows) = 0;
  /// Adds raw input of an aggregate with order keys: `keys` holds the column of each AggregateSpec::order key.
  /// Without keys it is update; the ordered aggregates override it.
  virtual void update_ordered(const uint32_t* ids, const Column* argument, const std::vector<const Column*>& keys,
                              size_t rows);
  /// The intermediate state of groups [first, first + count), one column per aggregate_state_types entry.
  virtual std::vector<ColumnPtr> export_state(size_t first, size_t count) const = 0;
  /// Merges intermediate state columns (as exported): row r merges into group ids[r].
  virtual void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) = 0;
  /// Merges every group g of `other` (an accumulator of the same aggregate) into group ids[g]: through
  /// export_state and merge, or directly for accumulators without an exportable state.
  virtual void merge_from(const AggregateState& other, const std::vector<uint32_t>& ids);
  /// Called once after the last update or merge, before the first finalize (string_agg and the percentiles sort
  /// their values here).
  virtual void finish() {}
  /// The final values of groups [first, first + count) as a column of the result type.
  virtual ColumnPtr finalize(size_t first, size_t count) const = 0;
};

/// A fresh accumulator for `spec`'s function over its input.
std::unique_ptr<AggregateState> make_aggregate_state(const AggregateSpec& spec);

}  // namespace kestrel::exec
