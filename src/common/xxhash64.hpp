#pragma once
/// XXH64, the 64-bit xxHash (the algorithm of Yann Collet's specification), for Presto's xxhash64 function.

#include <cstddef>
#include <cstdint>

namespace kestrel {

/// The XXH64 hash of `size` bytes at `data` with `seed`; xxhash64 of no bytes with seed 0 is 0xEF46DB3751D8E999.
uint64_t xxhash64(const void* data, size_t size, uint64_t seed = 0);

}  // namespace kestrel
