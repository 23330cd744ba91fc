#pragma once
/// Aggregates that read more than one value per row or depend on the order of their input, computed by their own
/// accumulators in the CPU hash aggregation (AggregateCall's `order` and `parameter`; the GPU refuses them, so a
/// GPU plan falls back to the CPU for the aggregation):
///   max_by(x, y), min_by(x, y)            x on the row with the largest / smallest y (rows with a NULL y skipped)
///   string_agg(x[, sep] [ORDER BY ...])   the non-NULL x joined by sep (default ',')
///   listagg(x[, sep]) [WITHIN GROUP (ORDER BY ...)]   the same, default separator '' (Trino's listagg)
///   median(x)                             percentile_cont(0.5) WITHIN GROUP (ORDER BY x)
///   percentile_cont(f) WITHIN GROUP (ORDER BY x)   interpolated percentile (DOUBLE)
///   percentile_disc(f) WITHIN GROUP (ORDER BY x)   nearest-rank percentile (a value of x)
///   approx_percentile(x, p)               percentile_disc(p): exact, a value of x
///   checksum(x)                           order-independent BIGINT checksum (Presto returns VARBINARY)

#include <functional>
#include <string>

#include "parser/ast/function_call.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::plan {

/// True for the aggregate names bound by bind_ordered_aggregate.
bool is_ordered_aggregate_name(const std::string& name);

/// True for the aggregates that take WITHIN GROUP (ORDER BY ...) (percentile_cont, percentile_disc, listagg).
bool takes_within_group(const std::string& name);

/// Binds ordered aggregate `call` (not count(*), not OVER): `bind_input` binds one of its arguments or ORDER BY keys
/// over the aggregate's input, `filter` is its FILTER condition (null without). BinderError at the offending
/// argument for wrong types, separators and fractions that are not constants, fractions outside [0, 1].
AggregateCall bind_ordered_aggregate(const ast::FunctionCall& call,
                                     const std::function<ExprPtr(const ast::Expr&)>& bind_input,
                                     const ExprPtr& filter);

}  // namespace kestrel::plan
