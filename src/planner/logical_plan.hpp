#pragma once
/// The logical plan: a tree of relational operators produced by the binder and rewritten by the optimizer. Each
/// node's output is an ordered list of columns; expressions of a node refer to its input columns by position
/// (plan::Expr kColumnRef `column_index`). A join's input is the left child's columns followed by the right's.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/table.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel::plan {

enum class NodeKind : uint8_t {
  kGet,        ///< scan of a catalog table
  kValues,     ///< literal rows (also the one empty row of a SELECT without FROM)
  kFilter,
  kProject,
  kAggregate,  ///< GROUP BY and aggregates; also DISTINCT
  kJoin,
  kSort,
  kLimit,      ///< LIMIT/OFFSET; with a Sort child the physical planner may make a top-N
  kSetOp,      ///< UNION [ALL], INTERSECT [ALL], EXCEPT [ALL]
  kWindow,     ///< window functions: the input columns, then one column per call
  kUnnest,     ///< UNNEST of arrays and maps per input row: the input columns, then the elements' columns
};

struct LogicalNode;
using LogicalPtr = std::shared_ptr<LogicalNode>;

/// Base of all nodes.
struct LogicalNode {
  explicit LogicalNode(NodeKind k) : kind(k) {}
  virtual ~LogicalNode() = default;

  const NodeKind kind;
  /// Output columns: names (for display and star expansion) and types.
  std::vector<Field> output;
  std::vector<LogicalPtr> children;
  /// Estimated output rows (filled by the optimizer's statistics pass; 0 = unknown).
  double estimated_rows = 0;

  /// One line for EXPLAIN: "Filter (#1 > 3)", "Get lineitem [l_orderkey, l_tax]".
  virtual std::string label() const = 0;

  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }
};

/// Reads `spec.columns` of `table` (output = those columns in that order). `filters` are conjuncts over the
/// scanned columns that the scan applies to every batch it reads; `spec.predicates` let it skip morsels.
/// With `projection` set, the output is only those positions of the scanned columns, after the filters: columns
/// only the filters read are dropped at the scan instead of travelling through joins.
struct LogicalGet final : LogicalNode {
  LogicalGet() : LogicalNode(NodeKind::kGet) {}
  catalog::TablePtr table;
  catalog::ScanSpec spec;
  std::vector<ExprPtr> filters;
  std::vector<size_t> projection;  ///< positions in spec.columns of the output; empty: every scanned column
  std::vector<Field> scanned;      ///< the fields of spec.columns when `projection` is set
  /// The fields the scan itself produces (before the projection).
  const std::vector<Field>& scan_fields() const { return projection.empty() ? output : scanned; }
  std::string label() const override;
};

/// Constant rows. Zero columns and one row for `SELECT 1`.
struct LogicalValues final : LogicalNode {
  LogicalValues() : LogicalNode(NodeKind::kValues) {}
  std::vector<std::vector<ExprPtr>> rows;  ///< each expression is constant (no column references)
  std::string label() const override;
};

struct LogicalFilter final : LogicalNode {
  LogicalFilter() : LogicalNode(NodeKind::kFilter) {}
  ExprPtr predicate;  ///< BOOLEAN; rows where it is TRUE pass
  std::string label() const override;
};

struct LogicalProject final : LogicalNode {
  LogicalProject() : LogicalNode(NodeKind::kProject) {}
  std::vector<ExprPtr> exprs;  ///< one per output column
  std::string label() const override;
};

enum class AggregateFunction : uint8_t {
  kCountStar, kCount, kSum, kAvg, kMin, kMax, kAnyValue,
  // Of DOUBLE input (the binder casts), DOUBLE results; NULL below 2 (samples) or 1 (populations) values.
  kVarSamp, kVarPop, kStddevSamp, kStddevPop,
  // CPU only (the GPU aggregation refuses them; see AggregateCall for their `order` and `parameter`).
  kMaxBy, kMinBy, kStringAgg, kPercentileCont, kPercentileDisc, kChecksum,
  // CPU only as well: skewness and kurtosis of DOUBLE, entropy of BIGINT counts, bitwise aggregates of BIGINT.
  kSkewness, kKurtosis, kEntropy, kBitwiseAndAgg, kBitwiseOrAgg, kBitwiseXorAgg,
  // CPU only: array_agg (every argument, NULLs included, in `order`) -> ARRAY; map_agg over ROW(key, value)
  // arguments -> MAP (NULL keys skipped, the first value of a repeated key kept).
  kArrayAgg, kMapAgg,
  // CPU only, single mode (issue 15; aggregate_collected.cpp): Presto's collecting aggregates, each over one argument
  // (several arguments are packed into a ROW by the binder, presto_collect_aggregates.cpp): set_agg, set_union,
  // histogram, map_union, map_union_sum, multimap_agg, numeric_histogram, the classification metrics,
  // differential_entropy, approx_most_frequent and reservoir_sample.
  kSetAgg, kSetUnion, kHistogram, kMapUnion, kMapUnionSum, kMultimapAgg, kNumericHistogram, kClassificationMissRate,
  kClassificationFallOut, kClassificationPrecision, kClassificationRecall, kClassificationThresholds,
  kDifferentialEntropy, kApproxMostFrequent, kReservoirSample,
};
const char* aggregate_function_name(AggregateFunction f);

/// A sort key over the input columns.
struct SortKey {
  ExprPtr expr;
  bool descending = false;
  bool nulls_first = false;  ///< PostgreSQL default: NULLs last ascending, first descending
};

/// One aggregate: `function(DISTINCT? argument)`. Result types: count -> BIGINT; sum of integers -> BIGINT (or
/// DECIMAL(38,0) for BIGINT inputs), of DECIMAL(p,s) -> DECIMAL(38,s), of floats -> DOUBLE; avg of integers and
/// floats -> DOUBLE, of DECIMAL(p,s) -> DECIMAL(38, max(s, 6)) rounded half away from zero; min/max -> the input type.
/// The ordered aggregates read `order` and `parameter`:
///   max_by, min_by   the argument on the row that sorts first by `order` (one key, y: descending for max_by,
///                    ascending for min_by); rows where y is NULL are skipped, a NULL argument is a value; among
///                    rows with equal y the largest (max_by) or smallest (min_by) argument wins, NULL last. Result:
///                    the argument's type.
///   string_agg       the non-NULL VARCHAR arguments in the order of `order` (in arrival order without keys and
///                    among equal keys), joined by `parameter` (VARCHAR; NULL gives NULL). Result: VARCHAR.
///   percentile_cont  percentile `parameter` (DOUBLE in [0, 1]) of the non-NULL DOUBLE arguments, interpolated
///                    between the two nearest ranks. Result: DOUBLE.
///   percentile_disc  percentile `parameter` of the non-NULL arguments by nearest rank: the first value whose
///                    cumulative share reaches it (the least value for 0). Result: the argument's type.
///   For both percentiles `order` is one key, the argument itself; descending takes the percentile from the top.
///   checksum         an order-independent 64-bit checksum of the argument's values, NULLs included (BIGINT).
/// Every ordered aggregate is NULL on empty input.
struct AggregateCall {
  AggregateFunction function = AggregateFunction::kCountStar;
  ExprPtr argument;  ///< null for count(*)
  bool distinct = false;
  LogicalType result_type;
  /// The ordered aggregates' keys, over the same input as the argument. With `distinct`, every key is the argument.
  std::vector<SortKey> order;
  /// A constant of the call: string_agg's separator, the percentiles' fraction; NULL for the others.
  Value parameter;
  /// FILTER (WHERE ...) that the aggregation applies itself (BOOLEAN; rows where it is not TRUE are skipped), for
  /// the aggregates that do not skip NULL arguments (checksum). Null otherwise: the binder folds FILTER into the
  /// argument as CASE WHEN filter THEN argument END.
  ExprPtr filter;
  std::string to_string() const;
};

/// Groups by `groups` and computes `aggregates`; output = the group columns, then the aggregate columns. With no
/// groups it yields exactly one row, even on empty input.
struct LogicalAggregate final : LogicalNode {
  LogicalAggregate() : LogicalNode(NodeKind::kAggregate) {}
  std::vector<ExprPtr> groups;
  std::vector<AggregateCall> aggregates;
  std::string label() const override;
};

/// Join kinds. Semi/anti/mark/single come from sub-query decorrelation:
/// semi = left rows with a match; anti = left rows without a match (with NOT IN's NULL rules when `null_aware`);
/// mark = all left rows plus a BOOLEAN column (TRUE match, FALSE none, NULL when unknown); single = left outer join
/// whose right side must have at most one match per row (scalar sub-query), an error otherwise.
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti, kMark, kSingle };
const char* join_type_name(JoinType t);

/// Joins children[0] (left, probe side by default) with children[1] (right, build side by default) on
/// `left_keys[i] = right_keys[i]` (each over its own side's columns) and a residual `condition` over the
/// concatenated columns. Output: left columns then right columns (inner/outer/cross/single), left columns only
/// (semi/anti), left columns + the mark (mark).
struct LogicalJoin final : LogicalNode {
  LogicalJoin() : LogicalNode(NodeKind::kJoin) {}
  JoinType join_type = JoinType::kInner;
  std::vector<ExprPtr> left_keys;
  std::vector<ExprPtr> right_keys;
  ExprPtr condition;  ///< may be null
  bool null_aware = false;  ///< NOT IN semantics for anti/mark joins
  std::string label() const override;
};

/// One window function call: `kind` (an aggregate: `aggregate`, whose argument is over the window's input) OVER
/// (PARTITION BY `partition` ORDER BY `order` with `frame`).
struct WindowCall {
  enum class Kind : uint8_t {
    kRowNumber, kRank, kDenseRank, kAggregate, kPercentRank, kCumeDist, kNtile, kLag, kLead, kFirstValue,
    kLastValue,
    kNthValue,  ///< nth_value(x, offset): x at row `offset` (from 1) of the frame, NULL past the frame's end
  };
  /// The rows an aggregate sees: the whole partition, the partition up to the current row's last peer (RANGE
  /// UNBOUNDED PRECEDING, the default with ORDER BY), or up to the current row (ROWS UNBOUNDED PRECEDING).
  enum class Frame : uint8_t { kPartition, kToLastPeer, kToCurrentRow };
  Kind kind = Kind::kRowNumber;
  AggregateCall aggregate;
  ExprPtr value;     ///< lag, lead, first_value, last_value, nth_value: the value read from another row
  ExprPtr fallback;  ///< lag, lead: the value where that row is outside the partition (null: NULL)
  int64_t offset = 1;  ///< lag, lead: rows back or ahead; ntile: the number of buckets; nth_value: the row
  std::vector<ExprPtr> partition;
  std::vector<SortKey> order;
  Frame frame = Frame::kPartition;
  LogicalType result_type;
  std::string to_string() const;
};

/// Window functions over its child: output = the child's columns, then one column per call.
struct LogicalWindow final : LogicalNode {
  LogicalWindow() : LogicalNode(NodeKind::kWindow) {}
  std::vector<WindowCall> calls;
  std::string label() const override;
};

/// UNNEST(a, ...) [WITH ORDINALITY] per row of its child (CROSS JOIN UNNEST and UNNEST in FROM): output = the
/// child's columns, then per ARRAY expression its element column and per MAP expression its key and value
/// columns, then the BIGINT ordinality (from 1). A row gives as many rows as its longest array (shorter ones padded
/// with NULLs); a row whose arrays are all empty or NULL gives none. CPU only.
struct LogicalUnnest final : LogicalNode {
  LogicalUnnest() : LogicalNode(NodeKind::kUnnest) {}
  std::vector<ExprPtr> arrays;
  bool ordinality = false;
  std::string label() const override;
};

struct LogicalSort final : LogicalNode {
  LogicalSort() : LogicalNode(NodeKind::kSort) {}
  std::vector<SortKey> keys;
  std::string label() const override;
};

struct LogicalLimit final : LogicalNode {
  LogicalLimit() : LogicalNode(NodeKind::kLimit) {}
  std::optional<uint64_t> limit;  ///< nullopt = no limit (OFFSET only)
  uint64_t offset = 0;
  std::string label() const override;
};

enum class SetOpKind : uint8_t { kUnion, kIntersect, kExcept };

/// children[0] op children[1]; both children have the same column types (the binder casts).
struct LogicalSetOp final : LogicalNode {
  LogicalSetOp() : LogicalNode(NodeKind::kSetOp) {}
  SetOpKind op = SetOpKind::kUnion;
  bool all = false;
  std::string label() const override;
};

/// The plan as an indented tree, one node per line, for EXPLAIN.
std::string explain_logical(const LogicalNode& root);

}  // namespace kestrel::plan

namespace kestrel::plan {

/// Calls `visit` on every expression slot of `node` (not its children): filters, predicates, projections,
/// groups, aggregate arguments, join keys and conditions, sort keys, VALUES rows. The callback may replace the
/// expression it is given.
void for_each_expression(LogicalNode& node, const std::function<void(ExprPtr&)>& visit);

}  // namespace kestrel::plan

namespace kestrel::plan {

/// A deep copy of the plan's nodes (expressions are immutable and shared). Nodes shared within the plan stay shared
/// in the copy. The optimizer rewrites nodes in place, so a plan that is also part of another plan (a CTE read by
/// a scalar sub-query and by the main query) is copied before it is optimized on its own.
LogicalPtr clone_plan(const LogicalPtr& plan);

}  // namespace kestrel::plan
