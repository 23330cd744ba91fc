// The cache of small device blocks (gpu/small_block_cache.hpp) is host bookkeeping: it is tested here with made-up
// block addresses and stream handles, which it never dereferences.
#include "gpu/small_block_cache.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

namespace kestrel::gpu::detail {
namespace {

CUstream_st* stream(uintptr_t n) { return reinterpret_cast<CUstream_st*>(n * 64); }
void* block(uintptr_t n) { return reinterpret_cast<void*>(n * 4096); }

TEST(SmallBlockCache, SizesRoundUpToPowersOfTwo) {
  EXPECT_EQ(small_block_bytes(0), kSmallBlockMin);
  EXPECT_EQ(small_block_bytes(1), kSmallBlockMin);
  EXPECT_EQ(small_block_bytes(kSmallBlockMin + 1), 2 * kSmallBlockMin);
  EXPECT_EQ(small_block_bytes(5000), size_t{8192});
  EXPECT_EQ(small_block_bytes(kSmallBlockMax), kSmallBlockMax);
}

TEST(SmallBlockCache, ABlockIsReusedOnItsStreamUntilTheDeviceSettles) {
  int owner = 0;
  EXPECT_EQ(take_small_block(&owner, 100, stream(1)), nullptr);  // nothing cached yet
  ASSERT_TRUE(keep_small_block(&owner, block(1), 100, stream(1)));
  // Another stream must not get it: work queued on stream 1 may still use it.
  EXPECT_EQ(take_small_block(&owner, 100, stream(2)), nullptr);
  // A request of another size class does not get it either.
  EXPECT_EQ(take_small_block(&owner, 1000, stream(1)), nullptr);
  // The same class (200 bytes round to 256 as 100 does) on its stream does.
  EXPECT_EQ(take_small_block(&owner, 200, stream(1)), block(1));
  EXPECT_EQ(take_small_block(&owner, 200, stream(1)), nullptr);
  ASSERT_TRUE(keep_small_block(&owner, block(2), 100, stream(1)));
  settle_small_blocks();
  EXPECT_EQ(take_small_block(&owner, 100, stream(2)), block(2));
  std::vector<void*> freed;
  static std::vector<void*>* sink = nullptr;
  sink = &freed;
  drop_small_blocks(&owner, [](void* p) { sink->push_back(p); });
  EXPECT_TRUE(freed.empty());
}

TEST(SmallBlockCache, OwnersAreSeparateAndDroppingFreesEverything) {
  int a = 0, b = 0;
  ASSERT_TRUE(keep_small_block(&a, block(10), 300, stream(1)));
  ASSERT_TRUE(keep_small_block(&a, block(11), 60000, stream(2)));
  settle_small_blocks();
  ASSERT_TRUE(keep_small_block(&a, block(12), 300, stream(3)));
  EXPECT_EQ(take_small_block(&b, 300, stream(1)), nullptr);
  static std::set<void*> freed;
  freed.clear();
  drop_small_blocks(&a, [](void* p) { freed.insert(p); });
  EXPECT_EQ(freed, (std::set<void*>{block(10), block(11), block(12)}));
  EXPECT_EQ(take_small_block(&a, 300, stream(1)), nullptr);
}

TEST(SmallBlockCache, AFullCacheRefusesBlocks) {
  int owner = 0;
  size_t kept = 0;
  for (uintptr_t i = 1; keep_small_block(&owner, block(i), kSmallBlockMax, stream(1)); ++i) kept += kSmallBlockMax;
  EXPECT_EQ(kept, kSmallBlockCacheBytes);
  drop_small_blocks(&owner, [](void*) {});
}

}  // namespace
}  // namespace kestrel::gpu::detail
