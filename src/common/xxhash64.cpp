#include "common/xxhash64.hpp"

#include <bit>
#include <cstring>

namespace kestrel {

namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

/// Little-endian loads (the hash is defined on little-endian words whatever the machine).
uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

uint64_t accumulate(uint64_t acc, uint64_t lane) {
  acc += lane * kPrime2;
  acc = std::rotl(acc, 31);
  return acc * kPrime1;
}

uint64_t merge(uint64_t hash, uint64_t acc) {
  hash ^= accumulate(0, acc);
  return hash * kPrime1 + kPrime4;
}

}  // namespace

uint64_t xxhash64(const void* data, size_t size, uint64_t seed) {
  const auto* p = static_cast<const uint8_t*>(data);
  const uint8_t* const end = p + size;
  uint64_t hash;
  if (size >= 32) {
    uint64_t acc[4] = {seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1};
    for (; end - p >= 32; p += 32) {
      for (int lane = 0; lane < 4; ++lane) acc[lane] = accumulate(acc[lane], load64(p + 8 * lane));
    }
    hash = std::rotl(acc[0], 1) + std::rotl(acc[1], 7) + std::rotl(acc[2], 12) + std::rotl(acc[3], 18);
    for (const uint64_t a : acc) hash = merge(hash, a);
  } else {
    hash = seed + kPrime5;
  }
  hash += static_cast<uint64_t>(size);
  for (; end - p >= 8; p += 8) {
    hash ^= accumulate(0, load64(p));
    hash = std::rotl(hash, 27) * kPrime1 + kPrime4;
  }
  if (end - p >= 4) {
    hash ^= static_cast<uint64_t>(load32(p)) * kPrime1;
    hash = std::rotl(hash, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) {
    hash ^= static_cast<uint64_t>(*p) * kPrime5;
    hash = std::rotl(hash, 11) * kPrime1;
  }
  hash ^= hash >> 33;
  hash *= kPrime2;
  hash ^= hash >> 29;
  hash *= kPrime3;
  hash ^= hash >> 32;
  return hash;
}

}  // namespace kestrel
