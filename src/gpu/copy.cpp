#include "gpu/copy.hpp"

#include <cstring>

#include "gpu/cuda_check.hpp"

namespace kestrel::gpu {

void CopyBatch::add(void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  dsts_.push_back(dst);
  srcs_.push_back(src);
  sizes_.push_back(bytes);
}

#if KESTREL_WITH_CUDA

struct PinnedStaging::Chunk {
  void* host = nullptr;
  cudaEvent_t done = nullptr;
  bool in_flight = false;
};

PinnedStaging::PinnedStaging(size_t chunk_bytes, int chunks) : chunk_bytes_(chunk_bytes) {
  for (int i = 0; i < chunks; ++i) {
    auto chunk = std::make_unique<Chunk>();
    KESTREL_CUDA_CHECK(cudaMallocHost(&chunk->host, chunk_bytes_));
    KESTREL_CUDA_CHECK(cudaEventCreateWithFlags(&chunk->done, cudaEventDisableTiming));
    chunks_.push_back(std::move(chunk));
  }
}

PinnedStaging::~PinnedStaging() {
  for (auto& chunk : chunks_) {
    if (chunk->in_flight) cudaEventSynchronize(chunk->done);
    cudaEventDestroy(chunk->done);
    cudaFreeHost(chunk->host);
  }
}

void PinnedStaging::host_to_device(void* dst, const void* src, size_t bytes, Stream stream) {
  require_explicit_stream(stream, "PinnedStaging::host_to_device");
  std::lock_guard lock(mutex_);
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  for (size_t done = 0; done < bytes; done += chunk_bytes_) {
    size_t n = std::min(chunk_bytes_, bytes - done);
    Chunk& chunk = *chunks_[next_];
    next_ = (next_ + 1) % chunks_.size();
    // The host must not overwrite a chunk whose previous copy has not finished reading it.
    if (chunk.in_flight) KESTREL_CUDA_CHECK(cudaEventSynchronize(chunk.done));
    std::memcpy(chunk.host, in + done, n);
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(out + done, chunk.host, n, cudaMemcpyHostToDevice, stream.handle()));
    KESTREL_CUDA_CHECK(cudaEventRecord(chunk.done, stream.handle()));
    chunk.in_flight = true;
  }
}

void PinnedStaging::device_to_host(void* dst, const void* src, size_t bytes, Stream stream) {
  require_explicit_stream(stream, "PinnedStaging::device_to_host");
  std::lock_guard lock(mutex_);
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  // Keep up to all chunks in flight: issue copies ahead, drain the oldest into `dst` as they complete.
  struct Pending {
    Chunk* chunk;
    size_t offset;
    size_t n;
  };
  std::vector<Pending> pending;
  size_t head = 0;
  auto drain_one = [&] {
    Pending& p = pending[head++];
    // The host reads the chunk next, so it has to wait for the copy into it.
    KESTREL_CUDA_CHECK(cudaEventSynchronize(p.chunk->done));
    p.chunk->in_flight = false;
    std::memcpy(out + p.offset, p.chunk->host, p.n);
  };
  for (size_t done = 0; done < bytes; done += chunk_bytes_) {
    size_t n = std::min(chunk_bytes_, bytes - done);
    if (pending.size() - head == chunks_.size()) drain_one();
    Chunk& chunk = *chunks_[next_];
    next_ = (next_ + 1) % chunks_.size();
    if (chunk.in_flight) KESTREL_CUDA_CHECK(cudaEventSynchronize(chunk.done));
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(chunk.host, in + done, n, cudaMemcpyDeviceToHost, stream.handle()));
    KESTREL_CUDA_CHECK(cudaEventRecord(chunk.done, stream.handle()));
    chunk.in_flight = true;
    pending.push_back({&chunk, done, n});
  }
  while (head < pending.size()) drain_one();
}

PinnedStaging& default_pinned_staging() {
  static PinnedStaging staging;
  return staging;
}

void CopyBatch::queue(Stream stream) {
  require_explicit_stream(stream, "CopyBatch::queue");
  if (sizes_.empty()) return;
  bool queued = false;
  if (sizes_.size() > 1) {
    cudaMemcpyAttributes attributes{};
    attributes.srcAccessOrder = cudaMemcpySrcAccessOrderStream;  // the sources live until the stream passes
    size_t first = 0;
    const cudaError_t rc = cudaMemcpyBatchAsync(dsts_.data(), const_cast<const void**>(srcs_.data()), sizes_.data(),
                                                sizes_.size(), &attributes, &first, 1, stream.handle());
    if (rc == cudaSuccess) {
      queued = true;
    } else {
      cudaGetLastError();  // a driver without batches: the copies one by one
    }
  }
  if (!queued) {
    for (size_t i = 0; i < sizes_.size(); ++i) {
      KESTREL_CUDA_CHECK(cudaMemcpyAsync(dsts_[i], srcs_[i], sizes_[i], cudaMemcpyHostToDevice, stream.handle()));
    }
  }
  dsts_.clear();
  srcs_.clear();
  sizes_.clear();
}

void copy_bytes(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, size_t bytes, Stream stream) {
  if (bytes == 0) return;
  if (is_host_kind(dst_kind) && is_host_kind(src_kind)) {
    std::memcpy(dst, src, bytes);
    return;
  }
  require_explicit_stream(stream, "copy_bytes");
  if (dst_kind == MemoryKind::kDevice && src_kind == MemoryKind::kHost) {
    default_pinned_staging().host_to_device(dst, src, bytes, stream);
  } else if (dst_kind == MemoryKind::kHost && src_kind == MemoryKind::kDevice) {
    default_pinned_staging().device_to_host(dst, src, bytes, stream);
  } else {
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream.handle()));
    // A copy into pinned host memory is read by the host next.
    if (is_host_kind(dst_kind)) stream.synchronize();
  }
}

void fill_bytes(void* dst, MemoryKind kind, int value, size_t bytes, Stream stream) {
  if (bytes == 0) return;
  if (is_host_kind(kind)) {
    std::memset(dst, value, bytes);
    return;
  }
  require_explicit_stream(stream, "fill_bytes");
  KESTREL_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, stream.handle()));
}

#else

struct PinnedStaging::Chunk {};
PinnedStaging::PinnedStaging(size_t chunk_bytes, int) : chunk_bytes_(chunk_bytes) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}
PinnedStaging::~PinnedStaging() = default;
void PinnedStaging::host_to_device(void*, const void*, size_t, Stream) {}
void PinnedStaging::device_to_host(void*, const void*, size_t, Stream) {}
PinnedStaging& default_pinned_staging() {
  static PinnedStaging staging;
  return staging;
}

void CopyBatch::queue(Stream) {
  if (!sizes_.empty()) throw NotImplemented("this build of Kestrel has no GPU support");
}

void copy_bytes(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, size_t bytes, Stream) {
  if (bytes == 0) return;
  if (!is_host_kind(dst_kind) || !is_host_kind(src_kind)) throw NotImplemented("no GPU support");
  std::memcpy(dst, src, bytes);
}

void fill_bytes(void* dst, MemoryKind kind, int value, size_t bytes, Stream) {
  if (bytes == 0) return;
  if (!is_host_kind(kind)) throw NotImplemented("no GPU support");
  std::memset(dst, value, bytes);
}

#endif

}  // namespace kestrel::gpu
