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
    count += static_cast<size_t>(__builtin_popcount(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, newline)))));
  }
#endif
  for (; i < size; ++i) count += data[i] == '\n';
  return count;
}

}  // namespace kestrel
