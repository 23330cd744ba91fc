#pragma once
/// Positional reads from a local file, safe to share between decoding threads.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kestrel::io::parquet {

/// A read-only local file read with pread(2). Open failures and short reads throw IoError naming the file.
class RandomAccessFile {
 public:
  static std::shared_ptr<RandomAccessFile> open(const std::string& path);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  /// Reads exactly `length` bytes at `offset` into `out`; the range must lie inside the file.
  void read(uint64_t offset, size_t length, uint8_t* out) const;

 private:
  RandomAccessFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}

  std::string path_;
  int fd_;
  uint64_t size_;
};

}  // namespace kestrel::io::parquet
