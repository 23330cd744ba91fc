#include "io/csv/csv_block.hpp"

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kestrel {

size_t count_newlines(const char* data, size_t size) {
  size_t count = 0;
  size_t i = 0;
#ifdef __SSE2__
  const __m128i newline = _mm_set1_epi8('\n');
  for (; i + 16 <= size; i += 16) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, newline)));
    count += static_cast<size_t>(__builtin_popcount(mask));
  }
#endif
  for (; i < size; ++i) count += data[i] == '\n';
  return count;
}

std::shared_ptr<CsvBlock> CsvBlockPool::acquire(size_t capacity) {
  std::unique_ptr<char[]> data;
  size_t have = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second >= capacity) {
        data = std::move(it->first);
        have = it->second;
        free_.erase(it);
        break;
      }
    }
  }
  if (!data) {
    data.reset(new char[capacity]);
    have = capacity;
  }
  std::weak_ptr<CsvBlockPool> pool = weak_from_this();
  std::shared_ptr<CsvBlock> block(new CsvBlock(), [pool](CsvBlock* b) {
    if (auto p = pool.lock()) p->release(std::move(b->data), b->capacity);
    delete b;
  });
  block->data = std::move(data);
  block->capacity = have;
  return block;
}

void CsvBlockPool::release(std::unique_ptr<char[]> data, size_t capacity) {
  constexpr size_t kMaxFree = 4;
  std::lock_guard<std::mutex> lock(mutex_);
  if (data && free_.size() < kMaxFree) free_.emplace_back(std::move(data), capacity);
}

}  // namespace kestrel
