#include "common/bit_util.hpp"

#include <bit>
#include <cstring>

namespace kestrel::bits {

size_t count_set(const uint8_t* bitmap, size_t n) {
  size_t count = 0;
  size_t words = n / 64;
  for (size_t w = 0; w < words; ++w) {
    uint64_t word;
    std::memcpy(&word, bitmap + w * 8, 8);
    count += static_cast<size_t>(std::popcount(word));
  }
  for (size_t i = words * 64; i < n; ++i) count += get(bitmap, i);
  return count;
}

}  // namespace kestrel::bits
