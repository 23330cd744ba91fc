#pragma once
/// An owned block of memory from a MemoryResource, on the host or the device.

#include <cstddef>
#include <memory>

#include "gpu/memory_resource.hpp"

namespace kestrel {

/// Owns `size` bytes from a memory resource and frees them, stream-ordered, when the last reference goes away.
class Buffer {
 public:
  /// Allocates `bytes` from `mr`; device buffers are ordered on `stream`.
  static std::shared_ptr<Buffer> allocate(size_t bytes, gpu::MemoryResource& mr, gpu::Stream stream);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() { return data_; }
  const void* data() const { return data_; }
  template <typename T>
  T* as() {
    return static_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return static_cast<const T*>(data_);
  }
  size_t size() const { return size_; }
  gpu::MemoryKind kind() const { return mr_->kind(); }
  gpu::MemoryResource& resource() const { return *mr_; }
  /// The stream the buffer is freed on (the host stream for host memory).
  gpu::Stream stream() const { return stream_; }

 private:
  Buffer(void* data, size_t size, gpu::MemoryResource* mr, gpu::Stream stream)
      : data_(data), size_(size), mr_(mr), stream_(stream) {}

  void* data_;
  size_t size_;
  gpu::MemoryResource* mr_;
  gpu::Stream stream_;
};

using BufferPtr = std::shared_ptr<Buffer>;

}  // namespace kestrel
