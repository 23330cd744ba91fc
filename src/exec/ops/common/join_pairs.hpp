#pragma once
/// The part of a join that is the same for hash and nested-loop joins: candidate (probe row, build row) pairs of
/// one probe batch go through the residual condition, and what survives becomes output by join type (inner,
/// left/right/full outer, semi, anti, mark, single, cross). Probe = the plan's left input, build = its right.

#include <functional>
#include <vector>

#include "exec/ops/common/output_rows.hpp"
#include "exec/pipeline.hpp"
#include "planner/logical_plan.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

/// A residual join condition over a joined batch (probe columns, then build columns): returns a BOOLEAN column
/// with one row per input row. NULL counts as not satisfied (as unknown for null-aware mark and anti joins).
using JoinCondition = std::function<ColumnPtr(const Batch& joined, ExecContext& ctx)>;

/// What a join produces, shared by the hash and nested-loop joins.
struct JoinSpec {
  plan::JoinType type = plan::JoinType::kInner;
  JoinCondition condition;  ///< empty: every candidate pair qualifies
  /// GPU joins: when not empty, the pair columns (probe then build numbering) the condition reads, ascending; the
  /// condition is then called on a batch of just these columns, so candidate pairs gather only them.
  std::vector<size_t> condition_columns;
  /// NOT IN / IN semantics for anti and mark joins: a row without a match whose comparison is unknown gets NULL
  /// (mark) or is dropped (anti). The comparison is the keys' equality and the condition together: unknown when
  /// for some build row neither is FALSE and one is NULL.
  bool null_aware = false;
  size_t max_output_rows = kCpuOutputRows;
};

/// The output schema: probe then build columns (inner, outer, cross, single), probe columns (semi, anti), probe
/// columns plus a BOOLEAN `mark` (mark).
SchemaPtr join_output_schema(plan::JoinType type, const Schema& probe, const Schema& build);
/// Probe then build columns: the schema the residual condition sees.
SchemaPtr join_pair_schema(const Schema& probe, const Schema& build);
/// Whether the join type emits build rows that no probe row matched (right, full).
bool emits_unmatched_build(plan::JoinType type);

/// Result of a condition on one pair.
enum class PairResult : uint8_t { kFalse, kTrue, kNull };

/// Evaluates `condition` on the pairs (probe[i], build[i]) in slices of at most `max_rows`.
std::vector<PairResult> evaluate_pairs(const JoinCondition& condition, const SchemaPtr& pair_schema,
                                       const Batch& probe, const Batch& build, const RowIndices& probe_rows,
                                       const RowIndices& build_rows, size_t max_rows, ExecContext& ctx);

/// Collects the candidate pairs of one probe batch and emits the join's output for it into `out`.
/// Use: add() every candidate pair (in any order), then finish().
class ProbeBatchJoiner {
 public:
  /// `build_matched` (one flag per build row, set atomically) is needed for right and full joins, else null.
  ProbeBatchJoiner(const JoinSpec& spec, const SchemaPtr& output_schema, const SchemaPtr& pair_schema,
                   const Batch& probe, const Batch& build, uint8_t* build_matched, ExecContext& ctx,
                   std::vector<Batch>& out);

  void add(uint32_t probe_row, uint32_t build_row) {
    probe_rows_.push_back(probe_row);
    build_rows_.push_back(build_row);
    if (probe_rows_.size() >= spec_.max_output_rows) flush();
  }
  /// Runs the condition on the pending pairs and emits what pairs produce.
  void flush();
  /// Pairs that qualified for `probe_row` so far (saturates at 2).
  uint8_t matches(size_t probe_row) const { return matches_[probe_row]; }
  /// Whether a pair of `probe_row` had a NULL condition (the unknown of null-aware joins without keys).
  bool saw_null(size_t probe_row) const { return saw_null_[probe_row] != 0; }
  /// Emits the rows decided per probe row (left padding, semi, anti, mark, single). `unknown[r]` marks rows whose
  /// null-aware result is unknown (used only for null-aware anti and mark; may be null otherwise).
  void finish(const std::vector<uint8_t>* unknown);

 private:
  void emit_pairs(const RowIndices& probe_rows, const RowIndices& build_rows, Batch* joined);
  void emit_probe_rows(const RowIndices& rows, const std::vector<uint8_t>* mark_values);

  const JoinSpec& spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  const Batch& probe_;
  const Batch& build_;
  uint8_t* build_matched_;
  ExecContext& ctx_;
  std::vector<Batch>& out_;
  RowIndices probe_rows_;
  RowIndices build_rows_;
  std::vector<uint8_t> matches_;
  std::vector<uint8_t> saw_null_;
};

/// The build rows of a right or full join that no probe row matched, with NULL probe columns, as output batches
/// of `output_schema` (probe columns, then build columns) of at most `max_rows` rows, for build rows
/// [first, first + count).
void emit_unmatched_build_rows(const Batch& build, const uint8_t* matched, size_t first, size_t count,
                               const SchemaPtr& output_schema, size_t probe_columns, size_t max_rows,
                               std::vector<Batch>& out);

}  // namespace kestrel::exec
