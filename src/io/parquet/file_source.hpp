#pragma once
/// Positional reads from a local file, safe to share between decoding threads.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kestrel::gpu {
class FileMapping;
}

namespace kestrel::io::parquet {

/// A read-only local file read with pread(2), or bytes already in memory. Open failures and short reads throw
/// IoError naming the file.
class RandomAccessFile {
 public:
  static std::shared_ptr<RandomAccessFile> open(const std::string& path);
  /// Bytes in memory presented as a file called `name` (fuzzing, tests, files fetched from elsewhere).
  static std::shared_ptr<RandomAccessFile> from_memory(std::string name,
                                                       std::shared_ptr<const std::vector<uint8_t>> bytes);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  /// Reads exactly `length` bytes at `offset` into `out`; the range must lie inside the file.
  void read(uint64_t offset, size_t length, uint8_t* out) const;
  /// The file mapped for DMA to the GPU (gpu/file_mapping.hpp), made on first use; null for bytes in memory, when
  /// mappings are off or unavailable.
  gpu::FileMapping* dma_mapping() const;

 private:
  RandomAccessFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}

  std::string path_;
  int fd_;  ///< -1 for memory
  uint64_t size_;
  std::shared_ptr<const std::vector<uint8_t>> memory_;
  mutable std::once_flag mapping_once_;
  mutable std::shared_ptr<gpu::FileMapping> mapping_;
};

}  // namespace kestrel::io::parquet
