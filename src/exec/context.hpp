#pragma once
/// What every operator of a running query can reach: memory, thread count, cancellation.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "common/error.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/parquet/device/device_reader.hpp"

namespace kestrel::exec {

class DeviceTableCache;
class ScanReuse;

/// A latch a file scan opens once it has queued its last read to the device (the first pipeline's opens at once
/// when its source reads no files, and every gate at the latest when the statement's pipelines are done): the
/// scans of the pipelines that run later start their reads after it (Source::prefetch), in pipeline order, so the
/// copy engine keeps working through the ends and starts of pipelines.
class ReadGate {
 public:
  void open() { settle(true); }
  /// The statement failed: waiting reads give up instead of starting.
  void abandon() { settle(false); }
  /// True once opened; false when abandoned.
  bool wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return settled_; });
    return open_;
  }

 private:
  void settle(bool open) {
    {
      std::lock_guard lock(mutex_);
      if (settled_) return;
      settled_ = true;
      open_ = open;
    }
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  bool settled_ = false, open_ = false;
};

/// Per-query execution state shared by all drivers.
struct ExecContext {
  gpu::MemoryResource* host_mr = &gpu::host_memory_resource();
  /// The query's device memory (a stream-ordered pool it owns). Set only when the GPU is the device: the plan
  /// builder then places operators on the GPU where their GPU side supports them; null means the CPU runs all.
  gpu::MemoryResource* device_mr = nullptr;
  /// The GPU table cache scans read input columns through (GPU placement only); null: no caching.
  DeviceTableCache* table_cache = nullptr;
  /// Columns the statement's GPU scans of the same table share (without the table cache); null: none.
  ScanReuse* scan_reuse = nullptr;
  /// The device memory budget the user set (gpu_memory_mb), 0 when none: scans then size their batches to it.
  size_t device_budget = 0;
  /// GPU scans of Parquet tables decode on the device (gpu_decode); else on the host, then copy.
  bool gpu_decode = true;
  /// What the GPU scans' reads did (EXPLAIN ANALYZE prints it); may be null.
  io::DeviceScanStats* scan_stats = nullptr;
  /// Drivers per pipeline.
  int threads = 1;
  /// Drivers of pipelines with GPU steps (each its own CUDA stream); 0: `threads`. CPU pipelines of a GPU query
  /// keep `threads`.
  int gpu_drivers = 0;
  /// Set from another thread (Ctrl-C) to stop the query.
  const std::atomic<bool>* cancel_requested = nullptr;
  /// Collect per-step rows and times (EXPLAIN ANALYZE).
  bool profile = false;
  /// The first pipeline's read gate; its source takes it in prepare() (read_gate_taken) when it reads ahead and
  /// opens it once its reads are queued, else the pipeline opens it right after prepare().
  std::shared_ptr<ReadGate> read_gate;
  bool read_gate_taken = false;
  /// Whether later pipelines' file scans start reading when the statement starts (gpu_scan_prefetch), and the
  /// device bytes their reads may hold before their pipelines run (taken in pipeline order).
  bool scan_prefetch = true;
  size_t prefetch_bytes_left = 0;
  /// The stream the statement's GPU file scans queue their copies on, in the order of their pipelines (made by the
  /// first scan that reads ahead).
  std::shared_ptr<gpu::OwnedStream> read_stream;
  /// Called after each morsel with (pipeline index, morsels done, morsels of the pipeline, pipelines); may be
  /// empty. Called from driver threads: it must be thread-safe and quick.
  std::function<void(size_t, size_t, size_t, size_t)> progress;

  /// Throws Cancelled when the query was asked to stop; drivers call it between morsels.
  void check_cancelled() const {
    if (cancel_requested != nullptr && cancel_requested->load(std::memory_order_relaxed)) throw Cancelled();
  }
};

}  // namespace kestrel::exec
