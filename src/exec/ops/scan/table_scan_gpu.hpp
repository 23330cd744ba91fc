#pragma once
/// Scan of a catalog table onto the GPU: the twin of TableScanCpu (table_scan.hpp) whose batches come out in
/// device memory. GPU operators pay a fixed cost per batch (launches, a few synchronizations), so the scan groups
/// consecutive table morsels (row groups, stored batches) into batches of about kGpuScanRows rows or more: a group is read
/// on the host, copied to the device on the driver's stream and concatenated there, or taken from the GPU table
/// cache (device_table_cache.hpp) when the context has one and the table is immutable (Parquet and CSV files).
/// Groups are fixed per table (morsel position / group size), so every query asks the cache for the same groups.
/// Pushed-down filters are not applied here: the plan puts them on the GPU after the scan.

#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "catalog/table.hpp"
#include "exec/pipeline.hpp"
#include "io/parquet/device/device_reader.hpp"

namespace kestrel::exec {

/// Rows the GPU scan aims at per batch: at least kGpuScanRows, up to kGpuScanMaxRows for tables big enough to give
/// every driver two batches of that size.
inline constexpr size_t kGpuScanRows = size_t{1} << 22;
inline constexpr size_t kGpuScanMaxRows = size_t{1} << 25;
/// Threads that decode the morsels of one group on the host (a driver decodes its group with this many: GPU
/// pipelines have few drivers).
inline constexpr size_t kGpuScanDecodeThreads = 4;

/// How a GPU scan reads Parquet tables: decoded on the device (io/parquet/device/device_reader.hpp) or on the host.
struct GpuScanRead {
  bool device_decode = true;
  io::DeviceScanStats* stats = nullptr;
};

/// The morsels `morsels` of `table` (columns `spec.columns`) as one device batch in `mr` ordered on `stream`
/// (named by `schema`, or by the table's read schema when null). Parquet tables are read straight to the device
/// and decoded there when `read.device_decode`; other tables (and Parquet otherwise) are read on the host (up to
/// kGpuScanDecodeThreads morsels at a time), copied and concatenated.
Batch read_morsels_to_device(const catalog::Table& table, const std::vector<size_t>& morsels,
                             const catalog::ScanSpec& spec, const SchemaPtr& schema, gpu::Stream stream,
                             gpu::MemoryResource& mr, const GpuScanRead& read);

/// Reads the file bytes of a GPU scan's morsels (Parquet or kcol) ahead of the drivers: taking morsel m starts
/// staging it (and every earlier morsel not yet started) and the next `ahead` morsels on background threads, so
/// reads overlap the device decoding of earlier morsels. At most about `ahead` + drivers morsels are staged at once.
/// The copies to the device are queued on the stager's one stream in morsel order (a later morsel whose page
/// headers were walked first waits for its turn), so the copy a driver waits for is never behind later ones.
/// With KESTREL_SCAN_TRACE=FILE each morsel's timeline (staging, its turn, the copy on the device, the driver's wait
/// and decode) is appended to FILE when the stager goes away, for the scan benchmarks.
class ScanStager {
 public:
  /// Stages one morsel; the upload (the stager's own stream and `mr`) copies the bytes to the device as well.
  using StageFn = std::function<std::shared_ptr<void>(size_t morsel, const io::StageUpload* upload)>;
  /// `stream` (shared by the statement's scans, so their copies run in the order they are queued) carries the
  /// copies; null: the stager's own.
  ScanStager(size_t morsels, StageFn stage, size_t ahead, gpu::MemoryResource& mr,
             std::shared_ptr<gpu::OwnedStream> stream = nullptr, std::string label = {});
  ~ScanStager();
  /// Morsel `morsel`'s staged bytes (waiting for them); rethrows the error its reads met.
  std::shared_ptr<void> take(size_t morsel);
  /// For the trace: the driver finished decoding `morsel` (`bytes` staged bytes).
  void decoded(size_t morsel, uint64_t bytes);
  /// Starts staging the first `count` morsels now, their reads waiting for `gate` (opened when the scans before
  /// this one have queued all their copies).
  void prefetch(std::shared_ptr<ReadGate> gate, size_t count);
  /// `queued` is called once every morsel's copy is queued (at once if that is so already).
  void on_queued(std::function<void()> queued);

 private:
  struct Trace;
  void start_locked(size_t morsel);
  void finish_turn(size_t morsel);

  StageFn stage_;
  size_t ahead_;
  std::shared_ptr<gpu::OwnedStream> stream_;
  /// Streams the staged Parquet batches' tables, gathers and decompression are queued on after their copies
  /// (round robin; they outlive the staged morsels, whose buffers may be freed on them).
  std::vector<std::unique_ptr<gpu::OwnedStream>> prepare_streams_;
  io::StageUpload upload_;
  std::mutex mutex_;
  std::vector<std::shared_future<std::shared_ptr<void>>> staged_;
  std::vector<uint8_t> started_;
  size_t first_unstarted_ = 0;
  // Copy turns: morsels [0, turn_) have queued their copies (or finished staging without one).
  std::mutex turn_mutex_;
  std::condition_variable turn_cv_;
  size_t turn_ = 0;
  std::vector<uint8_t> turn_done_;
  std::function<void()> queued_;
  std::shared_ptr<ReadGate> gate_;  ///< set by prefetch: stage tasks wait for it
  std::unique_ptr<Trace> trace_;
};

class TableScanGpu final : public Source {
 public:
  TableScanGpu(catalog::TablePtr table, catalog::ScanSpec spec, SchemaPtr schema)
      : table_(std::move(table)), spec_(std::move(spec)), schema_(std::move(schema)) {}

  void prepare(ExecContext& ctx) override;
  std::shared_ptr<ReadGate> prefetch(ExecContext& ctx, const std::shared_ptr<ReadGate>& after) override;
  size_t morsel_count() const override { return groups_.size(); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Scan " + table_->name() + " [GPU]"; }

 private:
  catalog::TablePtr table_;
  catalog::ScanSpec spec_;
  SchemaPtr schema_;
  std::vector<std::vector<size_t>> groups_;  ///< the table morsels of each scan morsel
  std::unique_ptr<ScanStager> stager_;       ///< files decoded on the device without the table cache: reads run ahead
  SchemaPtr stager_schema_;
  ScanReuse* reuse_ = nullptr;  ///< set when the statement scans this table more than once
  std::shared_ptr<std::vector<char>> reused_;  ///< per scan morsel: its columns were all kept by an earlier scan
  std::vector<size_t> decode_slots_;    ///< positions in spec_.columns the stager reads (the others are kept)
  std::vector<size_t> decode_columns_;  ///< the table columns at those positions
  SchemaPtr full_schema_;             ///< the scan's batches' schema when reusing
  bool prefetched_ = false;           ///< prepared and reading ahead before its pipeline runs
  std::shared_ptr<ReadGate> queued_gate_;  ///< opened once every copy of this scan is queued (when prefetched)

  void plan(ExecContext& ctx);
};

}  // namespace kestrel::exec
