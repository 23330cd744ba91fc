#pragma once
/// Raw device memory from a MemoryResource, owned and freed in a stream's order: for bytes that change hands
/// between streams (a read-ahead copies file bytes on its own stream, a decode takes them over on another).

#include <cstddef>
#include <cstdint>

#include "gpu/memory_resource.hpp"

namespace kestrel::gpu {

class DeviceBlock {
 public:
  DeviceBlock() = default;
  DeviceBlock(MemoryResource& mr, size_t bytes, Stream stream)
      : mr_(&mr), data_(static_cast<uint8_t*>(mr.allocate(bytes, stream))), bytes_(bytes), stream_(stream) {}
  ~DeviceBlock() { reset(); }
  DeviceBlock(DeviceBlock&& other) noexcept { *this = std::move(other); }
  DeviceBlock& operator=(DeviceBlock&& other) noexcept {
    if (this != &other) {
      reset();
      mr_ = other.mr_;
      data_ = other.data_;
      bytes_ = other.bytes_;
      stream_ = other.stream_;
      other.data_ = nullptr;
    }
    return *this;
  }
  DeviceBlock(const DeviceBlock&) = delete;
  DeviceBlock& operator=(const DeviceBlock&) = delete;

  uint8_t* data() const { return data_; }
  explicit operator bool() const { return data_ != nullptr; }
  /// From now on the block is freed in `stream`'s order (after the work queued there).
  void free_on(Stream stream) { stream_ = stream; }
  void reset() {
    if (data_ != nullptr) mr_->deallocate(data_, bytes_, stream_);
    data_ = nullptr;
  }

 private:
  MemoryResource* mr_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
  Stream stream_;
};

}  // namespace kestrel::gpu
