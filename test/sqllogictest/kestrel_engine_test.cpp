#include "kestrel_engine.hpp"

#include <gtest/gtest.h>

namespace kestrel::slt {
namespace {

TEST(KestrelEngine, ModesMapToDatabaseOptions) {
  EXPECT_EQ(parse_run_mode("cpu"), RunMode::kCpu);
  EXPECT_EQ(parse_run_mode("gpu"), RunMode::kGpu);
  EXPECT_EQ(parse_run_mode("gpu-fallback"), RunMode::kGpuFallback);
  EXPECT_FALSE(parse_run_mode("auto").has_value());
  EXPECT_STREQ(run_mode_name(RunMode::kGpuFallback), "gpu-fallback");

  DatabaseOptions cpu = database_options(RunMode::kCpu);
  EXPECT_EQ(cpu.device, DeviceChoice::kCpu);
  DatabaseOptions gpu = database_options(RunMode::kGpu);
  EXPECT_EQ(gpu.device, DeviceChoice::kGpu);
  EXPECT_FALSE(gpu.gpu_fallback);
  DatabaseOptions fallback = database_options(RunMode::kGpuFallback);
  EXPECT_EQ(fallback.device, DeviceChoice::kGpu);
  EXPECT_TRUE(fallback.gpu_fallback);
}

TEST(KestrelEngine, ErrorsCarryTheirCategory) {
  KestrelEngine engine(database_options(RunMode::kCpu));
  // Whatever the engine supports, a misspelled keyword is an error with a category name.
  EngineResult result = engine.execute("SELEC 1");
  ASSERT_FALSE(result.ok);
  EXPECT_FALSE(result.error_category.empty());
  EXPECT_NE(result.error_message.find(result.error_category), std::string::npos) << result.error_message;
}

}  // namespace
}  // namespace kestrel::slt
