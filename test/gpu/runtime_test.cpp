#include <cstring>
#include <vector>

#include "common/error.hpp"
#include "gpu/bitmap.hpp"
#include "gpu/copy.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/pull_copy.hpp"
#include "gpu_test_env.hpp"

namespace kestrel::testing {
namespace {

TEST(GpuDevice, FindsAUsableDevice) {
  std::string reason;
  auto device = gpu::usable_device(&reason);
  ASSERT_TRUE(device.has_value()) << reason;
  EXPECT_GE(device->compute_major, 7);
  EXPECT_GT(device->total_memory, size_t{1} << 30);
  EXPECT_TRUE(device->memory_pools);
  std::printf("device: %s, %zu MiB, %d SMs, sm_%d%d\n", device->name.c_str(), device->total_memory >> 20,
              device->multiprocessors, device->compute_major, device->compute_minor);
}

using GpuMemory = GpuTest;

TEST_F(GpuMemory, AllocatesAndFreesThroughThePool) {
  auto& mr = device_mr();
  size_t before = mr.allocated_bytes();
  void* a = mr.allocate(1 << 20, stream());
  void* b = mr.allocate(3 << 20, stream());
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(mr.allocated_bytes(), before + (4 << 20));
  EXPECT_GE(mr.peak_bytes(), size_t{4} << 20);
  // Write and read back through the memory to prove it is real device memory.
  std::vector<int32_t> host(1 << 18), back(1 << 18, 0);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int32_t>(i * 7 + 1);
  gpu::copy_bytes(a, gpu::MemoryKind::kDevice, host.data(), gpu::MemoryKind::kHost, 1 << 20, stream());
  gpu::copy_bytes(back.data(), gpu::MemoryKind::kHost, a, gpu::MemoryKind::kDevice, 1 << 20, stream());
  EXPECT_EQ(host, back);
  mr.deallocate(a, 1 << 20, stream());
  mr.deallocate(b, 3 << 20, stream());
  EXPECT_EQ(mr.allocated_bytes(), before);
}

TEST(GpuMemoryBudget, ExceedingTheBudgetIsResourceExhausted) {
  gpu::OwnedStream stream;
  gpu::DevicePoolMemoryResource mr(0, 8 << 20);
  void* a = mr.allocate(6 << 20, stream);
  EXPECT_THROW(mr.allocate(4 << 20, stream), ResourceExhausted);
  mr.deallocate(a, 6 << 20, stream);
  void* b = mr.allocate(4 << 20, stream);
  mr.deallocate(b, 4 << 20, stream);
  stream.view().synchronize();
}

TEST_F(GpuMemory, DefaultStreamIsRejected) {
  EXPECT_THROW(device_mr().allocate(64, gpu::Stream::host()), InternalError);
  std::vector<char> host(64);
  void* dev = device_mr().allocate(64, stream());
  EXPECT_THROW(gpu::copy_bytes(dev, gpu::MemoryKind::kDevice, host.data(), gpu::MemoryKind::kHost, 64,
                               gpu::Stream::host()),
               InternalError);
  EXPECT_THROW(gpu::fill_bytes(dev, gpu::MemoryKind::kDevice, 0, 64, gpu::Stream::host()), InternalError);
  device_mr().deallocate(dev, 64, stream());
}

TEST_F(GpuMemory, CountsSetBitsOnTheDevice) {
  for (size_t bits : {size_t{1}, size_t{31}, size_t{32}, size_t{33}, size_t{1000}, size_t{1} << 22}) {
    std::vector<uint8_t> bitmap((bits + 7) / 8);
    uint32_t x = 12345;
    size_t expected = 0;
    for (size_t i = 0; i < bits; ++i) {
      x = x * 1103515245 + 12345;
      if ((x >> 16) & 1) {
        bitmap[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
        ++expected;
      }
    }
    // Garbage past the last bit must not be counted.
    if (bits % 8 != 0) bitmap.back() |= static_cast<uint8_t>(0xffu << (bits % 8));
    void* dev = device_mr().allocate(bitmap.size(), stream());
    gpu::copy_bytes(dev, gpu::MemoryKind::kDevice, bitmap.data(), gpu::MemoryKind::kHost, bitmap.size(), stream());
    EXPECT_EQ(gpu::count_set_bits(static_cast<uint8_t*>(dev), bits, stream(), device_mr()), expected) << bits;
    device_mr().deallocate(dev, bitmap.size(), stream());
  }
}

TEST_F(GpuMemory, PullsPinnedBytesWithAKernelAtAnyAlignment) {
  // Sizes around the 16-byte word and the block, offsets that misalign either side; the bytes past the copy stay.
  for (size_t bytes : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{4095}, size_t{1} << 20, (size_t{3} << 20) + 5}) {
    for (size_t src_off : {size_t{0}, size_t{3}, size_t{16}}) {
      for (size_t dst_off : {size_t{0}, size_t{7}}) {
        gpu::PinnedBlock pinned = gpu::acquire_pinned(bytes + 64);
        for (size_t i = 0; i < bytes + 64; ++i) pinned.data()[i] = static_cast<uint8_t>(i * 131 + (i >> 9) + bytes);
        const size_t total = bytes + 64;
        std::vector<uint8_t> fill(total, 0xA5), back(total);
        void* dev = device_mr().allocate(total, stream());
        gpu::copy_bytes(dev, gpu::MemoryKind::kDevice, fill.data(), gpu::MemoryKind::kHost, total, stream());
        gpu::pull_pinned_to_device(static_cast<uint8_t*>(dev) + dst_off, pinned.data() + src_off, bytes, stream());
        gpu::copy_bytes(back.data(), gpu::MemoryKind::kHost, dev, gpu::MemoryKind::kDevice, total, stream());
        device_mr().deallocate(dev, total, stream());
        ASSERT_EQ(std::memcmp(back.data() + dst_off, pinned.data() + src_off, bytes), 0)
            << bytes << " " << src_off << " " << dst_off;
        for (size_t i = 0; i < dst_off; ++i) ASSERT_EQ(back[i], 0xA5);
        for (size_t i = dst_off + bytes; i < total; ++i) ASSERT_EQ(back[i], 0xA5) << bytes << " at " << i;
      }
    }
  }
}

TEST_F(GpuMemory, StagedCopiesSpanManyChunks) {
  // Larger than the staging ring (3 x 8 MiB) so chunks are reused while copies are in flight.
  size_t n = (40u << 20) + 13;
  std::vector<uint8_t> host(n), back(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<uint8_t>(i * 131 + (i >> 20));
  void* dev = device_mr().allocate(n, stream());
  gpu::copy_bytes(dev, gpu::MemoryKind::kDevice, host.data(), gpu::MemoryKind::kHost, n, stream());
  gpu::copy_bytes(back.data(), gpu::MemoryKind::kHost, dev, gpu::MemoryKind::kDevice, n, stream());
  EXPECT_EQ(std::memcmp(host.data(), back.data(), n), 0);
  device_mr().deallocate(dev, n, stream());
}

}  // namespace
}  // namespace kestrel::testing
