#pragma once
/// SpookyHash V2, Bob Jenkins's 128-bit non-cryptographic hash (his public description of version 2), for Presto's
/// spooky_hash_v2_32 and spooky_hash_v2_64. Values are read as little-endian 64-bit words, as on the x86 and ARM
/// machines the reference runs on, so results are the same on every host.

#include <cstddef>
#include <cstdint>

namespace kestrel {

/// The two 64-bit halves of the 128-bit hash of `size` bytes at `data`, started from the seeds `seed1`, `seed2`.
struct SpookyHash128 {
  uint64_t first;
  uint64_t second;
};
SpookyHash128 spooky_hash128(const void* data, size_t size, uint64_t seed1, uint64_t seed2);

/// The 64-bit hash: the first half of the 128-bit hash with both seeds `seed`.
inline uint64_t spooky_hash64(const void* data, size_t size, uint64_t seed = 0) {
  return spooky_hash128(data, size, seed, seed).first;
}
/// The 32-bit hash: the low 32 bits of the 64-bit hash.
inline uint32_t spooky_hash32(const void* data, size_t size, uint32_t seed = 0) {
  return static_cast<uint32_t>(spooky_hash128(data, size, seed, seed).first);
}

}  // namespace kestrel
