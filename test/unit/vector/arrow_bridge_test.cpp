// The Arrow C Data Interface bridge (vector/arrow_export.hpp, vector/arrow_import.hpp): every storable type out and
// back in, buffers shared on the way out, batches regrouped on the way in, and clean errors for what Kestrel lacks.

#include <gtest/gtest.h>

#include <cstring>

#include "common/error.hpp"
#include "vector/arrow_export.hpp"
#include "vector/arrow_import.hpp"

namespace kestrel {
namespace {

/// A column of `type` with `rows` values (every third NULL), made through Value so the test does not depend on the
/// layouts it checks.
ColumnPtr sample_column(const LogicalType& type, size_t rows) {
  std::vector<Value> values;
  for (size_t i = 0; i < rows; ++i) {
    const auto n = static_cast<int64_t>(i);
    if (i % 3 == 2) {
      values.push_back(Value::null(type));
      continue;
    }
    switch (type.id()) {
      case TypeId::kBoolean: values.push_back(Value::boolean(i % 2 == 0)); break;
      case TypeId::kTinyInt: values.push_back(Value::tinyint(static_cast<int8_t>(n - 3))); break;
      case TypeId::kSmallInt: values.push_back(Value::smallint(static_cast<int16_t>(n * 100))); break;
      case TypeId::kInteger: values.push_back(Value::integer(static_cast<int32_t>(n * -7))); break;
      case TypeId::kBigInt: values.push_back(Value::bigint(n << 40)); break;
      case TypeId::kReal: values.push_back(Value::real(static_cast<float>(n) / 4)); break;
      case TypeId::kDouble: values.push_back(Value::double_value(static_cast<double>(n) / 3)); break;
      case TypeId::kDecimal: values.push_back(Value::decimal(n * 12345 - 7, type.precision(), type.scale())); break;
      case TypeId::kDate: values.push_back(Value::date(static_cast<int32_t>(n * 400 - 1000))); break;
      case TypeId::kTimestamp: values.push_back(Value::timestamp(n * 86'400'000'123 - 5)); break;
      case TypeId::kInterval:
        values.push_back(Value::interval(Interval{static_cast<int32_t>(n), static_cast<int32_t>(-n), n * 1001}));
        break;
      case TypeId::kVarchar: values.push_back(Value::varchar(std::string(i % 5, static_cast<char>('a' + i % 26))));
        break;
      default: ADD_FAILURE() << type.to_string();
    }
  }
  return Column::from_values(type, values);
}

Batch sample_batch(size_t rows) {
  size_t count = 0;
  const LogicalType* types = all_storable_types(&count);
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  for (size_t i = 0; i < count; ++i) {
    fields.push_back({"c" + std::to_string(i), types[i], true});
    columns.push_back(sample_column(types[i], rows));
  }
  return Batch(std::make_shared<Schema>(fields), columns, rows, gpu::MemoryKind::kHost);
}

TEST(ArrowBridge, EveryStorableTypeRoundTrips) {
  const Batch a = sample_batch(10), b = sample_batch(7);
  ArrowArrayStream stream;
  arrow::export_stream(a.schema(), {a, b}, &stream);
  // Regrouped into batches of 6 rows: 6, 6, 5, across the two exported arrays.
  auto imported = arrow::import_stream(&stream, 6);
  EXPECT_EQ(stream.release, nullptr);
  ASSERT_EQ(imported.batches.size(), 3u);
  EXPECT_EQ(imported.batches[2].num_rows(), 5u);
  ASSERT_EQ(imported.schema->size(), a.schema()->size());
  for (size_t c = 0; c < a.num_columns(); ++c) {
    EXPECT_EQ(imported.schema->field(c).type, a.schema()->field(c).type) << c;
    EXPECT_EQ(imported.schema->field(c).name, a.schema()->field(c).name);
  }
  size_t row = 0;
  for (const Batch& batch : imported.batches) {
    for (size_t r = 0; r < batch.num_rows(); ++r, ++row) {
      const Batch& source = row < 10 ? a : b;
      const size_t source_row = row < 10 ? row : row - 10;
      for (size_t c = 0; c < batch.num_columns(); ++c) {
        EXPECT_EQ(batch.column(c)->value_at(r).to_string(), source.column(c)->value_at(source_row).to_string())
            << "row " << row << " column " << a.schema()->field(c).type.to_string();
      }
    }
  }
  EXPECT_EQ(row, 17u);
}

TEST(ArrowBridge, ExportSharesBuffersWhereLayoutsMatch) {
  const Batch batch = sample_batch(9);
  ArrowArray array;
  arrow::export_batch(batch, &array);
  ASSERT_EQ(array.n_children, static_cast<int64_t>(batch.num_columns()));
  for (size_t c = 0; c < batch.num_columns(); ++c) {
    const Column& column = *batch.column(c);
    const ArrowArray& child = *array.children[c];
    EXPECT_EQ(child.length, 9);
    EXPECT_EQ(child.buffers[0], column.validity()->data());
    if (column.type().id() == TypeId::kVarchar) {
      EXPECT_EQ(child.buffers[1], column.offsets()->data());
      EXPECT_EQ(child.buffers[2], column.values()->data());
    } else if (arrow::exported_without_copy(column.type())) {
      EXPECT_EQ(child.buffers[1], column.values()->data()) << column.type().to_string();
    } else {
      EXPECT_NE(child.buffers[1], column.values()->data()) << column.type().to_string();
    }
  }
  array.release(&array);
  EXPECT_EQ(array.release, nullptr);
}

TEST(ArrowBridge, FormatsFollowTheArrowSpecification) {
  EXPECT_EQ(arrow::export_format(LogicalType::decimal(15, 2)), "d:15,2,64");
  EXPECT_EQ(arrow::export_format(LogicalType::decimal(38, 10)), "d:38,10");
  EXPECT_EQ(arrow::export_format(TypeId::kTimestamp), "tsu:");
  EXPECT_EQ(arrow::export_format(TypeId::kVarchar), "U");
  ArrowSchema schema;
  arrow::export_schema(*sample_batch(1).schema(), &schema);
  EXPECT_STREQ(schema.format, "+s");
  auto back = arrow::import_schema(schema);
  schema.release(&schema);
  EXPECT_EQ(back->size(), sample_batch(1).num_columns());
}

/// A one-column stream of `format` whose single array has `n_buffers` null buffers and no rows.
struct FakeStream {
  std::string format;
  ArrowSchema child_schema{};
  ArrowSchema* children[1] = {&child_schema};

  static int get_schema(ArrowArrayStream* s, ArrowSchema* out) {
    auto* self = static_cast<FakeStream*>(s->private_data);
    self->child_schema = ArrowSchema{self->format.c_str(), "col", nullptr, 0, 0, nullptr, nullptr, nullptr, nullptr};
    *out = ArrowSchema{"+s", "", nullptr, 0, 1, self->children, nullptr, [](ArrowSchema* x) { x->release = nullptr; },
                       nullptr};
    return 0;
  }
};

TEST(ArrowBridge, VarbinaryRoundTripsAsLargeBinary) {
  const std::vector<Value> values = {Value::varbinary(std::string("\x00\xff", 2)), Value::null(TypeId::kVarbinary),
                                     Value::varbinary("")};
  const Batch batch(std::make_shared<Schema>(std::vector<Field>{{"b", TypeId::kVarbinary, true}}),
                    {Column::from_values(TypeId::kVarbinary, values)}, values.size(), gpu::MemoryKind::kHost);
  ArrowArrayStream stream;
  arrow::export_stream(batch.schema(), {batch}, &stream);
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_STREQ(schema.children[0]->format, "Z");
  schema.release(&schema);
  auto imported = arrow::import_stream(&stream, 100);
  ASSERT_EQ(imported.batches.size(), 1u);
  EXPECT_EQ(imported.schema->field(0).type, LogicalType(TypeId::kVarbinary));
  for (size_t r = 0; r < values.size(); ++r) EXPECT_EQ(imported.batches[0].column(0)->value_at(r), values[r]) << r;
}

TEST(ArrowBridge, RefusesTypesKestrelLacksNamingTheColumn) {
  for (const char* format : {"+m", "+l", "ttu", "w:4", "d:40,2,256"}) {
    FakeStream fake{format};
    ArrowArrayStream stream{FakeStream::get_schema, nullptr, nullptr,
                            [](ArrowArrayStream* s) { s->release = nullptr; }, &fake};
    try {
      arrow::import_stream(&stream, 100);
      ADD_FAILURE() << format << " was accepted";
    } catch (const NotImplemented& e) {
      EXPECT_NE(std::string(e.message()).find("column 'col'"), std::string::npos) << e.message();
    }
    EXPECT_EQ(stream.release, nullptr) << "the stream is released on error";
  }
}

}  // namespace
}  // namespace kestrel
