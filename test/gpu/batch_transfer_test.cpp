#include <cstring>
#include <random>

#include "exec/context.hpp"
#include "exec/ops/transfer/transfer.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

void expect_same_buffer(const BufferPtr& a, const BufferPtr& b, const std::string& what) {
  ASSERT_EQ(a == nullptr, b == nullptr) << what;
  if (!a) return;
  ASSERT_EQ(a->size(), b->size()) << what;
  EXPECT_EQ(std::memcmp(a->data(), b->data(), a->size()), 0) << what << " differs";
}

void expect_same_column(const Column& a, const Column& b, const std::string& what) {
  EXPECT_EQ(a.type(), b.type()) << what;
  EXPECT_EQ(a.encoding(), b.encoding()) << what;
  EXPECT_EQ(a.length(), b.length()) << what;
  EXPECT_EQ(a.null_count(), b.null_count()) << what;
  expect_same_buffer(a.validity(), b.validity(), what + " validity");
  expect_same_buffer(a.values(), b.values(), what + " values");
  expect_same_buffer(a.offsets(), b.offsets(), what + " offsets");
  ASSERT_EQ(a.dictionary() == nullptr, b.dictionary() == nullptr) << what;
  if (a.dictionary()) expect_same_column(*a.dictionary(), *b.dictionary(), what + " dictionary");
}

void round_trip(const Batch& host, gpu::MemoryResource& device_mr, gpu::Stream stream) {
  Batch device = copy_batch(host, device_mr, stream);
  ASSERT_TRUE(device.on_device());
  EXPECT_EQ(device.stream(), stream);
  for (const auto& column : device.columns()) EXPECT_TRUE(column->on_device());
  Batch back = copy_batch(device, gpu::host_memory_resource(), stream);
  ASSERT_FALSE(back.on_device());
  ASSERT_EQ(back.num_rows(), host.num_rows());
  for (size_t c = 0; c < host.num_columns(); ++c) {
    expect_same_column(*host.column(c), *back.column(c), host.schema()->field(c).name);
  }
}

using GpuBatchTransfer = GpuTest;

TEST_F(GpuBatchTransfer, EveryTypeRoundTripsByteIdentical) {
  for (size_t rows : {size_t{0}, size_t{1}, size_t{7}, size_t{1000}, size_t{100003}}) {
    Batch host = make_all_types_batch(rows, /*seed=*/rows + 1);
    round_trip(host, device_mr(), stream());
  }
}

TEST_F(GpuBatchTransfer, PinnedSourceRoundTrips) {
  gpu::PinnedMemoryResource pinned;
  Batch host = make_all_types_batch(5000, 99);
  Batch staged = copy_batch(host, pinned, stream());
  EXPECT_EQ(staged.residency(), gpu::MemoryKind::kPinnedHost);
  Batch device = copy_batch(staged, device_mr(), stream());
  Batch back = copy_batch(device, gpu::host_memory_resource(), stream());
  for (size_t c = 0; c < host.num_columns(); ++c) {
    expect_same_column(*host.column(c), *back.column(c), host.schema()->field(c).name);
  }
}

TEST_F(GpuBatchTransfer, LargeStringColumnCrossesStagingChunks) {
  std::vector<Value> values;
  std::mt19937 rng(7);
  for (int i = 0; i < 300000; ++i) {
    values.push_back(i % 97 == 0 ? Value::null(TypeId::kVarchar)
                                 : Value::varchar(std::string(20 + rng() % 100, static_cast<char>('a' + i % 26))));
  }
  auto column = Column::from_values(TypeId::kVarchar, values);
  ASSERT_GT(column->byte_size(), size_t{16} << 20);
  Batch host(std::make_shared<Schema>(std::vector<Field>{{"s", TypeId::kVarchar}}), {column}, values.size(),
             gpu::MemoryKind::kHost);
  round_trip(host, device_mr(), stream());
}

// A few rows that reference a big dictionary come back decoded (only their strings cross the bus); a column whose
// dictionary is smaller than its rows comes back dictionary-encoded. Both read the same strings.
TEST_F(GpuBatchTransfer, ToHostDecodesBigDictionariesOfFewRows) {
  std::vector<Value> entries;
  for (int i = 0; i < 10000; ++i) entries.push_back(Value::varchar("entry-" + std::to_string(i)));
  auto big = Column::from_values(TypeId::kVarchar, entries);
  auto small = Column::from_values(TypeId::kVarchar, {Value::varchar("x"), Value::varchar("yy")});
  const std::vector<Value> big_rows = {Value::integer(9999), Value::null(TypeId::kInteger), Value::integer(17)};
  const std::vector<Value> small_rows = {Value::integer(1), Value::integer(0), Value::null(TypeId::kInteger)};
  auto big_index = Column::from_values(TypeId::kInteger, big_rows);
  auto small_index = Column::from_values(TypeId::kInteger, small_rows);
  std::vector<ColumnPtr> columns = {
      Column::make_dictionary(TypeId::kVarchar, 3, big_index->values(), big_index->validity(), 1, big),
      Column::make_dictionary(TypeId::kVarchar, 3, small_index->values(), small_index->validity(), 1, small)};
  Batch host(std::make_shared<Schema>(std::vector<Field>{{"big", TypeId::kVarchar}, {"small", TypeId::kVarchar}}),
             columns, 3, gpu::MemoryKind::kHost);
  Batch device = copy_batch(host, device_mr(), stream());
  exec::ExecContext ctx;
  ctx.device_mr = &device_mr();
  std::vector<Batch> out;
  exec::ToHostGpu().execute(device, ctx, out);
  ASSERT_EQ(out.size(), 1u);
  const Batch& back = out[0];
  ASSERT_FALSE(back.on_device());
  ASSERT_EQ(back.num_rows(), 3u);
  EXPECT_FALSE(back.column(0)->is_dictionary());
  EXPECT_TRUE(back.column(1)->is_dictionary());
  for (size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(back.column(c)->null_count(), 1u);
    for (size_t r = 0; r < 3; ++r) {
      EXPECT_EQ(back.column(c)->value_at(r).to_string(), host.column(c)->value_at(r).to_string())
          << "column " << c << " row " << r;
    }
  }
}

}  // namespace
}  // namespace kestrel::testing
