#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/numeric_ops.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "ops_test_util.hpp"

namespace kestrel::exec::test {
namespace {

using plan::AggregateFunction;

/// The result type rules of plan::AggregateCall, written out again for the reference.
LogicalType expected_type(AggregateFunction f, const LogicalType& in) {
  switch (f) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount: return TypeId::kBigInt;
    case AggregateFunction::kSum:
      if (in.id() == TypeId::kDecimal) return LogicalType::decimal(38, in.scale());
      if (in.id() == TypeId::kBigInt) return LogicalType::decimal(38, 0);
      if (in.id() == TypeId::kReal || in.id() == TypeId::kDouble) return TypeId::kDouble;
      return TypeId::kBigInt;
    case AggregateFunction::kAvg:
      if (in.id() == TypeId::kDecimal) return LogicalType::decimal(38, std::max(6, in.scale()));
      return TypeId::kDouble;
    default: return in;
  }
}

AggregateSpec spec(AggregateFunction f, std::optional<size_t> arg, const LogicalType& type, bool distinct = false) {
  return AggregateSpec{f, arg, type, distinct};
}

/// One aggregate over the argument values of one group, with plain loops over Values.
Value reference_value(const AggregateSpec& a, std::vector<Value> values) {
  LogicalType type = expected_type(a.function, a.input_type);
  if (a.function == AggregateFunction::kCountStar) return Value::bigint(static_cast<int64_t>(values.size()));
  std::vector<Value> present;
  for (auto& v : values) {
    if (v.is_null()) continue;
    bool seen = false;
    for (const auto& p : present) seen |= a.distinct && compare_values(p, v) == 0 && p == v;
    if (!seen) present.push_back(v);
  }
  if (a.function == AggregateFunction::kCount) return Value::bigint(static_cast<int64_t>(present.size()));
  if (present.empty()) return Value::null(type);
  if (a.function == AggregateFunction::kMin || a.function == AggregateFunction::kMax) {
    Value best = present[0];
    for (const auto& v : present) {
      int c = compare_values(v, best);
      if (a.function == AggregateFunction::kMin ? c < 0 : c > 0) best = v;
    }
    return best;
  }
  bool floating = a.input_type.id() == TypeId::kReal || a.input_type.id() == TypeId::kDouble;
  long double fsum = 0;
  int128_t isum = 0;
  for (const auto& v : present) {
    if (floating) {
      fsum += v.as_double();
    } else {
      isum += v.as_int128();
    }
  }
  auto n = static_cast<int64_t>(present.size());
  if (a.function == AggregateFunction::kSum) {
    if (floating) return Value::double_value(static_cast<double>(fsum));
    if (type.id() == TypeId::kBigInt) return Value::bigint(static_cast<int64_t>(isum));
    return Value::decimal(isum, 38, type.scale());
  }
  // avg
  if (type.id() == TypeId::kDouble) {
    return Value::double_value(floating ? static_cast<double>(fsum / n) : static_cast<double>(isum) / n);
  }
  int128_t total = isum * numeric::pow10<int128_t>(type.scale() - a.input_type.scale());
  int128_t q = total / n;
  int128_t rem = total % n;
  if (rem < 0) rem = -rem;
  if (2 * rem >= n) q += total < 0 ? -1 : 1;
  return Value::decimal(q, 38, type.scale());
}

/// GROUP BY `groups` with `aggs` over `rows`, with std::map and loops.
std::vector<Row> reference_group_by(const std::vector<Row>& rows, const std::vector<size_t>& groups,
                                    const std::vector<AggregateSpec>& aggs) {
  std::map<Row, std::vector<const Row*>, decltype(&rows_less)> by_key(&rows_less);
  if (groups.empty()) by_key[Row{}];
  for (const auto& r : rows) {
    Row key;
    for (size_t g : groups) key.push_back(r[g]);
    by_key[key].push_back(&r);
  }
  std::vector<Row> out;
  for (const auto& [key, members] : by_key) {
    Row row = key;
    for (const auto& a : aggs) {
      std::vector<Value> values;
      for (const Row* m : members) values.push_back(a.argument ? (*m)[*a.argument] : Value::bigint(1));
      row.push_back(reference_value(a, values));
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<Row> run_group_by(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                              const std::vector<size_t>& groups, const std::vector<AggregateSpec>& aggs,
                              int threads, size_t batch_rows, bool dictionary) {
  auto source = std::make_shared<BatchSource>(make_batches(types, rows, batch_rows, dictionary));
  auto sink = std::make_shared<HashAggregateSink>(make_schema(types), groups, aggs);
  auto collector = std::make_shared<BatchCollector>(sink->output_schema());
  std::vector<Pipeline> pipelines(2);
  pipelines[0].source = source;
  pipelines[0].sink = sink;
  pipelines[1].source = std::make_shared<HashAggregateSource>(sink, 5);
  pipelines[1].sink = collector;
  pipelines[1].dependencies = {0};
  return run_and_collect(std::move(pipelines), collector, threads);
}

void check_group_by(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                    const std::vector<size_t>& groups, const std::vector<AggregateSpec>& aggs,
                    const std::string& what) {
  auto expected = reference_group_by(rows, groups, aggs);
  for (int threads : {1, 4}) {
    for (bool dictionary : {false, true}) {
      auto actual = run_group_by(types, rows, groups, aggs, threads, 37, dictionary);
      expect_same_rows(actual, expected,
                       what + " threads=" + std::to_string(threads) + " dict=" + std::to_string(dictionary));
    }
  }
}

std::vector<Row> random_rows(const std::vector<LogicalType>& types, size_t n, uint64_t seed, double null_rate) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    Row r;
    for (const auto& t : types) r.push_back(random_value(t, rng, null_rate));
    rows.push_back(std::move(r));
  }
  return rows;
}

TEST(AggregateCpu, GroupByEveryKeyType) {
  for (const LogicalType& key : storable_types()) {
    std::vector<LogicalType> types{key, TypeId::kInteger, LogicalType::decimal(15, 2), TypeId::kVarchar};
    auto rows = random_rows(types, 400, 7, 0.1);
    std::vector<AggregateSpec> aggs{
        spec(AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt),
        spec(AggregateFunction::kCount, 1, TypeId::kInteger),
        spec(AggregateFunction::kSum, 1, TypeId::kInteger),
        spec(AggregateFunction::kAvg, 1, TypeId::kInteger),
        spec(AggregateFunction::kSum, 2, types[2]),
        spec(AggregateFunction::kAvg, 2, types[2]),
        spec(AggregateFunction::kMin, 3, TypeId::kVarchar),
        spec(AggregateFunction::kMax, 3, TypeId::kVarchar),
        spec(AggregateFunction::kCount, 1, TypeId::kInteger, true),
        spec(AggregateFunction::kMin, 0, key),
        spec(AggregateFunction::kMax, 0, key),
    };
    check_group_by(types, rows, {0}, aggs, "key " + key.to_string());
  }
}

TEST(AggregateCpu, SumAvgMinMaxOfEveryArgumentType) {
  for (const LogicalType& arg : storable_types()) {
    std::vector<LogicalType> types{TypeId::kSmallInt, arg};
    auto rows = random_rows(types, 300, 11, 0.2);
    std::vector<AggregateSpec> aggs{spec(AggregateFunction::kMin, 1, arg), spec(AggregateFunction::kMax, 1, arg),
                                    spec(AggregateFunction::kCount, 1, arg),
                                    spec(AggregateFunction::kMax, 1, arg, true)};
    if (arg.is_numeric()) {
      for (auto f : {AggregateFunction::kSum, AggregateFunction::kAvg}) {
        aggs.push_back(spec(f, 1, arg));
        aggs.push_back(spec(f, 1, arg, true));
      }
    }
    check_group_by(types, rows, {0}, aggs, "argument " + arg.to_string());
  }
}

TEST(AggregateCpu, ResultTypesFollowTheAggregateCallRules) {
  for (const LogicalType& arg : storable_types()) {
    for (auto f : {AggregateFunction::kCount, AggregateFunction::kSum, AggregateFunction::kAvg,
                   AggregateFunction::kMin, AggregateFunction::kMax, AggregateFunction::kAnyValue}) {
      bool numeric_only = f == AggregateFunction::kSum || f == AggregateFunction::kAvg;
      if (numeric_only && !arg.is_numeric()) {
        EXPECT_THROW(aggregate_result_type(f, arg), NotImplemented);
        continue;
      }
      LogicalType expected = f == AggregateFunction::kAnyValue ? arg : expected_type(f, arg);
      EXPECT_EQ(aggregate_result_type(f, arg), expected) << arg.to_string();
    }
  }
}

TEST(AggregateCpu, MultiColumnKeysWithNullsAndStrings) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger, TypeId::kDate, LogicalType::decimal(38, 10)};
  auto rows = random_rows(types, 600, 3, 0.15);
  std::vector<AggregateSpec> aggs{spec(AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt),
                                  spec(AggregateFunction::kSum, 3, types[3]),
                                  spec(AggregateFunction::kAvg, 3, types[3]),
                                  spec(AggregateFunction::kSum, 3, types[3], true)};
  check_group_by(types, rows, {0, 1, 2}, aggs, "three keys");
  check_group_by(types, rows, {2, 0}, aggs, "two keys");
}

TEST(AggregateCpu, SkewedKeys) {
  std::vector<LogicalType> types{TypeId::kBigInt, TypeId::kDouble};
  std::mt19937_64 rng(5);
  std::vector<Row> rows;
  for (int i = 0; i < 2000; ++i) {
    int64_t key = rng() % 10 < 9 ? 42 : static_cast<int64_t>(rng() % 500);
    rows.push_back({Value::bigint(key), random_value(TypeId::kDouble, rng, 0.05)});
  }
  check_group_by(types, rows, {0},
                 {spec(AggregateFunction::kSum, 1, TypeId::kDouble), spec(AggregateFunction::kAvg, 1, TypeId::kDouble),
                  spec(AggregateFunction::kCount, 1, TypeId::kDouble, true)},
                 "skew");
}

TEST(AggregateCpu, UngroupedOnEmptyInputYieldsOneRow) {
  std::vector<LogicalType> types{TypeId::kInteger, LogicalType::decimal(12, 3)};
  std::vector<AggregateSpec> aggs{spec(AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt),
                                  spec(AggregateFunction::kCount, 0, TypeId::kInteger),
                                  spec(AggregateFunction::kSum, 0, TypeId::kInteger),
                                  spec(AggregateFunction::kAvg, 1, types[1]),
                                  spec(AggregateFunction::kMax, 1, types[1], true)};
  for (int threads : {1, 4}) {
    auto actual = run_group_by(types, {}, {}, aggs, threads, 10, false);
    ASSERT_EQ(actual.size(), 1u);
    EXPECT_EQ(actual[0][0], Value::bigint(0));
    EXPECT_EQ(actual[0][1], Value::bigint(0));
    EXPECT_TRUE(actual[0][2].is_null());
    EXPECT_EQ(actual[0][2].type(), LogicalType(TypeId::kBigInt));
    EXPECT_TRUE(actual[0][3].is_null());
    EXPECT_TRUE(actual[0][4].is_null());
  }
  check_group_by(types, random_rows(types, 250, 9, 0.3), {}, aggs, "ungrouped");
  check_group_by(types, random_rows(types, 1, 9, 0.0), {}, aggs, "one row");
}

TEST(AggregateCpu, GroupedOnEmptyInputYieldsNoRows) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger};
  auto actual = run_group_by(types, {}, {0}, {spec(AggregateFunction::kSum, 1, TypeId::kInteger)}, 4, 8, true);
  EXPECT_TRUE(actual.empty());
}

TEST(AggregateCpu, AnyValuePicksAValueOfTheGroup) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger};
  auto rows = random_rows(types, 300, 13, 0.1);
  // any_value of the key itself is determined: the key (NULL for the NULL group).
  auto actual = run_group_by(types, rows, {0}, {spec(AggregateFunction::kAnyValue, 0, TypeId::kVarchar)}, 4, 16, true);
  ASSERT_FALSE(actual.empty());
  for (const auto& r : actual) EXPECT_EQ(r[0], r[1]);
}

TEST(AggregateCpu, DecimalAverageRoundsHalfAwayFromZero) {
  LogicalType d = LogicalType::decimal(10, 8);
  std::vector<Row> rows{{Value::integer(1), Value::decimal(1, 10, 8)},  {Value::integer(1), Value::decimal(2, 10, 8)},
                        {Value::integer(2), Value::decimal(-1, 10, 8)}, {Value::integer(2), Value::decimal(-2, 10, 8)},
                        {Value::integer(3), Value::decimal(1, 10, 8)},  {Value::integer(3), Value::decimal(1, 10, 8)},
                        {Value::integer(3), Value::decimal(2, 10, 8)}};
  auto actual = run_group_by({TypeId::kInteger, d}, rows, {0}, {spec(AggregateFunction::kAvg, 1, d)}, 1, 100, false);
  expect_same_rows(actual,
                   {{Value::integer(1), Value::decimal(2, 38, 8)},
                    {Value::integer(2), Value::decimal(-2, 38, 8)},
                    {Value::integer(3), Value::decimal(1, 38, 8)}},
                   "avg rounding");
}

TEST(AggregateCpu, DecimalSumOverflowIsAnError) {
  LogicalType d = LogicalType::decimal(38, 0);
  int128_t big = numeric::pow10<int128_t>(37) * 6;  // two of them exceed 38 digits
  std::vector<Row> rows{{Value::decimal(big, 38, 0)}, {Value::decimal(big, 38, 0)}};
  for (int threads : {1, 4}) {
    EXPECT_THROW(run_group_by({d}, rows, {}, {spec(AggregateFunction::kSum, 0, d)}, threads, 1, false), InvalidInput);
  }
  // Far past int128: every addition is checked.
  std::vector<Row> many(40, Row{Value::decimal(numeric::pow10<int128_t>(38) - 1, 38, 0)});
  EXPECT_THROW(run_group_by({d}, many, {}, {spec(AggregateFunction::kSum, 0, d)}, 1, 100, false), InvalidInput);
  // BIGINT sums are exact past int64.
  std::vector<Row> bigints(4, Row{Value::bigint(INT64_MAX)});
  auto sum = run_group_by({TypeId::kBigInt}, bigints, {}, {spec(AggregateFunction::kSum, 0, TypeId::kBigInt)}, 1, 1,
                          false);
  EXPECT_EQ(sum[0][0], Value::decimal(static_cast<int128_t>(INT64_MAX) * 4, 38, 0));
}

/// `aggs` over `rows` grouped by column 0 through a partial aggregation (41-row batches) and a final one.
std::vector<Row> run_partial_final(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                                   const std::vector<AggregateSpec>& aggs, bool dictionary, int threads) {
  auto source = std::make_shared<BatchSource>(make_batches(types, rows, 41, dictionary));
  auto partial = std::make_shared<HashAggregateSink>(make_schema(types), std::vector<size_t>{0}, aggs,
                                                     AggregateMode::kPartial);
  auto final_sink = std::make_shared<HashAggregateSink>(partial->output_schema(), std::vector<size_t>{0}, aggs,
                                                        AggregateMode::kFinal);
  auto collector = std::make_shared<BatchCollector>(final_sink->output_schema());
  std::vector<Pipeline> p(3);
  p[0] = {source, {}, partial, {}};
  p[1] = {std::make_shared<HashAggregateSource>(partial, 3), {}, final_sink, {0}};
  p[2] = {std::make_shared<HashAggregateSource>(final_sink), {}, collector, {1}};
  return run_and_collect(std::move(p), collector, threads);
}

TEST(AggregateCpu, PartialThenFinalEqualsSingle) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger, LogicalType::decimal(15, 2), TypeId::kDouble};
  auto rows = random_rows(types, 500, 21, 0.1);
  std::vector<AggregateSpec> aggs{spec(AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt),
                                  spec(AggregateFunction::kSum, 1, TypeId::kInteger),
                                  spec(AggregateFunction::kAvg, 2, types[2]),
                                  spec(AggregateFunction::kAvg, 3, TypeId::kDouble),
                                  spec(AggregateFunction::kMin, 0, TypeId::kVarchar)};
  auto expected = reference_group_by(rows, {0}, aggs);
  for (int threads : {1, 4}) {
    expect_same_rows(run_partial_final(types, rows, aggs, true, threads), expected, "partial/final");
  }
}

}  // namespace
}  // namespace kestrel::exec::test

namespace kestrel::exec::test {
namespace {

/// var_samp, var_pop, stddev_samp, stddev_pop of one group's DOUBLE values, two passes in long double.
Value reference_dispersion(AggregateFunction f, const std::vector<double>& xs) {
  const bool sample = f == AggregateFunction::kVarSamp || f == AggregateFunction::kStddevSamp;
  if (xs.size() < (sample ? 2u : 1u)) return Value::null(TypeId::kDouble);
  long double mean = 0;
  for (double x : xs) mean += x;
  mean /= static_cast<long double>(xs.size());
  long double m2 = 0;
  for (double x : xs) m2 += (x - mean) * (x - mean);
  const long double variance = m2 / static_cast<long double>(sample ? xs.size() - 1 : xs.size());
  const bool root = f == AggregateFunction::kStddevSamp || f == AggregateFunction::kStddevPop;
  return Value::double_value(static_cast<double>(root ? std::sqrt(variance) : variance));
}

TEST(AggregateCpu, DispersionAcrossDriversAndPartialStates) {
  // Values near 1e9 with a spread of about 10: a one-pass sum of squares would lose every digit.
  std::vector<LogicalType> types{TypeId::kInteger, TypeId::kDouble};
  std::mt19937_64 rng(7);
  std::vector<Row> rows;
  std::map<int32_t, std::vector<double>> groups;
  for (int i = 0; i < 3000; ++i) {
    const int32_t g = static_cast<int32_t>(rng() % 40);
    if (rng() % 10 == 0) {
      rows.push_back({Value::integer(g), Value::null(TypeId::kDouble)});
      continue;
    }
    const double x = 1e9 + static_cast<double>(rng() % 2000) / 100.0;
    rows.push_back({Value::integer(g), Value::double_value(x)});
    groups[g].push_back(x);
  }
  rows.push_back({Value::integer(99), Value::double_value(5)});  // one value: NULL for samples, 0 for populations
  groups[99].push_back(5);
  const std::vector<AggregateFunction> functions{AggregateFunction::kVarSamp, AggregateFunction::kVarPop,
                                                 AggregateFunction::kStddevSamp, AggregateFunction::kStddevPop};
  std::vector<AggregateSpec> aggs;
  for (AggregateFunction f : functions) aggs.push_back(spec(f, 1, TypeId::kDouble));
  auto check = [&](const std::vector<Row>& actual, const std::string& what) {
    ASSERT_EQ(actual.size(), groups.size()) << what;
    for (const Row& row : actual) {
      const std::vector<double>& xs = groups.at(static_cast<int32_t>(row[0].as_int64()));
      for (size_t k = 0; k < functions.size(); ++k) {
        const Value want = reference_dispersion(functions[k], xs);
        ASSERT_EQ(row[1 + k].is_null(), want.is_null()) << what << " group " << row[0].to_string() << " " << k;
        if (want.is_null()) continue;
        EXPECT_NEAR(row[1 + k].as_double(), want.as_double(), 1e-6 * std::max(1.0, want.as_double()))
            << what << " group " << row[0].to_string() << " function " << k;
      }
    }
  };
  for (int threads : {1, 4}) {
    check(run_group_by(types, rows, {0}, aggs, threads, 37, false), "single threads=" + std::to_string(threads));
    check(run_partial_final(types, rows, aggs, false, threads), "partial/final threads=" + std::to_string(threads));
  }
}

}  // namespace
}  // namespace kestrel::exec::test

namespace kestrel::exec::test {
namespace {

/// An ordered aggregate over input column `arg` with `keys` (column, descending) and `parameter`.
AggregateSpec ordered_spec(AggregateFunction f, size_t arg, const std::vector<LogicalType>& types,
                           std::vector<std::pair<size_t, bool>> keys, Value parameter = Value()) {
  AggregateSpec a = spec(f, arg, types[arg]);
  for (auto [column, descending] : keys) a.order.push_back({column, types[column], SortOrder{descending, descending}});
  a.parameter = std::move(parameter);
  return a;
}

/// max_by(x, y) / min_by(x, y) of one group's rows: the best y, ties to the largest / smallest x, NULL x last.
Value reference_max_by(const std::vector<const Row*>& rows, size_t x, size_t y, bool largest) {
  const Row* best = nullptr;
  auto better = [&](const Row& a, const Row& b) {
    int c = compare_values(a[y], b[y]);
    if (c == 0) {
      if (a[x].is_null() || b[x].is_null()) return !a[x].is_null() && b[x].is_null();
      c = compare_values(a[x], b[x]);
    }
    return largest ? c > 0 : c < 0;
  };
  for (const Row* r : rows) {
    if (!(*r)[y].is_null() && (best == nullptr || better(*r, *best))) best = r;
  }
  return best ? (*best)[x] : Value::null(TypeId::kVarchar);
}

/// string_agg(x, ',' ORDER BY y, x DESC) of one group's rows (NULL y last, NULL x skipped).
Value reference_string_agg(std::vector<const Row*> rows, size_t x, size_t y) {
  std::erase_if(rows, [&](const Row* r) { return (*r)[x].is_null(); });
  if (rows.empty()) return Value::null(TypeId::kVarchar);
  std::stable_sort(rows.begin(), rows.end(), [&](const Row* a, const Row* b) {
    if ((*a)[y].is_null() != (*b)[y].is_null()) return (*b)[y].is_null();
    const int c = compare_values((*a)[y], (*b)[y]);
    return c != 0 ? c < 0 : compare_values((*a)[x], (*b)[x]) > 0;
  });
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) out += (i ? "," : "") + (*rows[i])[x].as_string();
  return Value::varchar(out);
}

/// percentile_cont(f) (interpolated) or percentile_disc(f) (nearest rank) of one group's values of column `c`.
Value reference_percentile(const std::vector<const Row*>& rows, size_t c, double f, bool continuous) {
  std::vector<Value> values;
  for (const Row* r : rows) {
    if (!(*r)[c].is_null()) values.push_back((*r)[c]);
  }
  if (values.empty()) return continuous ? Value::null(TypeId::kDouble) : Value::null(rows[0]->at(c).type());
  std::sort(values.begin(), values.end(), [](const Value& a, const Value& b) { return compare_values(a, b) < 0; });
  if (!continuous) {
    const auto rank = static_cast<size_t>(std::ceil(f * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
  }
  const double position = f * static_cast<double>(values.size() - 1);
  const auto below = static_cast<size_t>(position);
  const double low = values[below].as_double();
  if (below + 1 >= values.size()) return Value::double_value(low);
  return Value::double_value(low + (values[below + 1].as_double() - low) * (position - static_cast<double>(below)));
}

TEST(AggregateCpu, OrderedAggregatesAcrossDriversAndBatches) {
  // Small domains: many ties of y and of x, NULLs everywhere, groups of every size.
  const std::vector<LogicalType> types{TypeId::kInteger, TypeId::kVarchar, TypeId::kInteger, TypeId::kDouble};
  const std::vector<Row> rows = random_rows(types, 2000, 99, 0.15);
  const std::vector<AggregateSpec> aggs{
      ordered_spec(AggregateFunction::kMaxBy, 1, types, {{2, true}}),
      ordered_spec(AggregateFunction::kMinBy, 1, types, {{2, false}}),
      ordered_spec(AggregateFunction::kStringAgg, 1, types, {{2, false}, {1, true}}, Value::varchar(",")),
      ordered_spec(AggregateFunction::kPercentileCont, 3, types, {{3, false}}, Value::double_value(0.37)),
      ordered_spec(AggregateFunction::kPercentileDisc, 2, types, {{2, false}}, Value::double_value(0.5)),
      spec(AggregateFunction::kChecksum, 1, types[1])};
  std::map<Row, std::vector<const Row*>, decltype(&rows_less)> groups(&rows_less);
  for (const Row& r : rows) groups[Row{r[0]}].push_back(&r);
  std::vector<Row> first;
  for (int threads : {1, 4}) {
    for (bool dictionary : {false, true}) {
      const std::string what = "threads=" + std::to_string(threads) + " dict=" + std::to_string(dictionary);
      std::vector<Row> actual = run_group_by(types, rows, {0}, aggs, threads, 37, dictionary);
      ASSERT_EQ(actual.size(), groups.size()) << what;
      std::sort(actual.begin(), actual.end(), rows_less);
      for (const Row& row : actual) {
        const auto& members = groups.at(Row{row[0]});
        const std::string in = what + " group " + row[0].to_string();
        EXPECT_EQ(row[1], reference_max_by(members, 1, 2, true)) << in;
        EXPECT_EQ(row[2], reference_max_by(members, 1, 2, false)) << in;
        EXPECT_EQ(row[3], reference_string_agg(members, 1, 2)) << in;
        EXPECT_TRUE(values_close(row[4], reference_percentile(members, 3, 0.37, true))) << in;
        EXPECT_EQ(row[5], reference_percentile(members, 2, 0.5, false)) << in;
        EXPECT_FALSE(row[6].is_null()) << in;
      }
      // checksum: the same however the rows are split into drivers and batches and however strings are encoded.
      if (first.empty()) {
        first = actual;
      } else {
        for (size_t g = 0; g < actual.size(); ++g) EXPECT_EQ(actual[g][6], first[g][6]) << what;
      }
    }
  }
}

TEST(AggregateCpu, MaxByAndChecksumThroughPartialStates) {
  const std::vector<LogicalType> types{TypeId::kInteger, LogicalType::decimal(12, 2), TypeId::kDate};
  const std::vector<Row> rows = random_rows(types, 700, 5, 0.2);
  const std::vector<AggregateSpec> aggs{ordered_spec(AggregateFunction::kMaxBy, 1, types, {{2, true}}),
                                        ordered_spec(AggregateFunction::kMinBy, 2, types, {{1, false}}),
                                        spec(AggregateFunction::kChecksum, 1, types[1])};
  for (int threads : {1, 4}) {
    expect_same_rows(run_partial_final(types, rows, aggs, false, threads),
                     run_group_by(types, rows, {0}, aggs, 1, 50, false),
                     "partial/final threads=" + std::to_string(threads));
  }
  // string_agg and the percentiles keep every value: they have no partial state.
  const std::vector<AggregateSpec> collecting{
      ordered_spec(AggregateFunction::kPercentileDisc, 1, types, {{1, false}}, Value::double_value(0.5))};
  EXPECT_THROW(run_partial_final(types, rows, collecting, false, 1), NotImplemented);
}

}  // namespace
}  // namespace kestrel::exec::test
