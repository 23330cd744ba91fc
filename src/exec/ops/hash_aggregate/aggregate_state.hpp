#pragma once
/// Aggregate functions of the CPU hash aggregation: their result and intermediate-state types, and per-group
/// accumulators that update from raw input, export and merge their intermediate state (partial and final
/// aggregation), and produce the final values.

#include <memory>
#include <optional>
#include <vector>

#include "planner/logical_plan.hpp"
#include "vector/column.hpp"

namespace kestrel::exec {

/// One aggregate of a physical aggregation: `function(DISTINCT? input column)`.
struct AggregateSpec {
  plan::AggregateFunction function = plan::AggregateFunction::kCountStar;
  /// Input column of the argument (raw input of single and partial mode); nullopt for count(*).
  std::optional<size_t> argument;
  /// The argument's type (BIGINT for count(*)); decides the accumulator and the result type.
  LogicalType input_type = TypeId::kBigInt;
  bool distinct = false;
};

/// The result type of `function` over `input` (the rules of plan::AggregateCall); NotImplemented for
/// combinations Kestrel does not aggregate (sum of VARCHAR, avg of INTERVAL, ...).
LogicalType aggregate_result_type(plan::AggregateFunction function, const LogicalType& input);

/// The columns of the intermediate state that a partial aggregation emits for `function` over `input`:
/// count -> [BIGINT]; sum -> [running sum]; avg -> [running sum, BIGINT count]; min/max/any_value -> [input].
std::vector<LogicalType> aggregate_state_types(plan::AggregateFunction function, const LogicalType& input);

/// The per-group accumulators of one aggregate, indexed by group id. One instance per driver (partial) or per
/// sink (final); never shared between threads while it is updated.
class AggregateState {
 public:
  virtual ~AggregateState() = default;
  /// Makes room for groups [0, groups); new groups start empty.
  virtual void resize(size_t groups) = 0;
  /// Adds raw input: row r of `argument` goes to group ids[r]. `argument` is null for count(*).
  virtual void update(const uint32_t* ids, const Column* argument, size_t rows) = 0;
  /// The intermediate state of groups [first, first + count), one column per aggregate_state_types entry.
  virtual std::vector<ColumnPtr> export_state(size_t first, size_t count) const = 0;
  /// Merges intermediate state columns (as exported): row r merges into group ids[r].
  virtual void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) = 0;
  /// The final values of groups [first, first + count) as a column of the result type.
  virtual ColumnPtr finalize(size_t first, size_t count) const = 0;
};

/// A fresh accumulator for `function` over `input`.
std::unique_ptr<AggregateState> make_aggregate_state(plan::AggregateFunction function, const LogicalType& input);

}  // namespace kestrel::exec
