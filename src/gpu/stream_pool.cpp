#include "gpu/stream_pool.hpp"

#include <array>
#include <memory>
#include <mutex>

namespace kestrel::gpu {

namespace {

/// Streams created on first use and never destroyed (see driver_stream).
struct DriverStreamPool {
  std::mutex mutex;
  std::array<std::unique_ptr<OwnedStream>, kDriverStreams> streams;
  size_t next = 0;

  Stream take() {
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = streams[next % kDriverStreams];
    if (!slot) slot = std::make_unique<OwnedStream>();
    ++next;
    return slot->view();
  }
};

DriverStreamPool& pool() {
  // Leaked on purpose: streams must outlive every buffer freed on them, whatever the order of static destructors.
  static auto* instance = new DriverStreamPool();
  return *instance;
}

}  // namespace

Stream driver_stream() {
  thread_local Stream stream;
  if (stream.is_host()) stream = pool().take();
  return stream;
}

}  // namespace kestrel::gpu
