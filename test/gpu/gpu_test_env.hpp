#pragma once
/// Shared fixture of the GPU tests: a device, a stream and a device memory pool. A GPU test binary run on a machine
/// without a usable GPU fails (it never skips): it only runs where a GPU is expected.

#include <gtest/gtest.h>

#include <memory>

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

}  // namespace kestrel::testing
