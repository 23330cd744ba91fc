#pragma once
/// One interface for all memory Kestrel allocates: pageable host, pinned host and device (stream-ordered pool).

#include <atomic>
#include <cstddef>
#include <string>

#include "gpu/stream.hpp"

struct CUmemPoolHandle_st;

namespace kestrel::gpu {

/// Where a buffer lives.
enum class MemoryKind : uint8_t {
  kHost,        ///< pageable host memory
  kPinnedHost,  ///< page-locked host memory, the fast path to and from the GPU
  kDevice,      ///< GPU memory
};

const char* memory_kind_name(MemoryKind kind);
inline bool is_host_kind(MemoryKind kind) { return kind != MemoryKind::kDevice; }

/// Allocates and frees memory of one kind. Device allocations are stream-ordered: memory freed on a stream may be
/// reused by later work on that stream without synchronizing.
class MemoryResource {
 public:
  virtual ~MemoryResource() = default;
  /// Allocates `bytes` (aligned to at least 64 bytes); throws ResourceExhausted when the budget or the device is out.
  virtual void* allocate(size_t bytes, Stream stream) = 0;
  virtual void deallocate(void* ptr, size_t bytes, Stream stream) noexcept = 0;
  virtual MemoryKind kind() const = 0;
  /// Bytes currently allocated through this resource, and the most ever at once.
  size_t allocated_bytes() const { return allocated_.load(std::memory_order_relaxed); }
  size_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  /// Starts a new peak measurement from the bytes allocated now.
  void reset_peak() { peak_.store(allocated_bytes(), std::memory_order_relaxed); }

 protected:
  void note_allocate(size_t bytes);
  void note_deallocate(size_t bytes) { allocated_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  std::atomic<size_t> allocated_{0};
  std::atomic<size_t> peak_{0};
};

/// Pageable host memory (64-byte aligned), under a byte limit (0: none). Batches, columns and the operators' buffers
/// come from here, so a query that would outgrow the limit fails with a clean ResourceExhausted error (the pipeline
/// adds the operator's name) instead of being killed by the operating system.
class HostMemoryResource final : public MemoryResource {
 public:
  void* allocate(size_t bytes, Stream stream) override;
  void deallocate(void* ptr, size_t bytes, Stream stream) noexcept override;
  MemoryKind kind() const override { return MemoryKind::kHost; }
  void set_limit(size_t bytes) { limit_.store(bytes, std::memory_order_relaxed); }
  size_t limit_bytes() const { return limit_.load(std::memory_order_relaxed); }

 private:
  std::atomic<size_t> limit_{0};
};

/// The process-wide host resource (host_memory_resource()) as its concrete type, to set its limit.
HostMemoryResource& host_memory();

/// Page-locked host memory from the CUDA driver.
class PinnedMemoryResource final : public MemoryResource {
 public:
  void* allocate(size_t bytes, Stream stream) override;
  void deallocate(void* ptr, size_t bytes, Stream stream) noexcept override;
  MemoryKind kind() const override { return MemoryKind::kPinnedHost; }
};

/// Device memory from a CUDA memory pool, stream-ordered (cudaMallocFromPoolAsync), under a byte budget.
class DevicePoolMemoryResource final : public MemoryResource {
 public:
  /// A pool on `device`; `budget_bytes` 0 means no limit beyond the device's memory.
  explicit DevicePoolMemoryResource(int device = 0, size_t budget_bytes = 0);
  ~DevicePoolMemoryResource() override;
  DevicePoolMemoryResource(const DevicePoolMemoryResource&) = delete;
  DevicePoolMemoryResource& operator=(const DevicePoolMemoryResource&) = delete;

  void* allocate(size_t bytes, Stream stream) override;
  void deallocate(void* ptr, size_t bytes, Stream stream) noexcept override;
  MemoryKind kind() const override { return MemoryKind::kDevice; }
  size_t budget_bytes() const { return budget_; }
  /// Changes the budget (0: none); allocations already made stay.
  void set_budget(size_t budget_bytes) { budget_ = budget_bytes; }

 private:
  CUmemPoolHandle_st* pool_ = nullptr;
  size_t budget_;
};

/// The process-wide pageable host resource.
MemoryResource& host_memory_resource();

}  // namespace kestrel::gpu
