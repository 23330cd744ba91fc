#pragma once
/// Presto aggregates that Kestrel computes with the aggregates it already has, so they run wherever those run
/// (hash aggregation, window aggregates, FILTER, DISTINCT, correlated sub-queries):
///   count_if(b)         -> count(CASE WHEN b THEN TRUE END)          (BIGINT, 0 on empty input)
///   bool_and(b), every  -> min(b) of BOOLEAN                         (FALSE < TRUE; NULL on empty input)
///   bool_or(b)          -> max(b) of BOOLEAN
///   approx_distinct(x[, e]) -> count(DISTINCT x)                     (exact, so within any standard error e)
///   geometric_mean(x)   -> exp(avg(ln(CAST(x AS DOUBLE))))          (Presto's definition: ln(0) is -Infinity,
///                          so a 0 gives 0, and ln of a negative number is NaN, so a negative gives NaN)
/// and the two-argument statistical aggregates over the pairs (y, x) where neither is NULL, from n = count of the
/// pairs and the DOUBLE sums of x, y, x*x, y*y and x*y (so they run on the GPU as sums do):
///   covar_pop(y, x) = (Sxy - Sx*Sy/n) / n                  NULL for n = 0
///   covar_samp(y, x) = (Sxy - Sx*Sy/n) / (n - 1)           NULL for n < 2
///   corr(y, x) = (n*Sxy - Sx*Sy) / sqrt((n*Sxx - Sx^2) * (n*Syy - Sy^2))   NULL for n < 2, NaN for a constant input
///   regr_slope(y, x) = (n*Sxy - Sx*Sy) / (n*Sxx - Sx^2)    NULL for n < 2 or a constant x
///   regr_intercept(y, x) = (Sy - slope*Sx) / n             NULL where the slope is
///   regr_count, regr_avgx, regr_avgy, regr_sxx, regr_syy, regr_sxy, regr_r2 (the SQL standard's)
/// The sums are not compensated: with values whose mean is large against their spread, digits cancel (Presto
/// updates the moments incrementally).

#include <functional>
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

/// True for the two-argument statistical aggregates (corr, covar_*, regr_*).
bool is_pair_aggregate_name(const std::string& name);

/// Pair aggregate `name` of the bound arguments (y, x): registers the aggregates it needs through `add` (which
/// returns the expression of an aggregate's output) and returns the expression of the result. BinderError at `pos`
/// for arguments that are not numeric.
ExprPtr bind_pair_aggregate(const std::string& name, const ExprPtr& y, const ExprPtr& x,
                            std::optional<SourcePosition> pos, const std::function<ExprPtr(AggregateCall)>& add);

}  // namespace kestrel::plan
