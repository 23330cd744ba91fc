#include "gpu/pinned_pool.hpp"

#include <map>
#include <mutex>

#include "gpu/memory_resource.hpp"

namespace kestrel::gpu {

namespace {

struct Pool {
  std::mutex mutex;
  std::multimap<size_t, uint8_t*> free;  ///< capacity -> block
  size_t kept = 0;
  PinnedMemoryResource pinned;
};

Pool& pool() {
  static Pool* p = new Pool();  // never destroyed: blocks may come back during static destruction
  return *p;
}

void release(uint8_t* data, size_t capacity) {
  Pool& p = pool();
  {
    std::lock_guard lock(p.mutex);
    if (p.kept + capacity <= kPinnedPoolKeepBytes) {
      p.free.emplace(capacity, data);
      p.kept += capacity;
      return;
    }
  }
  p.pinned.deallocate(data, capacity, Stream::host());
}

}  // namespace

PinnedBlock::~PinnedBlock() {
  if (data_ != nullptr) release(data_, capacity_);
}

PinnedBlock& PinnedBlock::operator=(PinnedBlock&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) release(data_, capacity_);
    data_ = other.data_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
  }
  return *this;
}

PinnedBlock acquire_pinned(size_t bytes) {
  Pool& p = pool();
  {
    std::lock_guard lock(p.mutex);
    auto it = p.free.lower_bound(bytes);
    // Blocks come in power-of-two sizes: the smallest kept one that fits is the request's own size class.
    if (it != p.free.end() && it->first < 2 * std::max(bytes, size_t{1} << 20)) {
      PinnedBlock block(it->second, it->first);
      p.kept -= it->first;
      p.free.erase(it);
      return block;
    }
  }
  // Power-of-two sizes, so that later batches of slightly different sizes reuse the block.
  size_t capacity = size_t{1} << 20;
  while (capacity < bytes) capacity *= 2;
  return PinnedBlock(static_cast<uint8_t*>(p.pinned.allocate(capacity, Stream::host())), capacity);
}

}  // namespace kestrel::gpu
