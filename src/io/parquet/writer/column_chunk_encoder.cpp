#include "io/parquet/writer/column_chunk_encoder.hpp"

#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/writer/metadata_encoder.hpp"
#include "io/parquet/writer/physical_values.hpp"
#include "io/parquet/writer/rle_encoder.hpp"

namespace kestrel::io::parquet {
namespace {

/// Longer min/max values are left out of the statistics rather than truncated.
constexpr size_t kMaxStatisticsValueBytes = 4096;

void put_u32(uint32_t v, std::vector<uint8_t>& out) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// PLAIN encoding of values [begin, end).
void encode_plain(const PhysicalValues& v, size_t begin, size_t end, std::vector<uint8_t>& out) {
  if (v.kind == StatKind::kBoolean) {
    std::vector<uint32_t> bits(v.data.begin() + begin, v.data.begin() + end);
    pack_bits(bits.data(), bits.size(), 1, out);
    return;
  }
  if (v.is_byte_array()) {
    for (size_t i = begin; i < end; ++i) {
      std::string_view s = v.at(i);
      put_u32(static_cast<uint32_t>(s.size()), out);
      out.insert(out.end(), s.begin(), s.end());
    }
    return;
  }
  out.insert(out.end(), v.data.begin() + begin * v.width, v.data.begin() + end * v.width);
}

/// The distinct values of a chunk and each value's index into them.
struct DictionaryEncoding {
  std::vector<uint32_t> entries;  ///< value index of each entry's first occurrence
  std::vector<uint32_t> indices;  ///< per value
  int bit_width = 1;
};

/// Builds the dictionary, or nullopt when its PLAIN size would pass `limit` bytes.
std::optional<DictionaryEncoding> build_dictionary(const PhysicalValues& v, size_t limit) {
  DictionaryEncoding d;
  std::unordered_map<std::string_view, uint32_t> index_of;
  d.indices.reserve(v.size());
  size_t dictionary_bytes = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string_view value = v.at(i);
    auto [it, inserted] = index_of.emplace(value, static_cast<uint32_t>(d.entries.size()));
    if (inserted) {
      d.entries.push_back(static_cast<uint32_t>(i));
      dictionary_bytes += value.size() + (v.is_byte_array() ? 4 : 0);
      if (dictionary_bytes > limit) return std::nullopt;
    }
    d.indices.push_back(it->second);
  }
  d.bit_width = std::max(1, bit_width_for(d.entries.empty() ? 0 : d.entries.size() - 1));
  return d;
}

/// Appends one page (header + possibly compressed body) to the chunk.
void append_page(PageHeader header, const std::vector<uint8_t>& body, const ParquetWriterOptions& options,
                 EncodedColumnChunk& out) {
  std::vector<uint8_t> compressed;
  const std::vector<uint8_t>* stored = &body;
  if (options.compression != CompressionCodec::kUncompressed) {
    compressed = compress(options.compression, body, options.compression_level);
    stored = &compressed;
  }
  if (body.size() > INT32_MAX || stored->size() > INT32_MAX) {
    throw InvalidInput("a page of " + std::to_string(body.size()) + " bytes does not fit a Parquet page header");
  }
  header.uncompressed_page_size = static_cast<int32_t>(body.size());
  header.compressed_page_size = static_cast<int32_t>(stored->size());
  if (options.page_checksum) header.crc = crc32(*stored);
  std::vector<uint8_t> header_bytes = encode_page_header(header);
  out.bytes.insert(out.bytes.end(), header_bytes.begin(), header_bytes.end());
  out.bytes.insert(out.bytes.end(), stored->begin(), stored->end());
  out.uncompressed_bytes += static_cast<int64_t>(header_bytes.size() + body.size());
}

/// Rows [row_begin, row_end) holding values [value_begin, value_end) of one data page.
struct PageRange {
  size_t row_begin, row_end, value_begin, value_end;
};

std::vector<PageRange> cut_pages(const std::vector<uint32_t>& levels, size_t rows, const PhysicalValues& v,
                                 const DictionaryEncoding* dict, size_t page_size) {
  std::vector<PageRange> pages;
  PageRange page{0, 0, 0, 0};
  size_t bits = 0;  // estimated encoded bits of the open page
  size_t value = 0;
  for (size_t row = 0; row < rows; ++row) {
    bool present = levels.empty() || levels[row] != 0;
    bits += levels.empty() ? 0 : 1;
    if (present) {
      if (dict) {
        bits += static_cast<size_t>(dict->bit_width);
      } else if (v.kind == StatKind::kBoolean) {
        bits += 1;
      } else {
        bits += 8 * (v.is_byte_array() ? 4 + v.at(value).size() : v.width);
      }
      ++value;
    }
    if (bits >= 8 * page_size || row + 1 == rows) {
      page.row_end = row + 1;
      page.value_end = value;
      pages.push_back(page);
      page = PageRange{row + 1, row + 1, value, value};
      bits = 0;
    }
  }
  return pages;
}

Statistics make_statistics(const PhysicalValues& v, int64_t null_count) {
  Statistics s;
  s.null_count = null_count;
  auto [min_index, max_index] = v.min_max();
  if (!min_index) return s;
  std::string min(v.at(*min_index)), max(v.at(*max_index));
  if (min.size() > kMaxStatisticsValueBytes || max.size() > kMaxStatisticsValueBytes) return s;
  v.normalize_zero_bounds(min, max);
  s.min_value = min;
  s.max_value = max;
  if (v.legacy_statistics_valid()) {
    s.min = min;
    s.max = max;
  }
  return s;
}

}  // namespace

EncodedColumnChunk encode_column_chunk(const Field& field, const std::vector<ColumnSlice>& slices,
                                       const ParquetWriterOptions& options, int64_t file_offset) {
  SchemaElement element = schema_element_for(field);
  bool optional = element.repetition == Repetition::kOptional;
  PhysicalValues values(field.type);
  std::vector<uint32_t> levels;
  size_t rows = 0;
  int64_t nulls = 0;
  for (const auto& slice : slices) {
    const Column& column = *slice.column;
    for (size_t r = slice.begin; r < slice.begin + slice.count; ++r) {
      bool valid = column.is_valid(r);
      if (!valid && !optional) {
        throw InvalidInput("column '" + field.name + "' is NOT NULL but holds a NULL");
      }
      if (optional) levels.push_back(valid ? 1 : 0);
      if (valid) {
        values.append(column, r);
      } else {
        ++nulls;
      }
    }
    rows += slice.count;
  }

  std::optional<DictionaryEncoding> dict;
  if (options.dictionary && values.kind != StatKind::kBoolean && values.size() > 0) {
    dict = build_dictionary(values, options.dictionary_size_limit);
  }

  EncodedColumnChunk out;
  ColumnMetaData meta;
  meta.type = *element.type;
  meta.path_in_schema = {field.name};
  meta.codec = options.compression;
  meta.num_values = static_cast<int64_t>(rows);
  meta.encodings = {Encoding::kPlain, Encoding::kRle};

  if (dict) {
    meta.encodings.push_back(Encoding::kRleDictionary);
    meta.dictionary_page_offset = file_offset;
    std::vector<uint8_t> body;
    PhysicalValues entries = values.select(dict->entries);
    encode_plain(entries, 0, entries.size(), body);
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.dictionary_page_header = DictionaryPageHeader{static_cast<int32_t>(entries.size()), Encoding::kPlain, false};
    append_page(header, body, options, out);
  }
  meta.data_page_offset = file_offset + static_cast<int64_t>(out.bytes.size());

  for (const PageRange& page : cut_pages(levels, rows, values, dict ? &*dict : nullptr, options.data_page_size)) {
    std::vector<uint8_t> body;
    if (optional) {
      std::vector<uint8_t> encoded_levels;
      rle_encode(levels.data() + page.row_begin, page.row_end - page.row_begin, 1, encoded_levels);
      put_u32(static_cast<uint32_t>(encoded_levels.size()), body);
      body.insert(body.end(), encoded_levels.begin(), encoded_levels.end());
    }
    if (dict) {
      body.push_back(static_cast<uint8_t>(dict->bit_width));
      rle_encode(dict->indices.data() + page.value_begin, page.value_end - page.value_begin, dict->bit_width, body);
    } else {
      encode_plain(values, page.value_begin, page.value_end, body);
    }
    PageHeader header;
    header.type = PageType::kDataPage;
    header.data_page_header = DataPageHeader{static_cast<int32_t>(page.row_end - page.row_begin),
                                             dict ? Encoding::kRleDictionary : Encoding::kPlain, Encoding::kRle,
                                             Encoding::kRle};
    append_page(header, body, options, out);
  }

  meta.total_compressed_size = static_cast<int64_t>(out.bytes.size());
  meta.total_uncompressed_size = out.uncompressed_bytes;
  if (options.statistics) meta.statistics = make_statistics(values, nulls);
  out.chunk.file_offset = file_offset;
  out.chunk.meta_data = std::move(meta);
  return out;
}

}  // namespace kestrel::io::parquet
