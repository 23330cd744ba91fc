// Differential tests of the GPU nested-loop join: the same generated probe and build sides joined by
// NestedLoopJoinProbe on the host and by NestedLoopJoinProbeGpu on their device copies must give the same rows, as
// multisets, for every join type, with a condition (NULL verdicts included) or as a cross product.

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "exec/ops/collect/collect.hpp"
#include "exec/ops/nested_loop_join/nested_loop_join.hpp"
#include "exec/ops/nested_loop_join/nested_loop_join_gpu.hpp"
#include "gpu_test_env.hpp"
#include "join_gpu_test_util.hpp"

namespace kestrel::testing {
namespace {

using plan::JoinType;

/// One join to run on both sides.
struct NestedLoopCase {
  JoinType type = JoinType::kInner;
  plan::ExprPtr condition = nullptr;
  bool null_aware = false;
  size_t step_pairs = 0;  ///< 0: the GPU default
};

class NestedLoopJoinGpuTest : public GpuTest {
 protected:
  SchemaPtr probe_schema_ = join_side_schema("p");
  SchemaPtr build_schema_ = join_side_schema("b");

  exec::JoinSpec spec(const NestedLoopCase& c, bool gpu) const {
    return join_spec(c.type, c.null_aware, c.condition, gpu);
  }

  std::shared_ptr<exec::BatchCollector> collect(const std::vector<Batch>& build, exec::ExecContext& ctx) {
    auto collector = std::make_shared<exec::BatchCollector>(build_schema_);
    auto local = collector->make_local_state(ctx);
    for (size_t i = 0; i < build.size(); ++i) collector->consume(*local, i, 0, build[i], ctx);
    collector->combine(*local, ctx);
    collector->finalize(ctx);
    return collector;
  }

  std::vector<Batch> run_cpu(const NestedLoopCase& c, const std::vector<Batch>& probe,
                             const std::vector<Batch>& build) {
    exec::ExecContext ctx;
    auto op = std::make_shared<exec::NestedLoopJoinProbe>(collect(build, ctx), probe_schema_, spec(c, false));
    op->prepare(ctx);
    std::vector<Batch> out;
    for (const auto& b : probe) op->execute(b, ctx, out);
    if (exec::emits_unmatched_build(c.type)) {
      exec::NestedLoopJoinUnmatchedSource source(op);
      for (size_t m = 0; m < source.morsel_count(); ++m) source.read(m, ctx, out);
    }
    return out;
  }

  std::vector<Batch> run_gpu(const NestedLoopCase& c, const std::vector<Batch>& probe,
                             const std::vector<Batch>& build) {
    exec::ExecContext ctx;
    ctx.device_mr = &device_mr();
    std::vector<Batch> device_probe = to_device(probe, device_mr(), stream());
    auto collector = collect(to_device(build, device_mr(), stream()), ctx);
    auto op = std::make_shared<exec::NestedLoopJoinProbeGpu>(collector, probe_schema_, spec(c, true));
    if (c.step_pairs != 0) op->set_step_pairs(c.step_pairs);
    op->prepare(ctx);
    std::vector<Batch> out;
    for (const auto& b : device_probe) op->execute(b, ctx, out);
    if (exec::emits_unmatched_build(c.type)) {
      exec::NestedLoopJoinUnmatchedSourceGpu source(op, 50);  // several morsels
      for (size_t m = 0; m < source.morsel_count(); ++m) source.read(m, ctx, out);
    }
    for (const auto& b : out) EXPECT_TRUE(b.on_device());
    return out;
  }

  void expect_same(const NestedLoopCase& c, const std::vector<Batch>& probe, const std::vector<Batch>& build,
                   const std::string& what) {
    expect_join_same(
        c, probe_schema_, build_schema_, what, [&] { return run_cpu(c, probe, build); },
        [&] { return run_gpu(c, probe, build); });
  }

  void expect_all_types(NestedLoopCase c, const std::vector<Batch>& probe, const std::vector<Batch>& build,
                        const std::string& what) {
    for (JoinType t : keyed_join_types()) {
      c.type = t;
      expect_same(c, probe, build, what);
    }
  }

  std::vector<Batch> side(JoinSideSpec s, const SchemaPtr& schema) { return make_join_side(s, schema); }
};

TEST_F(NestedLoopJoinGpuTest, ConditionAllJoinTypes) {
  auto probe = side({.rows = 300, .seed = 1}, probe_schema_);
  auto build = side({.rows = 200, .seed = 2}, build_schema_);
  expect_all_types({.condition = val_greater_condition()}, probe, build, "p.val > b.val");
  expect_all_types({.condition = val_greater_condition(), .step_pairs = 1000}, probe, build, "p.val > b.val, steps");
}

TEST_F(NestedLoopJoinGpuTest, CrossProduct) {
  auto probe = side({.rows = 300, .seed = 3}, probe_schema_);
  auto build = side({.rows = 200, .seed = 4}, build_schema_);
  expect_same({.type = JoinType::kCross}, probe, build, "cross");
  expect_same({.type = JoinType::kCross, .step_pairs = 4096}, probe, build, "cross, steps");
  expect_all_types({}, probe, build, "no condition");
  auto one = side({.rows = 1, .batches = 1, .seed = 5}, build_schema_);
  expect_all_types({}, probe, one, "no condition, one build row");
}

TEST_F(NestedLoopJoinGpuTest, EmptySides) {
  auto probe = side({.rows = 100, .seed = 6}, probe_schema_);
  auto build = side({.rows = 100, .seed = 7}, build_schema_);
  std::vector<Batch> none;
  expect_all_types({.condition = val_greater_condition()}, probe, none, "empty build");
  expect_all_types({.condition = val_greater_condition()}, none, build, "empty probe");
  expect_all_types({}, probe, none, "empty build, no condition");
  for (JoinType t : {JoinType::kAnti, JoinType::kMark}) {
    expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true}, probe, none, "empty build");
  }
}

TEST_F(NestedLoopJoinGpuTest, NullAwareAntiAndMark) {
  auto probe = side({.rows = 400, .null_percent = 20, .seed = 8}, probe_schema_);
  auto build = side({.rows = 150, .null_percent = 20, .seed = 9}, build_schema_);
  auto build_no_nulls = side({.rows = 150, .null_percent = 0, .seed = 10}, build_schema_);
  for (JoinType t : {JoinType::kAnti, JoinType::kMark}) {
    expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true}, probe, build, "NULLs both");
    expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true}, probe, build_no_nulls,
                "NULLs in probe only");
    expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true, .step_pairs = 333}, probe,
                build, "NULLs both, steps");
  }
}

TEST_F(NestedLoopJoinGpuTest, SingleJoinWithTwoMatchesFails) {
  auto probe = side({.rows = 50, .seed = 11}, probe_schema_);
  auto build = side({.rows = 50, .seed = 12}, build_schema_);
  EXPECT_THROW(run_cpu({.type = JoinType::kSingle}, probe, build), InvalidInput);
  EXPECT_THROW(run_gpu({.type = JoinType::kSingle}, probe, build), InvalidInput);
}

TEST_F(NestedLoopJoinGpuTest, LargerProbe) {
  auto probe = side({.rows = 100000, .batches = 2, .seed = 13}, probe_schema_);
  auto build = side({.rows = 10, .batches = 1, .seed = 14}, build_schema_);
  expect_all_types({.condition = val_greater_condition()}, probe, build, "100k x 10");
}

}  // namespace
}  // namespace kestrel::testing
