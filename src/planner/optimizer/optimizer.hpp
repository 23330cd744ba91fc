#pragma once
/// The logical optimizer: a fixed sequence of rewrite rules, one per file in this folder.

#include <map>

#include "planner/logical_plan.hpp"

namespace kestrel::plan {

/// Runs every rule over `plan` and returns the optimized plan (the input may be modified in place).
LogicalPtr optimize(LogicalPtr plan);

/// Filter pushdown: moves filter conjuncts as close to the scans as they can go: through projections, sorts and
/// the sides of joins (turning cross joins with conditions into inner joins), into scans (their per-batch filters
/// and min/max pruning predicates), below aggregations when they only read group columns.
LogicalPtr push_down_filters(LogicalPtr plan);

/// Join conditions: splits each join's condition into equality keys (left expression = right expression) and a
/// residual condition, so joins run as hash joins.
void extract_join_keys(LogicalNode& plan);

/// Join ordering: each region of inner joins is rebuilt as a left-deep tree that starts from the largest input
/// and adds, among the inputs connected to it by a condition, the one estimated to keep the fewest rows (build
/// sides are the added inputs); estimates come from table row counts and rough filter selectivities. A left join
/// whose right input is estimated at several times its left's rows becomes a right join of the swapped inputs (the
/// smaller one is built).
LogicalPtr order_joins(LogicalPtr plan);

/// Projection pruning: every node produces only the columns its parents read, so scans read only the columns a
/// query uses. The root keeps all its outputs.
LogicalPtr prune_projections(LogicalPtr plan);

/// Constant folding: constant sub-expressions are computed once at planning time.
void fold_constants(LogicalNode& plan);

/// Scan pruning: scan filters of the form `column op constant`, `column IN (...)` and `column IS NULL` become the
/// scan's pruning predicates, which let Parquet scans skip row groups by their min/max statistics.
void derive_scan_pruning(LogicalNode& plan);

/// Nodes referenced by more than one parent (shared sub-plans such as CTEs); rules do not rewrite into them.
std::map<const LogicalNode*, int> parent_counts(const LogicalNode& root);

}  // namespace kestrel::plan
