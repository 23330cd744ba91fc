// Differential tests of HashAggregateSinkGpu / HashAggregateSourceGpu against HashAggregateSink (kSingle): the same
// generated batches (VARCHAR keys plain and dictionary-encoded with a different dictionary per batch, int128
// decimals, doubles, intervals, NULL keys and values; every function, DISTINCT included) aggregated by both sinks,
// driven by hand over several batches, must give the same groups and values (sums, averages and variances of doubles
// within 1e-9 relative). Also empty input, one row, few groups over many rows, many groups, skew and overflow errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_op.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_table.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using exec::AggregateSpec;
using plan::AggregateFunction;
using Row = std::vector<Value>;

/// How the integer key spreads over groups.
enum class Spread { kFew, kThree, kUnique, kSkewed };

const LogicalType kWideKey = LogicalType::decimal(30, 2);
const LogicalType kDec = LogicalType::decimal(15, 3);
const LogicalType kWideDec = LogicalType::decimal(38, 4);

/// Column indices of make_batch.
enum Col : size_t {
  kKeyStr,
  kKeyDict,
  kKeyWide,
  kKeyDouble,
  kKeyInt,
  kKeyInterval,
  kValInt,
  kValBig,
  kValDec,
  kValWideDec,
  kValDouble,
  kValStr,
  kValDate,
  kValSmall,
  kValReal,
  kValInterval,
  kColumns,
};

std::vector<Field> batch_fields() {
  return {{"k_str", TypeId::kVarchar},    {"k_dict", TypeId::kVarchar},     {"k_wide", kWideKey},
          {"k_dbl", TypeId::kDouble},     {"k_int", TypeId::kInteger},      {"k_ivl", TypeId::kInterval},
          {"v_int", TypeId::kInteger},    {"v_big", TypeId::kBigInt},       {"v_dec", kDec},
          {"v_wide", kWideDec},           {"v_dbl", TypeId::kDouble},       {"v_str", TypeId::kVarchar},
          {"v_date", TypeId::kDate},      {"v_small", TypeId::kSmallInt},   {"v_real", TypeId::kReal},
          {"v_ivl", TypeId::kInterval}};
}

/// One batch of `rows` rows; batch number `index` picks its own dictionary for k_dict. About 10% NULLs in every
/// column. Doubles and reals are multiples of 1/8 small enough that every sum is exact.
Batch make_batch(size_t rows, Spread spread, size_t index, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + index);
  auto null = [&]() { return rng() % 10 == 0; };
  const std::vector<Field> fields = batch_fields();
  std::vector<std::vector<Value>> cols(kColumns);
  static const char* kWords[] = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "FOB", "REG AIR", ""};
  // This batch's dictionary: a rotation of a subset of kWords, so equal strings have different indices.
  std::vector<Value> dictionary;
  for (size_t i = 0; i < 5; ++i) dictionary.push_back(Value::varchar(kWords[(i + index * 3) % 8]));
  std::vector<Value> indices;
  for (size_t r = 0; r < rows; ++r) {
    int64_t k;
    switch (spread) {
      case Spread::kFew: k = static_cast<int64_t>(rng() % 5); break;
      case Spread::kThree: k = static_cast<int64_t>(rng() % 3); break;
      case Spread::kUnique: k = static_cast<int64_t>(index * 1000003 + r); break;
      case Spread::kSkewed: k = rng() % 10 != 0 ? 1 : static_cast<int64_t>(rng() % 100000); break;
    }
    const bool few = spread == Spread::kFew || spread == Spread::kThree;
    cols[kKeyStr].push_back(null() ? Value::null(TypeId::kVarchar)
                                   : Value::varchar(few ? kWords[k % 8] : "s" + std::to_string(k % 97)));
    indices.push_back(null() ? Value::null(TypeId::kInteger) : Value::integer(static_cast<int32_t>(rng() % 5)));
    cols[kKeyWide].push_back(null() ? Value::null(kWideKey)
                                    : Value::decimal(static_cast<int128_t>(k % 4) * 1000000000000000000LL * 1000 - 5,
                                                     30, 2));
    cols[kKeyDouble].push_back(null() ? Value::null(TypeId::kDouble)
                                      : Value::double_value(static_cast<double>(k % 6) / 4.0 - 0.5));
    cols[kKeyInt].push_back(spread != Spread::kUnique && null() ? Value::null(TypeId::kInteger)
                                                                : Value::integer(static_cast<int32_t>(k)));
    cols[kKeyInterval].push_back(null() ? Value::null(TypeId::kInterval)
                                        : Value::interval(Interval{static_cast<int32_t>(k % 2),
                                                                   static_cast<int32_t>(k % 3), 0}));
    cols[kValInt].push_back(null() ? Value::null(TypeId::kInteger) : Value::integer(static_cast<int32_t>(rng())));
    cols[kValBig].push_back(null() ? Value::null(TypeId::kBigInt) : Value::bigint(static_cast<int64_t>(rng())));
    const int128_t dec = static_cast<int128_t>(rng() % 1000000000000000ULL) * ((rng() & 1) ? -1 : 1);
    cols[kValDec].push_back(null() ? Value::null(kDec) : Value::decimal(dec, 15, 3));
    const int128_t wide = (static_cast<int128_t>(rng() % 1000000000000000ULL) * 1000000000000000LL +
                           static_cast<int128_t>(rng() % 1000000000000000ULL)) *
                          ((rng() & 1) ? -1 : 1);
    cols[kValWideDec].push_back(null() ? Value::null(kWideDec) : Value::decimal(wide, 38, 4));
    cols[kValDouble].push_back(null() ? Value::null(TypeId::kDouble)
                                      : Value::double_value(static_cast<double>(rng() % 2000001) / 8.0 - 125000.0));
    std::string s(rng() % 12, 'x');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    cols[kValStr].push_back(null() ? Value::null(TypeId::kVarchar) : Value::varchar(s));
    cols[kValDate].push_back(null() ? Value::null(TypeId::kDate)
                                    : Value::date(static_cast<int32_t>(rng() % 40000) - 10000));
    cols[kValSmall].push_back(null() ? Value::null(TypeId::kSmallInt)
                                     : Value::smallint(static_cast<int16_t>(rng() % 50)));
    cols[kValReal].push_back(null() ? Value::null(TypeId::kReal)
                                    : Value::real(static_cast<float>(rng() % 20001) / 8.0f - 1000.0f));
    // Lengths are distinct for distinct intervals here, so min and max are unique.
    cols[kValInterval].push_back(null() ? Value::null(TypeId::kInterval)
                                        : Value::interval(Interval{0, 0, static_cast<int64_t>(rng() % 1000000)}));
  }
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < kColumns; ++c) {
    if (c == kKeyDict) {
      auto dict = Column::from_values(TypeId::kVarchar, dictionary);
      auto idx = Column::from_values(TypeId::kInteger, indices);
      columns.push_back(Column::make_dictionary(TypeId::kVarchar, rows, idx->values(), idx->validity(),
                                                idx->null_count(), dict));
    } else {
      columns.push_back(Column::from_values(fields[c].type, cols[c]));
    }
  }
  return Batch(std::make_shared<Schema>(fields), std::move(columns), rows, gpu::MemoryKind::kHost);
}

std::vector<Batch> make_batches(size_t batches, size_t rows, Spread spread, uint64_t seed) {
  std::vector<Batch> out;
  for (size_t i = 0; i < batches; ++i) out.push_back(make_batch(rows, spread, i, seed));
  return out;
}

AggregateSpec agg(AggregateFunction f, size_t column, bool distinct = false) {
  return {f, column, batch_fields()[column].type, distinct};
}

/// Every function over every value column it applies to, plus DISTINCT ones.
std::vector<AggregateSpec> all_aggregates() {
  using F = AggregateFunction;
  std::vector<AggregateSpec> out{{F::kCountStar, std::nullopt, TypeId::kBigInt, false}};
  for (size_t c : {kValInt, kValBig, kValDec, kValWideDec, kValDouble, kValSmall, kValReal}) {
    for (auto f : {F::kCount, F::kSum, F::kAvg, F::kMin, F::kMax}) out.push_back(agg(f, c));
  }
  for (size_t c : {kValStr, kValDate, kValInterval, kKeyDict, kKeyWide}) {
    for (auto f : {F::kCount, F::kMin, F::kMax}) out.push_back(agg(f, c));
  }
  for (auto f : {F::kVarSamp, F::kVarPop, F::kStddevSamp, F::kStddevPop}) out.push_back(agg(f, kValDouble));
  out.push_back(agg(F::kStddevSamp, kValDouble, true));
  out.push_back(agg(F::kAnyValue, kValStr));
  out.push_back(agg(F::kAnyValue, kValInt));
  out.push_back(agg(F::kAnyValue, kKeyDict));
  out.push_back(agg(F::kCount, kValSmall, true));
  out.push_back(agg(F::kSum, kValSmall, true));
  out.push_back(agg(F::kCount, kKeyDict, true));
  out.push_back(agg(F::kAvg, kValSmall, true));
  out.push_back(agg(F::kMax, kValStr, true));
  out.push_back(agg(F::kCountStar, kValInt, true));  // DISTINCT on count(*) is ignored, as on the CPU
  return out;
}

/// A few aggregates, for the big inputs.
std::vector<AggregateSpec> some_aggregates() {
  using F = AggregateFunction;
  return {{F::kCountStar, std::nullopt, TypeId::kBigInt, false},
          agg(F::kSum, kValBig),
          agg(F::kAvg, kValDec),
          agg(F::kSum, kValWideDec),
          agg(F::kAvg, kValDouble),
          agg(F::kVarSamp, kValDouble),
          agg(F::kStddevPop, kValDouble),
          agg(F::kMin, kValStr),
          agg(F::kMax, kValDate),
          agg(F::kCount, kValSmall, true)};
}

/// Orders rows by the text of their first `keys` values (group keys are unique, so this is a total order).
void sort_by_keys(std::vector<Row>& rows, size_t keys) {
  auto text = [keys](const Row& row) {
    std::string s;
    for (size_t k = 0; k < keys; ++k) s += (row[k].is_null() ? std::string("\x01") : row[k].to_string()) + '\x1f';
    return s;
  };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return text(a) < text(b); });
}

bool same_value(const Value& got, const Value& want) {
  if (got.is_null() || want.is_null() || want.type().id() != TypeId::kDouble) return got == want;
  if (got.type() != want.type()) return false;
  const double g = got.as_double(), w = want.as_double();
  return g == w || std::fabs(g - w) <= 1e-9 * std::max(std::fabs(g), std::fabs(w));
}

class HashAggregateGpuOpTest : public GpuTest {
 protected:
  /// The CPU answer: every batch into one local state of HashAggregateSink, then all its groups.
  std::vector<Row> cpu_rows(const std::vector<Batch>& batches, const SchemaPtr& schema,
                            const std::vector<size_t>& keys, const std::vector<AggregateSpec>& aggregates,
                            SchemaPtr* out_schema) {
    exec::HashAggregateSink sink(schema, keys, aggregates);
    exec::ExecContext ctx;
    auto local = sink.make_local_state(ctx);
    for (size_t i = 0; i < batches.size(); ++i) sink.consume(*local, i, 0, batches[i], ctx);
    sink.combine(*local, ctx);
    sink.finalize(ctx);
    *out_schema = sink.output_schema();
    return rows_of(sink.read_groups(0, sink.group_count()));
  }

  /// The GPU answer: the device copies of the batches split over `drivers` local states, then the source's
  /// morsels copied back to the host.
  std::vector<Row> gpu_rows(const std::vector<Batch>& batches, const SchemaPtr& schema,
                            const std::vector<size_t>& keys, const std::vector<AggregateSpec>& aggregates,
                            size_t drivers, size_t morsel_rows, SchemaPtr* out_schema) {
    auto sink = std::make_shared<exec::HashAggregateSinkGpu>(schema, keys, aggregates);
    exec::ExecContext ctx;
    ctx.device_mr = &device_mr();
    std::vector<std::unique_ptr<exec::Sink::LocalState>> locals;
    for (size_t d = 0; d < drivers; ++d) locals.push_back(sink->make_local_state(ctx));
    // Driver d takes a contiguous range of batches and the locals are combined in order, so the states keep the
    // batch order and any_value matches the CPU's first value.
    for (size_t i = 0; i < batches.size(); ++i) {
      sink->consume(*locals[i * drivers / batches.size()], i, 0, copy_batch(batches[i], device_mr(), stream()), ctx);
    }
    for (auto& l : locals) sink->combine(*l, ctx);
    sink->finalize(ctx);
    *out_schema = sink->output_schema();
    exec::HashAggregateSourceGpu source(sink, morsel_rows);
    EXPECT_EQ(source.morsel_count(), (sink->group_count() + morsel_rows - 1) / morsel_rows);
    std::vector<Row> rows;
    for (size_t m = 0; m < source.morsel_count(); ++m) {
      std::vector<Batch> out;
      source.read(m, ctx, out);
      for (const Batch& b : out) {
        EXPECT_TRUE(b.on_device());
        Batch host = copy_batch(b, gpu::host_memory_resource(), b.stream());
        EXPECT_EQ(host.num_columns(), sink->output_schema()->size());
        for (size_t c = 0; c < host.num_columns(); ++c) {
          EXPECT_EQ(host.column(c)->type(), sink->output_schema()->field(c).type) << "column " << c;
        }
        for (auto& r : rows_of(host)) rows.push_back(std::move(r));
      }
    }
    EXPECT_EQ(rows.size(), sink->group_count());
    return rows;
  }

  void expect_same(const std::vector<Batch>& batches, const std::vector<size_t>& keys,
                   const std::vector<AggregateSpec>& aggregates, const std::string& what, size_t drivers = 1,
                   size_t morsel_rows = size_t{1} << 20) {
    const SchemaPtr schema = std::make_shared<Schema>(batch_fields());
    SchemaPtr cpu_schema, gpu_schema;
    std::vector<Row> want = cpu_rows(batches, schema, keys, aggregates, &cpu_schema);
    std::vector<Row> got = gpu_rows(batches, schema, keys, aggregates, drivers, morsel_rows, &gpu_schema);
    ASSERT_EQ(gpu_schema->size(), cpu_schema->size()) << what;
    for (size_t c = 0; c < cpu_schema->size(); ++c) {
      EXPECT_EQ(gpu_schema->field(c).type, cpu_schema->field(c).type) << what << " column " << c;
      EXPECT_EQ(gpu_schema->field(c).name, cpu_schema->field(c).name) << what << " column " << c;
    }
    ASSERT_EQ(got.size(), want.size()) << what;
    sort_by_keys(got, keys.size());
    sort_by_keys(want, keys.size());
    for (size_t r = 0; r < want.size(); ++r) {
      for (size_t c = 0; c < want[r].size(); ++c) {
        ASSERT_TRUE(same_value(got[r][c], want[r][c]))
            << what << " row " << r << " column " << cpu_schema->field(c).name << " (" << c << "): gpu "
            << got[r][c].to_string() << " cpu " << want[r][c].to_string();
      }
    }
  }

  void run_key_sets(const std::vector<Batch>& batches, const std::vector<AggregateSpec>& aggregates,
                    const std::string& what) {
    expect_same(batches, {}, aggregates, what + " no keys");
    expect_same(batches, {kKeyStr}, aggregates, what + " by k_str");
    expect_same(batches, {kKeyDict}, aggregates, what + " by k_dict");
    expect_same(batches, {kKeyWide}, aggregates, what + " by k_wide");
    expect_same(batches, {kKeyDouble}, aggregates, what + " by k_dbl");
    expect_same(batches, {kKeyInterval}, aggregates, what + " by k_ivl");
    expect_same(batches, {kKeyInt}, aggregates, what + " by k_int");
    expect_same(batches, {kKeyDict, kKeyWide, kKeyInt}, aggregates, what + " by k_dict, k_wide, k_int");
    expect_same(batches, {kKeyStr, kKeyDict, kKeyDouble, kKeyInterval}, aggregates,
                what + " by k_str, k_dict, k_dbl, k_ivl", 3);
  }
};

TEST_F(HashAggregateGpuOpTest, SeveralBatchesEveryKeyType) {
  run_key_sets(make_batches(5, 3000, Spread::kFew, 1), all_aggregates(), "5 x 3000 few");
}

TEST_F(HashAggregateGpuOpTest, ManyBatchesCompact) {
  // 40 batches on one driver: its partial states are merged on the way (kCompactAfter).
  expect_same(make_batches(40, 500, Spread::kFew, 2), {kKeyDict, kKeyInt}, all_aggregates(), "40 x 500 by dict, int");
  expect_same(make_batches(40, 500, Spread::kFew, 3), {}, all_aggregates(), "40 x 500 no keys");
}

TEST_F(HashAggregateGpuOpTest, EmptyInput) {
  const std::vector<Batch> none;
  const std::vector<Batch> empty = make_batches(1, 0, Spread::kFew, 4);
  for (const auto* batches : {&none, &empty}) {
    expect_same(*batches, {}, all_aggregates(), "empty, no keys");
    expect_same(*batches, {kKeyStr}, all_aggregates(), "empty by k_str");
    expect_same(*batches, {kKeyDict, kKeyInt}, all_aggregates(), "empty by k_dict, k_int");
  }
}

TEST_F(HashAggregateGpuOpTest, OneRow) {
  for (uint64_t seed = 1; seed <= 6; ++seed) run_key_sets(make_batches(1, 1, Spread::kFew, seed), all_aggregates(), "one row");
}

TEST_F(HashAggregateGpuOpTest, MillionRowsThreeGroups) {
  const auto batches = make_batches(4, 250000, Spread::kThree, 5);
  expect_same(batches, {kKeyInt}, some_aggregates(), "1M rows by k_int", 2);
  expect_same(batches, {}, some_aggregates(), "1M rows no keys", 2);
  expect_same(batches, {kKeyStr}, all_aggregates(), "1M rows by k_str");
}

TEST_F(HashAggregateGpuOpTest, ManyGroups) {
  const auto batches = make_batches(4, 50000, Spread::kUnique, 6);
  expect_same(batches, {kKeyInt}, some_aggregates(), "200k groups", 2, 30000);
  expect_same(batches, {kKeyInt, kKeyStr}, all_aggregates(), "200k groups by k_int, k_str", 1, 70000);
}

TEST_F(HashAggregateGpuOpTest, Skewed) {
  const auto batches = make_batches(3, 100000, Spread::kSkewed, 7);
  expect_same(batches, {kKeyInt}, all_aggregates(), "skewed by k_int", 2);
  expect_same(batches, {kKeyInt, kKeyDict}, some_aggregates(), "skewed by k_int, k_dict");
}

/// The aggregates one device hash table runs (AggregateTableGpu): counts, and sums, averages, min and max of
/// integers, dates, DECIMAL(15) and floating point.
std::vector<AggregateSpec> table_aggregates() {
  using F = AggregateFunction;
  std::vector<AggregateSpec> out{{F::kCountStar, std::nullopt, TypeId::kBigInt, false}, agg(F::kCount, kValStr),
                                 agg(F::kCount, kKeyDict)};
  for (size_t c : {kValInt, kValBig, kValDec, kValSmall}) {
    for (auto f : {F::kCount, F::kSum, F::kAvg, F::kMin, F::kMax}) out.push_back(agg(f, c));
  }
  for (size_t c : {kValDouble, kValReal}) {
    for (auto f : {F::kSum, F::kAvg}) out.push_back(agg(f, c));
  }
  out.push_back(agg(F::kMin, kValDate));
  out.push_back(agg(F::kMax, kValDate));
  return out;
}

TEST_F(HashAggregateGpuOpTest, OneTableForOneIntegerKey) {
  const SchemaPtr schema = std::make_shared<Schema>(batch_fields());
  using exec::aggregate_gpu_detail::AggregateTableGpu;
  // Split in two lists: a table holds at most 32 states (an average takes two).
  std::vector<AggregateSpec> all = table_aggregates();
  const std::vector<AggregateSpec> first(all.begin(), all.begin() + 14), second(all.begin() + 14, all.end());
  for (size_t key : {kKeyInt, kValBig, kValDec, kValDate}) {
    ASSERT_TRUE(AggregateTableGpu::supports(*schema, {key}, first)) << key;
    ASSERT_TRUE(AggregateTableGpu::supports(*schema, {key}, second)) << key;
  }
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt, kKeyDict}, first));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyStr}, first));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt}, some_aggregates()));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt}, {agg(AggregateFunction::kSum, kValWideDec)}));
  for (const auto* aggs : {&first, &second}) {
    const auto few = make_batches(5, 3000, Spread::kFew, 11);
    expect_same(few, {kKeyInt}, *aggs, "table: 5 x 3000 few by k_int", 2);
    // Unique keys over 4 batches: the table grows twice (from the first batch's size: 2^17 slots, then 2^18, 2^19).
    const auto unique = make_batches(4, 60000, Spread::kUnique, 12);
    expect_same(unique, {kKeyInt}, *aggs, "table: 240k groups by k_int", 3, 100000);
    // 64-bit keys with NULLs (random BIGINTs, DECIMAL(15) values) and dates (repeating).
    expect_same(unique, {kValBig}, *aggs, "table: by v_big", 2);
    expect_same(few, {kValDec}, *aggs, "table: by v_dec", 1);
    expect_same(unique, {kValDate}, *aggs, "table: by v_date", 4);
    expect_same(make_batches(3, 100000, Spread::kSkewed, 13), {kKeyInt}, *aggs, "table: skewed by k_int", 2);
    expect_same(make_batches(1, 1, Spread::kFew, 14), {kKeyInt}, *aggs, "table: one row");
    expect_same({}, {kKeyInt}, *aggs, "table: no batches");
  }
}

/// Two to eight integer-like keys in one table (wide keys: each slot claimed, written, then published), with NULL
/// keys, keys of 2, 4 and 8 bytes, growth from many groups, and skew.
TEST_F(HashAggregateGpuOpTest, OneTableForWideKeys) {
  const SchemaPtr schema = std::make_shared<Schema>(batch_fields());
  using exec::aggregate_gpu_detail::AggregateTableGpu;
  std::vector<AggregateSpec> all = table_aggregates();
  const std::vector<AggregateSpec> first(all.begin(), all.begin() + 14), second(all.begin() + 14, all.end());
  const std::vector<std::vector<size_t>> key_sets = {
      {kKeyInt, kValSmall}, {kValSmall, kValDate, kKeyInt}, {kValBig, kKeyInt}, {kValDec, kValSmall}};
  for (const auto& keys : key_sets) ASSERT_TRUE(AggregateTableGpu::supports(*schema, keys, first));
  ASSERT_TRUE(AggregateTableGpu::supports(*schema, {kKeyInt, kValSmall, kValDate, kValBig, kValDec, kValInt, kKeyInt,
                                                    kValSmall},
                                          first));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt, kValSmall, kValDate, kValBig, kValDec, kValInt,
                                                     kKeyInt, kValSmall, kValDate},
                                           first));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt, kKeyStr}, first));
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt, kKeyDouble}, first));
  const auto few = make_batches(5, 3000, Spread::kFew, 21);
  const auto unique = make_batches(4, 60000, Spread::kUnique, 22);
  const auto skewed = make_batches(3, 100000, Spread::kSkewed, 23);
  for (const auto* aggs : {&first, &second}) {
    // Every key set on few groups; growth and skew on two of them (the CPU reference of 240k groups is slow).
    for (const auto& keys : key_sets) expect_same(few, keys, *aggs, "wide table: few", 2);
    for (size_t k : {size_t{0}, size_t{2}}) {
      expect_same(unique, key_sets[k], *aggs, "wide table: unique", 3, 100000);
      expect_same(skewed, key_sets[k], *aggs, "wide table: skewed", 2);
    }
    expect_same(few, {kKeyInt, kValSmall, kValDate, kValBig, kValDec, kValInt}, *aggs, "wide table: six keys", 2);
    expect_same(make_batches(1, 1, Spread::kFew, 24), {kKeyInt, kValSmall}, *aggs, "wide table: one row");

    expect_same({}, {kKeyInt, kValSmall}, *aggs, "wide table: no batches");
  }
}

/// Variances in the table (count, shifted sums and the claiming row's value as the shift; a wide table even with
/// one key), by one key and by several, with NULL values and groups whose values are all NULL.
TEST_F(HashAggregateGpuOpTest, OneTableForVariances) {
  using F = AggregateFunction;
  const SchemaPtr schema = std::make_shared<Schema>(batch_fields());
  using exec::aggregate_gpu_detail::AggregateTableGpu;
  const std::vector<AggregateSpec> aggs = {agg(F::kVarSamp, kValDouble), agg(F::kVarPop, kValDouble),
                                           agg(F::kStddevSamp, kValDouble), agg(F::kStddevPop, kValDouble),
                                           {F::kCountStar, std::nullopt, TypeId::kBigInt, false},
                                           agg(F::kAvg, kValInt), agg(F::kMax, kValDate)};
  for (const std::vector<size_t>& keys : {std::vector<size_t>{kKeyInt}, std::vector<size_t>{kKeyInt, kValSmall},
                                          std::vector<size_t>{kValSmall}}) {
    ASSERT_TRUE(AggregateTableGpu::supports(*schema, keys, aggs));
    expect_same(make_batches(5, 3000, Spread::kFew, 31), keys, aggs, "variance table: few", 2);
    expect_same(make_batches(4, 60000, Spread::kUnique, 32), keys, aggs, "variance table: unique", 3, 100000);
    expect_same(make_batches(3, 100000, Spread::kSkewed, 33), keys, aggs, "variance table: skewed", 2);
    expect_same(make_batches(1, 1, Spread::kFew, 34), keys, aggs, "variance table: one row");
  }
  EXPECT_FALSE(AggregateTableGpu::supports(*schema, {kKeyInt}, {agg(F::kVarSamp, kValDouble, true)}));
}

/// One DISTINCT aggregate and nothing else: the groups come from its distinct rows, found by hash.
TEST_F(HashAggregateGpuOpTest, OneDistinctAggregate) {
  using F = AggregateFunction;
  const auto few = make_batches(5, 3000, Spread::kFew, 15);
  const auto many = make_batches(4, 20000, Spread::kUnique, 16);
  for (const AggregateSpec& a : {agg(F::kCount, kValSmall, true), agg(F::kSum, kValSmall, true),
                                 agg(F::kAvg, kValSmall, true), agg(F::kMax, kValStr, true),
                                 agg(F::kCount, kKeyDict, true)}) {
    const std::string what = "one distinct " + std::string(plan::aggregate_function_name(a.function));
    expect_same(few, {kKeyStr, kKeyDict}, {a}, what + " by k_str, k_dict", 2);
    expect_same(few, {kKeyInt}, {a}, what + " by k_int");
    expect_same(many, {kKeyInt, kKeyDict}, {a}, what + " by unique k_int, k_dict", 3);
  }
}

/// Keys at the ends of the BIGINT range (the table's empty marker is the minimum) and NULL keys.
TEST_F(HashAggregateGpuOpTest, TableKeysAtTheEnds) {
  const std::vector<Field> fields = {{"k", TypeId::kBigInt}, {"v", TypeId::kInteger}};
  const SchemaPtr schema = std::make_shared<Schema>(fields);
  std::vector<Value> keys, values;
  for (int i = 0; i < 5000; ++i) {
    switch (i % 6) {
      case 0: keys.push_back(Value::bigint(INT64_MIN)); break;
      case 1: keys.push_back(Value::bigint(INT64_MAX)); break;
      case 2: keys.push_back(Value::null(TypeId::kBigInt)); break;
      case 3: keys.push_back(Value::bigint(-1)); break;
      case 4: keys.push_back(Value::bigint(0)); break;
      default: keys.push_back(Value::bigint(i)); break;
    }
    values.push_back(i % 7 == 0 ? Value::null(TypeId::kInteger) : Value::integer(i));
  }
  Batch host(schema, {Column::from_values(TypeId::kBigInt, keys), Column::from_values(TypeId::kInteger, values)},
             keys.size(), gpu::MemoryKind::kHost);
  using F = AggregateFunction;
  const std::vector<AggregateSpec> aggs = {{F::kCountStar, std::nullopt, TypeId::kBigInt, false},
                                           {F::kSum, size_t{1}, TypeId::kInteger, false},
                                           {F::kMin, size_t{1}, TypeId::kInteger, false},
                                           {F::kAvg, size_t{1}, TypeId::kInteger, false}};
  ASSERT_TRUE(exec::aggregate_gpu_detail::AggregateTableGpu::supports(*schema, {0}, aggs));
  SchemaPtr cpu_schema, gpu_schema;
  std::vector<Row> want = cpu_rows({host}, schema, {0}, aggs, &cpu_schema);
  std::vector<Row> got = gpu_rows({host}, schema, {0}, aggs, 2, 1024, &gpu_schema);
  ASSERT_EQ(got.size(), want.size());
  sort_by_keys(got, 1);
  sort_by_keys(want, 1);
  for (size_t r = 0; r < want.size(); ++r) {
    for (size_t c = 0; c < want[r].size(); ++c) {
      ASSERT_TRUE(same_value(got[r][c], want[r][c])) << "row " << r << " column " << c << ": gpu "
                                                     << got[r][c].to_string() << " cpu " << want[r][c].to_string();
    }
  }
}

/// Sums of DECIMAL(38) past the int128 range, and past 38 digits, fail with InvalidInput on both sides.
TEST_F(HashAggregateGpuOpTest, DecimalOverflow) {
  const LogicalType wide = LogicalType::decimal(38, 0);
  const std::vector<Field> fields = {{"k", TypeId::kInteger}, {"v", wide}};
  const SchemaPtr schema = std::make_shared<Schema>(fields);
  const int128_t e37 = static_cast<int128_t>(1000000000000000000LL) * 10000000000000000000ULL;  // 10^37
  // 4 x 9e37 leaves int128 while adding; 2 x 6e37 fits int128 but not 38 digits (the final check).
  for (auto [value, rows] : {std::pair<int128_t, size_t>{9 * e37, 4}, std::pair<int128_t, size_t>{6 * e37, 2}}) {
    std::vector<Value> keys(rows, Value::integer(1));
    std::vector<Value> values(rows, Value::decimal(value, 38, 0));
    Batch host(schema, {Column::from_values(TypeId::kInteger, keys), Column::from_values(wide, values)}, rows,
               gpu::MemoryKind::kHost);
    const std::vector<AggregateSpec> sum = {{AggregateFunction::kSum, size_t{1}, wide, false}};
    for (const std::vector<size_t>& group : {std::vector<size_t>{}, std::vector<size_t>{0}}) {
      SchemaPtr out;
      EXPECT_THROW(cpu_rows({host}, schema, group, sum, &out), InvalidInput);
      EXPECT_THROW(gpu_rows({host}, schema, group, sum, 1, 1024, &out), InvalidInput);
    }
  }
}

TEST_F(HashAggregateGpuOpTest, RejectsTooManyKeys) {
  const SchemaPtr schema = std::make_shared<Schema>(batch_fields());
  std::vector<size_t> keys;
  for (size_t i = 0; i <= static_cast<size_t>(exec::kMaxDeviceKeys); ++i) keys.push_back(i % kColumns);
  EXPECT_THROW(exec::HashAggregateSinkGpu(schema, keys, some_aggregates()), NotImplemented);
}

}  // namespace
}  // namespace kestrel::testing
