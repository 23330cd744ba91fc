// Files written by ParquetWriter, read back with Kestrel's own reader: every type, NULLs, empty input, many row
// groups, dictionary on/off (and its fallback), every codec, statistics, and atomicity on failure.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "io/parquet/parquet_file.hpp"
#include "io/parquet/writer/parquet_writer.hpp"

namespace kestrel::io {
namespace {

namespace fs = std::filesystem;

/// A fresh folder per test, removed afterwards.
class TempFolder {
 public:
  TempFolder() {
    static int n = 0;
    path_ = fs::temp_directory_path() / ("kestrel_pqw_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(path_), {})); }

 private:
  fs::path path_;
};

Value random_value(const LogicalType& type, std::mt19937_64& rng, int cardinality) {
  auto pick = [&]() -> int64_t { return static_cast<int64_t>(rng() % static_cast<uint64_t>(cardinality)); };
  int64_t k = pick() - cardinality / 2;
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(k % 2 != 0);
    case TypeId::kTinyInt: return Value::tinyint(static_cast<int8_t>(k % 128));
    case TypeId::kSmallInt: return Value::smallint(static_cast<int16_t>(k * 97 % 32768));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(k * 1000003));
    case TypeId::kBigInt: return Value::bigint(k * 1000000000007LL);
    case TypeId::kReal: return Value::real(static_cast<float>(k) / 8.0f);
    case TypeId::kDouble: return Value::double_value(static_cast<double>(k) / 3.0);
    case TypeId::kDecimal: {
      // Digits up to the precision: the low ones from k, wide decimals filled up to their top digits.
      int low_digits = std::min(type.precision(), 10) - 1;
      int128_t unscaled = static_cast<int128_t>(k) * 12345 % pow10_i128(low_digits);
      if (type.precision() > 18) unscaled = unscaled * pow10_i128(type.precision() - 10) + k % 10;
      return Value::decimal(unscaled, type.precision(), type.scale());
    }
    case TypeId::kDate: return Value::date(static_cast<int32_t>(k * 37));
    case TypeId::kTimestamp: return Value::timestamp(k * 86400000123LL);
    case TypeId::kVarchar: return Value::varchar(k % 3 == 0 ? "" : "s" + std::to_string(k) + (k % 5 == 0 ? "é" : ""));
    default: return Value::null(type);
  }
}

std::vector<LogicalType> writable_types() {
  size_t count = 0;
  const LogicalType* all = all_storable_types(&count);
  std::vector<LogicalType> out;
  for (size_t i = 0; i < count; ++i) {
    if (all[i].id() != TypeId::kInterval) out.push_back(all[i]);
  }
  out.push_back(LogicalType::decimal(4, 2));    // INT32
  out.push_back(LogicalType::decimal(38, 10));  // FIXED_LEN_BYTE_ARRAY(16)
  out.push_back(LogicalType::decimal(20, 0));   // FIXED_LEN_BYTE_ARRAY(9)
  return out;
}

/// A table of one column per type, with nulls every `null_every` rows (0: none), as values per column.
struct Table {
  SchemaPtr schema;
  std::vector<std::vector<Value>> columns;
};

Table make_table(size_t rows, size_t null_every, int cardinality, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Field> fields;
  Table t;
  for (const LogicalType& type : writable_types()) {
    fields.push_back({"c" + std::to_string(fields.size()) + "_" + type.to_string(), type, true});
    std::vector<Value> values;
    for (size_t r = 0; r < rows; ++r) {
      bool null = null_every != 0 && (r + fields.size()) % null_every == 0;
      values.push_back(null ? Value::null(type) : random_value(type, rng, cardinality));
    }
    t.columns.push_back(std::move(values));
  }
  t.schema = std::make_shared<Schema>(fields);
  return t;
}

/// Rows [begin, end) of the table as a host batch.
Batch slice_batch(const Table& t, size_t begin, size_t end) {
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    std::vector<Value> part(t.columns[c].begin() + begin, t.columns[c].begin() + end);
    columns.push_back(Column::from_values(t.schema->field(c).type, part));
  }
  return Batch(t.schema, columns, end - begin, gpu::MemoryKind::kHost);
}

void write_table(const Table& t, const std::string& path, const ParquetWriterOptions& options, size_t batch_rows) {
  auto writer = ParquetWriter::open(path, *t.schema, options);
  size_t rows = t.columns.front().size();
  for (size_t begin = 0; begin < rows; begin += batch_rows) writer->write(slice_batch(t, begin, std::min(rows, begin + batch_rows)));
  writer->close();
}

void expect_reads_back(const Table& t, const std::string& path) {
  auto data = ParquetDataset::open(path);
  ASSERT_EQ(data->schema()->size(), t.schema->size());
  for (size_t c = 0; c < t.schema->size(); ++c) {
    EXPECT_EQ(data->schema()->field(c).type, t.schema->field(c).type) << t.schema->field(c).name;
    EXPECT_EQ(data->schema()->field(c).name, t.schema->field(c).name);
  }
  std::vector<size_t> all;
  for (size_t c = 0; c < t.schema->size(); ++c) all.push_back(c);
  size_t row = 0;
  ParquetReadOptions read_options;
  read_options.verify_checksums = true;
  for (const RowGroupRef& ref : data->row_groups()) {
    Batch b = data->read(ref, all, read_options);
    for (size_t c = 0; c < t.schema->size(); ++c) {
      for (size_t r = 0; r < b.num_rows(); ++r) {
        ASSERT_EQ(b.column(c)->value_at(r), t.columns[c][row + r])
            << t.schema->field(c).name << " row " << row + r << ": " << b.column(c)->value_at(r).to_string()
            << " vs " << t.columns[c][row + r].to_string();
      }
    }
    row += b.num_rows();
  }
  EXPECT_EQ(row, t.columns.front().size());
}

TEST(ParquetWriterRoundTrip, EveryTypeWithNullsEachCodecDictionaryOnOff) {
  Table t = make_table(3000, 7, 50, 1);
  TempFolder dir;
  for (const char* codec : {"uncompressed", "snappy", "zstd", "gzip", "lz4_raw", "brotli"}) {
    for (bool dictionary : {true, false}) {
      SCOPED_TRACE(std::string(codec) + (dictionary ? " dictionary" : " plain"));
      ParquetWriterOptions options;
      options.set("compression", codec);
      options.dictionary = dictionary;
      options.row_group_size = 1000;
      options.data_page_size = 1024;  // several pages per chunk
      std::string path = dir.file(std::string(codec) + (dictionary ? "_d" : "_p") + ".parquet");
      write_table(t, path, options, 700);
      expect_reads_back(t, path);
      auto file = ParquetFile::open(path);
      EXPECT_EQ(file->num_row_groups(), 3u);
      for (const auto& chunk : file->metadata().row_groups[0].columns) {
        EXPECT_EQ(chunk.meta_data->codec, options.compression);
        bool has_dictionary = chunk.meta_data->dictionary_page_offset.has_value();
        EXPECT_EQ(has_dictionary, dictionary && chunk.meta_data->type != parquet::PhysicalType::kBoolean);
      }
    }
  }
  EXPECT_EQ(dir.entries(), 12u);  // no temporary file left behind
}

TEST(ParquetWriterRoundTrip, NoNullsHighCardinalityAndRequiredColumns) {
  Table t = make_table(5000, 0, 1000000, 2);
  std::vector<Field> fields = t.schema->fields();
  for (auto& f : fields) f.nullable = false;
  t.schema = std::make_shared<Schema>(fields);
  TempFolder dir;
  ParquetWriterOptions options;
  options.dictionary_size_limit = 2000;  // most chunks fall back to PLAIN
  write_table(t, dir.file("t.parquet"), options, 5000);
  expect_reads_back(t, dir.file("t.parquet"));
  auto file = ParquetFile::open(dir.file("t.parquet"));
  EXPECT_EQ(file->metadata().schema[1].repetition, parquet::Repetition::kRequired);
  // The BIGINT column's distinct values need 40000 bytes: PLAIN.
  size_t bigint = *t.schema->index_of(t.schema->field(4).name);
  EXPECT_FALSE(file->metadata().row_groups[0].columns[bigint].meta_data->dictionary_page_offset);
  // The BOOLEAN column: always PLAIN.
  EXPECT_FALSE(file->metadata().row_groups[0].columns[0].meta_data->dictionary_page_offset);
}

TEST(ParquetWriterRoundTrip, AllNullsEmptyBatchesAndOneRow) {
  TempFolder dir;
  Table t = make_table(1, 1, 10, 3);  // every value NULL
  auto writer = ParquetWriter::open(dir.file("n.parquet"), *t.schema);
  writer->write(slice_batch(t, 0, 0));
  writer->write(slice_batch(t, 0, 1));
  writer->write(slice_batch(t, 1, 1));
  writer->close();
  expect_reads_back(t, dir.file("n.parquet"));

  Table empty = make_table(0, 0, 10, 4);
  write_table(empty, dir.file("e.parquet"), {}, 10);
  auto data = ParquetDataset::open(dir.file("e.parquet"));
  EXPECT_EQ(data->num_rows(), 0);
  EXPECT_EQ(data->schema()->to_string(), empty.schema->to_string());
}

TEST(ParquetWriterRoundTrip, ManyRowGroupsAcrossBatchBoundaries) {
  Table t = make_table(2000, 3, 100, 5);
  TempFolder dir;
  ParquetWriterOptions options;
  options.set("row_group_size", "77");
  write_table(t, dir.file("m.parquet"), options, 130);
  auto file = ParquetFile::open(dir.file("m.parquet"));
  EXPECT_EQ(file->num_row_groups(), (2000u + 76) / 77);
  EXPECT_EQ(file->num_rows(), 2000);
  expect_reads_back(t, dir.file("m.parquet"));
}

TEST(ParquetWriterRoundTrip, DictionaryEncodedInputColumn) {
  TempFolder dir;
  auto dictionary = Column::from_values(TypeId::kVarchar, {Value::varchar("red"), Value::varchar("green")});
  auto indices = Buffer::allocate(5 * sizeof(int32_t), gpu::host_memory_resource(), gpu::Stream::host());
  int32_t raw[5] = {1, 0, 0, 1, 1};
  std::memcpy(indices->data(), raw, sizeof(raw));
  auto column = Column::make_dictionary(TypeId::kVarchar, 5, indices, nullptr, 0, dictionary);
  auto schema = std::make_shared<Schema>(std::vector<Field>{{"color", TypeId::kVarchar, true}});
  auto writer = ParquetWriter::open(dir.file("d.parquet"), *schema);
  writer->write(Batch(schema, {column}, 5, gpu::MemoryKind::kHost));
  writer->close();
  auto file = ParquetFile::open(dir.file("d.parquet"));
  Batch b = file->read_row_group(0, {0});
  std::vector<std::string> got;
  for (size_t r = 0; r < 5; ++r) got.push_back(b.column(0)->value_at(r).to_string());
  EXPECT_EQ(got, (std::vector<std::string>{"green", "red", "red", "green", "green"}));
}

TEST(ParquetWriterRoundTrip, StatisticsMinMaxNullCount) {
  TempFolder dir;
  auto schema = std::make_shared<Schema>(std::vector<Field>{{"i", TypeId::kInteger, true},
                                                            {"s", TypeId::kVarchar, true},
                                                            {"d", LogicalType::decimal(30, 2), true},
                                                            {"f", TypeId::kDouble, true}});
  std::vector<ColumnPtr> columns = {
      Column::from_values(TypeId::kInteger, {Value::integer(5), Value::null(TypeId::kInteger), Value::integer(-3)}),
      Column::from_values(TypeId::kVarchar, {Value::varchar("b"), Value::varchar("ä"), Value::null(TypeId::kVarchar)}),
      Column::from_values(LogicalType::decimal(30, 2),
                          {Value::decimal(-100, 30, 2), Value::decimal(7, 30, 2), Value::decimal(-5, 30, 2)}),
      Column::from_values(TypeId::kDouble,
                          {Value::double_value(0.0), Value::double_value(std::nan("")), Value::double_value(2.5)}),
  };
  auto writer = ParquetWriter::open(dir.file("s.parquet"), *schema);
  writer->write(Batch(schema, columns, 3, gpu::MemoryKind::kHost));
  writer->close();
  auto data = ParquetDataset::open(dir.file("s.parquet"));
  RowGroupRef ref{0, 0};
  auto i = data->statistics(ref, 0);
  EXPECT_EQ(i.min, Value::integer(-3));
  EXPECT_EQ(i.max, Value::integer(5));
  EXPECT_EQ(i.null_count, 1);
  auto s = data->statistics(ref, 1);
  EXPECT_EQ(s.min, Value::varchar("b"));
  EXPECT_EQ(s.max, Value::varchar("ä"));  // bytes compare unsigned
  auto d = data->statistics(ref, 2);
  EXPECT_EQ(d.min, Value::decimal(-100, 30, 2));
  EXPECT_EQ(d.max, Value::decimal(7, 30, 2));
  EXPECT_EQ(d.null_count, 0);
  auto f = data->statistics(ref, 3);
  ASSERT_TRUE(f.min && f.max);
  EXPECT_EQ(f.min->as_double(), 0.0);
  auto written = ParquetFile::open(dir.file("s.parquet"));
  const auto& raw_f = *written->metadata().row_groups[0].columns[3].meta_data->statistics;
  double raw_min = 1;
  ASSERT_EQ(raw_f.min_value->size(), 8u);
  std::memcpy(&raw_min, raw_f.min_value->data(), 8);
  EXPECT_TRUE(std::signbit(raw_min));  // a zero minimum is written as -0.0
  EXPECT_EQ(f.max, Value::double_value(2.5));       // NaN is left out
  const auto& raw = *written->metadata().row_groups[0].columns[1].meta_data->statistics;
  EXPECT_FALSE(raw.min);  // no legacy signed-order min/max for strings
  EXPECT_TRUE(raw.min_value);
}

TEST(ParquetWriterAtomicity, FailedWriteLeavesNoFile) {
  TempFolder dir;
  auto schema = std::make_shared<Schema>(std::vector<Field>{{"x", TypeId::kInteger, false}});
  std::string path = dir.file("f.parquet");
  {
    auto writer = ParquetWriter::open(path, *schema);
    EXPECT_EQ(dir.entries(), 1u);  // the temporary file
    EXPECT_EQ(fs::path(writer->temp_path()).filename().string().rfind(".f.parquet.tmp-", 0), 0u);
    auto column = Column::from_values(TypeId::kInteger, {Value::integer(1), Value::null(TypeId::kInteger)});
    try {
      writer->write(Batch(schema, {column}, 2, gpu::MemoryKind::kHost));
      writer->close();
      ADD_FAILURE() << "a NULL in a NOT NULL column was written";
    } catch (const InvalidInput& e) {
      EXPECT_NE(e.message().find(path), std::string::npos) << e.message();
      EXPECT_NE(e.message().find("'x'"), std::string::npos) << e.message();
    }
    EXPECT_THROW(writer->close(), InvalidInput);
  }
  EXPECT_EQ(dir.entries(), 0u);

  {  // destroyed without close
    auto writer = ParquetWriter::open(path, *schema);
    writer->write(Batch(schema, {Column::from_values(TypeId::kInteger, {Value::integer(1)})}, 1, gpu::MemoryKind::kHost));
  }
  EXPECT_EQ(dir.entries(), 0u);

  {  // a type mismatch
    auto writer = ParquetWriter::open(path, *schema);
    auto wrong = Column::from_values(TypeId::kBigInt, {Value::bigint(1)});
    EXPECT_THROW(writer->write(Batch(schema, {wrong}, 1, gpu::MemoryKind::kHost)), InvalidInput);
  }
  EXPECT_EQ(dir.entries(), 0u);
}

TEST(ParquetWriterAtomicity, ReplacesAnExistingFileOnlyOnClose) {
  TempFolder dir;
  std::string path = dir.file("r.parquet");
  Table first = make_table(10, 0, 10, 6);
  write_table(first, path, {}, 10);
  Table second = make_table(20, 0, 10, 7);
  {
    auto writer = ParquetWriter::open(path, *second.schema);
    writer->write(slice_batch(second, 0, 20));
    expect_reads_back(first, path);  // still the old file
  }
  expect_reads_back(first, path);  // the abandoned write changed nothing
  write_table(second, path, {}, 20);
  expect_reads_back(second, path);
}

TEST(ParquetWriterErrors, OpenErrorsNameTheFile) {
  TempFolder dir;
  Schema interval({{"span", TypeId::kInterval, true}});
  try {
    ParquetWriter::open(dir.file("i.parquet"), interval);
    ADD_FAILURE() << "INTERVAL was accepted";
  } catch (const NotImplemented& e) {
    EXPECT_NE(e.message().find("i.parquet"), std::string::npos);
    EXPECT_NE(e.message().find("INTERVAL"), std::string::npos);
  }
  Schema ok({{"a", TypeId::kInteger, true}});
  try {
    ParquetWriter::open(dir.file("no/such/folder/x.parquet"), ok);
    ADD_FAILURE() << "opened a file in a missing folder";
  } catch (const IoError& e) {
    EXPECT_NE(e.message().find("x.parquet"), std::string::npos);
  }
  Schema duplicate({{"a", TypeId::kInteger, true}, {"a", TypeId::kBigInt, true}});
  EXPECT_THROW(ParquetWriter::open(dir.file("dup.parquet"), duplicate), InvalidInput);
  EXPECT_EQ(dir.entries(), 0u);
}

}  // namespace
}  // namespace kestrel::io
