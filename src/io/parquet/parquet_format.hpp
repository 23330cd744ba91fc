#pragma once
/// Parquet's file metadata as plain structs: the parts of the footer, page headers and page index that Kestrel
/// uses, decoded from the Thrift compact protocol. Field numbering and enum values follow the Parquet format; fields
/// Kestrel does not use are skipped while decoding. Optional fields are std::optional or flagged `has_*`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/compression/codec.hpp"

namespace kestrel::io::parquet {

/// Physical (storage) types.
enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};
const char* physical_type_name(PhysicalType type);

/// Legacy type annotations (ConvertedType).
enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};
/// "PLAIN", "RLE_DICTIONARY", ... or "UNKNOWN(n)".
std::string encoding_name(Encoding encoding);

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class TimeUnit : uint8_t { kMillis, kMicros, kNanos };

/// The LogicalType union, flattened: `kind` says which member was set.
struct LogicalTypeAnnotation {
  enum class Kind : uint8_t {
    kNone,  ///< absent
    kString,
    kMap,
    kList,
    kEnum,
    kDecimal,
    kDate,
    kTime,
    kTimestamp,
    kInteger,
    kUnknown,  ///< the NULL type: every value is null
    kJson,
    kBson,
    kUuid,
    kFloat16,
    kOther,  ///< a member this reader does not know (newer format versions)
  };
  Kind kind = Kind::kNone;
  int32_t scale = 0;      ///< DECIMAL
  int32_t precision = 0;  ///< DECIMAL
  TimeUnit unit = TimeUnit::kMillis;  ///< TIME, TIMESTAMP
  bool adjusted_to_utc = false;       ///< TIME, TIMESTAMP
  int8_t bit_width = 0;               ///< INTEGER
  bool is_signed = true;              ///< INTEGER
};

/// One node of the schema tree (stored depth-first in FileMetaData::schema).
struct SchemaElement {
  std::optional<PhysicalType> type;  ///< absent for groups
  int32_t type_length = 0;
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
  std::optional<ConvertedType> converted_type;
  int32_t scale = 0;
  int32_t precision = 0;
  LogicalTypeAnnotation logical_type;
};

/// Column statistics in their encoded (PLAIN, no length prefix) form.
struct Statistics {
  std::optional<std::string> max;  ///< deprecated, signed order
  std::optional<std::string> min;  ///< deprecated, signed order
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int32_t raw_codec = 0;  ///< the codec number as written (for messages about unknown codecs)
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
};

struct ColumnChunk {
  std::optional<std::string> file_path;  ///< set when the chunk lives in another file (not supported)
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  bool encrypted = false;  ///< crypto_metadata or encrypted_column_metadata present
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  /// One entry per leaf column: true when the column uses the type-defined sort order (min_value/max_value valid).
  std::vector<bool> column_orders_type_defined;
  bool encrypted = false;  ///< encryption_algorithm present (plaintext footer of an encrypted file)
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  bool is_sorted = false;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t raw_type = 0;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<uint32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

/// Page-level min/max of one column chunk (the ColumnIndex of the page index).
struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  std::vector<int64_t> null_counts;  ///< empty when not written
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};

/// Where each data page of a column chunk starts (the OffsetIndex of the page index).
struct OffsetIndex {
  std::vector<PageLocation> page_locations;
};

/// Decoders; each throws InvalidInput with the reason when the bytes are malformed.
FileMetaData decode_file_metadata(const uint8_t* data, size_t size);
/// Decodes the page header at `data`; `*header_size` receives the bytes it took.
PageHeader decode_page_header(const uint8_t* data, size_t size, size_t* header_size);
ColumnIndex decode_column_index(const uint8_t* data, size_t size);
OffsetIndex decode_offset_index(const uint8_t* data, size_t size);

}  // namespace kestrel::io::parquet
