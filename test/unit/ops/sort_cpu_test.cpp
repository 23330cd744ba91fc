#include <gtest/gtest.h>

#include "exec/ops/sort/sort.hpp"
#include "ops_test_util.hpp"

namespace kestrel::exec::test {
namespace {

/// ORDER BY with std::stable_sort over rows.
std::vector<Row> reference_sort(std::vector<Row> rows, const std::vector<SortKeySpec>& keys) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    for (const auto& k : keys) {
      const Value& x = a[k.column];
      const Value& y = b[k.column];
      if (x.is_null() || y.is_null()) {
        if (x.is_null() == y.is_null()) continue;
        return x.is_null() == k.nulls_first;
      }
      int c = compare_values(x, y);
      if (c != 0) return k.descending ? c > 0 : c < 0;
    }
    return false;
  });
  return rows;
}

struct SortRun {
  size_t batch_rows = 37;
  bool dictionary = false;
  size_t run_rows = 50;
};

std::vector<Row> run_sort(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                          const std::vector<SortKeySpec>& keys, int threads, const SortRun& how,
                          std::optional<std::pair<uint64_t, uint64_t>> limit_offset = std::nullopt) {
  auto source = std::make_shared<BatchSource>(make_batches(types, rows, how.batch_rows, how.dictionary));
  std::shared_ptr<Sink> sink;
  std::shared_ptr<SortedOutput> sorted;
  if (limit_offset) {
    auto s = std::make_shared<TopNSink>(make_schema(types), keys, limit_offset->first, limit_offset->second);
    sink = s;
    sorted = s;
  } else {
    auto s = std::make_shared<SortSink>(make_schema(types), keys, how.run_rows);
    sink = s;
    sorted = s;
  }
  auto collector = std::make_shared<BatchCollector>(make_schema(types));
  std::vector<Pipeline> p(2);
  p[0] = {source, {}, sink, {}};
  p[1] = {std::make_shared<SortSource>(sorted, 16), {}, collector, {0}};
  return run_and_collect(std::move(p), collector, threads);
}

std::vector<Row> numbered_rows(const std::vector<LogicalType>& key_types, size_t n, uint64_t seed, double nulls,
                               int domain = 6) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    Row r;
    for (const auto& t : key_types) r.push_back(random_value(t, rng, nulls, domain));
    r.push_back(Value::integer(static_cast<int32_t>(i)));  // the input position shows stability
    rows.push_back(std::move(r));
  }
  return rows;
}

void check_sort(const std::vector<LogicalType>& key_types, const std::vector<Row>& rows,
                const std::vector<SortKeySpec>& keys, const std::string& what) {
  std::vector<LogicalType> types = key_types;
  types.push_back(TypeId::kInteger);
  auto expected = reference_sort(rows, keys);
  for (int threads : {1, 4}) {
    for (bool dictionary : {false, true}) {
      SortRun how{37, dictionary, 50};
      expect_same_rows_ordered(run_sort(types, rows, keys, threads, how), expected,
                               what + " threads=" + std::to_string(threads) + " dict=" + std::to_string(dictionary));
    }
  }
}

TEST(SortCpu, EveryTypeEveryDirectionAndNullOrder) {
  for (const LogicalType& t : storable_types()) {
    auto rows = numbered_rows({t}, 300, 17, 0.15);
    for (bool desc : {false, true}) {
      for (bool nulls_first : {false, true}) {
        check_sort({t}, rows, {{0, desc, nulls_first}},
                   t.to_string() + (desc ? " desc" : " asc") + (nulls_first ? " nulls first" : " nulls last"));
      }
    }
  }
}

TEST(SortCpu, MultipleKeysWithStrings) {
  std::vector<LogicalType> keys{TypeId::kVarchar, LogicalType::decimal(38, 10), TypeId::kDate};
  auto rows = numbered_rows(keys, 500, 23, 0.1);
  check_sort(keys, rows, {{0, false, false}, {1, true, true}, {2, false, true}}, "three keys");
  check_sort(keys, rows, {{2, true, false}, {0, true, false}}, "two keys");
}

TEST(SortCpu, StableOnEqualKeysAndSkew) {
  std::vector<LogicalType> keys{TypeId::kBigInt};
  auto rows = numbered_rows(keys, 700, 29, 0.0, 1);  // every key equal: the output is the input order
  check_sort(keys, rows, {{0, false, false}}, "all equal");
  auto skewed = numbered_rows(keys, 700, 31, 0.02, 2);
  check_sort(keys, skewed, {{0, true, false}}, "two keys values");
}

TEST(SortCpu, EmptyAndOneRow) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger};
  for (int threads : {1, 4}) {
    EXPECT_TRUE(run_sort(types, {}, {{0, false, false}}, threads, {}).empty());
    std::vector<Row> one{{Value::varchar("x"), Value::integer(1)}};
    expect_same_rows_ordered(run_sort(types, one, {{0, true, true}}, threads, {}), one, "one row");
  }
}

TEST(SortCpu, ManyRunsPerDriverMergeInOrder) {
  std::vector<LogicalType> keys{TypeId::kDouble, TypeId::kVarchar};
  auto rows = numbered_rows(keys, 3000, 37, 0.05, 40);
  std::vector<LogicalType> types = keys;
  types.push_back(TypeId::kInteger);
  std::vector<SortKeySpec> spec{{0, false, false}, {1, true, false}};
  auto expected = reference_sort(rows, spec);
  for (size_t run_rows : {1, 7, 100, 100000}) {
    expect_same_rows_ordered(run_sort(types, rows, spec, 4, {13, true, run_rows}), expected,
                             "run_rows=" + std::to_string(run_rows));
  }
}

TEST(SortCpu, TopNKeepsTheFirstRowsOfTheStableOrder) {
  std::vector<LogicalType> keys{TypeId::kVarchar, TypeId::kInteger};
  auto rows = numbered_rows(keys, 800, 41, 0.1);
  std::vector<LogicalType> types = keys;
  types.push_back(TypeId::kInteger);
  std::vector<SortKeySpec> spec{{0, true, false}, {1, false, true}};
  auto sorted = reference_sort(rows, spec);
  for (auto [limit, offset] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 0}, {1, 0}, {10, 0}, {10, 5}, {100, 790}, {5000, 0}, {3, 2000}, {700, 50}}) {
    std::vector<Row> expected;
    for (size_t i = offset; i < sorted.size() && i < offset + limit; ++i) expected.push_back(sorted[i]);
    for (int threads : {1, 4}) {
      for (bool dictionary : {false, true}) {
        expect_same_rows_ordered(run_sort(types, rows, spec, threads, {29, dictionary, 50}, {{limit, offset}}),
                                 expected, "limit " + std::to_string(limit) + " offset " + std::to_string(offset));
      }
    }
  }
  EXPECT_TRUE(run_sort(types, {}, spec, 4, {}, {{10, 0}}).empty());
}

}  // namespace
}  // namespace kestrel::exec::test
