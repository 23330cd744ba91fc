#pragma once
/// Reusable page-locked host buffers for staging transfers. Pinning memory costs about as much as copying it, so
/// scans take staging buffers from this pool and give them back instead of pinning memory for every batch.

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kestrel::gpu {

/// A pinned host buffer of at least `size()` bytes; returns to the pool when destroyed.
class PinnedBlock {
 public:
  PinnedBlock() = default;
  PinnedBlock(uint8_t* data, size_t capacity) : data_(data), capacity_(capacity) {}
  ~PinnedBlock();
  PinnedBlock(PinnedBlock&& other) noexcept : data_(other.data_), capacity_(other.capacity_) { other.data_ = nullptr; }
  PinnedBlock& operator=(PinnedBlock&& other) noexcept;
  PinnedBlock(const PinnedBlock&) = delete;
  PinnedBlock& operator=(const PinnedBlock&) = delete;

  uint8_t* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
};

/// A pinned block of at least `bytes` bytes (a kept one when one is big enough). Thread-safe. Freed blocks beyond
/// kPinnedPoolKeepBytes in total are unpinned instead of kept.
PinnedBlock acquire_pinned(size_t bytes);
inline constexpr size_t kPinnedPoolKeepBytes = size_t{16} << 30;

}  // namespace kestrel::gpu
