// Differential tests of the GPU set operations: the same generated sides (NULLs, NaN, -0.0 and 0.0, many duplicates
// within and across the sides, plain VARCHAR and dictionary VARCHAR with a different dictionary per batch and per
// side, empty batches) fed to SetOpSink/SetOpSource on the host and to SetOpSinkGpu/SetOpSourceGpu on their device
// copies, through several driver states on several streams, must give the same multiset of rows for INTERSECT,
// EXCEPT, INTERSECT ALL and EXCEPT ALL. NULL-typed columns are checked against hand-computed answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.hpp"
#include "exec/ops/set_ops/set_op.hpp"
#include "exec/ops/set_ops/set_op_gpu.hpp"
#include "gpu_test_env.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using plan::SetOpKind;

const LogicalType kDec128 = LogicalType::decimal(30, 4);

/// Column indices of the generated sides.
enum Col : size_t { kKey, kInt, kBig, kDouble, kDecimal128, kString, kDict, kColumns };

const std::vector<std::string> kStrings = {"", "a", "ab", "abc", "b", "ba", "zz", "A", "\xc3\xa9t\xc3\xa9"};
const std::vector<std::string> kDictStrings = {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "FOB"};

SchemaPtr full_schema() {
  return std::make_shared<Schema>(std::vector<Field>{{"key", TypeId::kInteger},
                                                     {"i", TypeId::kInteger},
                                                     {"b", TypeId::kBigInt},
                                                     {"dbl", TypeId::kDouble},
                                                     {"d128", kDec128},
                                                     {"s", TypeId::kVarchar},
                                                     {"dict", TypeId::kVarchar}});
}

/// The row of key `k` (equal keys give equal rows; different keys often agree on some columns).
std::vector<Value> row_of(int32_t k) {
  std::vector<Value> row(kColumns);
  row[kKey] = Value::integer(k);
  row[kInt] = k % 5 == 0 ? Value::null(TypeId::kInteger) : Value::integer(k % 11);
  row[kBig] = k % 7 == 3 ? Value::null(TypeId::kBigInt) : Value::bigint(static_cast<int64_t>(k) * 1000000007LL);
  switch (k % 8) {
    case 0: row[kDouble] = Value::null(TypeId::kDouble); break;
    case 1: row[kDouble] = Value::double_value(std::nan("")); break;
    case 2: row[kDouble] = Value::double_value(-0.0); break;
    case 3: row[kDouble] = Value::double_value(0.0); break;
    default: row[kDouble] = Value::double_value(static_cast<double>(k % 13) / 4.0); break;
  }
  const int128_t wide = static_cast<int128_t>(k % 17 - 8) * 10000000000LL * 10000000000LL + k % 3;
  row[kDecimal128] = k % 9 == 4 ? Value::null(kDec128) : Value::decimal(wide, 30, 4);
  row[kString] = k % 10 == 7 ? Value::null(TypeId::kVarchar) : Value::varchar(kStrings[k % kStrings.size()]);
  return row;
}

/// One side of a set operation: host batches of full_schema().
struct Side {
  std::vector<Batch> batches;
  size_t rows = 0;
};

/// `rows` rows with keys drawn from [first_key, first_key + domain) in `batch_count` batches (random cuts; equal
/// cuts give empty batches). Batch b's dictionary column has its own dictionary, rotated by dict_shift + b.
Side make_side(size_t rows, size_t batch_count, int32_t first_key, int32_t domain, size_t dict_shift, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const SchemaPtr schema = full_schema();
  std::vector<int32_t> keys;
  for (size_t r = 0; r < rows; ++r) keys.push_back(first_key + static_cast<int32_t>(rng() % domain));
  std::vector<size_t> cuts = {0, rows};
  for (size_t b = 1; b < batch_count; ++b) cuts.push_back(rows == 0 ? 0 : rng() % (rows + 1));
  std::sort(cuts.begin(), cuts.end());
  Side side;
  side.rows = rows;
  const size_t n = kDictStrings.size();
  for (size_t b = 0; b < batch_count; ++b) {
    const size_t first = cuts[b];
    const size_t count = cuts[b + 1] - first;
    std::vector<std::vector<Value>> values(kDict);
    std::vector<Value> indices;
    const size_t shift = dict_shift + b;
    for (size_t r = first; r < first + count; ++r) {
      const std::vector<Value> row = row_of(keys[r]);
      for (size_t c = 0; c < kDict; ++c) values[c].push_back(row[c]);
      // The dictionary string of key k is kDictStrings[k / 2 % n] (NULL when k % 6 == 5), at index
      // (choice - shift) mod n in this batch's dictionary.
      const int32_t k = keys[r];
      const size_t choice = static_cast<size_t>(k / 2) % n;
      indices.push_back(k % 6 == 5 ? Value::null(TypeId::kInteger)
                                   : Value::integer(static_cast<int32_t>((choice + n - shift % n) % n)));
    }
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < kDict; ++c) columns.push_back(Column::from_values(schema->field(c).type, values[c]));
    std::vector<Value> dictionary;
    for (size_t e = 0; e < n; ++e) dictionary.push_back(Value::varchar(kDictStrings[(e + shift) % n]));
    auto index_column = Column::from_values(TypeId::kInteger, indices);
    columns.push_back(Column::make_dictionary(TypeId::kVarchar, count, index_column->values(),
                                              index_column->validity(), index_column->null_count(),
                                              Column::from_values(TypeId::kVarchar, dictionary)));
    side.batches.emplace_back(schema, std::move(columns), count, gpu::MemoryKind::kHost);
  }
  return side;
}

/// The columns `columns` of every batch of `side`, under `schema`.
Side select_columns(const Side& side, const std::vector<size_t>& columns, const SchemaPtr& schema) {
  Side out;
  out.rows = side.rows;
  for (const Batch& b : side.batches) {
    std::vector<ColumnPtr> picked;
    for (size_t c : columns) picked.push_back(b.column(c));
    out.batches.emplace_back(schema, std::move(picked), b.num_rows(), gpu::MemoryKind::kHost);
  }
  return out;
}

SchemaPtr schema_of_columns(const std::vector<size_t>& columns) {
  const SchemaPtr full = full_schema();
  std::vector<Field> fields;
  for (size_t c : columns) fields.push_back(full->field(c));
  return std::make_shared<Schema>(fields);
}

/// A value as text, with -0.0 shown as 0 (the two are one value to a set operation, either may be output).
std::string value_text(const Value& v) {
  if (v.is_null()) return "NULL";
  if (v.type().id() == TypeId::kDouble && v.as_double() == 0.0) return "0";
  return v.to_string();
}

/// The rows of host batches as sorted text lines.
std::vector<std::string> sorted_rows(const std::vector<Batch>& batches) {
  std::vector<std::string> rows;
  for (const Batch& b : batches) {
    for (size_t r = 0; r < b.num_rows(); ++r) {
      std::string line;
      for (size_t c = 0; c < b.num_columns(); ++c) line += value_text(b.column(c)->value_at(r)) + "|";
      rows.push_back(line);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::string op_name(SetOpKind op, bool all) {
  return std::string(op == SetOpKind::kIntersect ? "INTERSECT" : "EXCEPT") + (all ? " ALL" : "");
}

class SetOpGpuTest : public MultiDriverGpuTest {
 protected:
  /// Feeds batch j of `side` to driver j % kDrivers (device batches copied on that driver's stream), then
  /// combines every driver.
  void drive(exec::Sink& sink, const Side& side, bool device) {
    exec::ExecContext ctx = context();
    std::vector<std::unique_ptr<exec::Sink::LocalState>> locals;
    for (size_t d = 0; d < kDrivers; ++d) locals.push_back(sink.make_local_state(ctx));
    for (size_t j = 0; j < side.batches.size(); ++j) {
      const size_t d = j % kDrivers;
      Batch batch = device ? copy_batch(side.batches[j], device_mr(), driver(d)) : side.batches[j];
      sink.consume(*locals[d], j, 0, std::move(batch), ctx);
    }
    for (auto& l : locals) sink.combine(*l, ctx);
    sink.finalize(ctx);
  }

  /// Every batch `source` reads, after preparing it; device batches are checked and copied to the host.
  std::vector<Batch> read_all(exec::Source& source, const SchemaPtr& schema, bool device) {
    exec::ExecContext ctx = context();
    source.prepare(ctx);
    std::vector<Batch> batches;
    for (size_t m = 0; m < source.morsel_count(); ++m) {
      std::vector<Batch> out;
      source.read(m, ctx, out);
      for (const Batch& b : out) {
        EXPECT_EQ(b.on_device(), device);
        EXPECT_EQ(b.num_columns(), schema->size());
        batches.push_back(device ? copy_batch(b, gpu::host_memory_resource(), b.stream()) : b);
      }
    }
    return batches;
  }

  /// The rows of `op` over `left` and `right` (of `schema`), on the CPU.
  std::vector<std::string> cpu_rows(const SchemaPtr& schema, SetOpKind op, bool all, const Side& left,
                                    const Side& right) {
    auto state = std::make_shared<exec::SetOpState>(schema, op, all);
    exec::SetOpSink left_sink(state, 0);
    exec::SetOpSink right_sink(state, 1);
    drive(left_sink, left, false);
    drive(right_sink, right, false);
    exec::SetOpSource source(state, 500);
    return sorted_rows(read_all(source, schema, false));
  }

  /// The rows of `op` over `left` and `right` (of `schema`), on the GPU, read in morsels of `morsel_rows`.
  std::vector<std::string> gpu_rows(const SchemaPtr& schema, SetOpKind op, bool all, const Side& left,
                                    const Side& right, size_t morsel_rows) {
    auto state = std::make_shared<exec::SetOpStateGpu>(schema, op, all);
    exec::SetOpSinkGpu left_sink(state, 0);
    exec::SetOpSinkGpu right_sink(state, 1);
    drive(left_sink, left, true);
    drive(right_sink, right, true);
    exec::SetOpSourceGpu source(state, morsel_rows);
    return sorted_rows(read_all(source, schema, true));
  }

  /// Compares every operation over the columns `columns` of `left` and `right`; returns the rows INTERSECT ALL
  /// output (to check the input is meaningful).
  size_t expect_all_ops(const Side& left, const Side& right, const std::vector<size_t>& columns) {
    const SchemaPtr schema = schema_of_columns(columns);
    const Side l = select_columns(left, columns, schema);
    const Side r = select_columns(right, columns, schema);
    size_t intersect_all_rows = 0;
    for (SetOpKind op : {SetOpKind::kIntersect, SetOpKind::kExcept}) {
      for (bool all : {false, true}) {
        const std::string what = op_name(op, all) + " over " + std::to_string(columns.size()) + " columns (first " +
                                 schema->field(0).name + "), rows " + std::to_string(left.rows) + " and " +
                                 std::to_string(right.rows);
        const std::vector<std::string> want = cpu_rows(schema, op, all, l, r);
        const std::vector<std::string> got = gpu_rows(schema, op, all, l, r, 777);
        EXPECT_EQ(got, want) << what;
        if (op == SetOpKind::kIntersect && all) intersect_all_rows = want.size();
      }
    }
    return intersect_all_rows;
  }

  static std::vector<std::vector<size_t>> column_lists() {
    return {{kKey},           {kInt},          {kBig},  {kDouble}, {kDecimal128}, {kString}, {kDict},
            {kDict, kString}, {kInt, kDouble}, {kKey, kInt, kBig, kDouble, kDecimal128, kString, kDict}};
  }

};

TEST_F(SetOpGpuTest, MatchesCpuOnEveryColumnType) {
  // Keys 0..59 on the left, 30..99 on the right: rows repeat within each side and half the keys are on both.
  const Side left = make_side(3000, 7, 0, 60, 0, 1);
  const Side right = make_side(2000, 5, 30, 70, 3, 2);
  for (const auto& columns : column_lists()) EXPECT_GT(expect_all_ops(left, right, columns), 0u);
}

TEST_F(SetOpGpuTest, ManyDistinctRows) {
  const Side left = make_side(20000, 6, 0, 30000, 0, 3);
  const Side right = make_side(15000, 4, 10000, 30000, 1, 4);
  for (const auto& columns : column_lists()) expect_all_ops(left, right, columns);
}

TEST_F(SetOpGpuTest, EmptySides) {
  const Side none = make_side(0, 0, 0, 10, 0, 5);
  const Side empty_batches = make_side(0, 3, 0, 10, 0, 6);
  const Side some = make_side(200, 3, 0, 10, 2, 7);
  const std::vector<size_t> all_columns = column_lists().back();
  for (const Side* a : {&none, &empty_batches, &some}) {
    for (const Side* b : {&none, &empty_batches, &some}) {
      expect_all_ops(*a, *b, {kKey});
      expect_all_ops(*a, *b, all_columns);
    }
  }
}

TEST_F(SetOpGpuTest, OneRowAndIdenticalSides) {
  const Side one = make_side(1, 2, 4, 1, 0, 8);
  const Side same = make_side(500, 4, 0, 20, 0, 9);
  for (const auto& columns : column_lists()) {
    expect_all_ops(one, one, columns);
    expect_all_ops(one, same, columns);
    expect_all_ops(same, same, columns);
  }
}

/// A host column of `rows` NULLs of the NULL type, stored as the CPU stores an untyped NULL (`as_boolean`: a NULL
/// BOOLEAN, as a NULL constant is evaluated) or as null_column makes it (an INTEGER column of NULLs).
ColumnPtr untyped_nulls(size_t rows, bool as_boolean) {
  if (as_boolean) return Column::from_values(TypeId::kBoolean, std::vector<Value>(rows, Value::null(TypeId::kBoolean)));
  return null_column(TypeId::kNull, rows);
}

TEST_F(SetOpGpuTest, NullTypedColumnsTakeNoPartInComparing) {
  const SchemaPtr schema =
      std::make_shared<Schema>(std::vector<Field>{{"n", TypeId::kNull}, {"k", TypeId::kInteger}});
  auto side = [&](const std::vector<std::vector<Value>>& parts) {
    Side s;
    bool as_boolean = true;
    for (const auto& keys : parts) {
      s.batches.emplace_back(schema,
                             std::vector<ColumnPtr>{untyped_nulls(keys.size(), as_boolean),
                                                    Column::from_values(TypeId::kInteger, keys)},
                             keys.size(), gpu::MemoryKind::kHost);
      s.rows += keys.size();
      as_boolean = !as_boolean;
    }
    return s;
  };
  const Value null = Value::null(TypeId::kInteger);
  const Side left = side({{Value::integer(1), Value::integer(2)}, {Value::integer(2), Value::integer(3), null}});
  const Side right = side({{Value::integer(2), Value::integer(3)}, {Value::integer(3), null, Value::integer(4)}});
  EXPECT_TRUE(exec::SetOpStateGpu::supports(*schema));
  EXPECT_EQ(gpu_rows(schema, SetOpKind::kIntersect, false, left, right, 2),
            (std::vector<std::string>{"NULL|2|", "NULL|3|", "NULL|NULL|"}));
  EXPECT_EQ(gpu_rows(schema, SetOpKind::kIntersect, true, left, right, 2),
            (std::vector<std::string>{"NULL|2|", "NULL|3|", "NULL|NULL|"}));
  EXPECT_EQ(gpu_rows(schema, SetOpKind::kExcept, false, left, right, 2), (std::vector<std::string>{"NULL|1|"}));
  EXPECT_EQ(gpu_rows(schema, SetOpKind::kExcept, true, left, right, 2),
            (std::vector<std::string>{"NULL|1|", "NULL|2|"}));
  // Only NULL-typed columns: every row equals every other.
  const SchemaPtr only_null = std::make_shared<Schema>(std::vector<Field>{{"n", TypeId::kNull}});
  const Side three =
      select_columns(side({{Value::integer(1), Value::integer(2)}, {Value::integer(3)}}), {0}, only_null);
  const Side two = select_columns(side({{Value::integer(1)}, {Value::integer(2)}}), {0}, only_null);
  EXPECT_EQ(gpu_rows(only_null, SetOpKind::kIntersect, false, three, two, 5), (std::vector<std::string>{"NULL|"}));
  EXPECT_EQ(gpu_rows(only_null, SetOpKind::kExcept, true, three, two, 5), (std::vector<std::string>{"NULL|"}));
  EXPECT_TRUE(gpu_rows(only_null, SetOpKind::kExcept, false, three, two, 5).empty());
}

TEST_F(SetOpGpuTest, RefusesMoreColumnsThanDeviceKeys) {
  std::vector<Field> fields(exec::kMaxDeviceKeys, Field{"c", TypeId::kInteger});
  EXPECT_TRUE(exec::SetOpStateGpu::supports(Schema(fields)));
  fields.push_back(Field{"n", TypeId::kNull});  // not compared
  EXPECT_TRUE(exec::SetOpStateGpu::supports(Schema(fields)));
  fields.push_back(Field{"c", TypeId::kInteger});
  EXPECT_FALSE(exec::SetOpStateGpu::supports(Schema(fields)));
  EXPECT_THROW(exec::SetOpStateGpu(std::make_shared<Schema>(fields), SetOpKind::kIntersect, false), NotImplemented);
}

}  // namespace
}  // namespace kestrel::testing
