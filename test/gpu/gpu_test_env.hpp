#pragma once
/// Shared fixture of the GPU tests: a device, a stream and a device memory pool. A GPU test binary run on a machine
/// without a usable GPU fails (it never skips): it only runs where a GPU is expected.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "exec/context.hpp"
#include "exec/pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/transfer.hpp"

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

  /// Feeds batch j (with its place `morsel[j]`, `sequence[j]` in the input order) to driver j % kDrivers (copied to
  /// the device on that driver's stream when `device`), then combines and finalizes. Like the scheduler (drivers
  /// claim morsels in increasing order), each driver sees its batches in increasing (morsel, sequence) order; the
  /// drivers' shares interleave at random.
  void drive(exec::Sink& sink, const std::vector<Batch>& batches, const std::vector<size_t>& morsel,
             const std::vector<size_t>& sequence, bool device) {
    exec::ExecContext ctx = context();
    std::vector<std::unique_ptr<exec::Sink::LocalState>> locals;
    for (size_t d = 0; d < kDrivers; ++d) locals.push_back(sink.make_local_state(ctx));
    std::vector<size_t> order(batches.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::pair(morsel[a], sequence[a]) < std::pair(morsel[b], sequence[b]);
    });
    for (size_t j : order) {
      const size_t d = j % kDrivers;
      Batch batch = device ? copy_batch(batches[j], device_mr(), driver(d)) : batches[j];
      sink.consume(*locals[d], morsel[j], sequence[j], std::move(batch), ctx);
    }
    for (auto& l : locals) sink.combine(*l, ctx);
    sink.finalize(ctx);
  }

 private:
  std::vector<std::unique_ptr<gpu::OwnedStream>> extra_streams_;
};

}  // namespace kestrel::testing
