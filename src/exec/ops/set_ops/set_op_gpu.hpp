#pragma once
/// INTERSECT and EXCEPT, with and without ALL, on the GPU: the twins of SetOpState, SetOpSink and SetOpSource
/// (set_op.hpp) for device batches, with the same semantics (NULL equals NULL; -0.0 equals 0.0 and NaN equals NaN as
/// in the CPU's grouping; a row seen l times on the left and r times on the right is output
/// INTERSECT: once if l > 0 and r > 0, EXCEPT: once if l > 0 and r = 0, INTERSECT ALL: min(l, r) times,
/// EXCEPT ALL: max(l - r, 0) times). The output order is not defined, as on the CPU; here it is the rows' sort order.
///
/// Method: the rows of both sides are concatenated on the device (left first) and their row ids sorted stably by
/// every column, so equal rows form runs, each with its left rows first; per run the rows of each side are counted
/// (prefix sums) and the first copies(l, r) rows of the run are output (left rows: copies never exceed l).
///
/// Wiring as on the CPU: 0: left device input -> SetOpSinkGpu(state, 0);  1: right device input ->
/// SetOpSinkGpu(state, 1);  2: SetOpSourceGpu(state) -> ...  (depends on 0 and 1). Streams: consume() keeps the
/// device batches on their producers' streams; combine() synchronizes those streams; the source's prepare() computes
/// the output on its thread's driver stream and synchronizes it; read() copies rows out on the reading driver's
/// stream and waits for the copy.

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/device_rows.hpp"
#include "exec/pipeline.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::exec {

/// Rows per morsel (and output batch) of SetOpSourceGpu: large, so per-batch launches amortize on the GPU.
inline constexpr size_t kGpuSetOpOutputRows = size_t{1} << 20;

/// Both sides' device rows of a set operation, then its output rows; shared by the two sinks and the source.
class SetOpStateGpu {
 public:
  /// Throws NotImplemented where supports() is false, so placement can fall back to SetOpState.
  SetOpStateGpu(SchemaPtr schema, plan::SetOpKind op, bool all);

  /// Whether the GPU side runs a set operation over rows of `schema`: at most kMaxDeviceKeys columns of a type other
  /// than the NULL type (NULL-typed columns are NULL in every row and take no part in comparing rows).
  static bool supports(const Schema& schema);

  const SchemaPtr& schema() const { return schema_; }
  plan::SetOpKind op() const { return op_; }
  bool all() const { return all_; }

  /// Adds device batches (complete: their streams synchronized) to side `side` (0 left, 1 right). Thread-safe.
  void add(int side, std::vector<Batch> batches);

  /// After both sides finished: computes the output rows on `stream` with memory from `mr`, and synchronizes
  /// `stream` before it returns. Once; later calls do nothing.
  void prepare_output(gpu::Stream stream, gpu::MemoryResource& mr);
  size_t output_rows() const { return output_rows_; }
  /// Rows [first, first + count) of the output as a new device batch ordered on `stream`, with buffers from `mr`.
  /// Callable concurrently after prepare_output. Returns when the copy is done (it synchronizes `stream`): the
  /// state's rows are freed on the prepare stream, which never waits for the readers' streams.
  Batch read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const;

 private:
  SchemaPtr schema_;
  plan::SetOpKind op_;
  bool all_;
  std::vector<size_t> key_columns_;  ///< the columns compared (every column not of the NULL type)
  std::mutex mutex_;
  std::vector<Batch> inputs_[2];  ///< each side's batches, until prepare_output
  bool prepared_ = false;
  Batch rows_;              ///< left rows then right rows (after prepare_output)
  BufferPtr output_;        ///< device uint32 row ids of rows_ that are output (after prepare_output)
  size_t output_rows_ = 0;
};

/// One side of a GPU set operation: keeps its driver's device batches, hands them to the state in combine().
class SetOpSinkGpu final : public Sink {
 public:
  SetOpSinkGpu(std::shared_ptr<SetOpStateGpu> state, int side);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  /// `batch` is a device batch ordered on batch.stream().
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  /// Synchronizes the streams of the driver's batches, then hands them to the state.
  void combine(LocalState& local, ExecContext& ctx) override;
  std::string name() const override;

 private:
  struct Local;
  std::shared_ptr<SetOpStateGpu> state_;
  int side_;
};

/// The rows of a GPU set operation after both sinks finished, as device batches of up to `morsel_rows` rows on the
/// reading driver's stream (gpu::driver_stream()) in the query's device memory.
class SetOpSourceGpu final : public Source {
 public:
  explicit SetOpSourceGpu(std::shared_ptr<SetOpStateGpu> state, size_t morsel_rows = kGpuSetOpOutputRows)
      : state_(std::move(state)), morsel_rows_(morsel_rows) {}
  /// Computes the output (SetOpStateGpu::prepare_output) on this thread's driver stream.
  void prepare(ExecContext& ctx) override;
  size_t morsel_count() const override { return (state_->output_rows() + morsel_rows_ - 1) / morsel_rows_; }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "SetOpScan [GPU]"; }

 private:
  std::shared_ptr<SetOpStateGpu> state_;
  size_t morsel_rows_;
};

/// Writes into `out` (device, room for `rows` entries) the ids of the rows a set operation `op` (`all`: with ALL)
/// outputs, among `rows` rows whose first `left_rows` are the left side's and the rest the right side's, compared by
/// `keys` (NULL equal to NULL). Returns how many. Scratch from `mr`; synchronizes `stream` (the host needs the
/// count). Also for UNION [ALL], which keeps l + r (ALL) or 1 rows of each run of equal rows.
size_t set_op_output_rows_gpu(const DeviceKeys& keys, size_t rows, size_t left_rows, plan::SetOpKind op, bool all,
                              uint32_t* out, gpu::Stream stream, gpu::MemoryResource& mr);

}  // namespace kestrel::exec
