#include "io/parquet/writer/column_chunk_encoder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "common/xxhash64.hpp"
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

/// Builds the dictionary, or nullopt when its PLAIN size would pass `limit` bytes. An open-addressing table of
/// entry numbers finds each value's entry; `key(i)` gives value i's hash key and `same(e, i)` compares entry e with
/// value i. Entries stay positions in `v`.
constexpr size_t kDictionaryProbeValues = 16384;

template <typename Key, typename Same>
std::optional<DictionaryEncoding> build_dictionary_with(const PhysicalValues& v, size_t limit, Key key, Same same) {
  DictionaryEncoding d;
  d.indices.reserve(v.size());
  const bool byte_array = v.is_byte_array();
  size_t capacity = 1024;
  std::vector<uint32_t> slots(capacity, UINT32_MAX);  ///< entry number, or UINT32_MAX for empty
  std::vector<uint64_t> hashes;                       ///< per entry
  size_t dictionary_bytes = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    // Give up early when the first values already promise a dictionary far past the limit.
    if (i == kDictionaryProbeValues && dictionary_bytes * (v.size() / i) > 4 * limit) return std::nullopt;
    const uint64_t h = key(i);
    size_t mask = capacity - 1;
    size_t s = h & mask;
    uint32_t found = UINT32_MAX;
    while (slots[s] != UINT32_MAX) {
      const uint32_t e = slots[s];
      if (hashes[e] == h && same(e, i, d)) {
        found = e;
        break;
      }
      s = (s + 1) & mask;
    }
    if (found == UINT32_MAX) {
      found = static_cast<uint32_t>(d.entries.size());
      d.entries.push_back(static_cast<uint32_t>(i));
      hashes.push_back(h);
      dictionary_bytes += (byte_array ? v.at(i).size() + 4 : v.width);
      if (dictionary_bytes > limit) return std::nullopt;
      slots[s] = found;
      if (2 * d.entries.size() > capacity) {  // keep the table at most half full
        capacity *= 2;
        mask = capacity - 1;
        slots.assign(capacity, UINT32_MAX);
        for (uint32_t e = 0; e < d.entries.size(); ++e) {
          size_t t = hashes[e] & mask;
          while (slots[t] != UINT32_MAX) t = (t + 1) & mask;
          slots[t] = e;
        }
      }
    }
    d.indices.push_back(found);
  }
  d.bit_width = std::max(1, bit_width_for(d.entries.empty() ? 0 : d.entries.size() - 1));
  return d;
}

uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

uint64_t short_string_hash(std::string_view s) {
  if (s.size() > 16) return xxhash64(s.data(), s.size());
  uint64_t lo = 0, hi = 0;
  std::memcpy(&lo, s.data(), std::min<size_t>(s.size(), 8));
  if (s.size() > 8) std::memcpy(&hi, s.data() + 8, s.size() - 8);
  return mix64(lo ^ mix64(hi + s.size()));
}

/// build_dictionary_with for values of up to 8 bytes: they are their own keys, and each slot of the table holds its
/// value beside its entry number, so a probe touches one slot and nothing else.
template <size_t kWidth>
std::optional<DictionaryEncoding> build_fixed_dictionary(const PhysicalValues& v, size_t limit) {
  struct Slot {
    uint64_t value;
    uint32_t entry;  ///< UINT32_MAX: empty
  };
  DictionaryEncoding d;
  d.indices.reserve(v.size());
  const uint8_t* data = v.data.data();
  auto load = [data](size_t i) {
    uint64_t x = 0;
    std::memcpy(&x, data + i * kWidth, kWidth);
    return x;
  };
  size_t capacity = 1024;
  std::vector<Slot> slots(capacity, Slot{0, UINT32_MAX});
  size_t dictionary_bytes = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i == kDictionaryProbeValues && dictionary_bytes * (v.size() / i) > 4 * limit) return std::nullopt;
    const uint64_t x = load(i);
    size_t mask = capacity - 1;
    size_t s = mix64(x) & mask;
    while (slots[s].entry != UINT32_MAX && slots[s].value != x) s = (s + 1) & mask;
    uint32_t found = slots[s].entry;
    if (found == UINT32_MAX) {
      found = static_cast<uint32_t>(d.entries.size());
      d.entries.push_back(static_cast<uint32_t>(i));
      dictionary_bytes += kWidth;
      if (dictionary_bytes > limit) return std::nullopt;
      slots[s] = Slot{x, found};
      if (2 * d.entries.size() > capacity) {  // keep the table at most half full
        capacity *= 2;
        mask = capacity - 1;
        std::vector<Slot> grown(capacity, Slot{0, UINT32_MAX});
        for (const Slot& old : slots) {
          if (old.entry == UINT32_MAX) continue;
          size_t t = mix64(old.value) & mask;
          while (grown[t].entry != UINT32_MAX) t = (t + 1) & mask;
          grown[t] = old;
        }
        slots = std::move(grown);
      }
    }
    d.indices.push_back(found);
  }
  d.bit_width = std::max(1, bit_width_for(d.entries.empty() ? 0 : d.entries.size() - 1));
  return d;
}

std::optional<DictionaryEncoding> build_dictionary(const PhysicalValues& v, size_t limit) {
  if (!v.is_byte_array()) {
    switch (v.width) {
      case 1: return build_fixed_dictionary<1>(v, limit);
      case 2: return build_fixed_dictionary<2>(v, limit);
      case 4: return build_fixed_dictionary<4>(v, limit);
      case 8: return build_fixed_dictionary<8>(v, limit);
      default: break;
    }
  }
  // Byte arrays: strings of up to 16 bytes (flags, modes, codes: the ones dictionaries are for) hash as two
  // words and their length, longer ones with XXH64.
  return build_dictionary_with(
      v, limit, [&](size_t i) { return short_string_hash(v.at(i)); },
      [&](uint32_t e, size_t i, const DictionaryEncoding& d) { return v.at(d.entries[e]) == v.at(i); });
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

/// Level entries [entry_begin, entry_end) holding values [value_begin, value_end) of one data page.
struct PageRange {
  size_t entry_begin, entry_end, value_begin, value_end;
};

/// Cuts the entries into pages of about `page_size` encoded bytes, each ending where a row ends.
std::vector<PageRange> cut_pages(const LeafEntries& leaf, const PhysicalValues& v, const DictionaryEncoding* dict,
                                 size_t page_size) {
  std::vector<PageRange> pages;
  PageRange page{0, 0, 0, 0};
  const uint32_t max_def = static_cast<uint32_t>(leaf.max_definition_level);
  const size_t level_bits = static_cast<size_t>(bit_width_for(leaf.max_definition_level)) +
                            static_cast<size_t>(bit_width_for(leaf.max_repetition_level));
  size_t bits = 0;  // estimated encoded bits of the open page
  size_t value = 0;
  for (size_t entry = 0; entry < leaf.entries; ++entry) {
    bool present = leaf.def.empty() || leaf.def[entry] == max_def;
    bits += level_bits;
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
    const bool row_ends = entry + 1 == leaf.entries || leaf.rep.empty() || leaf.rep[entry + 1] == 0;
    if (row_ends && (bits >= 8 * page_size || entry + 1 == leaf.entries)) {
      page.entry_end = entry + 1;
      page.value_end = value;
      pages.push_back(page);
      page = PageRange{entry + 1, entry + 1, value, value};
      bits = 0;
    }
  }
  return pages;
}

/// Appends levels [begin, end) of `levels` (maximum `max_level`) RLE-encoded with their 4-byte length.
void put_levels(const std::vector<uint32_t>& levels, size_t begin, size_t end, int max_level,
                std::vector<uint8_t>& body) {
  if (max_level == 0) return;
  std::vector<uint8_t> encoded;
  rle_encode(levels.data() + begin, end - begin, bit_width_for(static_cast<uint64_t>(max_level)), encoded);
  put_u32(static_cast<uint32_t>(encoded.size()), body);
  body.insert(body.end(), encoded.begin(), encoded.end());
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
  LeafEntries leaf;
  leaf.max_definition_level = optional ? 1 : 0;
  std::vector<uint32_t>& levels = leaf.def;
  size_t total_rows = 0, total_bytes = 0;
  for (const auto& slice : slices) {
    total_rows += slice.count;
    const Column& column = *slice.column;
    if (column.type().is_variable_width() && !column.is_dictionary() && column.offsets()) {
      const int64_t* o = column.offsets()->as<int64_t>();
      total_bytes += static_cast<size_t>(o[slice.begin + slice.count] - o[slice.begin]);
    } else {
      total_bytes += slice.count * (values.width > 0 ? values.width : 8);
    }
  }
  values.reserve(total_rows, total_bytes);
  if (optional) levels.reserve(total_rows);
  for (const auto& slice : slices) {
    const Column& column = *slice.column;
    if (column.null_count() == 0 || !column.validity()) {
      // No NULLs in the slice: its values go in as ranges.
      if (optional) levels.insert(levels.end(), slice.count, 1u);
      values.append_rows(column, slice.begin, slice.count);
      leaf.entries += slice.count;
      continue;
    }
    for (size_t r = slice.begin; r < slice.begin + slice.count; ++r) {
      bool valid = column.is_valid(r);
      if (!valid && !optional) {
        throw InvalidInput("column '" + field.name + "' is NOT NULL but holds a NULL");
      }
      if (optional) levels.push_back(valid ? 1 : 0);
      if (valid) {
        values.append(column, r);
      } else {
        ++leaf.nulls;
      }
    }
    leaf.entries += slice.count;
  }
  return encode_leaf_chunk(element, {field.name}, leaf, values, options, file_offset);
}

EncodedColumnChunk encode_leaf_chunk(const SchemaElement& element, const std::vector<std::string>& path,
                                     const LeafEntries& leaf, const PhysicalValues& values,
                                     const ParquetWriterOptions& options, int64_t file_offset) {
  std::optional<DictionaryEncoding> dict;
  if (options.dictionary && values.kind != StatKind::kBoolean && values.size() > 0) {
    dict = build_dictionary(values, options.dictionary_size_limit);
  }

  EncodedColumnChunk out;
  ColumnMetaData meta;
  meta.type = *element.type;
  meta.path_in_schema = path;
  meta.codec = options.compression;
  meta.num_values = static_cast<int64_t>(leaf.entries);
  meta.encodings = {Encoding::kPlain, Encoding::kRle};

  std::optional<PhysicalValues> distinct;  ///< the dictionary's entries: statistics need only these
  if (dict) {
    meta.encodings.push_back(Encoding::kRleDictionary);
    meta.dictionary_page_offset = file_offset;
    std::vector<uint8_t> body;
    distinct = values.select(dict->entries);
    const PhysicalValues& entries = *distinct;
    encode_plain(entries, 0, entries.size(), body);
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.dictionary_page_header = DictionaryPageHeader{static_cast<int32_t>(entries.size()), Encoding::kPlain, false};
    append_page(header, body, options, out);
  }
  meta.data_page_offset = file_offset + static_cast<int64_t>(out.bytes.size());

  for (const PageRange& page : cut_pages(leaf, values, dict ? &*dict : nullptr, options.data_page_size)) {
    std::vector<uint8_t> body;
    put_levels(leaf.rep, page.entry_begin, page.entry_end, leaf.max_repetition_level, body);
    put_levels(leaf.def, page.entry_begin, page.entry_end, leaf.max_definition_level, body);
    if (dict) {
      body.push_back(static_cast<uint8_t>(dict->bit_width));
      rle_encode(dict->indices.data() + page.value_begin, page.value_end - page.value_begin, dict->bit_width, body);
    } else {
      encode_plain(values, page.value_begin, page.value_end, body);
    }
    PageHeader header;
    header.type = PageType::kDataPage;
    header.data_page_header = DataPageHeader{static_cast<int32_t>(page.entry_end - page.entry_begin),
                                             dict ? Encoding::kRleDictionary : Encoding::kPlain, Encoding::kRle,
                                             Encoding::kRle};
    append_page(header, body, options, out);
  }

  meta.total_compressed_size = static_cast<int64_t>(out.bytes.size());
  meta.total_uncompressed_size = out.uncompressed_bytes;
  if (options.statistics) meta.statistics = make_statistics(distinct ? *distinct : values, leaf.nulls);
  out.chunk.file_offset = file_offset;
  out.chunk.meta_data = std::move(meta);
  return out;
}

Statistics statistics_from_bounds(const Field& field, const Column* bounds, int64_t null_count) {
  PhysicalValues values(field.type);
  if (bounds != nullptr) values.append_rows(*bounds, 0, 2);
  return make_statistics(values, null_count);
}

}  // namespace kestrel::io::parquet
