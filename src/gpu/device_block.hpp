#pragma once
/// Raw device memory from a MemoryResource, owned and freed in a stream's order: for bytes that change hands
/// between streams (a read-ahead copies file bytes on its own stream, a decode takes them over on another).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/error.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

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

/// Bytes copied to the device on one stream ahead of their use on another: the block and the event that marks the
/// copy done.
class DeviceUpload {
 public:
  /// Allocates `bytes` from `mr` on `stream` and queues `copy(device pointer)` there. False, with nothing queued,
  /// when `mr` has no room (the user copies the bytes itself later).
  template <typename Copy>
  bool start(MemoryResource& mr, size_t bytes, Stream stream, Copy&& copy) {
    auto done = std::make_unique<Event>(true);
    try {
      block_ = DeviceBlock(mr, bytes, stream);
    } catch (const ResourceExhausted&) {
      return false;
    }
    try {
      started_ = std::make_unique<Event>(true);
      started_->record(stream);
      copy(block_.data());
      done->record(stream);
    } catch (...) {
      stream.synchronize();  // the copies queued so far read host memory the caller is about to release
      block_.reset();
      throw;
    }
    done_ = std::move(done);
    return true;
  }
  explicit operator bool() const { return static_cast<bool>(block_); }
  /// The block's bytes (once `stream` waits for the copy with wait_copy, work there may read them).
  uint8_t* data() const { return block_.data(); }
  void wait_copy(Stream stream) const { done_->wait(stream); }
  /// The block, handed over to `stream`: the stream waits for the copy, and the block is freed in its order.
  DeviceBlock take(Stream stream) {
    done_->wait(stream);
    block_.free_on(stream);
    return std::move(block_);
  }
  /// Milliseconds the copy took on its stream (from its start there to its end); only once a stream that took the
  /// block has been synchronized. 0 when nothing was started.
  float copy_ms() const { return done_ && started_ ? done_->elapsed_ms_since(*started_) : 0.0f; }

 private:
  DeviceBlock block_;
  std::unique_ptr<Event> started_;
  std::unique_ptr<Event> done_;
};

}  // namespace kestrel::gpu
