#include <gtest/gtest.h>

#include "common/error.hpp"
#include "main/database.hpp"

namespace kestrel {
namespace {

TEST(GpuDeviceChoice, GpuIsChosenWhenUsable) {
  Database auto_db(DatabaseOptions{DeviceChoice::kAuto});
  EXPECT_EQ(auto_db.effective_device(), DeviceChoice::kGpu);
  Database gpu_db(DatabaseOptions{DeviceChoice::kGpu});
  EXPECT_EQ(gpu_db.effective_device(), DeviceChoice::kGpu);
  EXPECT_NE(gpu_db.device_note().find("using"), std::string::npos);
}

TEST(GpuDeviceChoice, FallbackOffRefusesOperatorsWithoutGpuImplementation) {
  DatabaseOptions strict{DeviceChoice::kGpu};
  strict.gpu_fallback = false;
  Database db(strict);
  Connection conn(db);
  conn.query("CREATE TABLE g(k INTEGER, v INTEGER, s VARCHAR)");
  // regexp_like() has no GPU implementation: refused with fallback off; an aggregation runs.
  EXPECT_THROW(conn.query("SELECT regexp_like(s, 'a+') FROM g"), NotImplemented);
  EXPECT_EQ(conn.query("SELECT k, sum(v) FROM g GROUP BY k").row_count(), 0u);

  DatabaseOptions lenient{DeviceChoice::kGpu};
  Database db2(lenient);
  Connection conn2(db2);
  QueryResult r = conn2.query("SELECT 1 + 2 AS x");
  ASSERT_EQ(r.row_count(), 1u);
  EXPECT_EQ(r.value(0, 0).to_string(), "3");
}

}  // namespace
}  // namespace kestrel
