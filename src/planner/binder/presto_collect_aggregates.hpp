#pragma once
/// Binding of Presto's collecting aggregates (issue 15), computed by the CPU hash aggregation's collecting
/// accumulators (exec/ops/hash_aggregate/aggregate_collected.hpp; the GPU refuses them). Aggregates of several
/// arguments read them as one ROW argument, their constant arguments (bucket counts, sizes, methods) included, and
/// optional arguments get their defaults:
///   set_agg(x), set_union(ARRAY), histogram(x), map_union(MAP), map_union_sum(MAP of numbers), multimap_agg(k, v)
///   numeric_histogram(buckets, value[, weight])                 ROW(BIGINT, DOUBLE, DOUBLE weight 1)
///   classification_{miss_rate,fall_out,precision,recall}(buckets, y, x[, weight]), classification_thresholds(
///   buckets, y, x)                                              ROW(BIGINT, BOOLEAN, DOUBLE, DOUBLE weight 1)
///   differential_entropy(size, x[, weight[, method, min, max]]) ROW(BIGINT, DOUBLE, DOUBLE, VARCHAR, DOUBLE, DOUBLE)
///   approx_most_frequent(buckets, value, capacity)              ROW(BIGINT, T, BIGINT)
///   reservoir_sample(initial ARRAY(T), count, value T, size)    ROW(ARRAY(T), BIGINT, T, BIGINT)
/// FILTER is applied by the aggregation (the ROW argument is never NULL itself).

#include <functional>
#include <string>

#include "parser/ast/function_call.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::plan {

/// True for the aggregate names bound by bind_collecting_aggregate.
bool is_collecting_aggregate_name(const std::string& name);

/// Binds collecting aggregate `call` (as bind_ordered_aggregate does ordered ones): BinderError at the call for a
/// wrong number of arguments or argument types the aggregate does not take.
AggregateCall bind_collecting_aggregate(const ast::FunctionCall& call,
                                        const std::function<ExprPtr(const ast::Expr&)>& bind_input,
                                        const ExprPtr& filter);

}  // namespace kestrel::plan
