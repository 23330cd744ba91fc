// Differential tests of aggregate_gpu (one batch; the operator's tests are in
// hash_aggregate_gpu_op_test.cpp): the same generated batches (fixed-width key
// and argument types, NULL keys and values, few and many groups, skew,
// DISTINCT, variances far from zero) aggregated by the CPU
// HashAggregateSink/Source pipelines on the host and by aggregate_gpu on their
// device copy must give the same groups and values (doubles within 1e-9
// relative); the GPU's variance states merge on the CPU.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.hpp"
#include "exec/ops/collect/collect.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_kernels.hpp"
#include "exec/pipeline.hpp"
#include "gpu_test_env.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using exec::AggregateSpec;
using plan::AggregateFunction;
using Row = std::vector<Value>;

/// How the generated keys spread over groups.
enum class KeySpread { kFew, kMany, kSkewed };

/// One morsel per prepared batch.
class BatchSource final : public exec::Source {
public:
  explicit BatchSource(std::vector<Batch> batches)
      : batches_(std::move(batches)) {}
  size_t morsel_count() const override { return batches_.size(); }
  void read(size_t morsel, exec::ExecContext &,
            std::vector<Batch> &out) override {
    out.push_back(batches_[morsel]);
  }
  std::string name() const override { return "TestBatches"; }

private:
  std::vector<Batch> batches_;
};

const LogicalType kKeyDecimal = LogicalType::decimal(12, 2);
const LogicalType kValueDecimal = LogicalType::decimal(15, 3);
const LogicalType kValueDecimal8 = LogicalType::decimal(18, 8);

/// Columns: k_int, k_big, k_date, k_bool, k_dec (keys) and v_int, v_big, v_dbl,
/// v_dec, v_dec8 (arguments), with about 10% NULLs in every column but k_date.
/// Doubles are multiples of 1/8 small enough that every sum is exact.
Batch make_input(size_t rows, KeySpread spread, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t domain = spread == KeySpread::kMany
                             ? static_cast<int64_t>(std::max<size_t>(rows, 1))
                             : 5;
  auto key = [&]() -> int64_t {
    if (spread == KeySpread::kSkewed && rng() % 10 != 0)
      return 1;
    return static_cast<int64_t>(rng() % static_cast<uint64_t>(domain)) -
           domain / 2;
  };
  auto null = [&]() { return rng() % 10 == 0; };
  std::vector<Field> fields = {
      {"k_int", TypeId::kInteger}, {"k_big", TypeId::kBigInt},
      {"k_date", TypeId::kDate},   {"k_bool", TypeId::kBoolean},
      {"k_dec", kKeyDecimal},      {"v_int", TypeId::kInteger},
      {"v_big", TypeId::kBigInt},  {"v_dbl", TypeId::kDouble},
      {"v_dec", kValueDecimal},    {"v_dec8", kValueDecimal8}};
  std::vector<std::vector<Value>> cols(fields.size());
  for (size_t r = 0; r < rows; ++r) {
    const int64_t k = key();
    cols[0].push_back(null() ? Value::null(TypeId::kInteger)
                             : Value::integer(static_cast<int32_t>(k)));
    // Many groups: the other keys vary too, so multi-column keys split further.
    const int64_t k2 = spread == KeySpread::kMany ? key() : k;
    cols[1].push_back(null() ? Value::null(TypeId::kBigInt)
                             : Value::bigint(k2 * 1000000007LL));
    cols[2].push_back(Value::date(static_cast<int32_t>(k % 3)));
    cols[3].push_back(null() ? Value::null(TypeId::kBoolean)
                             : Value::boolean(rng() & 1));
    cols[4].push_back(null() ? Value::null(kKeyDecimal)
                             : Value::decimal(k * 125 - 7, 12, 2));
    cols[5].push_back(null() ? Value::null(TypeId::kInteger)
                             : Value::integer(static_cast<int32_t>(rng())));
    cols[6].push_back(null() ? Value::null(TypeId::kBigInt)
                             : Value::bigint(static_cast<int64_t>(rng())));
    cols[7].push_back(
        null() ? Value::null(TypeId::kDouble)
               : Value::double_value(
                     static_cast<double>(static_cast<int64_t>(rng() % 2000001) -
                                         1000000) /
                     8.0));
    const int128_t dec = static_cast<int128_t>(rng() % 1000000000000000ULL) *
                         ((rng() & 1) ? -1 : 1);
    cols[8].push_back(null() ? Value::null(kValueDecimal)
                             : Value::decimal(dec, 15, 3));
    const int128_t dec8 = static_cast<int128_t>(rng() % 100000000000000000ULL) *
                          ((rng() & 1) ? -1 : 1);
    cols[9].push_back(null() ? Value::null(kValueDecimal8)
                             : Value::decimal(dec8, 18, 8));
  }
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < fields.size(); ++c)
    columns.push_back(Column::from_values(fields[c].type, cols[c]));
  return Batch(std::make_shared<Schema>(fields), std::move(columns), rows,
               gpu::MemoryKind::kHost);
}

/// Every supported aggregate over the argument columns of make_input.
std::vector<AggregateSpec> all_aggregates(const Batch &b) {
  std::vector<AggregateSpec> out{
      {AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt, false}};
  for (size_t c = 5; c < b.num_columns(); ++c) {
    const LogicalType &t = b.schema()->field(c).type;
    for (auto f : {AggregateFunction::kCount, AggregateFunction::kSum,
                   AggregateFunction::kAvg, AggregateFunction::kMin,
                   AggregateFunction::kMax}) {
      out.push_back({f, c, t, false});
    }
  }
  for (auto f : {AggregateFunction::kVarSamp, AggregateFunction::kVarPop,
                 AggregateFunction::kStddevSamp, AggregateFunction::kStddevPop}) {
    out.push_back({f, size_t{7}, TypeId::kDouble, false});
  }
  out.push_back({AggregateFunction::kMin, size_t{2}, TypeId::kDate, false});
  out.push_back(
      {AggregateFunction::kCount, size_t{3}, TypeId::kBoolean, false});
  return out;
}

std::vector<Row> rows_of(const std::vector<Batch> &batches) {
  std::vector<Row> rows;
  for (const Batch &b : batches) {
    for (size_t r = 0; r < b.num_rows(); ++r) {
      Row row;
      for (size_t c = 0; c < b.num_columns(); ++c)
        row.push_back(b.column(c)->value_at(r));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// Orders rows by their first `keys` values (NULL first); group keys are
/// unique, so this is a total order.
void sort_by_keys(std::vector<Row> &rows, size_t keys) {
  auto less = [keys](const Row &a, const Row &b) {
    for (size_t k = 0; k < keys; ++k) {
      if (a[k].is_null() != b[k].is_null())
        return a[k].is_null();
      if (a[k].is_null())
        continue;
      if (a[k].type().id() == TypeId::kDouble) {
        if (a[k].as_double() != b[k].as_double())
          return a[k].as_double() < b[k].as_double();
      } else if (a[k].as_int128() != b[k].as_int128()) {
        return a[k].as_int128() < b[k].as_int128();
      }
    }
    return false;
  };
  std::sort(rows.begin(), rows.end(), less);
}

bool same_value(const Value &got, const Value &want) {
  if (got.is_null() || want.is_null() || want.type().id() != TypeId::kDouble)
    return got == want;
  if (got.type() != want.type())
    return false;
  const double g = got.as_double(), w = want.as_double();
  return g == w ||
         std::fabs(g - w) <= 1e-9 * std::max(std::fabs(g), std::fabs(w));
}

class AggregateGpuTest : public GpuTest {
protected:
  /// The CPU answer: input -> HashAggregateSink, then HashAggregateSource ->
  /// collector.
  std::vector<Row> cpu_rows(const Batch &host, const std::vector<size_t> &keys,
                            const std::vector<AggregateSpec> &aggregates,
                            SchemaPtr *schema) {
    auto sink = std::make_shared<exec::HashAggregateSink>(host.schema(), keys,
                                                          aggregates);
    auto collector =
        std::make_shared<exec::BatchCollector>(sink->output_schema());
    std::vector<exec::Pipeline> pipelines(2);
    pipelines[0].source =
        std::make_shared<BatchSource>(std::vector<Batch>{host});
    pipelines[0].sink = sink;
    pipelines[1].source = std::make_shared<exec::HashAggregateSource>(sink);
    pipelines[1].sink = collector;
    pipelines[1].dependencies = {0};
    exec::ExecContext ctx;
    exec::run_pipelines(pipelines, ctx);
    *schema = sink->output_schema();
    return rows_of(collector->batches());
  }

  void expect_same(const Batch &host, const std::vector<size_t> &keys,
                   const std::vector<AggregateSpec> &aggregates,
                   const std::string &what) {
    SchemaPtr cpu_schema;
    std::vector<Row> want = cpu_rows(host, keys, aggregates, &cpu_schema);
    Batch device = copy_batch(host, device_mr(), stream());
    Batch result =
        exec::aggregate_gpu(device, keys, aggregates, stream(), device_mr());
    ASSERT_TRUE(result.on_device()) << what;
    ASSERT_EQ(result.num_columns(), cpu_schema->size()) << what;
    for (size_t c = 0; c < result.num_columns(); ++c) {
      EXPECT_EQ(result.column(c)->type(), cpu_schema->field(c).type)
          << what << " column " << c;
    }
    Batch back = copy_batch(result, gpu::host_memory_resource(), stream());
    std::vector<Row> got = rows_of({back});
    ASSERT_EQ(got.size(), want.size()) << what;
    sort_by_keys(got, keys.size());
    sort_by_keys(want, keys.size());
    for (size_t r = 0; r < want.size(); ++r) {
      for (size_t c = 0; c < want[r].size(); ++c) {
        ASSERT_TRUE(same_value(got[r][c], want[r][c]))
            << what << " row " << r << " column " << cpu_schema->field(c).name
            << " (" << c << "): gpu " << got[r][c].to_string() << " cpu "
            << want[r][c].to_string();
      }
    }
  }

  void run_all(size_t rows, KeySpread spread, uint64_t seed) {
    Batch host = make_input(rows, spread, seed);
    const auto aggregates = all_aggregates(host);
    const std::string what = "rows " + std::to_string(rows) + " spread " +
                             std::to_string(static_cast<int>(spread));
    expect_same(host, {}, aggregates, what + " no keys");
    expect_same(host, {0}, aggregates, what + " by k_int");
    expect_same(host, {1}, aggregates, what + " by k_big");
    expect_same(host, {4}, aggregates, what + " by k_dec");
    expect_same(host, {3, 0}, aggregates, what + " by k_bool, k_int");
    expect_same(host, {2, 1, 4, 3}, aggregates,
                what + " by k_date, k_big, k_dec, k_bool");
  }
};

TEST_F(AggregateGpuTest, EmptyInput) { run_all(0, KeySpread::kFew, 1); }
TEST_F(AggregateGpuTest, OneRow) {
  for (uint64_t seed = 1; seed <= 8; ++seed)
    run_all(1, KeySpread::kFew, seed);
}
TEST_F(AggregateGpuTest, ThousandRowsFewGroups) {
  run_all(1000, KeySpread::kFew, 2);
}
TEST_F(AggregateGpuTest, ThousandRowsManyGroups) {
  run_all(1000, KeySpread::kMany, 3);
}
TEST_F(AggregateGpuTest, LargeFewGroups) {
  run_all(100000, KeySpread::kFew, 4);
}
TEST_F(AggregateGpuTest, LargeManyGroups) {
  run_all(100000, KeySpread::kMany, 5);
}
TEST_F(AggregateGpuTest, LargeSkewed) {
  run_all(100000, KeySpread::kSkewed, 6);
}

/// Counts and integer sums only: batches of at most 8 groups are grouped
/// densely (no sort; per-thread accumulators), more groups by the sort.
TEST_F(AggregateGpuTest, DenseGroupingCountsAndSums) {
  std::vector<AggregateSpec> aggregates{
      {AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt, false},
      {AggregateFunction::kCount, size_t{7}, TypeId::kDouble, false}};
  for (size_t c : {size_t{5}, size_t{6}, size_t{8}, size_t{9}}) {
    for (auto f : {AggregateFunction::kCount, AggregateFunction::kSum,
                   AggregateFunction::kAvg}) {
      aggregates.push_back({f, c, make_input(1, KeySpread::kFew, 1)
                                      .schema()
                                      ->field(c)
                                      .type,
                            false});
    }
  }
  for (size_t rows : {size_t{1}, size_t{777}, size_t{300000}}) {
    Batch host = make_input(rows, KeySpread::kFew, rows + 5);
    const std::string what = "rows " + std::to_string(rows);
    const size_t before = exec::aggregate_gpu_detail::dense_groupings();
    expect_same(host, {0}, aggregates, what + " by k_int (6 groups)");
    expect_same(host, {3}, aggregates, what + " by k_bool (3 groups)");
    expect_same(host, {2}, aggregates, what + " by k_date (3 groups)");
    EXPECT_GE(exec::aggregate_gpu_detail::dense_groupings(), before + 3)
        << what;
    expect_same(host, {2, 0}, aggregates,
                what + " by k_date, k_int (up to 18 groups: sorted)");
    expect_same(host, {}, aggregates, what + " no keys");
  }
  // Every row NULL in the summed column: the groups' sums are NULL.
  std::vector<Value> keys, values;
  for (int i = 0; i < 5000; ++i) {
    keys.push_back(Value::integer(i % 3));
    values.push_back(i % 3 == 1 ? Value::null(TypeId::kBigInt)
                                : Value::bigint(int64_t{1} << 62));
  }
  std::vector<Field> fields = {{"k", TypeId::kInteger}, {"v", TypeId::kBigInt}};
  Batch nulls(std::make_shared<Schema>(fields),
              {Column::from_values(TypeId::kInteger, keys),
               Column::from_values(TypeId::kBigInt, values)},
              keys.size(), gpu::MemoryKind::kHost);
  expect_same(nulls, {0},
              {{AggregateFunction::kSum, size_t{1}, TypeId::kBigInt, false},
               {AggregateFunction::kAvg, size_t{1}, TypeId::kBigInt, false},
               {AggregateFunction::kCount, size_t{1}, TypeId::kBigInt, false}},
              "a NULL group and sums past 2^64");
}

TEST_F(AggregateGpuTest, DistinctAggregates) {
  Batch host = make_input(3000, KeySpread::kFew, 7);
  const std::vector<AggregateSpec> aggregates = {
      {AggregateFunction::kCount, size_t{0}, TypeId::kInteger, true},
      {AggregateFunction::kSum, size_t{4}, kKeyDecimal, true},
      {AggregateFunction::kAvg, size_t{0}, TypeId::kInteger, true},
      {AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt, false},
      {AggregateFunction::kMax, size_t{1}, TypeId::kBigInt, true}};
  expect_same(host, {}, aggregates, "distinct, no keys");
  expect_same(host, {3}, aggregates, "distinct by k_bool");
  expect_same(host, {2, 3}, aggregates, "distinct by k_date, k_bool");
}

/// var_samp, var_pop, stddev_samp and stddev_pop of DOUBLE column 1 of a
/// batch [k INTEGER, x DOUBLE].
std::vector<AggregateSpec> variance_aggregates(bool distinct = false) {
  std::vector<AggregateSpec> out;
  for (auto f : {AggregateFunction::kVarSamp, AggregateFunction::kVarPop,
                 AggregateFunction::kStddevSamp, AggregateFunction::kStddevPop}) {
    out.push_back({f, size_t{1}, TypeId::kDouble, distinct});
  }
  out.push_back(
      {AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt, false});
  return out;
}

/// [k INTEGER, x DOUBLE]: group k (0 .. groups - 1, group g has about
/// g * rows / groups^2 rows, so some groups have one or two rows) of values
/// `base` + small random offsets, with about 10% NULLs.
Batch make_spread_input(size_t rows, int groups, double base, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Value> keys, values;
  for (size_t r = 0; r < rows; ++r) {
    const auto a = static_cast<int>(rng() % static_cast<uint64_t>(groups));
    const auto b = static_cast<int>(rng() % static_cast<uint64_t>(groups));
    keys.push_back(Value::integer(std::max(a, b)));
    values.push_back(rng() % 10 == 0
                         ? Value::null(TypeId::kDouble)
                         : Value::double_value(
                               base + static_cast<double>(rng() % 1000) / 7.0));
  }
  std::vector<Field> fields = {{"k", TypeId::kInteger}, {"x", TypeId::kDouble}};
  std::vector<ColumnPtr> columns = {
      Column::from_values(TypeId::kInteger, keys),
      Column::from_values(TypeId::kDouble, values)};
  return Batch(std::make_shared<Schema>(fields), std::move(columns), rows,
               gpu::MemoryKind::kHost);
}

TEST_F(AggregateGpuTest, VarianceFarFromZero) {
  // Means of 1e7 and -1e8 with a spread of about 40: sums of squares would
  // cancel.
  for (double base : {0.0, -1.0e8, 1.0e7}) {
    for (size_t rows : {size_t{1}, size_t{2}, size_t{33}, size_t{5000},
                        size_t{200000}}) {
      Batch host = make_spread_input(rows, 40, base, rows + 11);
      const std::string what =
          "base " + std::to_string(base) + " rows " + std::to_string(rows);
      expect_same(host, {}, variance_aggregates(), what + " no keys");
      expect_same(host, {0}, variance_aggregates(), what + " by k");
      expect_same(host, {0}, variance_aggregates(true), what + " distinct");
    }
  }
}

TEST_F(AggregateGpuTest, VarianceStatesMergeOnTheCpu) {
  // The GPU's partial states have the CPU's layout: the CPU accumulator merges
  // them and finalizes the same values as a CPU aggregation of the raw rows.
  Batch host = make_spread_input(50000, 1, 1.0e6, 3);
  Batch device = copy_batch(host, device_mr(), stream());
  for (const AggregateSpec &a : variance_aggregates()) {
    if (a.function == AggregateFunction::kCountStar)
      continue;
    // Runs of 1000 rows: 50 state rows for the one group.
    const Batch states = exec::aggregate_gpu_detail::partial_states(
        device, {}, {a}, 1000, nullptr, stream(), device_mr());
    Batch back = copy_batch(states, gpu::host_memory_resource(), stream());
    ASSERT_EQ(back.num_columns(), size_t{3});
    EXPECT_EQ(back.column(0)->type(), LogicalType(TypeId::kBigInt));
    EXPECT_EQ(back.column(1)->type(), LogicalType(TypeId::kDouble));
    EXPECT_EQ(back.column(2)->type(), LogicalType(TypeId::kDouble));
    auto merged = exec::make_aggregate_state(a);
    merged->resize(1);
    std::vector<uint32_t> ids(back.num_rows(), 0);
    merged->merge(ids.data(), back.columns(), back.num_rows());
    auto raw = exec::make_aggregate_state(a);
    raw->resize(1);
    std::vector<uint32_t> row_ids(host.num_rows(), 0);
    raw->update(row_ids.data(), host.column(1).get(), host.num_rows());
    const Value got = merged->finalize(0, 1)->value_at(0);
    const Value want = raw->finalize(0, 1)->value_at(0);
    EXPECT_TRUE(same_value(got, want))
        << plan::aggregate_function_name(a.function) << ": gpu states "
        << got.to_string() << " cpu " << want.to_string();
  }
}

TEST_F(AggregateGpuTest, RejectsTooManyKeys) {
  Batch host = make_input(10, KeySpread::kFew, 7);
  Batch device = copy_batch(host, device_mr(), stream());
  std::vector<size_t> keys(static_cast<size_t>(exec::kMaxDeviceKeys) + 1, 0);
  EXPECT_THROW(exec::aggregate_gpu(device, keys,
                                   {{AggregateFunction::kCountStar,
                                     std::nullopt, TypeId::kBigInt, false}},
                                   stream(), device_mr()),
               NotImplemented);
}

} // namespace
} // namespace kestrel::testing
