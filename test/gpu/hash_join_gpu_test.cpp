// Differential tests of the GPU hash join: the same generated probe and build sides (NULL keys, skew, multi-column
// and VARCHAR keys plain and dictionary-encoded) joined by HashJoinBuild/HashJoinProbe on the host and by
// HashJoinBuildGpu/HashJoinProbeGpu on their device copies must give the same rows, as multisets, for every join
// type, with and without a residual condition, null-aware or not.

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "exec/ops/hash_join/hash_join.hpp"
#include "exec/ops/hash_join/hash_join_gpu.hpp"
#include "gpu_test_env.hpp"
#include "join_gpu_test_util.hpp"

namespace kestrel::testing {
namespace {

using plan::JoinType;

/// One join to run on both sides.
struct HashJoinCase {
  JoinType type = JoinType::kInner;
  std::vector<size_t> keys{0};  ///< the same key columns on both sides
  plan::ExprPtr condition = nullptr;
  bool null_aware = false;
  size_t step_pairs = 0;  ///< 0: the GPU default
};

class HashJoinGpuTest : public GpuTest {
 protected:
  SchemaPtr probe_schema_ = join_side_schema("p");
  SchemaPtr build_schema_ = join_side_schema("b");

  exec::JoinSpec spec(const HashJoinCase& c, bool gpu) const {
    return join_spec(c.type, c.null_aware, c.condition, gpu);
  }

  std::vector<Batch> run_cpu(const HashJoinCase& c, const std::vector<Batch>& probe, const std::vector<Batch>& build) {
    exec::ExecContext ctx;
    auto sink = std::make_shared<exec::HashJoinBuild>(build_schema_, c.keys);
    auto local = sink->make_local_state(ctx);
    for (size_t i = 0; i < build.size(); ++i) sink->consume(*local, i, 0, build[i], ctx);
    sink->combine(*local, ctx);
    sink->finalize(ctx);
    auto op = std::make_shared<exec::HashJoinProbe>(sink, probe_schema_, c.keys, spec(c, false));
    op->prepare(ctx);
    std::vector<Batch> out;
    for (const auto& b : probe) op->execute(b, ctx, out);
    if (exec::emits_unmatched_build(c.type)) {
      exec::HashJoinUnmatchedSource source(op);
      for (size_t m = 0; m < source.morsel_count(); ++m) source.read(m, ctx, out);
    }
    return out;
  }

  std::vector<Batch> run_gpu(const HashJoinCase& c, const std::vector<Batch>& probe, const std::vector<Batch>& build) {
    exec::ExecContext ctx;
    ctx.device_mr = &device_mr();
    std::vector<Batch> device_probe = to_device(probe, device_mr(), stream());
    std::vector<Batch> device_build = to_device(build, device_mr(), stream());
    auto sink = std::make_shared<exec::HashJoinBuildGpu>(build_schema_, c.keys);
    auto local = sink->make_local_state(ctx);
    for (size_t i = 0; i < device_build.size(); ++i) sink->consume(*local, i, 0, device_build[i], ctx);
    sink->combine(*local, ctx);
    sink->finalize(ctx);
    auto op = std::make_shared<exec::HashJoinProbeGpu>(sink, probe_schema_, c.keys, spec(c, true));
    if (c.step_pairs != 0) op->set_step_pairs(c.step_pairs);
    op->prepare(ctx);
    std::vector<Batch> out;
    for (const auto& b : device_probe) op->execute(b, ctx, out);
    if (exec::emits_unmatched_build(c.type)) {
      exec::HashJoinUnmatchedSourceGpu source(op, 1000);  // several morsels
      for (size_t m = 0; m < source.morsel_count(); ++m) source.read(m, ctx, out);
    }
    for (const auto& b : out) EXPECT_TRUE(b.on_device());
    return out;
  }

  void expect_same(const HashJoinCase& c, const std::vector<Batch>& probe, const std::vector<Batch>& build,
                   const std::string& what) {
    expect_join_same(
        c, probe_schema_, build_schema_, what, [&] { return run_cpu(c, probe, build); },
        [&] { return run_gpu(c, probe, build); });
  }

  /// Every join type; single only when the build keys are unique (else both sides must fail, tested apart).
  void expect_all_types(HashJoinCase c, const std::vector<Batch>& probe, const std::vector<Batch>& build,
                        const std::string& what, bool with_single) {
    for (JoinType t : keyed_join_types()) {
      if (t == JoinType::kSingle && !with_single) continue;
      c.type = t;
      expect_same(c, probe, build, what);
    }
  }

  std::vector<Batch> side(JoinSideSpec s, const SchemaPtr& schema) { return make_join_side(s, schema); }
};

TEST_F(HashJoinGpuTest, SmallAllJoinTypes) {
  auto probe = side({.rows = 1000, .domain = 300, .seed = 1}, probe_schema_);
  auto build = side({.rows = 800, .domain = 300, .seed = 2}, build_schema_);
  expect_all_types({}, probe, build, "small", false);
  auto unique = side({.rows = 500, .unique = true, .seed = 3}, build_schema_);
  expect_same({.type = JoinType::kSingle}, probe, unique, "small unique build");
}

TEST_F(HashJoinGpuTest, EmptyBuild) {
  auto probe = side({.rows = 300, .domain = 50, .seed = 4}, probe_schema_);
  std::vector<Batch> build;
  expect_all_types({}, probe, build, "empty build", true);
  for (JoinType t : {JoinType::kAnti, JoinType::kMark}) {
    expect_same({.type = t, .null_aware = true}, probe, build, "empty build");
    expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true}, probe, build, "empty build");
  }
}

TEST_F(HashJoinGpuTest, EmptyProbe) {
  std::vector<Batch> probe;
  auto build = side({.rows = 300, .domain = 50, .seed = 5}, build_schema_);
  expect_all_types({}, probe, build, "empty probe", true);
  // A probe batch of zero rows.
  std::vector<ColumnPtr> columns;
  for (const auto& f : probe_schema_->fields()) columns.push_back(Column::from_values(f.type, {}));
  probe.push_back(Batch(probe_schema_, std::move(columns), 0, gpu::MemoryKind::kHost));
  expect_all_types({}, probe, build, "zero-row probe batch", true);
}

TEST_F(HashJoinGpuTest, OneRow) {
  auto probe = side({.rows = 1, .domain = 1, .null_percent = 0, .batches = 1, .seed = 6}, probe_schema_);
  auto build = side({.rows = 1, .domain = 1, .null_percent = 0, .batches = 1, .seed = 7}, build_schema_);
  expect_all_types({}, probe, build, "one row", true);
  auto other = side({.rows = 1, .domain = 1, .null_percent = 100, .batches = 1, .seed = 8}, build_schema_);
  expect_all_types({}, probe, other, "one row, NULL build key", true);
}

TEST_F(HashJoinGpuTest, SkewedKeyInSteps) {
  // Key 7: 10k build rows times 200 probe rows = 2M pairs, joined in steps of 2^19 pairs.
  auto probe = side({.rows = 2000, .domain = 100, .skew_rows = 200, .seed = 9}, probe_schema_);
  auto build = side({.rows = 1000, .domain = 100, .skew_rows = 10000, .seed = 10}, build_schema_);
  expect_all_types({.step_pairs = size_t{1} << 19}, probe, build, "skewed", false);
  expect_same({.type = JoinType::kInner, .condition = val_greater_condition(), .step_pairs = size_t{1} << 19}, probe,
              build, "skewed");
  expect_same({.type = JoinType::kFull, .condition = val_greater_condition()}, probe, build, "skewed");
}

TEST_F(HashJoinGpuTest, MultiColumnKeys) {
  auto probe = side({.rows = 2000, .domain = 60, .seed = 11}, probe_schema_);
  auto build = side({.rows = 1500, .domain = 60, .seed = 12}, build_schema_);
  expect_all_types({.keys = {0, 1}}, probe, build, "k1, k2", false);
  expect_all_types({.keys = {1, 0}, .condition = val_greater_condition()}, probe, build, "k2, k1", false);
}

TEST_F(HashJoinGpuTest, VarcharKeysPlainAndDictionary) {
  auto probe = side({.rows = 600, .seed = 13}, probe_schema_);
  auto build = side({.rows = 400, .dictionary = true, .seed = 14}, build_schema_);
  expect_all_types({.keys = {1}}, probe, build, "plain probe, dictionary build", false);
  auto dict_probe = side({.rows = 600, .dictionary = true, .seed = 15}, probe_schema_);
  expect_all_types({.keys = {1}}, dict_probe, build, "dictionary both", false);
  auto plain_build = side({.rows = 400, .seed = 16}, build_schema_);
  expect_all_types({.keys = {1}}, dict_probe, plain_build, "dictionary probe, plain build", false);
  // One dictionary batch on the build side keeps its encoding through the build's concatenation.
  auto one_batch = side({.rows = 400, .dictionary = true, .batches = 1, .seed = 17}, build_schema_);
  expect_all_types({.keys = {1, 0}}, probe, one_batch, "plain probe, one dictionary build batch", false);
}

TEST_F(HashJoinGpuTest, ResidualCondition) {
  auto probe = side({.rows = 1500, .domain = 200, .seed = 18}, probe_schema_);
  auto build = side({.rows = 1200, .domain = 200, .seed = 19}, build_schema_);
  expect_all_types({.condition = val_greater_condition()}, probe, build, "condition", false);
  expect_all_types({.condition = val_greater_condition(), .step_pairs = 777}, probe, build, "condition, steps", false);
  auto unique = side({.rows = 300, .unique = true, .seed = 20}, build_schema_);
  expect_same({.type = JoinType::kSingle, .condition = val_greater_condition()}, probe, unique, "condition");
  // With a condition a single join fails only when two pairs of a row qualify: build duplicates are allowed.
  auto pairs = side({.rows = 40, .domain = 1000, .null_percent = 0, .seed = 21}, build_schema_);
  auto few = side({.rows = 60, .domain = 1000, .null_percent = 0, .seed = 22}, probe_schema_);
  expect_same({.type = JoinType::kSingle, .condition = val_greater_condition()}, few, pairs, "condition, sparse");
}

TEST_F(HashJoinGpuTest, NullAwareAntiAndMark) {
  auto probe = side({.rows = 800, .domain = 100, .null_percent = 15, .seed = 23}, probe_schema_);
  auto build = side({.rows = 300, .domain = 100, .null_percent = 15, .seed = 24}, build_schema_);
  auto build_no_nulls = side({.rows = 300, .domain = 100, .null_percent = 0, .seed = 25}, build_schema_);
  for (JoinType t : {JoinType::kAnti, JoinType::kMark}) {
    for (const auto* b : {&build, &build_no_nulls}) {
      const std::string what = b == &build ? "NULLs both sides" : "NULLs in probe only";
      expect_same({.type = t, .null_aware = true}, probe, *b, what);
      expect_same({.type = t, .keys = {0, 1}, .null_aware = true}, probe, *b, what + ", two keys");
      expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true}, probe, *b, what);
      expect_same({.type = t, .keys = {0, 1}, .condition = val_greater_condition(), .null_aware = true}, probe, *b,
                  what + ", two keys");
      expect_same({.type = t, .condition = val_greater_condition(), .null_aware = true, .step_pairs = 500}, probe,
                  *b, what + ", steps");
    }
  }
}

TEST_F(HashJoinGpuTest, SingleJoinWithTwoMatchesFails) {
  auto probe = side({.rows = 100, .domain = 20, .seed = 26}, probe_schema_);
  auto build = side({.rows = 100, .domain = 20, .seed = 27}, build_schema_);
  EXPECT_THROW(run_cpu({.type = JoinType::kSingle}, probe, build), InvalidInput);
  EXPECT_THROW(run_gpu({.type = JoinType::kSingle}, probe, build), InvalidInput);
}

/// Every probe row matching exactly one build row (a lookup into unique keys): the GPU reuses the probe columns
/// instead of gathering them, in one step whatever the step size.
TEST_F(HashJoinGpuTest, OneMatchPerProbeRow) {
  auto unique = side({.rows = 500, .unique = true, .seed = 31}, build_schema_);
  auto all_match = side({.rows = 3000, .domain = 500, .null_percent = 0, .batches = 3, .seed = 32}, probe_schema_);
  auto some_miss = side({.rows = 3000, .domain = 520, .null_percent = 0, .batches = 3, .seed = 33}, probe_schema_);
  for (size_t step : {size_t{0}, size_t{100}}) {
    for (JoinType t : {JoinType::kInner, JoinType::kLeft, JoinType::kRight, JoinType::kFull, JoinType::kSingle}) {
      expect_same({.type = t, .step_pairs = step}, all_match, unique, "all probe rows match once");
      expect_same({.type = t, .step_pairs = step}, some_miss, unique, "some probe rows miss");
    }
  }
}

TEST_F(HashJoinGpuTest, LargeInputs) {
  auto probe = side({.rows = 150000, .domain = 50000, .batches = 3, .seed = 28}, probe_schema_);
  auto build = side({.rows = 100000, .domain = 50000, .batches = 4, .seed = 29}, build_schema_);
  expect_all_types({}, probe, build, "large", false);
  expect_same({.type = JoinType::kInner, .condition = val_greater_condition()}, probe, build, "large");
  expect_same({.type = JoinType::kMark, .null_aware = true}, probe, build, "large");
  auto unique = side({.rows = 120000, .unique = true, .batches = 3, .seed = 30}, build_schema_);
  expect_same({.type = JoinType::kSingle}, probe, unique, "large unique build");
}

}  // namespace
}  // namespace kestrel::testing
