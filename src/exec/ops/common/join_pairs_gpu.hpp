#pragma once
/// The GPU side of join_pairs.hpp, shared by the GPU hash and nested-loop joins: candidate (probe row, build row)
/// pairs of one device probe batch, held as two device arrays of uint32 row ids, go through the residual condition,
/// and what survives becomes device output batches by join type. Probe = the plan's left input, build = its right.
///
/// Everything is ordered on the probe batch's stream with buffers from ctx.device_mr. Rows are uint32 ids.

#include <vector>

#include "exec/ops/common/join_pairs.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::exec {

/// Most candidate pairs a GPU join handles in one step (and most rows of an unmatched-build morsel): bounds the
/// device memory of the pair arrays and of the gathered pair batch. A probe batch whose rows have one candidate
/// each is one step (its probe columns are reused, so the pair batch is no bigger than the probe batch).
inline constexpr size_t kGpuJoinStepRows = size_t{1} << 24;

/// A plain device column of `rows` NULLs of `type` (outer-join padding).
ColumnPtr null_column_gpu(const LogicalType& type, size_t rows, gpu::Stream stream, gpu::MemoryResource& mr);

/// The pair batch (probe columns at `probe_rows`, then build columns at `build_rows`, `count` pairs, schema
/// `pair_schema`) gathered on `stream`. With `probe_identity` (probe_rows[i] = i for every probe row) the probe
/// columns are taken as they are.
Batch gather_pairs_gpu(const Batch& probe, const Batch& build, const uint32_t* probe_rows, const uint32_t* build_rows,
                       size_t count, const SchemaPtr& pair_schema, gpu::Stream stream, gpu::MemoryResource& mr,
                       bool probe_identity = false);

/// Evaluates `condition` on the pairs (probe_rows[i], build_rows[i]), i < count, of device row ids: returns the
/// plain BOOLEAN device column of verdicts; the gathered pair batch is stored in `*joined`. With `columns` not
/// empty (JoinSpec::condition_columns) only those pair columns are gathered, and `*joined` holds just them.
ColumnPtr evaluate_pairs_gpu(const JoinCondition& condition, const SchemaPtr& pair_schema, const Batch& probe,
                             const Batch& build, const uint32_t* probe_rows, const uint32_t* build_rows, size_t count,
                             gpu::Stream stream, ExecContext& ctx, Batch* joined,
                             const std::vector<size_t>& columns = {});

/// flags[probe_rows[i]] = 1 for every pair i < count whose `verdict` is TRUE, or TRUE or NULL with `null_too`
/// (device arrays).
void flag_true_pairs_gpu(const uint32_t* probe_rows, const Column& verdict, size_t count, uint8_t* flags,
                         gpu::Stream stream, bool null_too = false);

/// Collects the candidate pairs of one device probe batch and emits the join's output for it into `out`.
/// Use: add() candidate pairs in steps (every pair once, in any order), then finish().
class ProbeBatchJoinerGpu {
 public:
  /// `build_matched` (device, one byte per build row) is needed for right and full joins, else null. Work is
  /// ordered on `probe.stream()` with buffers from ctx.device_mr.
  ProbeBatchJoinerGpu(const JoinSpec& spec, const SchemaPtr& output_schema, const SchemaPtr& pair_schema,
                      const Batch& probe, const Batch& build, uint8_t* build_matched, ExecContext& ctx,
                      std::vector<Batch>& out);

  /// Runs the condition on the device pairs (probe_rows[i], build_rows[i]), i < count, counts the qualifying pairs
  /// per probe row, flags their build rows, and emits them for the join types that output pairs.
  /// `probe_identity`: probe_rows[i] = i for every row of the probe batch (see for_each_candidate_step).
  void add(const uint32_t* probe_rows, const uint32_t* build_rows, size_t count, bool probe_identity = false);
  /// Device array, one per probe row: the qualifying pairs added so far.
  const uint32_t* matches() const { return matches_->as<uint32_t>(); }
  /// The same array, for a caller that decides the matches without pairs (semi, anti and mark joins without a
  /// condition only need to know whether a row has a match): it writes them on the probe's stream instead of
  /// calling add, then calls finish.
  uint32_t* mutable_matches() { return matches_->as<uint32_t>(); }
  /// Device array, one per probe row: 1 when a pair of the row had a NULL condition (the unknown of null-aware
  /// joins without keys).
  const uint8_t* saw_null() const { return saw_null_->as<uint8_t>(); }
  /// Emits the rows decided per probe row (left padding, semi, anti, mark, single). `unknown` (device, one byte per
  /// probe row) marks rows whose null-aware result is unknown; used only for null-aware anti and mark, may be null.
  /// Throws InvalidInput as the CPU does when a single join found more than one match for a row.
  void finish(const uint8_t* unknown);

 private:
  /// Emits the probe rows `rows[0..count)` (device), with NULL build columns when `pad`, or with `mark`.
  void emit_probe_rows(const uint32_t* rows, size_t count, bool pad, ColumnPtr mark);
  /// The probe rows whose flag (device, one byte per row) is set, as device row ids; returns how many.
  size_t select_rows(const uint8_t* flags, BufferPtr* rows);

  const JoinSpec& spec_;
  SchemaPtr output_schema_;
  SchemaPtr pair_schema_;
  const Batch& probe_;
  const Batch& build_;
  uint8_t* build_matched_;
  ExecContext& ctx_;
  std::vector<Batch>& out_;
  gpu::Stream stream_;
  gpu::MemoryResource& mr_;
  BufferPtr matches_;   ///< uint32 per probe row
  BufferPtr saw_null_;  ///< uint8 per probe row
  BufferPtr multiple_;  ///< uint32 device flag: a single join found a second match
};

/// The build rows [first, first + count) of a right or full join whose device flag in `matched` is 0, with NULL
/// probe columns, as one device batch of `output_schema` (probe columns, then build columns) appended to `out`;
/// nothing when every row matched. Ordered on `stream`.
void emit_unmatched_build_rows_gpu(const Batch& build, const uint8_t* matched, size_t first, size_t count,
                                   const SchemaPtr& output_schema, size_t probe_columns, gpu::Stream stream,
                                   gpu::MemoryResource& mr, std::vector<Batch>& out);

}  // namespace kestrel::exec
