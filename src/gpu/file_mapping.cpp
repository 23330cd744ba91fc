#include "gpu/file_mapping.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "common/error.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#endif

namespace kestrel::gpu {

namespace {

std::atomic<uint64_t> g_registered{0};

uint64_t compute_budget() {
  if (const char* env = std::getenv("KESTREL_FILE_REGISTER_MB"); env != nullptr && *env != '\0') {
    return static_cast<uint64_t>(std::strtoull(env, nullptr, 10)) << 20;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
}

}  // namespace

uint64_t FileMapping::budget_bytes() {
  static const uint64_t budget = compute_budget();
  return budget;
}

uint64_t FileMapping::registered_bytes() { return g_registered.load(); }

FileMapping::FileMapping(const uint8_t* base, uint64_t size, std::string path)
    : base_(base),
      size_(size),
      path_(std::move(path)),
      pieces_(static_cast<size_t>((size + kFileMappingPiece - 1) / kFileMappingPiece)) {
  state_ = std::make_unique<std::atomic<uint8_t>[]>(pieces_);
  for (size_t i = 0; i < pieces_; ++i) state_[i].store(kUnregistered);
  locks_ = std::make_unique<std::mutex[]>(pieces_);
}

#if !KESTREL_WITH_CUDA

std::shared_ptr<FileMapping> FileMapping::create(int, uint64_t, const std::string&) { return nullptr; }
FileMapping::~FileMapping() = default;
bool FileMapping::register_piece(size_t) { return false; }
bool FileMapping::prepare(uint64_t, uint64_t) { return false; }
void FileMapping::copy_to_device(void*, uint64_t, uint64_t, Stream) const {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

void FileMapping::add_copies(CopyBatch&, void*, uint64_t, uint64_t) const {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

#else

std::shared_ptr<FileMapping> FileMapping::create(int fd, uint64_t size, const std::string& path) {
  if (fd < 0 || size == 0 || budget_bytes() == 0) return nullptr;
  void* base = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return nullptr;
  return std::shared_ptr<FileMapping>(new FileMapping(static_cast<const uint8_t*>(base), size, path));
}

FileMapping::~FileMapping() {
  for (size_t i = 0; i < pieces_; ++i) {
    if (state_[i].load() != kRegistered) continue;
    // Errors are ignored: at process exit the CUDA runtime may be gone, and the pages are released anyway.
    if (cudaHostUnregister(const_cast<uint8_t*>(base_) + i * kFileMappingPiece) != cudaSuccess) cudaGetLastError();
    const uint64_t bytes = std::min<uint64_t>(kFileMappingPiece, size_ - i * kFileMappingPiece);
    g_registered.fetch_sub(bytes);
  }
  ::munmap(const_cast<uint8_t*>(base_), static_cast<size_t>(size_));
}

bool FileMapping::register_piece(size_t piece) {
  const uint8_t s = state_[piece].load(std::memory_order_acquire);
  if (s != kUnregistered) return s == kRegistered;
  std::lock_guard lock(locks_[piece]);
  if (state_[piece].load() != kUnregistered) return state_[piece].load() == kRegistered;
  const uint64_t at = piece * kFileMappingPiece;
  const uint64_t bytes = std::min<uint64_t>(kFileMappingPiece, size_ - at);
  // The budget is taken before registering so that concurrent registrations cannot overshoot it together.
  if (g_registered.fetch_add(bytes) + bytes > budget_bytes()) {
    g_registered.fetch_sub(bytes);
    return false;  // maybe later, when other files close
  }
  // The last piece is registered up to its page's end (mapped, zero beyond the file's end).
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGE_SIZE));
  const uint64_t span = (bytes + page - 1) / page * page;
  const cudaError_t rc = cudaHostRegister(const_cast<uint8_t*>(base_) + at, static_cast<size_t>(span),
                                          cudaHostRegisterReadOnly);
  if (rc != cudaSuccess) {
    cudaGetLastError();  // not sticky: the scan goes on through pinned staging
    g_registered.fetch_sub(bytes);
    state_[piece].store(kRefused, std::memory_order_release);
    return false;
  }
  state_[piece].store(kRegistered, std::memory_order_release);
  return true;
}

bool FileMapping::prepare(uint64_t offset, uint64_t length) {
  if (offset > size_ || length > size_ - offset) return false;
  if (length == 0) return true;
  const size_t first = static_cast<size_t>(offset / kFileMappingPiece);
  const size_t last = static_cast<size_t>((offset + length - 1) / kFileMappingPiece);
  for (size_t p = first; p <= last; ++p) {
    if (!register_piece(p)) return false;
  }
  return true;
}

void FileMapping::add_copies(CopyBatch& batch, void* dst, uint64_t offset, uint64_t length) const {
  uint64_t done = 0;
  while (done < length) {
    const uint64_t at = offset + done;
    const uint64_t n = std::min(length - done, kFileMappingPiece - at % kFileMappingPiece);
    batch.add(static_cast<uint8_t*>(dst) + done, base_ + at, static_cast<size_t>(n));
    done += n;
  }
}

void FileMapping::copy_to_device(void* dst, uint64_t offset, uint64_t length, Stream stream) const {
  CopyBatch batch;
  add_copies(batch, dst, offset, length);
  batch.queue(stream);
}

#endif

}  // namespace kestrel::gpu
