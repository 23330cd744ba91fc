#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>

#include "common/error.hpp"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/thrift_compact.hpp"
#include "parquet_test_util.hpp"

namespace kestrel::io::parquet {
namespace {

using testing::ThriftWriter;

TEST(ParquetThrift, ScalarsAndFieldDeltas) {
  ThriftWriter w;
  w.i32(1, -5);
  w.i64(3, int64_t{1} << 40);
  w.boolean(4, true);
  w.boolean(30, false);  // a delta above 15: the id is written in full
  w.binary(31, "hello");
  w.bytes.push_back(0);
  ThriftCompactReader r(w.bytes.data(), w.bytes.size());
  r.begin_struct();
  ThriftField f = r.read_field();
  EXPECT_EQ(f.id, 1);
  EXPECT_EQ(r.read_i32(), -5);
  f = r.read_field();
  EXPECT_EQ(f.id, 3);
  EXPECT_EQ(r.read_i64(), int64_t{1} << 40);
  f = r.read_field();
  EXPECT_EQ(f.id, 4);
  EXPECT_TRUE(ThriftCompactReader::bool_field_value(f.type));
  f = r.read_field();
  EXPECT_EQ(f.id, 30);
  EXPECT_FALSE(ThriftCompactReader::bool_field_value(f.type));
  f = r.read_field();
  EXPECT_EQ(f.id, 31);
  EXPECT_EQ(r.read_binary(), "hello");
  EXPECT_EQ(r.read_field().type, ThriftType::kStop);
  r.end_struct();
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ParquetThrift, VarintLimits) {
  const uint8_t max64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  ThriftCompactReader ok(max64, sizeof(max64));
  EXPECT_EQ(ok.read_varint(), ~uint64_t{0});
  const uint8_t overflow[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  ThriftCompactReader bad(overflow, sizeof(overflow));
  EXPECT_THROW(bad.read_varint(), InvalidInput);
  const uint8_t endless[] = {0x80, 0x80, 0x80};
  ThriftCompactReader cut(endless, sizeof(endless));
  EXPECT_THROW(cut.read_varint(), InvalidInput);
  const uint8_t big_i32[] = {0xfe, 0xff, 0xff, 0xff, 0x1f};  // zigzag of 2^32 - 1: out of i32
  ThriftCompactReader r(big_i32, sizeof(big_i32));
  EXPECT_THROW(r.read_i32(), InvalidInput);
}

TEST(ParquetThrift, SkipsUnknownFieldsOfEveryType) {
  ThriftWriter w;
  w.i32(1, 7);
  w.binary(2, "skip me");
  w.begin_struct(3);
  w.begin_list(1, 5, 20);
  for (int i = 0; i < 20; ++i) w.list_i32(i);
  w.begin_struct(2);
  w.i64(1, 9);
  w.end_struct();
  w.end_struct();
  w.field(4, 11);  // a map<i32, binary> of one entry
  w.varint(1);
  w.bytes.push_back(0x58);
  w.list_i32(1);
  w.list_binary("v");
  w.field(5, 7);  // a double
  for (int i = 0; i < 8; ++i) w.bytes.push_back(0);
  w.i32(6, 42);
  w.bytes.push_back(0);
  ThriftCompactReader r(w.bytes.data(), w.bytes.size());
  r.begin_struct();
  int32_t last = 0;
  while (true) {
    ThriftField f = r.read_field();
    if (f.type == ThriftType::kStop) break;
    if (f.id == 6) {
      last = r.read_i32();
    } else {
      r.skip(f.type);
    }
  }
  r.end_struct();
  EXPECT_EQ(last, 42);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ParquetThrift, RejectsHostileInput) {
  // A list claiming more elements than bytes left.
  const uint8_t list[] = {0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f};
  ThriftCompactReader r1(list, sizeof(list));
  EXPECT_THROW(r1.read_list_header(), InvalidInput);
  // A string longer than the input.
  const uint8_t str[] = {0x10, 'a'};
  ThriftCompactReader r2(str, sizeof(str));
  EXPECT_THROW(r2.read_binary(), InvalidInput);
  // Structs nested deeper than the limit.
  std::vector<uint8_t> deep(1000, 0x1c);  // field 1, type struct, again and again
  ThriftCompactReader r3(deep.data(), deep.size());
  EXPECT_THROW(r3.skip(ThriftType::kStruct), InvalidInput);
  // An unknown type code.
  const uint8_t bad_type[] = {0x1d};
  ThriftCompactReader r4(bad_type, sizeof(bad_type));
  r4.begin_struct();
  EXPECT_THROW(r4.read_field(), InvalidInput);
}

TEST(ParquetThrift, PageHeaderRoundTrip) {
  testing::TestPage page;
  page.page_type = 3;
  page.num_values = 10;
  page.num_nulls = 2;
  page.encoding = 8;
  page.def_levels_bytes = 3;
  page.body = std::vector<uint8_t>(17, 0);
  auto bytes = testing::page_header(page);
  bytes.push_back(0xab);  // the page body follows
  size_t used = 0;
  PageHeader h = decode_page_header(bytes.data(), bytes.size(), &used);
  EXPECT_EQ(used, bytes.size() - 1);
  EXPECT_EQ(h.type, PageType::kDataPageV2);
  EXPECT_EQ(h.compressed_page_size, 17);
  ASSERT_TRUE(h.data_page_header_v2.has_value());
  EXPECT_EQ(h.data_page_header_v2->num_values, 10);
  EXPECT_EQ(h.data_page_header_v2->num_nulls, 2);
  EXPECT_EQ(h.data_page_header_v2->encoding, Encoding::kRleDictionary);
  EXPECT_EQ(h.data_page_header_v2->definition_levels_byte_length, 3);
  EXPECT_TRUE(h.data_page_header_v2->is_compressed);
  // Every truncation of the header is an error, never a crash.
  for (size_t n = 0; n + 1 < bytes.size(); ++n) {
    size_t u = 0;
    EXPECT_THROW(decode_page_header(bytes.data(), n, &u), InvalidInput) << n;
  }
}

TEST(ParquetThrift, FileMetaDataOfAHandMadeFile) {
  testing::TestFileSpec spec;
  spec.rows = 3;
  spec.pages.push_back({0, 3, 0, testing::le_bytes<int32_t>({1, 2, 3})});
  auto file = testing::build_file(spec);
  uint32_t footer_size;
  std::memcpy(&footer_size, file.data() + file.size() - 8, 4);
  const uint8_t* footer = file.data() + file.size() - 8 - footer_size;
  FileMetaData m = decode_file_metadata(footer, footer_size);
  EXPECT_EQ(m.num_rows, 3);
  ASSERT_EQ(m.schema.size(), 2u);
  EXPECT_EQ(m.schema[1].name, "x");
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_TRUE(m.row_groups[0].columns[0].meta_data.has_value());
  EXPECT_EQ(m.row_groups[0].columns[0].meta_data->path_in_schema, std::vector<std::string>{"x"});
  EXPECT_EQ(m.row_groups[0].columns[0].meta_data->data_page_offset, 4);
  // Required fields missing: a clean error.
  ThriftWriter w;
  w.i32(1, 1);
  w.bytes.push_back(0);
  EXPECT_THROW(decode_file_metadata(w.bytes.data(), w.bytes.size()), InvalidInput);
  // Every bit flip of the footer decodes or fails cleanly.
  std::vector<uint8_t> copy(footer, footer + footer_size);
  for (size_t i = 0; i < copy.size() * 8; ++i) {
    copy[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
    try {
      decode_file_metadata(copy.data(), copy.size());
    } catch (const InvalidInput&) {
    }
    copy[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
  }
}

}  // namespace
}  // namespace kestrel::io::parquet
