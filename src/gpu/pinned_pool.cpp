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
    // A kept block up to twice the request is used as is; bigger ones stay for bigger requests.
    if (it != p.free.end() && it->first <= 2 * bytes + (size_t{1} << 20)) {
      PinnedBlock block(it->second, it->first);
      p.kept -= it->first;
      p.free.erase(it);
      return block;
    }
  }
  // Round up so that slightly different sizes of later batches reuse the block.
  size_t capacity = size_t{1} << 20;
  while (capacity < bytes) capacity += capacity < (size_t{256} << 20) ? capacity : (size_t{256} << 20);
  return PinnedBlock(static_cast<uint8_t*>(p.pinned.allocate(capacity, Stream::host())), capacity);
}

}  // namespace kestrel::gpu
