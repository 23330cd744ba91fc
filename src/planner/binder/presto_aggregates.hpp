#pragma once
/// Presto aggregates that Kestrel computes with the aggregates it already has, so they run wherever those run
/// (hash aggregation, window aggregates, FILTER, DISTINCT, correlated sub-queries):
///   count_if(b)         -> count(CASE WHEN b THEN TRUE END)          (BIGINT, 0 on empty input)
///   bool_and(b), every  -> min(b) of BOOLEAN                         (FALSE < TRUE; NULL on empty input)
///   bool_or(b)          -> max(b) of BOOLEAN
///   geometric_mean(x)   -> exp(avg(ln(CAST(x AS DOUBLE))))          (Presto's definition: ln(0) is -Infinity,
///                          so a 0 gives 0, and ln of a negative number is NaN, so a negative gives NaN)

#include <optional>
#include <string>

#include "planner/logical_plan.hpp"

namespace kestrel::plan {

/// True for the aggregate names this file rewrites.
bool is_presto_aggregate_name(const std::string& name);

/// Sets `a` (function, argument, result type) to the aggregate that computes Presto aggregate `name` over the bound
/// `argument`; BinderError at `pos` for argument types Presto does not take. Returns false (and leaves `a` alone)
/// for other names.
bool resolve_presto_aggregate(const std::string& name, const ExprPtr& argument, std::optional<SourcePosition> pos,
                              AggregateCall& a);

/// The value of Presto aggregate `name` from `result`, the output of the aggregate resolve_presto_aggregate chose
/// (geometric_mean: exp of it); `result` itself for other names.
ExprPtr finish_presto_aggregate(const std::string& name, ExprPtr result);

}  // namespace kestrel::plan
