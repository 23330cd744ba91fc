// Differential tests of FilterGpu: the same generated batches (every type, NULLs, a dictionary column) filtered by
// FilterCpu on the host and by FilterGpu on their device copy must give the same rows, values and NULLs.

#include <gtest/gtest.h>

#include "exec/expr/evaluate_gpu_support.hpp"
#include "exec/ops/filter/filter.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "bool_exprs.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
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

}  // namespace
}  // namespace kestrel::testing
