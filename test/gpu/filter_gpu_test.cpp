// Differential tests of FilterGpu: the same generated batches (every type, NULLs, a dictionary column) filtered by
// FilterCpu on the host and by FilterGpu on their device copy must give the same rows, values and NULLs.

#include <gtest/gtest.h>

#include "exec/expr/evaluate_gpu_support.hpp"
#include "exec/ops/filter/filter.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "bool_exprs.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "gpu/copy.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using plan::ExprKind;
using plan::ExprPtr;
using plan::ScalarFunction;

using bool_exprs::col;
using bool_exprs::fn;
using bool_exprs::lit;
using bool_exprs::node;

class FilterGpuTest : public GpuTest {
 protected:
  /// The predicates every batch is filtered by (built against `b`'s schema).
  std::vector<ExprPtr> predicates(const Batch& b) {
    ExprPtr i = col(b, "INTEGER_nulls");
    return {
        fn(ScalarFunction::kGreater, {i, lit(Value::integer(0))}),
        // All false: no row is both NULL and not NULL.
        node(ExprKind::kAnd, {node(ExprKind::kIsNull, {i}), node(ExprKind::kIsNotNull, {i})}),
        // All true.
        lit(Value::boolean(true)),
        col(b, "BOOLEAN_nulls"),
        node(ExprKind::kOr, {fn(ScalarFunction::kEqual, {col(b, "dict"), lit(Value::varchar("AIR"))}),
                             node(ExprKind::kIsNull, {col(b, "dict")})}),
        fn(ScalarFunction::kLike, {col(b, "VARCHAR_nulls"), lit(Value::varchar("%a%"))}),
        fn(ScalarFunction::kLess, {col(b, "DOUBLE"), lit(Value::double_value(0.0))}),
    };
  }

  /// Every value and NULL of `got` (a device batch) equals `want`'s (a host batch).
  void expect_equal_batches(const Batch& got_device, const Batch& want, const std::string& what) {
    Batch got = copy_batch(got_device, gpu::host_memory_resource(), stream());
    ASSERT_EQ(got.num_rows(), want.num_rows()) << what;
    ASSERT_EQ(got.num_columns(), want.num_columns()) << what;
    for (size_t c = 0; c < want.num_columns(); ++c) {
      const Column& w = *want.column(c);
      const Column& g = *got.column(c);
      ASSERT_EQ(g.type(), w.type());
      EXPECT_EQ(g.null_count(), w.null_count()) << what << " column " << c;
      for (size_t r = 0; r < w.length(); ++r) {
        ASSERT_EQ(g.value_at(r), w.value_at(r)) << what << " column " << want.schema()->field(c).name << " row " << r;
      }
    }
  }

  void expect_same(const plan::Expr& predicate, const Batch& host, const Batch& device) {
    ASSERT_TRUE(exec::can_evaluate_gpu(predicate)) << predicate.to_string();
    exec::ExecContext ctx;
    ctx.device_mr = &device_mr();
    std::vector<Batch> cpu_out, gpu_out;
    exec::FilterCpu(std::make_shared<plan::Expr>(predicate)).execute(host, ctx, cpu_out);
    exec::FilterGpu(std::make_shared<plan::Expr>(predicate)).execute(device, ctx, gpu_out);
    ASSERT_EQ(cpu_out.size(), gpu_out.size()) << predicate.to_string() << " rows " << host.num_rows();
    if (cpu_out.empty()) return;
    const Batch& cpu = cpu_out[0];
    ASSERT_TRUE(gpu_out[0].on_device());
    Batch back = copy_batch(gpu_out[0], gpu::host_memory_resource(), stream());
    ASSERT_EQ(back.num_rows(), cpu.num_rows()) << predicate.to_string();
    ASSERT_EQ(back.num_columns(), cpu.num_columns());
    for (size_t c = 0; c < cpu.num_columns(); ++c) {
      const Column& want = *cpu.column(c);
      const Column& got = *back.column(c);
      ASSERT_EQ(got.type(), want.type());
      ASSERT_EQ(got.length(), want.length());
      EXPECT_EQ(got.null_count(), want.null_count()) << predicate.to_string() << " column " << c;
      EXPECT_EQ(got.is_dictionary(), want.is_dictionary());
      for (size_t r = 0; r < want.length(); ++r) {
        ASSERT_EQ(got.value_at(r), want.value_at(r))
            << predicate.to_string() << " column " << cpu.schema()->field(c).name << " row " << r << ": "
            << got.value_at(r).to_string() << " vs " << want.value_at(r).to_string();
      }
    }
  }
};

TEST_F(FilterGpuTest, MatchesFilterCpuOnAllTypes) {
  for (size_t rows : {size_t{0}, size_t{1}, size_t{31}, size_t{33}, size_t{1000}, size_t{5000}}) {
    Batch host = make_all_types_batch(rows, 42 + rows);
    Batch device = copy_batch(host, device_mr(), stream());
    for (const ExprPtr& p : predicates(host)) expect_same(*p, host, device);
  }
}

TEST_F(FilterGpuTest, AllFalseGivesNoBatchAndAllTrueGivesTheInput) {
  Batch host = make_all_types_batch(100, 7);
  Batch device = copy_batch(host, device_mr(), stream());
  exec::ExecContext ctx;
  ctx.device_mr = &device_mr();
  std::vector<Batch> out;
  exec::FilterGpu(lit(Value::boolean(false))).execute(device, ctx, out);
  EXPECT_TRUE(out.empty());
  exec::FilterGpu(lit(Value::null(TypeId::kBoolean))).execute(device, ctx, out);
  EXPECT_TRUE(out.empty());
  exec::FilterGpu(lit(Value::boolean(true))).execute(device, ctx, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].num_rows(), 100u);
  EXPECT_EQ(out[0].column(0), device.column(0));
}

TEST_F(FilterGpuTest, EmptyBatchPassesThrough) {
  Batch host = make_all_types_batch(0, 1);
  Batch device = copy_batch(host, device_mr(), stream());
  Batch result = exec::apply_filter_gpu(*lit(Value::boolean(true)), device, stream(), device_mr());
  EXPECT_EQ(result.num_rows(), 0u);
}

// Several batches gathered together (one fused launch per step, one read back) give what the host gather gives
// each: rows repeated and out of order, no rows, more columns than one launch takes.
TEST_F(FilterGpuTest, GatherBatchesMatchesHostGather) {
  Batch wide = make_all_types_batch(1000, 5);
  Batch narrow = make_all_types_batch(40, 6);
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  for (int copy = 0; copy < 3; ++copy) {  // over 32 columns with NULLs and strings: several launches
    for (size_t c = 0; c < narrow.num_columns(); ++c) {
      fields.push_back(Field{narrow.schema()->field(c).name + std::to_string(copy), narrow.schema()->field(c).type});
      columns.push_back(narrow.column(c));
    }
  }
  Batch tripled(std::make_shared<Schema>(std::move(fields)), std::move(columns), narrow.num_rows(),
                gpu::MemoryKind::kHost);
  std::vector<Batch> hosts = {wide, narrow, tripled};
  std::vector<RowIndices> picks(3);
  uint32_t x = 12345;
  for (int k = 0; k < 700; ++k) picks[0].push_back((x = x * 1103515245u + 12345u) % 1000);
  for (uint32_t r = 40; r-- > 0;) picks[2].push_back(r % 7 == 0 ? 3 : r);  // reversed, with repeats
  // picks[1] stays empty: a request of no rows.
  std::vector<Batch> devices;
  std::vector<BufferPtr> index_buffers;
  std::vector<exec::GatherRequest> requests;
  for (size_t i = 0; i < hosts.size(); ++i) {
    devices.push_back(copy_batch(hosts[i], device_mr(), stream()));
    index_buffers.push_back(Buffer::allocate(std::max<size_t>(picks[i].size(), 1) * 4, device_mr(), stream()));
    gpu::copy_bytes(index_buffers[i]->data(), gpu::MemoryKind::kDevice, picks[i].data(), gpu::MemoryKind::kHost,
                    picks[i].size() * 4, stream());
  }
  for (size_t i = 0; i < hosts.size(); ++i) {
    requests.push_back(exec::GatherRequest{&devices[i], index_buffers[i]->as<uint32_t>(), picks[i].size()});
  }
  std::vector<Batch> got = exec::gather_batches_gpu(requests, stream(), device_mr());
  ASSERT_EQ(got.size(), hosts.size());
  for (size_t i = 0; i < hosts.size(); ++i) {
    expect_equal_batches(got[i], gather_batch(hosts[i], picks[i]), "request " + std::to_string(i));
  }
}

}  // namespace
}  // namespace kestrel::testing
