#pragma once
/// Generated batches with every Kestrel type, nulls and a dictionary-encoded column, for transfer tests.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/types.hpp"
#include "vector/batch.hpp"

namespace kestrel::testing {

/// A dictionary VARCHAR column: row r is strings[choices[r]] (NULL where choices[r] < 0), encoded over `strings`
/// rotated by `rotation`, so that batches built with different rotations have different dictionaries.
inline ColumnPtr rotated_dictionary_column(const std::vector<std::string>& strings, const std::vector<int>& choices,
                                           size_t rotation) {
  const size_t n = strings.size();
  std::vector<Value> dictionary, indices;
  for (size_t k = 0; k < n; ++k) dictionary.push_back(Value::varchar(strings[(k + rotation) % n]));
  for (int choice : choices) {
    indices.push_back(choice < 0 ? Value::null(TypeId::kInteger)
                                 : Value::integer(static_cast<int32_t>((static_cast<size_t>(choice) + n - rotation % n) % n)));
  }
  auto index_column = Column::from_values(TypeId::kInteger, indices);
  return Column::make_dictionary(TypeId::kVarchar, choices.size(), index_column->values(), index_column->validity(),
                                 index_column->null_count(), Column::from_values(TypeId::kVarchar, dictionary));
}

/// Fails, naming `what`, the column and the row (three rows per column at most), where two host batches differ value
/// by value (compared as text).
inline void expect_same_values(const Batch& expected, const Batch& actual, const std::string& what) {
  ASSERT_EQ(expected.num_rows(), actual.num_rows()) << what;
  ASSERT_EQ(expected.num_columns(), actual.num_columns()) << what;
  for (size_t c = 0; c < expected.num_columns(); ++c) {
    size_t mismatches = 0;
    for (size_t r = 0; r < expected.num_rows() && mismatches < 3; ++r) {
      const std::string x = expected.column(c)->value_at(r).to_string();
      const std::string y = actual.column(c)->value_at(r).to_string();
      if (x != y) {
        ++mismatches;
        ADD_FAILURE() << what << " column " << expected.schema()->field(c).name << " row " << r << ": expected "
                      << x.substr(0, 80) << ", got " << y.substr(0, 80);
      }
    }
  }
}

/// The rows of a host batch as values.
inline std::vector<std::vector<Value>> rows_of(const Batch& b) {
  std::vector<std::vector<Value>> rows;
  for (size_t r = 0; r < b.num_rows(); ++r) {
    std::vector<Value> row;
    for (size_t c = 0; c < b.num_columns(); ++c) row.push_back(b.column(c)->value_at(r));
    rows.push_back(std::move(row));
  }
  return rows;
}

/// A random value of `type` (strings of 0..40 bytes, decimals within the precision).
inline Value random_value(const LogicalType& type, std::mt19937_64& rng) {
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(rng() & 1);
    case TypeId::kTinyInt: return Value::tinyint(static_cast<int8_t>(rng()));
    case TypeId::kSmallInt: return Value::smallint(static_cast<int16_t>(rng()));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(rng()));
    case TypeId::kBigInt: return Value::bigint(static_cast<int64_t>(rng()));
    case TypeId::kReal: return Value::real(static_cast<float>(static_cast<int32_t>(rng())) / 1024.0f);
    case TypeId::kDouble: return Value::double_value(static_cast<double>(static_cast<int64_t>(rng())) / 3.0);
    case TypeId::kDecimal: {
      int128_t v = static_cast<int128_t>(rng() % 1000000000000000ULL);
      if (type.is_wide_decimal()) v = v * 1000000000000000LL + static_cast<int128_t>(rng() % 1000000000000000ULL);
      return Value::decimal((rng() & 1) ? -v : v, type.precision(), type.scale());
    }
    case TypeId::kDate: return Value::date(static_cast<int32_t>(rng() % 40000) - 10000);
    case TypeId::kTimestamp: return Value::timestamp(static_cast<int64_t>(rng() % (1ULL << 50)));
    case TypeId::kInterval:
      return Value::interval(Interval{static_cast<int32_t>(rng() % 100), static_cast<int32_t>(rng() % 40),
                                      static_cast<int64_t>(rng() % 100000000)});
    case TypeId::kVarchar: {
      std::string s(rng() % 41, 'x');
      for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
      return Value::varchar(s);
    }
    default: return Value();
  }
}

/// One column per storable type (with about 10% nulls), one column of every type without nulls, and a
/// dictionary-encoded VARCHAR column.
inline Batch make_all_types_batch(size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  size_t count = 0;
  const LogicalType* types = all_storable_types(&count);
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  for (size_t t = 0; t < count; ++t) {
    for (bool with_nulls : {true, false}) {
      std::vector<Value> values;
      for (size_t r = 0; r < rows; ++r) {
        values.push_back(with_nulls && rng() % 10 == 0 ? Value::null(types[t]) : random_value(types[t], rng));
      }
      fields.push_back({types[t].to_string() + (with_nulls ? "_nulls" : ""), types[t]});
      columns.push_back(Column::from_values(types[t], values));
    }
  }
  // Dictionary column: 5 distinct strings, int32 indices, some nulls.
  std::vector<Value> dict_values;
  for (const char* s : {"AIR", "MAIL", "RAIL", "SHIP", "TRUCK"}) dict_values.push_back(Value::varchar(s));
  auto dictionary = Column::from_values(TypeId::kVarchar, dict_values);
  std::vector<Value> indices;
  for (size_t r = 0; r < rows; ++r) {
    indices.push_back(rng() % 8 == 0 ? Value::null(TypeId::kInteger) : Value::integer(static_cast<int32_t>(rng() % 5)));
  }
  auto index_column = Column::from_values(TypeId::kInteger, indices);
  fields.push_back({"dict", TypeId::kVarchar});
  columns.push_back(Column::make_dictionary(TypeId::kVarchar, rows, index_column->values(), index_column->validity(),
                                            index_column->null_count(), dictionary));
  return Batch(std::make_shared<Schema>(fields), std::move(columns), rows, gpu::MemoryKind::kHost);
}

}  // namespace kestrel::testing
