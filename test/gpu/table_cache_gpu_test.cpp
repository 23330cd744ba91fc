// The GPU table cache across queries: LRU eviction under the budget, columns evicted while the running query holds
// them stay readable, and retired columns are released at the next query or swept once no batch holds them.

#include <vector>

#include "catalog/table.hpp"
#include "exec/ops/scan/device_table_cache.hpp"
#include "gpu/device.hpp"
#include "gpu_test_env.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

constexpr size_t kMorsels = 6;
constexpr size_t kRows = 1000;

class GpuTableCache : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    schema_ = std::make_shared<const Schema>(std::vector<Field>{{"v", TypeId::kBigInt}});
    table_ = std::make_shared<catalog::MemoryTable>("t", schema_);
    for (size_t m = 0; m < kMorsels; ++m) {
      std::vector<Value> values;
      for (size_t r = 0; r < kRows; ++r) values.push_back(Value::bigint(static_cast<int64_t>(m * 100000 + r)));
      table_->append(Batch(schema_, {Column::from_values(TypeId::kBigInt, values)}, kRows, gpu::MemoryKind::kHost));
    }
  }

  Batch read(exec::DeviceTableCache& cache, size_t morsel) {
    return cache.read(table_, {morsel}, catalog::ScanSpec{{0}, {}}, schema_, stream(), exec::GpuScanRead{});
  }

  // The device batch holds morsel `morsel`'s values.
  void expect_morsel(const Batch& device, size_t morsel) {
    Batch host = copy_batch(device, gpu::host_memory_resource(), stream());
    ASSERT_EQ(host.num_rows(), kRows);
    for (size_t r = 0; r < kRows; r += 97) {
      EXPECT_EQ(host.column(0)->value_at(r).as_int64(), static_cast<int64_t>(morsel * 100000 + r)) << "row " << r;
    }
  }

  /// Bytes one cached column of one morsel takes.
  size_t column_bytes() {
    exec::DeviceTableCache probe(device_mr(), size_t{1} << 30);
    probe.begin_query();
    read(probe, 0);
    return probe.stats().bytes;
  }

  SchemaPtr schema_;
  std::shared_ptr<catalog::MemoryTable> table_;
};

TEST_F(GpuTableCache, ColumnsEvictedWhileHeldStayReadableUntilTheNextQuery) {
  const size_t bytes = column_bytes();
  ASSERT_GT(bytes, 0u);
  // Room for two morsels' columns; retired columns are swept past half the budget (one column).
  exec::DeviceTableCache cache(device_mr(), 2 * bytes);
  cache.begin_query();
  Batch held = read(cache, 0);
  read(cache, 1);
  EXPECT_EQ(cache.stats().evictions, 0u);
  read(cache, 2);  // evicts morsel 0, read by this query: retired, not freed
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_EQ(cache.stats().retired_bytes, bytes);
  read(cache, 3);  // evicts morsel 1 (no batch holds it): past half the budget, the sweep frees it
  EXPECT_EQ(cache.stats().evictions, 2u);
  EXPECT_EQ(cache.stats().retired_bytes, bytes) << "only the held column stays retired";
  expect_morsel(held, 0);
  // Served from the cache: morsel 3's column is an entry.
  const uint64_t misses = cache.stats().misses;
  expect_morsel(read(cache, 3), 3);
  EXPECT_EQ(cache.stats().misses, misses);

  gpu::synchronize_device();
  cache.begin_query();
  EXPECT_EQ(cache.stats().retired_bytes, 0u);
  expect_morsel(held, 0);  // the batch still owns its column
  expect_morsel(read(cache, 0), 0);
  EXPECT_EQ(cache.stats().misses, misses + 1) << "morsel 0 was evicted, so it is read again";
}

TEST_F(GpuTableCache, ColumnsOfEarlierQueriesAreFreedAtOnce) {
  const size_t bytes = column_bytes();
  exec::DeviceTableCache cache(device_mr(), 2 * bytes);
  cache.begin_query();
  read(cache, 0);
  read(cache, 1);
  gpu::synchronize_device();
  cache.begin_query();
  read(cache, 2);
  read(cache, 3);  // evicts morsels 0 and 1, last read by the previous query
  EXPECT_EQ(cache.stats().evictions, 2u);
  EXPECT_EQ(cache.stats().retired_bytes, 0u);
  EXPECT_EQ(cache.stats().entries, 2u);
}

}  // namespace
}  // namespace kestrel::testing
