// Differential tests of the GPU window functions: the same generated batches (partition keys with NULLs and a
// dictionary string key, order keys with many ties, DECIMAL, INTEGER and VARCHAR arguments with NULLs), fed
// through several driver states on several streams, must give the same rows from WindowSink on the host and
// WindowSinkGpu on their device copies, for every function kind and frame, with and without PARTITION BY and
// ORDER BY. A unique id column makes a difference in the order of ties visible.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "exec/ops/window/window.hpp"
#include "exec/ops/window/window_gpu.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using exec::WindowFunctionSpec;
using Kind = WindowFunctionSpec::Kind;
using Frame = WindowFunctionSpec::Frame;
using plan::AggregateFunction;
using Row = std::vector<Value>;

const LogicalType kDec = LogicalType::decimal(12, 2);

/// Column indices of the generated input.
enum Col : size_t { kId, kPart, kDict, kOrder, kDecimal, kInt, kString, kFallback, kColumns };

struct Input {
  SchemaPtr schema;
  std::vector<Batch> batches;
  std::vector<size_t> morsel;
  std::vector<size_t> sequence;
};

Input make_input(size_t rows, size_t batch_count, int partitions, int order_domain, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto null = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  const std::vector<std::string> dict = {"AIR", "MAIL", "RAIL", "SHIP"};
  std::vector<Field> fields = {{"id", TypeId::kBigInt}, {"p", TypeId::kInteger}, {"dict", TypeId::kVarchar},
                               {"o", TypeId::kInteger}, {"d", kDec},               {"i", TypeId::kInteger},
                               {"s", TypeId::kVarchar}, {"f", TypeId::kVarchar}};
  Input in;
  in.schema = std::make_shared<Schema>(fields);
  std::vector<std::vector<Value>> cols(kColumns);
  std::vector<int> dict_choice;
  for (size_t r = 0; r < rows; ++r) {
    cols[kId].push_back(Value::bigint(static_cast<int64_t>(r)));
    cols[kPart].push_back(null(5) ? Value::null(TypeId::kInteger)
                                  : Value::integer(static_cast<int32_t>(rng() % static_cast<uint64_t>(partitions))));
    dict_choice.push_back(null(5) ? -1 : static_cast<int>(rng() % dict.size()));
    cols[kOrder].push_back(null(8) ? Value::null(TypeId::kInteger)
                                   : Value::integer(static_cast<int32_t>(rng() % static_cast<uint64_t>(order_domain))));
    cols[kDecimal].push_back(null(10) ? Value::null(kDec)
                                      : Value::decimal(static_cast<int64_t>(rng() % 200001) - 100000, 12, 2));
    cols[kInt].push_back(null(10) ? Value::null(TypeId::kInteger)
                                  : Value::integer(static_cast<int32_t>(rng() % 1000) - 500));
    cols[kString].push_back(null(10) ? Value::null(TypeId::kVarchar)
                                     : Value::varchar("v" + std::to_string(rng() % 97)));
    cols[kFallback].push_back(null(30) ? Value::null(TypeId::kVarchar) : Value::varchar("fallback"));
  }
  std::vector<size_t> cuts = {0, rows};
  for (size_t b = 1; b < batch_count; ++b) cuts.push_back(rows == 0 ? 0 : rng() % (rows + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<size_t, size_t>> origins;
  for (size_t b = 0; b < batch_count; ++b) origins.push_back({b / 3, b % 3});
  std::shuffle(origins.begin(), origins.end(), rng);
  for (size_t b = 0; b < batch_count; ++b) {
    const size_t first = cuts[b], count = cuts[b + 1] - first;
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < kColumns; ++c) {
      if (c == kDict) {
        // Each batch has its own dictionary: the strings rotated by the batch number.
        columns.push_back(rotated_dictionary_column(
            dict, std::vector<int>(dict_choice.begin() + first, dict_choice.begin() + first + count), b));
        continue;
      }
      std::vector<Value> values(cols[c].begin() + first, cols[c].begin() + first + count);
      columns.push_back(Column::from_values(fields[c].type, values));
    }
    in.batches.emplace_back(in.schema, std::move(columns), count, gpu::MemoryKind::kHost);
    in.morsel.push_back(origins[b].first);
    in.sequence.push_back(origins[b].second);
  }
  return in;
}

/// The function kinds and frames under test, each over `partition` and `order`.
std::vector<WindowFunctionSpec> functions_over(const std::vector<size_t>& partition,
                                               const std::vector<exec::SortKeySpec>& order) {
  std::vector<WindowFunctionSpec> out;
  auto base = [&](Kind kind) {
    WindowFunctionSpec f;
    f.kind = kind;
    f.partition = partition;
    f.order = order;
    f.frame = order.empty() ? Frame::kPartition : Frame::kToLastPeer;
    return f;
  };
  for (Kind k : {Kind::kRowNumber, Kind::kRank, Kind::kDenseRank, Kind::kPercentRank, Kind::kCumeDist}) {
    out.push_back(base(k));
  }
  WindowFunctionSpec ntile = base(Kind::kNtile);
  ntile.offset = 3;
  out.push_back(ntile);
  for (Kind k : {Kind::kLag, Kind::kLead}) {
    for (bool fallback : {false, true}) {
      WindowFunctionSpec f = base(k);
      f.value = kString;
      f.value_type = TypeId::kVarchar;
      if (fallback) f.fallback = kFallback;
      f.offset = fallback ? 2 : 1;
      out.push_back(f);
    }
  }
  for (Frame frame : {Frame::kPartition, Frame::kToLastPeer, Frame::kToCurrentRow}) {
    for (Kind k : {Kind::kFirstValue, Kind::kLastValue}) {
      WindowFunctionSpec f = base(k);
      f.value = kDecimal;
      f.value_type = kDec;
      f.frame = frame;
      out.push_back(f);
    }
    const std::vector<std::pair<AggregateFunction, size_t>> aggregates = {
        {AggregateFunction::kSum, kDecimal}, {AggregateFunction::kAvg, kDecimal}, {AggregateFunction::kMin, kString},
        {AggregateFunction::kMax, kInt},     {AggregateFunction::kCount, kInt},   {AggregateFunction::kSum, kInt}};
    for (const auto& [function, column] : aggregates) {
      WindowFunctionSpec f = base(Kind::kAggregate);
      f.frame = frame;
      f.aggregate.function = function;
      f.aggregate.argument = column;
      f.aggregate.input_type = column == kDecimal ? kDec : column == kString ? LogicalType(TypeId::kVarchar)
                                                                             : LogicalType(TypeId::kInteger);
      out.push_back(f);
    }
    WindowFunctionSpec count_star = base(Kind::kAggregate);
    count_star.frame = frame;
    out.push_back(count_star);
  }
  return out;
}

class WindowGpuTest : public MultiDriverGpuTest {
 protected:
  void drive(exec::Sink& sink, const Input& in, bool device) {
    MultiDriverGpuTest::drive(sink, in.batches, in.morsel, in.sequence, device);
  }

  void expect_same(const Input& in, const std::vector<WindowFunctionSpec>& functions, const std::string& what) {
    auto cpu = std::make_shared<exec::WindowSink>(in.schema, 2, functions);
    drive(*cpu, in, false);
    auto gpu = std::make_shared<exec::WindowSinkGpu>(in.schema, 2, functions);
    drive(*gpu, in, true);
    ASSERT_EQ(gpu->output_rows(), cpu->output_rows()) << what;
    const size_t rows = cpu->output_rows();
    exec::ExecContext ctx = context();
    exec::SortSourceGpu source(gpu, 777);
    std::vector<Row> got;
    for (size_t m = 0; m < source.morsel_count(); ++m) {
      std::vector<Batch> out;
      source.read(m, ctx, out);
      for (const Batch& b : out) {
        ASSERT_TRUE(b.on_device());
        ASSERT_EQ(b.num_columns(), cpu->output_schema()->size());
        for (size_t c = 0; c < b.num_columns(); ++c) {
          ASSERT_EQ(b.column(c)->type(), cpu->output_schema()->field(c).type) << what << " column " << c;
        }
        auto part = rows_of(copy_batch(b, gpu::host_memory_resource(), b.stream()));
        got.insert(got.end(), part.begin(), part.end());
      }
    }
    const std::vector<Row> want = rows_of(cpu->read_rows(0, rows));
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < want[r].size(); ++c) {
        ASSERT_EQ(got[r][c], want[r][c]) << what << ": row " << r << " (id " << want[r][0].to_string()
                                         << ") column " << c << ": gpu " << got[r][c].to_string() << " cpu "
                                         << want[r][c].to_string();
      }
    }
  }
};

TEST_F(WindowGpuTest, EveryFunctionAndFrameMatchesTheCpu) {
  const Input in = make_input(5000, 7, 9, 40, 1);
  const std::vector<std::vector<size_t>> partitions = {{}, {kPart}, {kPart, kDict}};
  const std::vector<std::vector<exec::SortKeySpec>> orders = {
      {}, {{kOrder, false, false}}, {{kOrder, true, true}, {kDict, false, false}}};
  for (size_t p = 0; p < partitions.size(); ++p) {
    for (size_t o = 0; o < orders.size(); ++o) {
      expect_same(in, functions_over(partitions[p], orders[o]),
                  "partition set " + std::to_string(p) + ", order set " + std::to_string(o));
    }
  }
}

TEST_F(WindowGpuTest, LongRunningFramesAndSingleRowPartitions) {
  // Few partitions with thousands of rows each (many scan rounds), and partitions of one row.
  for (const auto& [partitions, seed] : std::vector<std::pair<int, uint64_t>>{{2, 2}, {100000, 3}}) {
    const Input in = make_input(20000, 5, partitions, 100000, seed);
    expect_same(in, functions_over({kPart}, {{kOrder, false, true}}), "partitions " + std::to_string(partitions));
  }
}

TEST_F(WindowGpuTest, EmptyInputAndEmptyBatches) {
  expect_same(make_input(0, 3, 3, 3, 4), functions_over({kPart}, {{kOrder, false, false}}), "empty");
  expect_same(make_input(1, 4, 3, 3, 5), functions_over({kPart}, {{kOrder, false, false}}), "one row");
}

TEST_F(WindowGpuTest, RefusesWhatTheGpuCannotRun) {
  const Input in = make_input(10, 1, 3, 3, 6);
  WindowFunctionSpec distinct;
  distinct.kind = Kind::kAggregate;
  distinct.aggregate.function = AggregateFunction::kCount;
  distinct.aggregate.argument = kInt;
  distinct.aggregate.input_type = TypeId::kInteger;
  distinct.aggregate.distinct = true;
  EXPECT_FALSE(exec::WindowSinkGpu::supports(*in.schema, {distinct}));
  WindowFunctionSpec many = distinct;
  many.aggregate.distinct = false;
  EXPECT_TRUE(exec::WindowSinkGpu::supports(*in.schema, {many}));
  many.partition.assign(exec::kMaxDeviceKeys + 1, kPart);
  EXPECT_FALSE(exec::WindowSinkGpu::supports(*in.schema, {many}));
}

}  // namespace
}  // namespace kestrel::testing
