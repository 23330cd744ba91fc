#pragma once
/// Shared fixture of the GPU tests: a device, a stream and a device memory pool. A GPU test binary run on a machine
/// without a usable GPU fails (it never skips): it only runs where a GPU is expected.

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "exec/context.hpp"
#include "gpu/device.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    auto device = gpu::usable_device(&reason);
    ASSERT_TRUE(device.has_value()) << "GPU tests need a usable GPU: " << reason;
    stream_ = std::make_unique<gpu::OwnedStream>();
    device_mr_ = std::make_unique<gpu::DevicePoolMemoryResource>(device->ordinal);
  }
  void TearDown() override {
    if (stream_) stream_->view().synchronize();
  }

  gpu::Stream stream() const { return stream_->view(); }
  gpu::DevicePoolMemoryResource& device_mr() { return *device_mr_; }

 private:
  std::unique_ptr<gpu::OwnedStream> stream_;
  std::unique_ptr<gpu::DevicePoolMemoryResource> device_mr_;
};

/// A GPU test that drives sinks as several pipeline drivers would: driver d works on its own stream.
class MultiDriverGpuTest : public GpuTest {
 protected:
  static constexpr size_t kDrivers = 3;

  void SetUp() override {
    GpuTest::SetUp();
    for (size_t d = 1; d < kDrivers; ++d) extra_streams_.push_back(std::make_unique<gpu::OwnedStream>());
  }

  /// Driver d's stream.
  gpu::Stream driver(size_t d) { return d == 0 ? stream() : extra_streams_[d - 1]->view(); }

  /// A context whose device memory is the test's pool.
  exec::ExecContext context() {
    exec::ExecContext ctx;
    ctx.device_mr = &device_mr();
    return ctx;
  }

 private:
  std::vector<std::unique_ptr<gpu::OwnedStream>> extra_streams_;
};

}  // namespace kestrel::testing
