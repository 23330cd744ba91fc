#pragma once
/// Bitmaps in Arrow's order: bit i of a bitmap is bit (i % 8) of byte (i / 8), 1 = valid.

#include <cstddef>
#include <cstdint>

namespace kestrel::bits {

inline size_t bytes_for(size_t bits) { return (bits + 7) / 8; }
inline bool get(const uint8_t* bitmap, size_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }
inline void set(uint8_t* bitmap, size_t i) { bitmap[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void clear(uint8_t* bitmap, size_t i) { bitmap[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7))); }
inline void assign(uint8_t* bitmap, size_t i, bool v) { v ? set(bitmap, i) : clear(bitmap, i); }

/// Number of set bits among the first `n` bits.
size_t count_set(const uint8_t* bitmap, size_t n);

}  // namespace kestrel::bits
