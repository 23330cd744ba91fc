#pragma once
/// A block of a CSV file's bytes as the reader holds them, and the line arithmetic error messages need.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace kestrel {

/// Counts '\n' bytes in `data[0, size)` (SIMD where available).
size_t count_newlines(const char* data, size_t size);

/// Bytes of a CSV file from a record start on. Blocks are shared by the tokenized records that point into them,
/// so they live until the last batch built from them is done.
struct CsvBlock {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  size_t capacity = 0;
  /// 1-based physical line number of data[0] in the file.
  uint64_t first_line = 1;

  /// 1-based physical line number of the byte at `offset`.
  uint64_t line_of(size_t offset) const { return first_line + count_newlines(data.get(), offset); }
};

/// Block buffers handed back by finished blocks, reused by the next ones: a fresh buffer of tens of MiB costs a
/// page fault per 4 KiB on first touch, which is a noticeable part of parsing.
class CsvBlockPool : public std::enable_shared_from_this<CsvBlockPool> {
 public:
  /// A block with room for at least `capacity` bytes; it returns its buffer to the pool when released.
  std::shared_ptr<CsvBlock> acquire(size_t capacity);

 private:
  void release(std::unique_ptr<char[]> data, size_t capacity);

  std::mutex mutex_;
  std::vector<std::pair<std::unique_ptr<char[]>, size_t>> free_;
};

}  // namespace kestrel
