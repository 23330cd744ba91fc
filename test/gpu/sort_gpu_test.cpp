// Differential tests of the GPU sort: the same generated batches (every sortable key type, NULLs, NaN, -0.0, many
// ties, dictionary strings with a different dictionary per batch), each with its own (morsel, sequence) and fed
// through several driver states on several streams, sorted by SortSink/TopNSink on the host and by
// SortSinkGpu/TopNSinkGpu on their device copies must give the same rows in the same order. A unique id column
// makes the order of ties visible. apply_limit_gpu is checked against apply_limit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>

#include "common/error.hpp"
#include "exec/ops/limit/limit.hpp"
#include "exec/ops/limit/limit_gpu.hpp"
#include "exec/ops/sort/sort.hpp"
#include "exec/ops/sort/sort_gpu.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using exec::SortKeySpec;
using Row = std::vector<Value>;

const LogicalType kDec64 = LogicalType::decimal(12, 2);
const LogicalType kDec128 = LogicalType::decimal(30, 4);

/// Column indices of the generated input.
enum Col : size_t { kId, kInt, kBig, kDecimal64, kDecimal128, kDouble, kDate, kBool, kString, kDict, kColumns };

/// Host batches with their place in the input order.
struct Input {
  SchemaPtr schema;
  std::vector<Batch> batches;
  std::vector<size_t> morsel;
  std::vector<size_t> sequence;
  size_t rows = 0;
};

const std::vector<std::string> kStrings = {"", "a", "ab", "abc", "b", "ba", "zz", "A", "\xc3\xa9t\xc3\xa9"};
const std::vector<std::string> kDictStrings = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "FOB"};

/// `rows` rows in `batch_count` batches (some may be empty); keys drawn from `domain` values so ties abound.
Input make_input(size_t rows, size_t batch_count, int64_t domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto null = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  auto key = [&]() { return static_cast<int64_t>(rng() % static_cast<uint64_t>(domain)) - domain / 2; };
  std::vector<Field> fields = {{"id", TypeId::kBigInt},   {"i", TypeId::kInteger}, {"b", TypeId::kBigInt},
                               {"d64", kDec64},           {"d128", kDec128},       {"dbl", TypeId::kDouble},
                               {"dt", TypeId::kDate},     {"bo", TypeId::kBoolean}, {"s", TypeId::kVarchar},
                               {"dict", TypeId::kVarchar}};
  Input in;
  in.schema = std::make_shared<Schema>(fields);
  in.rows = rows;
  std::vector<std::vector<Value>> cols(kColumns);
  std::vector<int> dict_choice;  // index into kDictStrings, -1 for NULL
  for (size_t r = 0; r < rows; ++r) {
    cols[kId].push_back(Value::bigint(static_cast<int64_t>(r)));
    cols[kInt].push_back(null(10) ? Value::null(TypeId::kInteger) : Value::integer(static_cast<int32_t>(key())));
    cols[kBig].push_back(null(10) ? Value::null(TypeId::kBigInt) : Value::bigint(key() * 1000000007LL));
    cols[kDecimal64].push_back(null(10) ? Value::null(kDec64) : Value::decimal(key() * 125 - 7, 12, 2));
    const int128_t wide = static_cast<int128_t>(key()) * 10000000000LL * 10000000000LL + static_cast<int>(rng() % 3);
    cols[kDecimal128].push_back(null(10) ? Value::null(kDec128) : Value::decimal(wide, 30, 4));
    Value dbl;
    switch (rng() % 20) {
      case 0: dbl = Value::null(TypeId::kDouble); break;
      case 1: dbl = Value::double_value(std::nan("")); break;
      case 2: dbl = Value::double_value(-0.0); break;
      case 3: dbl = Value::double_value(0.0); break;
      case 4: dbl = Value::double_value((rng() & 1) ? INFINITY : -INFINITY); break;
      default: dbl = Value::double_value(static_cast<double>(key()) / 4.0); break;
    }
    cols[kDouble].push_back(dbl);
    cols[kDate].push_back(Value::date(static_cast<int32_t>(key())));
    cols[kBool].push_back(null(10) ? Value::null(TypeId::kBoolean) : Value::boolean(rng() & 1));
    if (null(10)) {
      cols[kString].push_back(Value::null(TypeId::kVarchar));
    } else if (domain > static_cast<int64_t>(kStrings.size())) {
      cols[kString].push_back(Value::varchar("k" + std::to_string(key())));
    } else {
      cols[kString].push_back(Value::varchar(kStrings[rng() % kStrings.size()]));
    }
    dict_choice.push_back(null(12) ? -1 : static_cast<int>(rng() % kDictStrings.size()));
  }
  // Random cut points; equal cuts make empty batches.
  std::vector<size_t> cuts = {0, rows};
  for (size_t b = 1; b < batch_count; ++b) cuts.push_back(rows == 0 ? 0 : rng() % (rows + 1));
  std::sort(cuts.begin(), cuts.end());
  // Distinct (morsel, sequence) pairs in shuffled order, so input order differs from consumption order.
  std::vector<std::pair<size_t, size_t>> origins;
  for (size_t b = 0; b < batch_count; ++b) origins.push_back({b / 3, b % 3});
  std::shuffle(origins.begin(), origins.end(), rng);
  for (size_t b = 0; b < batch_count; ++b) {
    const size_t first = cuts[b];
    const size_t count = cuts[b + 1] - first;
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < kDict; ++c) {
      std::vector<Value> values(cols[c].begin() + first, cols[c].begin() + first + count);
      columns.push_back(Column::from_values(fields[c].type, values));
    }
    // Each batch has its own dictionary: the strings rotated by the batch number.
    columns.push_back(rotated_dictionary_column(
        kDictStrings, std::vector<int>(dict_choice.begin() + first, dict_choice.begin() + first + count), b));
    in.batches.emplace_back(in.schema, std::move(columns), count, gpu::MemoryKind::kHost);
    in.morsel.push_back(origins[b].first);
    in.sequence.push_back(origins[b].second);
  }
  return in;
}

bool same_value(const Value& a, const Value& b) {
  if (a == b) return true;
  return !a.is_null() && !b.is_null() && a.type() == b.type() && a.type().id() == TypeId::kDouble &&
         std::isnan(a.as_double()) && std::isnan(b.as_double());
}

std::string describe(const std::vector<SortKeySpec>& keys) {
  std::string s;
  for (const auto& k : keys) {
    s += "col" + std::to_string(k.column) + (k.descending ? " DESC" : " ASC") +
         (k.nulls_first ? " NULLS FIRST, " : " NULLS LAST, ");
  }
  return s;
}

void expect_same_rows(const std::vector<Row>& got, const std::vector<Row>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t r = 0; r < want.size(); ++r) {
    ASSERT_EQ(got[r].size(), want[r].size()) << what;
    for (size_t c = 0; c < want[r].size(); ++c) {
      ASSERT_TRUE(same_value(got[r][c], want[r][c]))
          << what << ": row " << r << " column " << c << ": gpu " << got[r][c].to_string() << " cpu "
          << want[r][c].to_string() << " (ids gpu " << got[r][0].to_string() << " cpu " << want[r][0].to_string()
          << ")";
    }
  }
}

class SortGpuTest : public MultiDriverGpuTest {
 protected:
  void drive(exec::Sink& sink, const Input& in, bool device) {
    MultiDriverGpuTest::drive(sink, in.batches, in.morsel, in.sequence, device);
  }

  static std::vector<Row> cpu_output(const exec::SortedOutput& sorted) {
    std::vector<Row> rows;
    for (size_t first = 0; first < sorted.output_rows(); first += 1000) {
      auto part = rows_of(sorted.read_rows(first, std::min<size_t>(1000, sorted.output_rows() - first)));
      rows.insert(rows.end(), part.begin(), part.end());
    }
    return rows;
  }

  /// Reads the GPU output through SortSourceGpu in morsels of `morsel_rows` and copies it back.
  std::vector<Row> gpu_output(std::shared_ptr<const exec::SortedOutputGpu> sorted, size_t morsel_rows,
                              const SchemaPtr& schema) {
    exec::ExecContext ctx = context();
    exec::SortSourceGpu source(std::move(sorted), morsel_rows);
    std::vector<Row> rows;
    for (size_t m = 0; m < source.morsel_count(); ++m) {
      std::vector<Batch> out;
      source.read(m, ctx, out);
      for (const Batch& b : out) {
        EXPECT_TRUE(b.on_device());
        EXPECT_EQ(b.num_columns(), schema->size());
        for (size_t c = 0; c < b.num_columns() && c < schema->size(); ++c) {
          EXPECT_EQ(b.column(c)->type(), schema->field(c).type);
        }
        auto part = rows_of(copy_batch(b, gpu::host_memory_resource(), b.stream()));
        rows.insert(rows.end(), part.begin(), part.end());
      }
    }
    return rows;
  }

  void expect_sort(const Input& in, const std::vector<SortKeySpec>& keys) {
    const std::string what = "sort by " + describe(keys) + " rows " + std::to_string(in.rows);
    exec::SortSink cpu(in.schema, keys, 500);
    drive(cpu, in, false);
    auto gpu = std::make_shared<exec::SortSinkGpu>(in.schema, keys);
    drive(*gpu, in, true);
    ASSERT_EQ(gpu->output_rows(), cpu.output_rows()) << what;
    expect_same_rows(gpu_output(gpu, 777, in.schema), cpu_output(cpu), what);
  }

  void expect_top_n(const Input& in, const std::vector<SortKeySpec>& keys, uint64_t limit, uint64_t offset) {
    for (size_t min_reduce_rows : {size_t{1}, size_t{1} << 20}) {
      const std::string what = "top " + std::to_string(limit) + " offset " + std::to_string(offset) + " by " +
                               describe(keys) + " rows " + std::to_string(in.rows) + " reduce at " +
                               std::to_string(min_reduce_rows);
      exec::TopNSink cpu(in.schema, keys, limit, offset);
      drive(cpu, in, false);
      auto gpu = std::make_shared<exec::TopNSinkGpu>(in.schema, keys, limit, offset, min_reduce_rows);
      drive(*gpu, in, true);
      ASSERT_EQ(gpu->output_rows(), cpu.output_rows()) << what;
      expect_same_rows(gpu_output(gpu, 7, in.schema), cpu_output(cpu), what);
    }
  }

  /// Key lists over every key type, directions and NULL placements.
  static std::vector<std::vector<SortKeySpec>> key_lists() {
    return {
        {{kInt, false, false}},
        {{kInt, true, true}},
        {{kInt, false, true}, {kString, true, false}},
        {{kBig, true, false}, {kBool, false, true}},
        {{kDecimal64, true, true}},
        {{kDecimal128, false, false}},
        {{kDecimal128, true, false}, {kInt, false, true}},
        {{kDouble, false, false}},
        {{kDouble, true, true}},
        {{kDate, false, false}, {kBool, true, false}},
        {{kBool, false, true}},
        {{kString, false, false}},
        {{kString, true, true}},
        {{kDict, false, false}},
        {{kDict, true, true}, {kDouble, true, false}},
        {{kBool, false, false}, {kDict, false, true}, {kString, true, true}, {kDate, true, false}},
        {{kId, true, false}},
    };
  }

};

TEST_F(SortGpuTest, SortMatchesCpuOnEveryKeyType) {
  Input in = make_input(3000, 8, 7, 1);
  for (const auto& keys : key_lists()) expect_sort(in, keys);
}

TEST_F(SortGpuTest, SortManyDistinctKeys) {
  Input in = make_input(3000, 5, 100000, 2);
  for (const auto& keys : key_lists()) expect_sort(in, keys);
}

TEST_F(SortGpuTest, SortEmptyInput) {
  Input none = make_input(0, 0, 7, 3);
  Input empty_batches = make_input(0, 3, 7, 3);
  for (const auto& keys : key_lists()) {
    expect_sort(none, keys);
    expect_sort(empty_batches, keys);
  }
}

TEST_F(SortGpuTest, SortOneRow) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Input in = make_input(1, 2, 7, seed);
    for (const auto& keys : key_lists()) expect_sort(in, keys);
  }
}

TEST_F(SortGpuTest, Sort200kRows) {
  Input in = make_input(200000, 9, 50, 4);
  expect_sort(in, {{kInt, false, false}, {kDouble, true, true}});
  expect_sort(in, {{kDict, true, false}, {kString, false, true}, {kDecimal128, false, false}});
}

TEST_F(SortGpuTest, TopNMatchesCpu) {
  Input in = make_input(2000, 7, 7, 5);
  const uint64_t n = in.rows;
  const std::vector<std::pair<uint64_t, uint64_t>> limits = {{0, 0},  {0, 5},      {1, 0},     {10, 0},  {10, 5},
                                                             {100, 37}, {n, 0},    {n + 10, 0}, {50, n - 20},
                                                             {5, n},   {5, n + 3}, {UINT64_MAX, 3}};
  for (const auto& keys : key_lists()) {
    for (const auto& [limit, offset] : limits) expect_top_n(in, keys, limit, offset);
  }
}

TEST_F(SortGpuTest, TopNEmptyAndOneRow) {
  Input none = make_input(0, 0, 7, 6);
  Input empty_batches = make_input(0, 3, 7, 6);
  Input one = make_input(1, 2, 7, 6);
  for (const auto& keys : key_lists()) {
    for (const Input* in : {&none, &empty_batches, &one}) {
      expect_top_n(*in, keys, 0, 0);
      expect_top_n(*in, keys, 1, 0);
      expect_top_n(*in, keys, 3, 1);
    }
  }
}

TEST_F(SortGpuTest, TopN200kRows) {
  Input in = make_input(200000, 9, 50, 7);
  expect_top_n(in, {{kInt, false, false}, {kDouble, true, true}}, 1000, 10);
  expect_top_n(in, {{kDict, true, false}, {kString, false, true}}, 100, 0);
  expect_top_n(in, {{kBool, false, true}}, 30000, 100);
}

TEST_F(SortGpuTest, RefusesWhatTheGpuCannotSortLikeTheCpu) {
  Input in = make_input(10, 1, 7, 9);
  EXPECT_TRUE(exec::SortSinkGpu::supports(*in.schema, {{kString, true, false}}));
  EXPECT_TRUE(exec::TopNSinkGpu::supports(*in.schema, {{kDict, false, true}}));
  // The device orders intervals field by field, the CPU by length: no GPU sort by INTERVAL.
  auto with_interval = std::make_shared<Schema>(std::vector<Field>{{"iv", TypeId::kInterval}});
  EXPECT_FALSE(exec::SortSinkGpu::supports(*with_interval, {{0, false, false}}));
  EXPECT_FALSE(exec::TopNSinkGpu::supports(*with_interval, {{0, false, false}}));
  EXPECT_THROW(exec::SortSinkGpu(with_interval, {{0, false, false}}), NotImplemented);
  EXPECT_THROW(exec::TopNSinkGpu(with_interval, {{0, false, false}}, 10), NotImplemented);
  // Top-N keeps one device key for the row origin.
  std::vector<SortKeySpec> keys(exec::kMaxDeviceKeys, SortKeySpec{kInt, false, false});
  EXPECT_TRUE(exec::SortSinkGpu::supports(*in.schema, keys));
  EXPECT_FALSE(exec::TopNSinkGpu::supports(*in.schema, keys));
  keys.push_back(SortKeySpec{kBig, false, false});
  EXPECT_FALSE(exec::SortSinkGpu::supports(*in.schema, keys));
}

TEST_F(SortGpuTest, ApplyLimitMatchesCpu) {
  Input in = make_input(343, 7, 7, 8);
  const std::vector<std::pair<std::optional<uint64_t>, uint64_t>> limits = {
      {std::nullopt, 0}, {std::nullopt, 3}, {std::nullopt, 342}, {std::nullopt, 343}, {std::nullopt, 1000},
      {0, 0},            {0, 10},           {1, 0},              {1, 342},            {10, 0},
      {10, 3},           {100, 50},         {343, 0},            {1000, 0},           {5, 500}};
  for (const auto& [limit, offset] : limits) {
    const std::string what =
        "limit " + (limit ? std::to_string(*limit) : std::string("none")) + " offset " + std::to_string(offset);
    std::vector<Batch> cpu = in.batches;
    exec::apply_limit(cpu, limit, offset);
    std::vector<Batch> gpu;
    for (size_t j = 0; j < in.batches.size(); ++j) {
      gpu.push_back(copy_batch(in.batches[j], device_mr(), driver(j % kDrivers)));
    }
    exec::apply_limit_gpu(gpu, limit, offset, stream(), device_mr());
    ASSERT_EQ(gpu.size(), cpu.size()) << what;
    for (size_t j = 0; j < cpu.size(); ++j) {
      ASSERT_TRUE(gpu[j].on_device()) << what;
      expect_same_rows(rows_of(copy_batch(gpu[j], gpu::host_memory_resource(), gpu[j].stream())), rows_of(cpu[j]),
                       what + " batch " + std::to_string(j));
    }
  }
}

}  // namespace
}  // namespace kestrel::testing
