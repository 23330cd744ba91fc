#include "gpu/memory_resource.hpp"

#include <cstdlib>
#include <new>

#include "gpu/cuda_check.hpp"
#include "gpu/small_block_cache.hpp"

namespace kestrel::gpu {

namespace {
constexpr size_t kHostAlignment = 64;
}

const char* memory_kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kHost: return "host";
    case MemoryKind::kPinnedHost: return "pinned host";
    case MemoryKind::kDevice: return "device";
  }
  return "?";
}

void MemoryResource::note_allocate(size_t bytes) {
  size_t now = allocated_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  size_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void* HostMemoryResource::allocate(size_t bytes, Stream) {
  const size_t limit = limit_bytes();
  if (limit != 0 && allocated_bytes() + bytes > limit) {
    throw ResourceExhausted("host memory limit of " + std::to_string(limit >> 20) + " MiB (host_memory_mb) exceeded allocating " +
                            std::to_string(bytes) + " bytes (" + std::to_string(allocated_bytes()) + " in use)");
  }
  size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void* ptr = std::aligned_alloc(kHostAlignment, rounded == 0 ? kHostAlignment : rounded);
  if (ptr == nullptr) throw ResourceExhausted("out of host memory allocating " + std::to_string(bytes) + " bytes");
  note_allocate(bytes);
  return ptr;
}

void HostMemoryResource::deallocate(void* ptr, size_t bytes, Stream) noexcept {
  std::free(ptr);
  note_deallocate(bytes);
}

HostMemoryResource& host_memory() {
  static HostMemoryResource resource;
  return resource;
}

MemoryResource& host_memory_resource() {
  return host_memory();
}

#if KESTREL_WITH_CUDA

void* PinnedMemoryResource::allocate(size_t bytes, Stream) {
  void* ptr = nullptr;
  cudaError_t status = cudaMallocHost(&ptr, bytes == 0 ? 1 : bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw ResourceExhausted("out of pinned host memory allocating " + std::to_string(bytes) + " bytes");
  }
  KESTREL_CUDA_CHECK(status);
  note_allocate(bytes);
  return ptr;
}

void PinnedMemoryResource::deallocate(void* ptr, size_t bytes, Stream) noexcept {
  cudaFreeHost(ptr);
  note_deallocate(bytes);
}

DevicePoolMemoryResource::DevicePoolMemoryResource(int device, size_t budget_bytes) : budget_(budget_bytes) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool;
  KESTREL_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  // Keep freed memory in the pool between queries instead of returning it to the driver at each sync.
  uint64_t threshold = UINT64_MAX;
  KESTREL_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  pool_ = pool;
}

DevicePoolMemoryResource::~DevicePoolMemoryResource() {
  detail::drop_small_blocks(this, [](void* p) { cudaFree(p); });
  if (pool_ != nullptr) cudaMemPoolDestroy(pool_);
}

void* DevicePoolMemoryResource::allocate(size_t bytes, Stream stream) {
  require_explicit_stream(stream, "DevicePoolMemoryResource::allocate");
  if (budget_ != 0 && allocated_bytes() + bytes > budget_) {
    throw ResourceExhausted("GPU memory budget of " + std::to_string(budget_) + " bytes exceeded allocating " +
                            std::to_string(bytes) + " bytes (" + std::to_string(allocated_bytes()) + " in use)");
  }
  // Small blocks come from (and go back to) the cache of small blocks; they are allocated at their class's size.
  const bool small = bytes <= detail::kSmallBlockMax;
  if (small) {
    if (void* cached = detail::take_small_block(this, bytes, stream.handle())) {
      note_allocate(bytes);
      return cached;
    }
  }
  void* ptr = nullptr;
  const size_t size = small ? detail::small_block_bytes(bytes) : bytes == 0 ? 1 : bytes;
  cudaError_t status = cudaMallocFromPoolAsync(&ptr, size, pool_, stream.handle());
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw ResourceExhausted("out of GPU memory allocating " + std::to_string(bytes) + " bytes (" +
                            std::to_string(allocated_bytes()) + " in use)");
  }
  KESTREL_CUDA_CHECK(status);
  note_allocate(bytes);
  return ptr;
}

void DevicePoolMemoryResource::deallocate(void* ptr, size_t bytes, Stream stream) noexcept {
  bool kept = false;
  if (bytes <= detail::kSmallBlockMax) {
    try {
      kept = detail::keep_small_block(this, ptr, bytes, stream.handle());
    } catch (...) {  // no memory for the cache's lists: free the block instead
    }
  }
  if (!kept) cudaFreeAsync(ptr, stream.handle());
  note_deallocate(bytes);
}

#else

void* PinnedMemoryResource::allocate(size_t, Stream) { throw NotImplemented("no GPU support: pinned memory"); }
void PinnedMemoryResource::deallocate(void*, size_t, Stream) noexcept {}
DevicePoolMemoryResource::DevicePoolMemoryResource(int, size_t budget_bytes) : budget_(budget_bytes) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}
DevicePoolMemoryResource::~DevicePoolMemoryResource() = default;
void* DevicePoolMemoryResource::allocate(size_t, Stream) { throw NotImplemented("no GPU support"); }
void DevicePoolMemoryResource::deallocate(void*, size_t, Stream) noexcept {}

#endif

}  // namespace kestrel::gpu
