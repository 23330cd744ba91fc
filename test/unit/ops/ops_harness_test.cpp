#include "ops_test_util.hpp"

#include <cstring>

#include <cmath>
#include <map>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "exec/ops/common/row_compare.hpp"

namespace kestrel::exec::test {

SchemaPtr make_schema(const std::vector<LogicalType>& types) {
  std::vector<Field> fields;
  for (size_t i = 0; i < types.size(); ++i) fields.push_back({"c" + std::to_string(i), types[i], true});
  return std::make_shared<const Schema>(std::move(fields));
}

ColumnPtr dictionary_column(const std::vector<Value>& values) {
  std::vector<Value> distinct;
  std::map<std::string, int32_t> index;
  auto indices = Buffer::allocate(values.size() * sizeof(int32_t), gpu::host_memory_resource(), gpu::Stream::host());
  BufferPtr validity;
  size_t nulls = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    int32_t idx = 0;
    if (values[i].is_null()) {
      if (!validity) {
        validity = Buffer::allocate(bits::bytes_for(values.size()), gpu::host_memory_resource(), gpu::Stream::host());
        std::memset(validity->data(), 0xff, validity->size());
      }
      bits::clear(validity->as<uint8_t>(), i);
      ++nulls;
    } else {
      auto [it, inserted] = index.emplace(values[i].as_string(), static_cast<int32_t>(distinct.size()));
      if (inserted) distinct.push_back(values[i]);
      idx = it->second;
    }
    indices->as<int32_t>()[i] = idx;
  }
  // A spare dictionary entry no row uses, as real dictionaries often have.
  distinct.push_back(Value::varchar("unused-entry"));
  return Column::make_dictionary(TypeId::kVarchar, values.size(), indices, validity, nulls,
                                 Column::from_values(TypeId::kVarchar, distinct));
}

std::vector<Batch> make_batches(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                                size_t batch_rows, bool dictionary) {
  SchemaPtr schema = make_schema(types);
  std::vector<Batch> out;
  for (size_t start = 0; start == 0 || start < rows.size(); start += batch_rows) {
    size_t n = std::min(batch_rows, rows.size() - start);
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < types.size(); ++c) {
      std::vector<Value> values;
      for (size_t r = start; r < start + n; ++r) values.push_back(rows[r][c]);
      bool dict = dictionary && types[c].id() == TypeId::kVarchar;
      columns.push_back(dict ? dictionary_column(values) : Column::from_values(types[c], values));
    }
    out.emplace_back(schema, std::move(columns), n, gpu::MemoryKind::kHost);
    if (rows.empty()) break;
  }
  return out;
}

std::vector<Row> rows_of(const std::vector<Batch>& batches) {
  std::vector<Row> rows;
  for (const auto& b : batches) {
    for (size_t r = 0; r < b.num_rows(); ++r) {
      Row row;
      for (const auto& c : b.columns()) row.push_back(c->value_at(r));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Value random_value(const LogicalType& type, std::mt19937_64& rng, double null_rate, int domain) {
  std::uniform_real_distribution<double> unit(0, 1);
  if (unit(rng) < null_rate) return Value::null(type);
  int64_t k = static_cast<int64_t>(rng() % static_cast<uint64_t>(domain)) - domain / 2;
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(k % 2 != 0);
    case TypeId::kTinyInt: return Value::tinyint(static_cast<int8_t>(k));
    case TypeId::kSmallInt: return Value::smallint(static_cast<int16_t>(k * 300));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(k * 100000));
    case TypeId::kBigInt: return Value::bigint(k * 3'000'000'000'000LL);
    case TypeId::kReal: return Value::real(static_cast<float>(k) * 0.5f);
    case TypeId::kDouble: return Value::double_value(static_cast<double>(k) * 0.25);
    case TypeId::kDecimal:
      return Value::decimal(type.is_wide_decimal() ? static_cast<int128_t>(k) * 1'000'000'000'000'000'000LL * 7 + 3
                                                   : static_cast<int128_t>(k * 1234),
                            type.precision(), type.scale());
    case TypeId::kDate: return Value::date(static_cast<int32_t>(9000 + k));
    case TypeId::kTimestamp: return Value::timestamp(k * 86'400'000'000LL + 17);
    case TypeId::kInterval: return Value::interval(Interval{static_cast<int32_t>(k), static_cast<int32_t>(k % 3), k});
    case TypeId::kVarchar: {
      static const char* kWords[] = {"", "a", "ab", "b", "zebra", "\xc3\xa9t\xc3\xa9", "a longer string value", "B"};
      return Value::varchar(kWords[(k + domain) % 8]);
    }
    default: break;
  }
  throw InternalError("random_value of " + type.to_string());
}

int compare_values(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null() ? 0 : (a.is_null() ? -1 : 1);
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  switch (a.type().id()) {
    case TypeId::kReal:
    case TypeId::kDouble: return cmp(a.as_double(), b.as_double());
    case TypeId::kDecimal: return cmp(a.as_int128(), b.as_int128());
    case TypeId::kVarchar: return cmp(a.as_string(), b.as_string());
    case TypeId::kInterval:
      return cmp(detail::interval_length(a.as_interval()), detail::interval_length(b.as_interval()));
    default: return cmp(a.as_int64(), b.as_int64());
  }
}

bool rows_less(const Row& a, const Row& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    int c = compare_values(a[i], b[i]);
    if (c == 0 && !a[i].is_null() && a[i].type().id() == TypeId::kInterval) {
      // Intervals of equal length may still differ field-wise; order them deterministically.
      c = a[i].to_string().compare(b[i].to_string());
    }
    if (c != 0) return c < 0;
  }
  return a.size() < b.size();
}

bool values_close(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null() && a.type() == b.type();
  if (a.type().id() == TypeId::kDouble && b.type().id() == TypeId::kDouble) {
    double x = a.as_double();
    double y = b.as_double();
    return std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(x));
  }
  return a == b;
}

namespace {

std::string row_text(const Row& row) {
  std::string s = "(";
  for (size_t i = 0; i < row.size(); ++i) s += (i ? ", " : "") + row[i].to_string() + ":" + row[i].type().to_string();
  return s + ")";
}

void compare_rows(const std::vector<Row>& actual, const std::vector<Row>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t r = 0; r < actual.size(); ++r) {
    bool same = actual[r].size() == expected[r].size();
    for (size_t c = 0; same && c < actual[r].size(); ++c) same = values_close(actual[r][c], expected[r][c]);
    ASSERT_TRUE(same) << what << ": row " << r << " is " << row_text(actual[r]) << ", expected "
                      << row_text(expected[r]);
  }
}

}  // namespace

void expect_same_rows(std::vector<Row> actual, std::vector<Row> expected, const std::string& what) {
  std::stable_sort(actual.begin(), actual.end(), rows_less);
  std::stable_sort(expected.begin(), expected.end(), rows_less);
  compare_rows(actual, expected, what);
}

void expect_same_rows_ordered(const std::vector<Row>& actual, const std::vector<Row>& expected,
                              const std::string& what) {
  compare_rows(actual, expected, what);
}

std::vector<Row> run_and_collect(std::vector<Pipeline> pipelines, const std::shared_ptr<BatchCollector>& collector,
                                 int threads) {
  ExecContext ctx;
  ctx.threads = threads;
  run_pipelines(pipelines, ctx);
  return rows_of(collector->batches());
}

std::vector<LogicalType> storable_types() {
  size_t n = 0;
  const LogicalType* types = all_storable_types(&n);
  return std::vector<LogicalType>(types, types + n);
}

}  // namespace kestrel::exec::test

namespace kestrel::exec::test {
namespace {

TEST(OpsHarnessCpu, DictionaryColumnsReadLikePlainOnes) {
  std::vector<Value> values{Value::varchar("x"), Value::null(TypeId::kVarchar), Value::varchar("y"),
                            Value::varchar("x")};
  ColumnPtr dict = dictionary_column(values);
  EXPECT_TRUE(dict->is_dictionary());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(dict->value_at(i), values[i]);
}

TEST(OpsHarnessCpu, BatchesCoverEveryRow) {
  std::vector<Row> rows;
  for (int i = 0; i < 10; ++i) rows.push_back({Value::integer(i)});
  auto batches = make_batches({TypeId::kInteger}, rows, 3);
  EXPECT_EQ(batches.size(), 4u);
  EXPECT_EQ(rows_of(batches).size(), rows.size());
  EXPECT_EQ(make_batches({TypeId::kInteger}, {}, 3).size(), 1u);
}

}  // namespace
}  // namespace kestrel::exec::test
