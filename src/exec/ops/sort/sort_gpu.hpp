#pragma once
/// ORDER BY on the GPU: the twins of SortSink, TopNSink and SortSource (sort.hpp) for device batches. The output is
/// the CPU sorts' row for row: rows sort by their keys, ties by input order (source morsel, batch sequence, row), so
/// it does not depend on the number of drivers.
///
/// Wiring is the CPU sort's: pipeline A = device input -> SortSinkGpu (or TopNSinkGpu); pipeline B =
/// SortSourceGpu(sink) -> ... -> collector, B depending on A. Streams: consume() keeps the device batches on their
/// producers' streams; combine() synchronizes those streams; finalize() works on its thread's driver stream and
/// synchronizes it before it returns, so the sorted rows can be read from any stream afterwards.

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/sort/sort.hpp"
#include "exec/pipeline.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::exec {

/// Rows per morsel (and output batch) of SortSourceGpu: large, so per-batch launches amortize on the GPU.
inline constexpr size_t kGpuSortOutputRows = size_t{1} << 20;

/// Sorted device rows a SortSourceGpu reads after the sink finished.
class SortedOutputGpu {
 public:
  virtual ~SortedOutputGpu() = default;
  virtual size_t output_rows() const = 0;
  /// Rows [first, first + count) of the sorted output as a new device batch ordered on `stream`, with buffers
  /// from `mr`. Callable concurrently once the sink is finalized. Returns when the copy is done (it synchronizes
  /// `stream`): the sink frees its rows on its finalize stream, which never waits for the readers' streams.
  virtual Batch read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const = 0;
};

/// Throws NotImplemented for sorts by `keys` over rows of `schema` that the GPU side cannot run exactly like the
/// CPU side: more than `max_keys` keys, a key type without a device key, or an INTERVAL key (the device orders
/// intervals field by field, the CPU by their length with 30-day months).
void check_sort_gpu_supported(const Schema& schema, const std::vector<SortKeySpec>& keys,
                              size_t max_keys = kMaxDeviceKeys);

/// Full sort of device batches. The batches are kept as they come; finalize concatenates them in input order and
/// sorts the row ids stably by the keys (ties keep input order). The sorted rows are gathered when read.
class SortSinkGpu final : public Sink, public SortedOutputGpu {
 public:
  /// Throws NotImplemented where check_sort_gpu_supported does, so placement can fall back to SortSink.
  SortSinkGpu(SchemaPtr schema, std::vector<SortKeySpec> keys);

  /// Whether the GPU side runs this sort: placement asks before building the sink.
  static bool supports(const Schema& schema, const std::vector<SortKeySpec>& keys);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "Sort [GPU]"; }

  size_t output_rows() const override { return rows_; }
  Batch read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const override;

  /// A consumed batch with its place in the input order.
  struct Entry {
    size_t morsel = 0;
    size_t sequence = 0;
    Batch batch;
  };

 private:
  struct Local;

  SchemaPtr schema_;
  std::vector<SortKeySpec> keys_;
  std::mutex mutex_;
  std::vector<Entry> entries_;  ///< every driver's batches (their streams synchronized), until finalize
  Batch all_;                   ///< every input row in input order (after finalize)
  BufferPtr order_;             ///< device uint32 row ids of all_ in sorted order (after finalize)
  size_t rows_ = 0;
};

/// Waits for the streams that produced `entries` (each once), so another stream may read their batches.
void synchronize_producers(const std::vector<SortSinkGpu::Entry>& entries);

/// The batches of `entries` in input order (morsel, then sequence), moved out; `entries` ends empty.
std::vector<Batch> take_in_input_order(std::vector<SortSinkGpu::Entry>& entries);

/// ORDER BY ... LIMIT `limit` OFFSET `offset` on device batches: each driver keeps only its best limit + offset
/// rows. Every candidate row carries its origin (morsel, sequence, row) as an extra, last sort key column, so
/// ties resolve by input order exactly like TopNSink however the candidates were reduced.
class TopNSinkGpu final : public Sink, public SortedOutputGpu {
 public:
  /// `min_reduce_rows`: a driver reduces its candidates to the best limit + offset rows once it holds
  /// max(4 * (limit + offset), min_reduce_rows) rows. Throws NotImplemented where supports() is false, so
  /// placement can fall back to TopNSink.
  TopNSinkGpu(SchemaPtr schema, std::vector<SortKeySpec> keys, uint64_t limit, uint64_t offset = 0,
              size_t min_reduce_rows = size_t{1} << 20);

  /// Whether the GPU side runs this top-N (check_sort_gpu_supported with one key kept for the origin column).
  static bool supports(const Schema& schema, const std::vector<SortKeySpec>& keys);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "TopN [GPU]"; }

  size_t output_rows() const override { return output_.num_rows(); }
  Batch read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const override;

  /// Candidate rows: device batches of the input columns plus the origin column, all ready on `stream`.
  struct Candidates {
    std::vector<Batch> batches;
    size_t rows = 0;
    bool reduced = false;  ///< batches is exactly the sorted best set
  };

 private:
  struct Local;
  /// Replaces `c` by its best `keep` rows, sorted, in one batch; first skipping `skip` of them. Ends by
  /// synchronizing `stream` so the dropped input batches are no longer read.
  void reduce(Candidates& c, size_t skip, size_t keep, gpu::Stream stream, gpu::MemoryResource& mr) const;

  SchemaPtr schema_;
  SchemaPtr candidate_schema_;  ///< schema_ plus the origin column
  std::vector<SortKeySpec> keys_;
  std::vector<SortKeySpec> candidate_keys_;  ///< keys_ plus the origin column, ascending
  uint64_t limit_;
  uint64_t offset_;
  size_t keep_;               ///< limit + offset, saturated
  size_t reduce_threshold_;   ///< candidate rows of a driver that trigger a reduction
  std::mutex mutex_;
  Candidates global_;
  Batch output_;  ///< the result rows, input columns only (after finalize)
};

/// Reads a finished GPU sort's output in order, `morsel_rows` rows per morsel, as device batches on the driver's
/// stream in the query's device memory.
class SortSourceGpu final : public Source {
 public:
  explicit SortSourceGpu(std::shared_ptr<const SortedOutputGpu> sorted, size_t morsel_rows = kGpuSortOutputRows)
      : sorted_(std::move(sorted)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override { return morsels_for(sorted_->output_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "SortScan [GPU]"; }

 private:
  std::shared_ptr<const SortedOutputGpu> sorted_;
  size_t morsel_rows_;
};

/// A DECIMAL(38,0) device column of `rows` values morsel * 2^64 + sequence * 2^32 + row (row = 0..rows-1): the
/// origin of each row of one input batch as one ascending key. Needs morsel < 2^63, sequence and rows < 2^32.
ColumnPtr row_origin_column_gpu(size_t rows, uint64_t morsel, uint64_t sequence, gpu::Stream stream,
                                gpu::MemoryResource& mr);

}  // namespace kestrel::exec
