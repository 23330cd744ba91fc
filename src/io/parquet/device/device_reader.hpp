#pragma once
/// Parquet read straight into GPU memory, the GPU twin of ParquetDataset::read. For a group of row groups and
/// columns it reads only the projected column chunks, coalesced into large reads issued by a few I/O threads into a
/// pinned staging buffer; parses the page headers on the host; copies the bytes to the device in one transfer;
/// decompresses the pages there (nvCOMP; codecs it lacks are decompressed on the host, visibly); and decodes them
/// with the kernels of device_decode.hpp into one device batch (string chunks whose pages all use their dictionary
/// stay dictionary-encoded, the row groups' dictionaries concatenated). No page's values are decoded on the host.
///
/// Encodings the kernels lack (DELTA_*, BYTE_STREAM_SPLIT of FIXED_LEN_BYTE_ARRAY) send that column of the group to
/// the CPU decoder, visibly in the statistics. Malformed data fails with the CPU decoder's error: the GPU path asks
/// the CPU twin to decode the failing column chunk and throws what it throws.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "vector/batch.hpp"

namespace kestrel::io {

/// What GPU reads of Parquet and kcol files did (one per query, shared by its scans' drivers); EXPLAIN ANALYZE
/// prints it.
struct DeviceScanStats {
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> kcol_batches{0};   ///< of those, from kcol files (the rest are Parquet)
  std::atomic<uint64_t> bytes_read{0};     ///< file bytes read (chunks and the gaps coalesced reads span)
  std::atomic<uint64_t> bytes_mapped{0};   ///< of those, copied by DMA from registered file mappings
  std::atomic<uint64_t> reads{0};          ///< read calls
  std::atomic<uint64_t> read_ns{0};        ///< wall time of the reads of each batch (summed over batches)
  std::atomic<uint64_t> h2d_bytes{0};
  std::atomic<uint64_t> pages{0};
  std::atomic<uint64_t> pages_device_decompressed{0};
  std::atomic<uint64_t> pages_host_decompressed{0};  ///< codecs the device path lacks
  std::atomic<uint64_t> pages_snappy_literal{0};     ///< snappy pages of literals only: read in place or gathered
  std::atomic<uint64_t> chunks_host_decoded{0};      ///< encodings the device path lacks
  std::atomic<uint64_t> decode_ns{0};  ///< wall time from the transfer to the finished batch (summed)
  std::atomic<uint64_t> uploaded_ahead{0};  ///< batches whose bytes were copied to the device by the read-ahead
  std::atomic<uint64_t> stage_wait_ns{0};   ///< drivers' wall time blocked on the read-ahead's reads (summed)
  std::atomic<uint64_t> copy_gpu_ns{0};     ///< the read-ahead's copies, timed on their stream (summed)
  std::atomic<uint64_t> decode_gpu_ns{0};   ///< decompression and decoding up to the sizes' read-back, timed on the
                                            ///< drivers' streams from the bytes' arrival (summed)
  std::atomic<uint64_t> decompress_gpu_ns{0};  ///< of decode_gpu_ns, up to the end of the nvCOMP calls (this
                                               ///< includes the stream waiting for tables_host_ns)
  std::atomic<uint64_t> gather_gpu_ns{0};  ///< of decompress_gpu_ns, up to the end of the gathers of literal-only
                                           ///< snappy pages and realigned bodies
  std::atomic<uint64_t> tables_host_ns{0};  ///< drivers' host time building the page tables of each batch (summed)

  /// "GPU Parquet scan: 12 batches, 1.2 GiB read in 40 reads (pinned staging, GPUDirect Storage not used), ...".
  std::string describe() const;
};

/// I/O threads per staged batch (several batches stage at once): 4, or KESTREL_IO_THREADS (benchmarks).
size_t device_io_threads();

/// Whether the device decoder can run here (a GPU build); false with the reason otherwise.
bool device_parquet_supported(std::string* why = nullptr);

/// Row groups `refs` of `dataset`, dataset columns `columns`, as one device batch named by `schema` (the columns in
/// that order), ordered on `stream`, its buffers from `mr`. Synchronizes `stream` once (output sizes and errors).
/// `stats` may be null.
Batch read_parquet_to_device(const ParquetDataset& dataset, const std::vector<RowGroupRef>& refs,
                             const std::vector<size_t>& columns, const SchemaPtr& schema, gpu::Stream stream,
                             gpu::MemoryResource& mr, DeviceScanStats* stats);

/// The two stages of read_parquet_to_device, apart for benchmarks and for overlapping reads with decoding: the
/// projected chunks of the row groups read into pinned host memory, then copied, decompressed and decoded on the
/// device. `resident`, when given, holds the staged bytes already in device memory (staged_data copied there), so
/// only decompression and decoding run.
/// With a StageUpload, staging also copies the bytes to the device (memory from `mr`, on `stream`), so the copy of
/// one batch overlaps the decoding of others; without room in `mr` it leaves the copy to the decode.
struct StagedParquet;
struct StageUpload {
  gpu::Stream stream;
  gpu::MemoryResource* mr = nullptr;
  /// Called just before the batch's copy is queued on `stream` and just after (also when queuing fails): the
  /// read-ahead queues its batches' copies in morsel order (exec/ops/scan/table_scan_gpu.hpp) and can time them.
  std::function<void()> before_copy, after_copy;
  /// When set (Parquet): after the copy, the page tables, gathers and decompression of the batch are queued on
  /// this stream too, so the decode that takes the batch starts at its levels and values.
  std::optional<gpu::Stream> prepare_stream;
};

/// Brackets the queuing of a staged batch's copy with the upload's hooks (after_copy also on an exception).
class UploadTurn {
 public:
  explicit UploadTurn(const StageUpload& upload) : upload_(upload) {
    if (upload_.before_copy) upload_.before_copy();
  }
  ~UploadTurn() {
    if (upload_.after_copy) upload_.after_copy();
  }
  UploadTurn(const UploadTurn&) = delete;
  UploadTurn& operator=(const UploadTurn&) = delete;

 private:
  const StageUpload& upload_;
};
std::shared_ptr<StagedParquet> stage_parquet(const ParquetDataset& dataset, const std::vector<RowGroupRef>& refs,
                                             const std::vector<size_t>& columns, const StageUpload* upload = nullptr);
Batch decode_staged_parquet(StagedParquet& staged, const SchemaPtr& schema, gpu::Stream stream,
                            gpu::MemoryResource& mr, DeviceScanStats* stats, const uint8_t* resident = nullptr);
size_t staged_bytes(const StagedParquet& staged);
/// Queues the copy of the staged bytes (staged_bytes of them) to `device` on `stream`.
void copy_staged_to_device(const StagedParquet& staged, uint8_t* device, gpu::Stream stream);

}  // namespace kestrel::io
