#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

#include "common/error.hpp"
#include "common/temporal.hpp"
#include "io/parquet/parquet_dataset.hpp"
#include "io/parquet/parquet_file.hpp"
#include "parquet_test_util.hpp"

namespace kestrel::io {
namespace {

using testing::TempFile;
using testing::TestFileSpec;
using testing::TestPage;

std::string data_file(const std::string& name) { return std::string(KESTREL_SHARED_DIR) + "/parquet-testing/data/" + name; }

std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The message of the error `f` throws, with the error's category checked.
template <typename E, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

Batch read_all_columns(const ParquetFile& file, size_t row_group, ParquetReadOptions options = {}) {
  std::vector<size_t> columns;
  for (size_t i = 0; i < file.schema()->size(); ++i) columns.push_back(i);
  return file.read_row_group(row_group, columns, options);
}

TEST(ParquetReader, AllTypesPlainSchemaAndValues) {
  auto file = ParquetFile::open(data_file("alltypes_plain.parquet"));
  EXPECT_EQ(file->num_rows(), 8);
  EXPECT_EQ(file->num_row_groups(), 1u);
  EXPECT_EQ(file->schema()->to_string(),
            "(id INTEGER, bool_col BOOLEAN, tinyint_col INTEGER, smallint_col INTEGER, int_col INTEGER, bigint_col "
            "BIGINT, float_col REAL, double_col DOUBLE, date_string_col VARBINARY, string_col VARBINARY, "
            "timestamp_col TIMESTAMP)");
  Batch batch = read_all_columns(*file, 0);
  ASSERT_EQ(batch.num_rows(), 8u);
  EXPECT_EQ(batch.column(0)->value_at(0).to_string(), "4");
  EXPECT_EQ(batch.column(6)->value_at(1), Value::real(1.1f));
  // The string columns of this file have no UTF8 annotation: bytes, as pyarrow reads them.
  EXPECT_EQ(batch.column(8)->value_at(0), Value::varbinary("03/01/09"));
  EXPECT_EQ(batch.column(10)->value_at(1).to_string(), "2009-03-01 00:01:00");
  // string_col is dictionary-encoded in every page: it stays dictionary-encoded, unless asked otherwise.
  EXPECT_TRUE(batch.column(9)->is_dictionary());
  EXPECT_EQ(batch.column(9)->dictionary()->length(), 2u);
  ParquetReadOptions plain;
  plain.keep_dictionaries = false;
  Batch expanded = read_all_columns(*file, 0, plain);
  EXPECT_FALSE(expanded.column(9)->is_dictionary());
  for (size_t r = 0; r < 8; ++r) EXPECT_EQ(expanded.column(9)->string_at(r), batch.column(9)->string_at(r));
}

TEST(ParquetReader, NullsAndStatistics) {
  auto file = ParquetFile::open(data_file("alltypes_tiny_pages_plain.parquet"));
  size_t id = file->column_index("ID");  // names match case-insensitively
  EXPECT_EQ(id, 0u);
  ColumnStatistics stats = file->statistics(0, id);
  ASSERT_TRUE(stats.min && stats.max);
  EXPECT_EQ(*stats.min, Value::integer(0));
  EXPECT_EQ(*stats.max, Value::integer(7299));
  EXPECT_EQ(stats.null_count, 0);
  size_t tiny = file->column_index("tinyint_col");
  EXPECT_EQ(file->schema()->field(tiny).type, LogicalType(TypeId::kTinyInt));
  // Pruning: ids range over 0..7299 in the only row group.
  auto p = [&](PredicateOp op, int v) { return ColumnPredicate::compare(id, op, Value::integer(v)); };
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kEqual, 7299)}).size(), 1u);
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kEqual, 7300)}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kGreater, 7299)}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kGreaterEqual, 7299)}).size(), 1u);
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kLess, 0)}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({p(PredicateOp::kLessEqual, 0)}).size(), 1u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::between(id, Value::bigint(8000), Value::bigint(9000))}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::in(id, {Value::integer(-1), Value::integer(9000)})}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::in(id, {Value::integer(-1), Value::integer(5)})}).size(), 1u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::is_null(id)}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::is_not_null(id)}).size(), 1u);
  // Constants of other numeric types compare by value.
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::compare(id, PredicateOp::kGreater, Value::decimal(72985, 5, 1))}).size(), 1u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::compare(id, PredicateOp::kGreater, Value::decimal(72990, 5, 1))}).size(), 0u);
  EXPECT_EQ(file->prune_row_groups({ColumnPredicate::compare(id, PredicateOp::kGreater, Value::double_value(7298.5))}).size(), 1u);
}

TEST(ParquetReader, PruningAcrossRowGroupsOfStrings) {
  auto file = ParquetFile::open(data_file("sort_columns.parquet"));
  ASSERT_EQ(file->num_row_groups(), 2u);
  size_t b = file->column_index("b");
  std::vector<std::string> mins, maxs;
  for (size_t g = 0; g < 2; ++g) {
    auto s = file->statistics(g, b);
    ASSERT_TRUE(s.min && s.max);
    mins.push_back(s.min->as_string());
    maxs.push_back(s.max->as_string());
  }
  // Choose a constant above the first group's max and at most the second's: only the second group may match.
  auto kept = file->prune_row_groups({ColumnPredicate::compare(b, PredicateOp::kGreater, Value::varchar(maxs[0]))});
  for (size_t g : kept) EXPECT_GT(maxs[g], maxs[0]);
  size_t a = file->column_index("a");
  auto all = file->prune_row_groups({ColumnPredicate::is_not_null(a)});
  EXPECT_FALSE(all.empty());
}

TEST(ParquetReader, NestedColumnReadsBesideFlatOnes) {
  auto file = ParquetFile::open(data_file("datapage_v2.snappy.parquet"));
  EXPECT_EQ(file->schema()->size(), 5u);  // a, b, c, d and e, a list (page v2, repetition levels)
  EXPECT_TRUE(file->unreadable_columns().empty());
  size_t e = file->column_index("e");
  EXPECT_EQ(file->schema()->field(e).type.to_string(), "ARRAY(INTEGER)");
  EXPECT_TRUE(file->descriptor(e).nested);
  EXPECT_THROW(file->column_index("nope"), InvalidInput);
  Batch batch = read_all_columns(*file, 0);
  EXPECT_EQ(batch.num_rows(), 5u);
  EXPECT_EQ(batch.column(1)->value_at(4).to_string(), "5");
  EXPECT_EQ(batch.column(e)->value_at(0).to_string(), "[1, 2, 3]");
  EXPECT_FALSE(batch.column(e)->is_valid(1));
  EXPECT_EQ(batch.column(e)->value_at(4).to_string(), "[1, 2]");
  // Projection: the flat column alone, and the nested one alone.
  EXPECT_EQ(file->read_row_group(0, {1}).column(0)->value_at(2).to_string(), "3");
  EXPECT_EQ(file->read_row_group(0, {e}).column(0)->value_at(3).to_string(), "[1, 2, 3]");
  // A nested column has no statistics (its leaves count values, not rows) and no chunk range for the GPU scan.
  EXPECT_FALSE(file->statistics(0, e).null_count.has_value());
  EXPECT_THROW(file->chunk_range(0, e), NotImplemented);
}

TEST(ParquetReader, EncryptedFileIsACleanError) {
  std::string path = data_file("uniform_encryption.parquet.encrypted");
  std::string msg = error_of<NotImplemented>([&] { ParquetFile::open(path); });
  EXPECT_EQ(msg, "Parquet file '" + path + "': encryption is not supported");
}

TEST(ParquetReader, ChecksumsAreVerifiedOnRequest) {
  ParquetReadOptions verify;
  verify.verify_checksums = true;
  auto good = ParquetFile::open(data_file("datapage_v1-snappy-compressed-checksum.parquet"));
  EXPECT_EQ(read_all_columns(*good, 0, verify).num_rows(), 5120u);
  auto bad = ParquetFile::open(data_file("datapage_v1-corrupt-checksum.parquet"));
  EXPECT_EQ(read_all_columns(*bad, 0).num_rows(), 5120u);
  std::string msg = error_of<InvalidInput>([&] { read_all_columns(*bad, 0, verify); });
  EXPECT_NE(msg.find("page checksum mismatch"), std::string::npos) << msg;
}

TEST(ParquetReader, HandMadeFileWithUnknownEncodingNamesFileColumnAndPage) {
  TestFileSpec spec;
  spec.rows = 4;
  spec.pages.push_back(TestPage{0, 2, 0, testing::le_bytes<int32_t>({1, 2})});
  spec.pages.push_back(TestPage{0, 2, 12, testing::le_bytes<int32_t>({3, 4})});
  TempFile f("unknown_encoding.parquet", testing::build_file(spec));
  auto file = ParquetFile::open(f.path());
  std::string msg = error_of<InvalidInput>([&] { file->read_column_chunk(0, 0); });
  EXPECT_EQ(msg, "Parquet file '" + f.path() + "': column 'x' page 1 of row group 0: unknown encoding 12");
}

TEST(ParquetReader, HandMadeOptionalColumnWithDictionaryAndV2Pages) {
  // Dictionary {10, 20, 30}; a v1 page of 4 rows (null, 30, null, 10) and a v2 page of 3 rows (20, null, 20).
  TestFileSpec spec;
  spec.optional = true;
  spec.rows = 7;
  spec.pages.push_back(TestPage{2, 3, 0, testing::le_bytes<int32_t>({10, 20, 30})});
  // v1 definition levels: 4-byte length, bit-packed run of 8 levels 0,1,0,1; then indices (width 2) 2, 0.
  std::vector<uint8_t> v1 = {2, 0, 0, 0, 0x03, 0b1010, 2, 0x03, 0b0010};
  spec.pages.push_back(TestPage{0, 4, 8, v1});
  // v2: levels (no length prefix) 1,0,1 then RLE indices 2 x 1.
  TestPage v2{3, 3, 8, {0x03, 0b101, 2, 0x04, 0x01}};
  v2.num_nulls = 1;
  v2.def_levels_bytes = 2;
  spec.pages.push_back(v2);
  TempFile f("dict_v2.parquet", testing::build_file(spec));
  auto file = ParquetFile::open(f.path());
  ColumnPtr col = file->read_column_chunk(0, 0);
  std::vector<std::string> got;
  for (size_t r = 0; r < col->length(); ++r) got.push_back(col->value_at(r).to_string());
  EXPECT_EQ(got, (std::vector<std::string>{"NULL", "30", "NULL", "10", "20", "NULL", "20"}));
  EXPECT_EQ(col->null_count(), 3u);
}

TEST(ParquetReader, RowCountMismatchIsAnError) {
  TestFileSpec spec;
  spec.rows = 5;  // the page holds 3
  spec.pages.push_back(TestPage{0, 3, 0, testing::le_bytes<int32_t>({1, 2, 3})});
  TempFile f("short.parquet", testing::build_file(spec));
  auto file = ParquetFile::open(f.path());
  std::string msg = error_of<InvalidInput>([&] { file->read_column_chunk(0, 0); });
  EXPECT_NE(msg.find("holds 3 values, the row group has 5 rows"), std::string::npos) << msg;
}

TEST(ParquetReader, TruncatedAndBitFlippedFilesFailCleanly) {
  std::mt19937 rng(11);
  for (const char* name : {"alltypes_plain.snappy.parquet", "delta_byte_array.parquet", "datapage_v2.snappy.parquet",
                           "fixed_length_decimal.parquet", "byte_stream_split.zstd.parquet", "nullable.impala.parquet",
                           "nested_lists.snappy.parquet", "repeated_no_annotation.parquet", "map_no_value.parquet"}) {
    auto bytes = read_all(data_file(name));
    ASSERT_FALSE(bytes.empty()) << name;
    std::vector<std::vector<uint8_t>> variants;
    for (size_t cut : {size_t{0}, size_t{7}, bytes.size() / 2, bytes.size() - 9, bytes.size() - 1}) {
      variants.emplace_back(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    }
    for (int k = 0; k < 150; ++k) {
      auto flipped = bytes;
      flipped[rng() % flipped.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      variants.push_back(std::move(flipped));
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      TempFile f("variant.parquet", variants[v]);
      try {
        auto file = ParquetFile::open(f.path());
        for (size_t g = 0; g < file->num_row_groups(); ++g) {
          for (size_t c = 0; c < file->schema()->size(); ++c) file->statistics(g, c);
          read_all_columns(*file, g);
        }
      } catch (const InvalidInput& e) {
        EXPECT_NE(e.message().find(f.path()), std::string::npos) << e.message();
      } catch (const NotImplemented& e) {
        EXPECT_NE(e.message().find(f.path()), std::string::npos) << e.message();
      } catch (const ResourceExhausted& e) {
        EXPECT_NE(e.message().find(f.path()), std::string::npos) << e.message();
      }
    }
  }
}

TEST(ParquetReader, DatasetOfAFolderReadsAsOneTable) {
  std::string dir = (std::filesystem::temp_directory_path() / ("kestrel_pq_ds_" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir + "/sub");
  auto original = read_all(data_file("alltypes_tiny_pages_plain.parquet"));
  {
    std::ofstream(dir + "/a.parquet", std::ios::binary).write(reinterpret_cast<const char*>(original.data()), static_cast<std::streamsize>(original.size()));
    std::ofstream(dir + "/sub/b.parquet", std::ios::binary).write(reinterpret_cast<const char*>(original.data()), static_cast<std::streamsize>(original.size()));
    std::ofstream(dir + "/_ignored.parquet") << "not parquet";
  }
  auto data = ParquetDataset::open(dir);
  EXPECT_EQ(data->files().size(), 2u);
  EXPECT_EQ(data->num_rows(), 14600);
  size_t id = data->column_index("id");
  ParquetReadOptions options;
  options.num_threads = 3;
  ParquetScan scan(data, {id, data->column_index("string_col")}, {}, options);
  size_t rows = 0;
  while (auto batch = scan.next()) {
    EXPECT_EQ(batch->num_columns(), 2u);
    rows += batch->num_rows();
  }
  EXPECT_EQ(rows, 14600u);
  // id ranges over 0..7299 in each file: a predicate beyond that prunes every row group.
  EXPECT_TRUE(data->row_groups({ColumnPredicate::compare(id, PredicateOp::kGreater, Value::integer(7299))}).empty());
  EXPECT_EQ(data->row_groups({ColumnPredicate::compare(id, PredicateOp::kEqual, Value::integer(7299))}).size(), 2u);
  auto glob = ParquetDataset::open(dir + "/*.parquet");
  EXPECT_EQ(glob->files().size(), 1u);
  EXPECT_THROW(ParquetDataset::open(dir + "/*.nothing"), InvalidInput);
  std::filesystem::remove_all(dir);
}

TEST(ParquetReader, ParallelAndSequentialDecodingAgree) {
  auto file = ParquetFile::open(data_file("alltypes_tiny_pages_plain.parquet"));
  ParquetReadOptions one, many;
  one.num_threads = 1;
  many.num_threads = 8;
  Batch a = read_all_columns(*file, 0, one);
  Batch b = read_all_columns(*file, 0, many);
  for (size_t c = 0; c < a.num_columns(); ++c) {
    for (size_t r = 0; r < a.num_rows(); r += 97) EXPECT_EQ(a.column(c)->value_at(r), b.column(c)->value_at(r));
  }
}

}  // namespace
}  // namespace kestrel::io
