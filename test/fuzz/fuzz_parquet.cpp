/// libFuzzer target over Kestrel's Parquet decoders. The first input byte picks what the rest is fed to:
///   0: a whole file (footer, schema, statistics, every column of every row group)
///   1: the footer decoder and the schema mapping alone
///   2: a column chunk's pages (page headers, decompression, levels, every encoding) for a column type, codec and
///      row count taken from the next bytes
///   3: the value decoders directly (RLE/bit-packing, delta encodings, byte stream split)
///   'K' (0x4b, checked before the modulo): a whole kcol file (footer, every chunk of every row group)
/// Any exception other than Kestrel's clean errors, any crash, hang or sanitizer report is a bug.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "io/kcol/kcol_file.hpp"
#include "io/parquet/column_chunk_reader.hpp"
#include "io/parquet/parquet_file.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/value_decoders.hpp"

namespace {

using namespace kestrel;
using namespace kestrel::io;
using namespace kestrel::io::parquet;

/// Row groups larger than this are skipped in mode 0: a valid file may hold any number of rows, and the fuzzer
/// would only find out that allocating them takes memory. Nested columns whose leaf chunks claim more level entries,
/// and pages claiming more bytes, are skipped or refused for the same reason.
constexpr int64_t kMaxFuzzRows = 1 << 20;
constexpr size_t kMaxFuzzPageBytes = size_t{64} << 20;

/// Whether a nested column's leaves in `row_group` claim more level entries than the fuzzer wants to allocate.
bool oversized_nested(const ParquetFile& file, size_t row_group, size_t column) {
  const ColumnDescriptor& d = file.descriptor(column);
  if (!d.nested) return false;
  const auto& chunks = file.metadata().row_groups[row_group].columns;
  for (size_t leaf = d.leaf_index; leaf < d.leaf_index + d.leaf_count && leaf < chunks.size(); ++leaf) {
    if (chunks[leaf].meta_data && chunks[leaf].meta_data->num_values > kMaxFuzzRows) return true;
  }
  return false;
}

void fuzz_file(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
  auto file = ParquetFile::open_buffer("fuzz.parquet", bytes);
  for (size_t g = 0; g < file->num_row_groups(); ++g) {
    for (size_t c = 0; c < file->schema()->size(); ++c) {
      ColumnStatistics stats = file->statistics(g, c);
      if (stats.min) statistics_may_match(stats, ColumnPredicate::compare(c, PredicateOp::kEqual, *stats.min));
    }
    if (file->row_group_num_rows(g) > kMaxFuzzRows) continue;
    ParquetReadOptions options;
    options.num_threads = 1;
    options.verify_checksums = g % 2 == 1;
    options.max_page_bytes = kMaxFuzzPageBytes;
    for (size_t c = 0; c < file->schema()->size(); ++c) {
      if (oversized_nested(*file, g, c)) continue;
      try {
        file->read_column_chunk(g, c, options);
      } catch (const InvalidInput&) {
      }
    }
  }
}

void fuzz_footer(const uint8_t* data, size_t size) {
  FileMetaData m = decode_file_metadata(data, size);
  map_schema(m.schema);
}

ColumnDescriptor column_for(uint8_t pick, bool optional) {
  struct Kind {
    PhysicalType physical;
    LogicalType type;
    ValueConversion conversion;
    int32_t length;
  };
  static const Kind kKinds[] = {
      {PhysicalType::kBoolean, TypeId::kBoolean, ValueConversion::kBoolean, 0},
      {PhysicalType::kInt32, TypeId::kInteger, ValueConversion::kIdentity, 0},
      {PhysicalType::kInt32, TypeId::kTinyInt, ValueConversion::kInt32ToInt8, 0},
      {PhysicalType::kInt64, TypeId::kBigInt, ValueConversion::kIdentity, 0},
      {PhysicalType::kInt64, TypeId::kTimestamp, ValueConversion::kNanosToMicros, 0},
      {PhysicalType::kInt96, TypeId::kTimestamp, ValueConversion::kInt96ToMicros, 0},
      {PhysicalType::kFloat, TypeId::kReal, ValueConversion::kIdentity, 0},
      {PhysicalType::kDouble, TypeId::kDouble, ValueConversion::kIdentity, 0},
      {PhysicalType::kByteArray, TypeId::kVarchar, ValueConversion::kBinaryToString, 0},
      {PhysicalType::kByteArray, LogicalType::decimal(30, 2), ValueConversion::kBigEndianToInt128, 0},
      {PhysicalType::kFixedLenByteArray, TypeId::kVarchar, ValueConversion::kBinaryToString, 3},
      {PhysicalType::kFixedLenByteArray, LogicalType::decimal(9, 2), ValueConversion::kBigEndianToInt64, 4},
      {PhysicalType::kFixedLenByteArray, TypeId::kReal, ValueConversion::kFloat16ToFloat, 2},
      {PhysicalType::kInt64, LogicalType::decimal(20, 0), ValueConversion::kUint64ToInt128, 0},
  };
  const Kind& k = kKinds[pick % (sizeof(kKinds) / sizeof(kKinds[0]))];
  ColumnDescriptor d;
  d.name = "fuzzed";
  d.readable = true;
  d.type = k.type;
  d.physical_type = k.physical;
  d.type_length = k.length;
  d.conversion = k.conversion;
  d.nullable = optional;
  d.max_definition_level = optional ? 1 : 0;
  return d;
}

void fuzz_chunk(const uint8_t* data, size_t size) {
  if (size < 4) return;
  ColumnDescriptor column = column_for(data[0], (data[1] & 1) != 0);
  ColumnMetaData meta;
  meta.raw_codec = data[1] >> 1 & 7;
  meta.codec = static_cast<CompressionCodec>(meta.raw_codec);
  size_t rows = static_cast<size_t>(data[2]) * 16 + data[3];
  ChunkDecodeOptions options{(data[1] & 0x10) != 0, (data[1] & 0x20) != 0, kMaxFuzzPageBytes};
  std::string name = "fuzz.parquet";
  ChunkLocation where{&name, 0};
  decode_column_chunk(ByteSpan{data + 4, size - 4}, column, meta, rows, options, where, gpu::host_memory_resource());
}

void fuzz_values(const uint8_t* data, size_t size) {
  if (size < 3) return;
  uint8_t mode = data[0] % 8;
  size_t count = data[1] * 4u + 1;
  ByteSpan in{data + 2, size - 2};
  BinaryValues binary;
  std::vector<int64_t> out64(count);
  std::vector<int32_t> out32(count);
  std::vector<uint8_t> bytes(count * 16);
  switch (mode) {
    case 0: {
      RleBitPackedDecoder d(in.data, in.size, data[1] % 33);
      d.decode(reinterpret_cast<uint32_t*>(out32.data()), count);
      break;
    }
    case 1: decode_delta_binary_packed(in, count, out64.data()); break;
    case 2: decode_delta_binary_packed(in, count, out32.data()); break;
    case 3: decode_delta_length_byte_arrays(in, count, binary); break;
    case 4: decode_delta_byte_arrays(in, count, binary); break;
    case 5: decode_byte_stream_split(in, count, 1 + data[1] % 16, bytes.data()); break;
    case 6: decode_plain_byte_arrays(in, count, binary); break;
    case 7: {
      RleBitPackedDecoder d(in.data, in.size, 1);
      d.decode_to_bitmap(bytes.data(), 3, count, 1);
      break;
    }
  }
}

void fuzz_kcol(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
  auto file = KcolFile::open_buffer("fuzz.kcol", bytes);
  for (size_t g = 0; g < file->num_row_groups(); ++g) {
    for (size_t c = 0; c < file->schema()->size(); ++c) {
      ColumnPtr column = file->read_chunk(g, c);
      if (column->length() > 0) column->value_at(column->length() - 1);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  try {
    if (data[0] == 'K') {
      fuzz_kcol(data + 1, size - 1);
      return 0;
    }
    switch (data[0] % 4) {
      case 0: fuzz_file(data + 1, size - 1); break;
      case 1: fuzz_footer(data + 1, size - 1); break;
      case 2: fuzz_chunk(data + 1, size - 1); break;
      case 3: fuzz_values(data + 1, size - 1); break;
    }
  } catch (const kestrel::InvalidInput&) {
  } catch (const kestrel::NotImplemented&) {
  } catch (const kestrel::IoError&) {
  }
  return 0;
}
