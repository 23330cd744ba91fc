#pragma once
/// Small device blocks that DevicePoolMemoryResource keeps for reuse instead of returning them to the CUDA pool.
/// A GPU query makes thousands of allocations of a few bytes to a few KiB (counters, offsets, temporary storage);
/// each cudaMallocFromPoolAsync / cudaFreeAsync pair cost 5 to 15 us of host time with several drivers, more than
/// most of the kernels the blocks serve. A block freed on a stream is reused on that stream (stream order makes that
/// safe, as for the pool's own reuse); after a device synchronization every cached block is free on every stream.

#include <cstddef>

struct CUstream_st;

namespace kestrel::gpu::detail {

/// Blocks up to this size are cached, rounded up to a power of two of at least kSmallBlockMin bytes.
inline constexpr size_t kSmallBlockMax = size_t{64} << 10;
inline constexpr size_t kSmallBlockMin = 256;
/// At most this many bytes wait in one owner's cache; frees past it go back to the pool.
inline constexpr size_t kSmallBlockCacheBytes = size_t{64} << 20;

/// The bytes a cached block of a request of `bytes` (at most kSmallBlockMax) takes.
size_t small_block_bytes(size_t bytes);

/// A block of small_block_bytes(bytes) bytes from `owner`'s cache that is free on `stream`, or nullptr.
void* take_small_block(const void* owner, size_t bytes, CUstream_st* stream);

/// Keeps the block `ptr` of small_block_bytes(bytes) bytes, freed on `stream`, in `owner`'s cache; false when the
/// cache is full (the caller frees it).
bool keep_small_block(const void* owner, void* ptr, size_t bytes, CUstream_st* stream);

/// Every stream's work is done: every cached block becomes free on every stream.
void settle_small_blocks();

/// Removes `owner`'s cache and returns its blocks through free_block(ptr) (the owner is going away).
void drop_small_blocks(const void* owner, void (*free_block)(void*));

}  // namespace kestrel::gpu::detail
