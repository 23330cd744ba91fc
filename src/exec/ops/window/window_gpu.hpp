#pragma once
/// Window functions on the GPU: the twin of WindowSink (window.hpp) for device batches, with the same functions,
/// frames, results and order of ties.
///
/// Method, per function: the rows (concatenated in input order) are sorted stably by partition, then ORDER BY keys
/// (sort_rows_gpu); one kernel flags the sorted positions that start a partition or a peer group (equal ORDER BY
/// keys), and two prefix sums number the partitions and peer groups. Ranking and distribution functions follow
/// from those numbers in one kernel; lag, lead, first_value and last_value gather from the row they read.
/// Aggregates reuse the GPU aggregation (hash_aggregate_gpu.hpp): the rows are grouped by a group number (the
/// partition, the peer group or the row itself, by frame), so the states and results are the GPU aggregation's,
/// exact like the CPU's; running frames then take in the earlier groups of their partition by an inclusive prefix
/// scan of the states in log2 rounds of merges (Hillis-Steele), as the CPU does.
///
/// Wiring is the CPU window's: a projection computes the sink's input columns, a SortSourceGpu reads the result
/// ([passed columns in input order..., one column per function]).

#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/sort/sort_gpu.hpp"
#include "exec/ops/window/window.hpp"

namespace kestrel::exec {

/// Throws NotImplemented for window functions over rows of `input` that the GPU side cannot compute exactly like
/// WindowSink: more than kMaxDeviceKeys partition and order keys, a key the GPU sort refuses, a DISTINCT
/// aggregate, or an aggregate the GPU aggregation refuses.
void check_window_gpu_supported(const Schema& input, const std::vector<WindowFunctionSpec>& functions);

class WindowSinkGpu final : public Sink, public SortedOutputGpu {
 public:
  /// `passed`: the leading input columns that reach the output. Throws NotImplemented where
  /// check_window_gpu_supported does.
  WindowSinkGpu(SchemaPtr input, size_t passed, std::vector<WindowFunctionSpec> functions);

  /// Whether the GPU side computes `functions`: placement asks before building the sink.
  static bool supports(const Schema& input, const std::vector<WindowFunctionSpec>& functions);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "Window [GPU]"; }

  size_t output_rows() const override { return output_.num_rows(); }
  Batch read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const override;
  const SchemaPtr& output_schema() const { return output_schema_; }

 private:
  struct Local;
  /// The values of `f` for every row of `all` (device, in its row order), ordered on `stream`.
  ColumnPtr compute(const WindowFunctionSpec& f, const Batch& all, gpu::Stream stream, gpu::MemoryResource& mr) const;

  SchemaPtr input_;
  size_t passed_;
  std::vector<WindowFunctionSpec> functions_;
  SchemaPtr output_schema_;
  std::mutex mutex_;
  std::vector<SortSinkGpu::Entry> entries_;  ///< every driver's batches (streams synchronized), until finalize
  Batch output_;
};

/// The device side of WindowSinkGpu (window_gpu.cu). `perm` lists the rows in sorted order (n entries).
namespace window_gpu_detail {

/// Partition and peer-group numbers of the sorted positions and where each starts.
struct Boundaries {
  BufferPtr partition;        ///< uint32 per position: 1 + the number of its partition
  BufferPtr peers;            ///< uint32 per position: 1 + the number of its peer group (over all partitions)
  BufferPtr partition_start;  ///< uint32 per partition number, plus one entry n: its first position
  BufferPtr peers_start;      ///< uint32 per peer-group number, plus one entry n: its first position
};

/// Numbers the sorted positions by partition (rows equal in `partition`) and peer group (also equal in `order`).
Boundaries find_boundaries(const DeviceKeys& partition, const DeviceKeys& order, const uint32_t* perm, size_t n,
                           gpu::Stream stream, gpu::MemoryResource& mr);

/// A BIGINT (row_number, rank, dense_rank, ntile) or DOUBLE (percent_rank, cume_dist) device column: the value of
/// ranking function `kind` for every row, from the boundaries of the sorted order `perm`.
ColumnPtr ranking_column(WindowFunctionSpec::Kind kind, int64_t buckets, const Boundaries& b, const uint32_t* perm,
                         size_t n, gpu::Stream stream, gpu::MemoryResource& mr);

/// source[perm[i]] = the row that lag/lead/first_value/last_value of sorted position i reads: a row < n inside the
/// partition, else n + perm[i] (the fallback column's row, `fallback`) or n (a NULL row).
void value_rows(WindowFunctionSpec::Kind kind, WindowFunctionSpec::Frame frame, int64_t offset, bool fallback,
                const Boundaries& b, const uint32_t* perm, size_t n, uint32_t* source, gpu::Stream stream);

/// Per row (at perm[i]) its aggregate group: the partition, the peer group or the position, by `frame`, into
/// `group_of` (uint32, n) and `group_key` (int64, n). Per group, into `first_group` (uint32, room for n): the
/// first group of its partition.
void aggregate_groups(WindowFunctionSpec::Frame frame, const Boundaries& b, const uint32_t* perm, size_t n,
                      uint32_t* group_of, int64_t* group_key, uint32_t* first_group, gpu::Stream stream);

/// The most groups in one partition (max over g of g - first_group[g] + 1), read back (synchronizes `stream`).
size_t longest_partition(const uint32_t* first_group, size_t groups, gpu::Stream stream, gpu::MemoryResource& mr);

/// keys[k] = k + d when group k + d's partition also holds group k (first_group[k + d] <= k), else `groups`
/// (a scratch key that sorts last), for k < groups - d.
void shifted_keys(const uint32_t* first_group, size_t groups, size_t d, int64_t* keys, gpu::Stream stream);

/// keys[k] = k for k < count.
void iota_keys(size_t count, int64_t* keys, gpu::Stream stream);

}  // namespace window_gpu_detail

}  // namespace kestrel::exec
