#pragma once
/// Presto's collecting aggregates (issue 15): every accepted argument value of a group is kept as a Value, and the
/// result is computed from them once the group is complete. Single mode only (no exportable state), CPU only.
///   set_agg(x)                        ARRAY of the distinct x, NULL included, in ascending order (NULL last)
///   set_union(a ARRAY)                ARRAY of the distinct elements of every non-NULL a
///   histogram(x)                      MAP(x, BIGINT count) of the non-NULL x
///   map_union(m), map_union_sum(m)    the union of the maps (one value of a repeated key / their sum)
///   multimap_agg(ROW(k, v))           MAP(k, ARRAY(v)) of the rows with a non-NULL k
///   numeric_histogram, classification_*, differential_entropy, approx_most_frequent, reservoir_sample over the ROW
///   of their arguments (aggregate_collected_stats.cpp).
/// Map results list their keys in ascending order.

#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"

namespace kestrel::exec::aggregate_detail {

/// Whether `function` is one of the collecting aggregates.
bool is_collected_aggregate(plan::AggregateFunction function);

/// The result type of collecting aggregate `function` over `input`; NotImplemented for inputs it does not take.
LogicalType collected_result_type(plan::AggregateFunction function, const LogicalType& input);

/// A fresh accumulator for a collecting aggregate.
std::unique_ptr<AggregateState> make_collected_state(const AggregateSpec& spec);

/// The statistical ones' results from a group's kept argument values (ROWs of their arguments), `result` typed
/// (aggregate_collected_stats.cpp). `values` may be reordered.
Value numeric_histogram_result(std::vector<Value>& values, const LogicalType& result);
Value classification_result(plan::AggregateFunction function, std::vector<Value>& values, const LogicalType& result);
Value differential_entropy_result(std::vector<Value>& values);
Value approx_most_frequent_result(std::vector<Value>& values, const LogicalType& result);
Value reservoir_sample_result(std::vector<Value>& values, const LogicalType& result);

/// `values` (of `type`) without repeats, in ascending order of their key bytes (NULL last).
std::vector<Value> sorted_distinct(const LogicalType& type, const std::vector<Value>& values);

}  // namespace kestrel::exec::aggregate_detail
