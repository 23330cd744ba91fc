// The Parquet writer's building blocks against the reader's decoders: Thrift compact structs, the RLE/bit-packed
// hybrid, and the option parser.

#include <gtest/gtest.h>

#include <random>

#include "common/error.hpp"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/thrift_compact.hpp"
#include "io/parquet/writer/metadata_encoder.hpp"
#include "io/parquet/writer/parquet_writer_options.hpp"
#include "io/parquet/writer/rle_encoder.hpp"
#include "io/parquet/writer/thrift_compact_writer.hpp"

namespace kestrel::io::parquet {
namespace {

TEST(ParquetWriterThrift, ScalarsRoundTrip) {
  ThriftCompactWriter w;
  w.begin_struct();
  w.field_i32(1, -7);
  w.field_i64(2, int64_t{1} << 40);
  w.field_bool(3, true);
  w.field_binary(20, "kestrel");  // a long field-id jump
  w.field_double(21, 2.5);
  w.field_i16(5, -300);          // a backwards jump
  w.field_byte(6, -3);
  w.field_list_begin(7, ThriftType::kI32, 20);
  for (int i = 0; i < 20; ++i) w.element_i32(i - 10);
  w.field_empty_struct(8);
  w.end_struct();
  auto bytes = w.take();

  ThriftCompactReader r(bytes.data(), bytes.size());
  r.begin_struct();
  std::vector<int16_t> ids;
  for (auto f = r.read_field(); f.type != ThriftType::kStop; f = r.read_field()) {
    ids.push_back(f.id);
    switch (f.id) {
      case 1: EXPECT_EQ(r.read_i32(), -7); break;
      case 2: EXPECT_EQ(r.read_i64(), int64_t{1} << 40); break;
      case 3: EXPECT_TRUE(ThriftCompactReader::bool_field_value(f.type)); break;
      case 20: EXPECT_EQ(r.read_binary(), "kestrel"); break;
      case 21: EXPECT_EQ(r.read_double(), 2.5); break;
      case 5: EXPECT_EQ(r.read_i16(), -300); break;
      case 6: EXPECT_EQ(r.read_byte(), -3); break;
      case 7: {
        auto list = r.read_list_header();
        ASSERT_EQ(list.size, 20u);
        for (int i = 0; i < 20; ++i) EXPECT_EQ(r.read_i32(), i - 10);
        break;
      }
      default: r.skip(f.type);
    }
  }
  r.end_struct();
  EXPECT_EQ(ids, (std::vector<int16_t>{1, 2, 3, 20, 21, 5, 6, 7, 8}));
  EXPECT_EQ(r.remaining(), 0u);
}

FileMetaData sample_metadata() {
  FileMetaData m;
  m.version = 1;
  m.num_rows = 1234567890123;
  m.created_by = "Kestrel";
  SchemaElement root;
  root.name = "schema";
  root.num_children = 3;
  m.schema.push_back(root);
  SchemaElement dec;
  dec.name = "price";
  dec.type = PhysicalType::kFixedLenByteArray;
  dec.type_length = 16;
  dec.repetition = Repetition::kOptional;
  dec.converted_type = ConvertedType::kDecimal;
  dec.precision = 38;
  dec.scale = 4;
  dec.logical_type.kind = LogicalTypeAnnotation::Kind::kDecimal;
  dec.logical_type.precision = 38;
  dec.logical_type.scale = 4;
  m.schema.push_back(dec);
  SchemaElement ts;
  ts.name = "at";
  ts.type = PhysicalType::kInt64;
  ts.repetition = Repetition::kRequired;
  ts.logical_type.kind = LogicalTypeAnnotation::Kind::kTimestamp;
  ts.logical_type.unit = TimeUnit::kMicros;
  m.schema.push_back(ts);
  SchemaElement small;
  small.name = "small";
  small.type = PhysicalType::kInt32;
  small.repetition = Repetition::kOptional;
  small.converted_type = ConvertedType::kInt16;
  small.logical_type.kind = LogicalTypeAnnotation::Kind::kInteger;
  small.logical_type.bit_width = 16;
  m.schema.push_back(small);

  RowGroup g;
  g.num_rows = 10;
  g.total_byte_size = 999;
  for (int c = 0; c < 3; ++c) {
    ColumnChunk chunk;
    chunk.file_offset = 4 + c * 100;
    ColumnMetaData meta;
    meta.type = c == 0 ? PhysicalType::kFixedLenByteArray : PhysicalType::kInt64;
    meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
    meta.path_in_schema = {"col" + std::to_string(c)};
    meta.codec = CompressionCodec::kZstd;
    meta.raw_codec = 6;
    meta.num_values = 10;
    meta.total_compressed_size = 50 + c;
    meta.total_uncompressed_size = 70 + c;
    meta.data_page_offset = 4 + c * 100 + 20;
    if (c != 1) meta.dictionary_page_offset = 4 + c * 100;
    Statistics s;
    s.null_count = c;
    s.min_value = std::string("\x00\x01", 2);
    s.max_value = "zz";
    if (c == 2) {
      s.min = "a";
      s.max = "b";
    }
    meta.statistics = s;
    chunk.meta_data = meta;
    g.columns.push_back(chunk);
  }
  m.row_groups = {g, g};
  m.key_value_metadata.push_back({"k", std::string("v")});
  m.column_orders_type_defined = {true, true, true};
  return m;
}

TEST(ParquetWriterThrift, FileMetaDataRoundTrip) {
  FileMetaData m = sample_metadata();
  auto bytes = encode_file_metadata(m);
  FileMetaData d = decode_file_metadata(bytes.data(), bytes.size());
  EXPECT_EQ(d.version, 1);
  EXPECT_EQ(d.num_rows, m.num_rows);
  EXPECT_EQ(d.created_by, m.created_by);
  ASSERT_EQ(d.schema.size(), 4u);
  EXPECT_EQ(d.schema[0].num_children, 3);
  EXPECT_EQ(d.schema[1].type, PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(d.schema[1].type_length, 16);
  EXPECT_EQ(d.schema[1].logical_type.kind, LogicalTypeAnnotation::Kind::kDecimal);
  EXPECT_EQ(d.schema[1].logical_type.precision, 38);
  EXPECT_EQ(d.schema[1].logical_type.scale, 4);
  EXPECT_EQ(d.schema[1].precision, 38);
  EXPECT_EQ(d.schema[2].repetition, Repetition::kRequired);
  EXPECT_EQ(d.schema[2].logical_type.kind, LogicalTypeAnnotation::Kind::kTimestamp);
  EXPECT_EQ(d.schema[2].logical_type.unit, TimeUnit::kMicros);
  EXPECT_FALSE(d.schema[2].logical_type.adjusted_to_utc);
  EXPECT_EQ(d.schema[3].logical_type.kind, LogicalTypeAnnotation::Kind::kInteger);
  EXPECT_EQ(d.schema[3].logical_type.bit_width, 16);
  EXPECT_TRUE(d.schema[3].logical_type.is_signed);
  ASSERT_EQ(d.row_groups.size(), 2u);
  EXPECT_EQ(d.row_groups[1].num_rows, 10);
  EXPECT_EQ(d.row_groups[1].total_byte_size, 999);
  ASSERT_EQ(d.row_groups[0].columns.size(), 3u);
  for (int c = 0; c < 3; ++c) {
    const auto& got = *d.row_groups[0].columns[c].meta_data;
    const auto& want = *m.row_groups[0].columns[c].meta_data;
    EXPECT_EQ(d.row_groups[0].columns[c].file_offset, 4 + c * 100);
    EXPECT_EQ(got.type, want.type);
    EXPECT_EQ(got.encodings, want.encodings);
    EXPECT_EQ(got.path_in_schema, want.path_in_schema);
    EXPECT_EQ(got.codec, CompressionCodec::kZstd);
    EXPECT_EQ(got.total_compressed_size, want.total_compressed_size);
    EXPECT_EQ(got.total_uncompressed_size, want.total_uncompressed_size);
    EXPECT_EQ(got.data_page_offset, want.data_page_offset);
    EXPECT_EQ(got.dictionary_page_offset, want.dictionary_page_offset);
    ASSERT_TRUE(got.statistics);
    EXPECT_EQ(got.statistics->null_count, c);
    EXPECT_EQ(got.statistics->min_value, want.statistics->min_value);
    EXPECT_EQ(got.statistics->max_value, want.statistics->max_value);
    EXPECT_EQ(got.statistics->min, want.statistics->min);
    EXPECT_EQ(got.statistics->max, want.statistics->max);
  }
  ASSERT_EQ(d.key_value_metadata.size(), 1u);
  EXPECT_EQ(d.key_value_metadata[0].value, "v");
  EXPECT_EQ(d.column_orders_type_defined, (std::vector<bool>{true, true, true}));
}

TEST(ParquetWriterThrift, PageHeadersRoundTrip) {
  PageHeader data;
  data.type = PageType::kDataPage;
  data.uncompressed_page_size = 1 << 20;
  data.compressed_page_size = 12345;
  data.crc = 0xdeadbeef;
  data.data_page_header = DataPageHeader{777, Encoding::kRleDictionary, Encoding::kRle, Encoding::kRle};
  auto bytes = encode_page_header(data);
  bytes.push_back(0xab);  // page data follows the header
  size_t header_size = 0;
  PageHeader d = decode_page_header(bytes.data(), bytes.size(), &header_size);
  EXPECT_EQ(header_size, bytes.size() - 1);
  EXPECT_EQ(d.type, PageType::kDataPage);
  EXPECT_EQ(d.uncompressed_page_size, 1 << 20);
  EXPECT_EQ(d.compressed_page_size, 12345);
  EXPECT_EQ(d.crc, 0xdeadbeefu);
  ASSERT_TRUE(d.data_page_header);
  EXPECT_EQ(d.data_page_header->num_values, 777);
  EXPECT_EQ(d.data_page_header->encoding, Encoding::kRleDictionary);

  PageHeader dict;
  dict.type = PageType::kDictionaryPage;
  dict.uncompressed_page_size = 10;
  dict.compressed_page_size = 10;
  dict.dictionary_page_header = DictionaryPageHeader{3, Encoding::kPlain, true};
  bytes = encode_page_header(dict);
  d = decode_page_header(bytes.data(), bytes.size(), &header_size);
  EXPECT_EQ(d.type, PageType::kDictionaryPage);
  EXPECT_FALSE(d.crc);
  ASSERT_TRUE(d.dictionary_page_header);
  EXPECT_EQ(d.dictionary_page_header->num_values, 3);
  EXPECT_TRUE(d.dictionary_page_header->is_sorted);
}

std::vector<uint32_t> rle_round_trip(const std::vector<uint32_t>& values, int bit_width) {
  std::vector<uint8_t> bytes;
  rle_encode(values.data(), values.size(), bit_width, bytes);
  std::vector<uint32_t> out(values.size());
  RleBitPackedDecoder decoder(bytes.data(), bytes.size(), bit_width);
  decoder.decode(out.data(), out.size());
  return out;
}

TEST(ParquetWriterRle, MatchesDecoderOnShapes) {
  std::vector<std::vector<uint32_t>> cases = {
      {},
      {1},
      {0, 1, 0},
      std::vector<uint32_t>(1000, 1),
      {1, 2, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 7},   // literals not a multiple of 8 before a run
      {5, 5, 5, 5, 5, 5, 5, 5, 1, 2, 3, 4, 5, 6},   // a run first
  };
  for (const auto& values : cases) EXPECT_EQ(rle_round_trip(values, 3), values);
}

TEST(ParquetWriterRle, MatchesDecoderRandom) {
  std::mt19937 rng(42);
  for (int bit_width : {1, 2, 5, 8, 13, 20, 31, 32}) {
    for (int trial = 0; trial < 20; ++trial) {
      size_t n = rng() % 3000;
      std::vector<uint32_t> values(n);
      uint64_t limit = bit_width == 32 ? 0xffffffffull : (1ull << bit_width) - 1;
      for (size_t i = 0; i < n;) {
        uint32_t v = static_cast<uint32_t>(rng() % (limit + 1));
        size_t run = rng() % 4 == 0 ? rng() % 40 + 1 : 1;
        for (size_t k = 0; k < run && i < n; ++k) values[i++] = v;
      }
      EXPECT_EQ(rle_round_trip(values, bit_width), values) << "bit width " << bit_width << " n " << n;
    }
  }
}

TEST(ParquetWriterRle, RunsAreCompact) {
  std::vector<uint32_t> values(100000, 1);
  std::vector<uint8_t> bytes;
  rle_encode(values.data(), values.size(), 1, bytes);
  EXPECT_LE(bytes.size(), 4u);
}

TEST(ParquetWriterOptions, ParsesTextPairs) {
  ParquetWriterOptions o;
  o.set("COMPRESSION", "zstd");
  o.set("compression_level", "7");
  o.set("row_group_size", "1000");
  o.set("dictionary", "false");
  o.set("page_size", "4096");
  o.set("dictionary_size_limit", "100");
  o.set("statistics", "off");
  o.set("page_checksum", "false");
  EXPECT_EQ(o.compression, CompressionCodec::kZstd);
  EXPECT_EQ(o.compression_level, 7);
  EXPECT_EQ(o.row_group_size, 1000u);
  EXPECT_FALSE(o.dictionary);
  EXPECT_EQ(o.data_page_size, 4096u);
  EXPECT_EQ(o.dictionary_size_limit, 100u);
  EXPECT_FALSE(o.statistics);
  EXPECT_FALSE(o.page_checksum);
  for (auto [name, codec] : {std::pair{"uncompressed", CompressionCodec::kUncompressed},
                             std::pair{"snappy", CompressionCodec::kSnappy}, std::pair{"GZIP", CompressionCodec::kGzip},
                             std::pair{"lz4_raw", CompressionCodec::kLz4Raw}}) {
    o.set("codec", name);
    EXPECT_EQ(o.compression, codec);
  }
}

TEST(ParquetWriterOptions, RejectsUnknownNamesAndValues) {
  ParquetWriterOptions o;
  auto message = [&](const char* name, const char* value) -> std::string {
    try {
      o.set(name, value);
    } catch (const InvalidInput& e) {
      return e.message();
    }
    return "no error";
  };
  EXPECT_NE(message("compresion", "zstd").find("unknown Parquet write option 'compresion'"), std::string::npos);
  EXPECT_NE(message("compression", "lzo").find("'lzo'"), std::string::npos);
  EXPECT_NE(message("row_group_size", "0").find("row_group_size"), std::string::npos);
  EXPECT_NE(message("row_group_size", "12abc").find("'12abc'"), std::string::npos);
  EXPECT_NE(message("dictionary", "maybe").find("true or false"), std::string::npos);
  EXPECT_NE(message("page_size", "").find("page_size"), std::string::npos);
}

}  // namespace
}  // namespace kestrel::io::parquet
