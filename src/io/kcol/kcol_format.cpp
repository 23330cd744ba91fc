#include "io/kcol/kcol_format.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "io/parquet/rle_bit_packed.hpp"

namespace kestrel::io::kcol {

namespace {

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// A bounds-checked reader over the footer bytes.
struct Reader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  uint64_t u(size_t bytes) {
    if (bytes > size - pos) throw InvalidInput("footer cut short");
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(data[pos + i]) << (8 * i);
    pos += bytes;
    return v;
  }
};

bool valid_type_id(uint64_t id) { return id >= static_cast<uint64_t>(TypeId::kBoolean) && id <= static_cast<uint64_t>(TypeId::kJson); }

}  // namespace

bool packed_type(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp: return true;
    case TypeId::kDecimal: return !type.is_wide_decimal();
    default: return false;
  }
}

int width_for(uint64_t range) { return parquet::bit_width_for(range); }

std::vector<uint8_t> encode_footer(const Footer& f) {
  std::vector<uint8_t> out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(f.columns.size() >> (8 * i)));
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(f.row_group_rows.size() >> (8 * i)));
  put_u64(out, f.num_rows);
  for (const ColumnInfo& c : f.columns) {
    out.push_back(static_cast<uint8_t>(c.type.id()));
    out.push_back(c.nullable ? 1 : 0);
    out.push_back(static_cast<uint8_t>(c.type.precision()));
    out.push_back(static_cast<uint8_t>(c.type.scale()));
    out.push_back(static_cast<uint8_t>(c.name.size()));
    out.push_back(static_cast<uint8_t>(c.name.size() >> 8));
    out.insert(out.end(), c.name.begin(), c.name.end());
  }
  for (uint64_t rows : f.row_group_rows) put_u64(out, rows);
  for (const ChunkMeta& m : f.chunks) {
    const uint64_t encoding = static_cast<uint64_t>(m.encoding) |
                              (m.bytes_codec == BytesCodec::kZstd  ? kZstdBytesFlag
                               : m.bytes_codec == BytesCodec::kLz4 ? kLz4BytesFlag
                                                                   : 0);
    for (uint64_t v : {m.offset, m.size, encoding, m.null_count, m.validity_offset,
                       m.validity_size, m.blocks_offset, m.block_count, m.data_offset, m.data_size, m.aux_offset,
                       m.aux_size, m.aux2_offset, m.aux2_size, m.dictionary_entries, static_cast<uint64_t>(m.min),
                       static_cast<uint64_t>(m.max)}) {
      put_u64(out, v);
    }
  }
  return out;
}

Footer decode_footer(const uint8_t* data, size_t size) {
  Reader r{data, size};
  Footer f;
  const uint64_t columns = r.u(4), groups = r.u(4);
  f.num_rows = r.u(8);
  if (columns == 0) throw InvalidInput("no columns");
  if (columns > size || groups > size) throw InvalidInput("impossible column or row group count");
  for (uint64_t c = 0; c < columns; ++c) {
    const uint64_t id = r.u(1), nullable = r.u(1), precision = r.u(1), scale = r.u(1), length = r.u(2);
    if (!valid_type_id(id)) throw InvalidInput("column " + std::to_string(c) + " has unknown type id " + std::to_string(id));
    if (length > size - r.pos) throw InvalidInput("footer cut short");
    ColumnInfo info;
    info.name.assign(reinterpret_cast<const char*>(data + r.pos), length);
    r.pos += length;
    const auto type_id = static_cast<TypeId>(id);
    if (type_id == TypeId::kDecimal) {
      if (precision < 1 || precision > 38 || scale > precision) {
        throw InvalidInput("column '" + info.name + "' is DECIMAL(" + std::to_string(precision) + "," +
                           std::to_string(scale) + ")");
      }
      info.type = LogicalType::decimal(static_cast<int>(precision), static_cast<int>(scale));
    } else {
      info.type = LogicalType(type_id);
    }
    info.nullable = nullable != 0;
    f.columns.push_back(std::move(info));
  }
  uint64_t total = 0;
  for (uint64_t g = 0; g < groups; ++g) {
    f.row_group_rows.push_back(r.u(8));
    total += f.row_group_rows.back();
  }
  if (total != f.num_rows) throw InvalidInput("row groups hold " + std::to_string(total) + " rows, the footer says " + std::to_string(f.num_rows));
  if (columns * groups > (size - r.pos) / (17 * 8)) throw InvalidInput("footer cut short");
  f.chunks.resize(columns * groups);
  for (ChunkMeta& m : f.chunks) {
    m.offset = r.u(8);
    m.size = r.u(8);
    const uint64_t encoding = r.u(8);
    const uint64_t base = encoding & ~(kZstdBytesFlag | kLz4BytesFlag);
    if (base > 3 || ((encoding & kZstdBytesFlag) != 0 && (encoding & kLz4BytesFlag) != 0)) {
      throw InvalidInput("unknown chunk encoding " + std::to_string(encoding));
    }
    m.encoding = static_cast<Encoding>(base);
    m.bytes_codec = (encoding & kZstdBytesFlag) != 0  ? BytesCodec::kZstd
                    : (encoding & kLz4BytesFlag) != 0 ? BytesCodec::kLz4
                                                      : BytesCodec::kNone;
    if (m.bytes_codec != BytesCodec::kNone && m.encoding != Encoding::kStrings && m.encoding != Encoding::kDictionary) {
      throw InvalidInput("compressed bytes in a chunk without strings");
    }
    m.null_count = r.u(8);
    m.validity_offset = r.u(8);
    m.validity_size = r.u(8);
    m.blocks_offset = r.u(8);
    m.block_count = r.u(8);
    m.data_offset = r.u(8);
    m.data_size = r.u(8);
    m.aux_offset = r.u(8);
    m.aux_size = r.u(8);
    m.aux2_offset = r.u(8);
    m.aux2_size = r.u(8);
    m.dictionary_entries = r.u(8);
    m.min = static_cast<int64_t>(r.u(8));
    m.max = static_cast<int64_t>(r.u(8));
  }
  return f;
}

void pack_block(const int64_t* values, size_t count, int64_t base, int width, std::vector<uint32_t>& words) {
  const size_t first = words.size();
  words.resize(first + kLanes * static_cast<size_t>(width), 0);
  if (width == 0) return;
  uint32_t* block = words.data() + first;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    uint64_t bit = 0;  // position in the lane's bit stream
    for (size_t k = 0; k < kValuesPerLane; ++k, bit += static_cast<uint64_t>(width)) {
      const size_t i = k * kLanes + lane;
      const uint64_t delta = i < count ? static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(base) : 0;
      for (int done = 0; done < width;) {
        const uint64_t at = bit + static_cast<uint64_t>(done);
        const size_t word = static_cast<size_t>(at / 32);
        const int shift = static_cast<int>(at % 32);
        const int take = std::min(32 - shift, width - done);
        const uint64_t piece = (delta >> done) & ((take == 64 ? ~0ull : (1ull << take) - 1));
        block[word * kLanes + lane] |= static_cast<uint32_t>(piece << shift);
        done += take;
      }
    }
  }
}

void unpack_block(const uint32_t* words, size_t count, int64_t base, int width, int64_t* out) {
  if (width == 0) {
    for (size_t i = 0; i < count; ++i) out[i] = base;
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t lane = i % kLanes, k = i / kLanes;
    const uint64_t bit = static_cast<uint64_t>(k) * static_cast<uint64_t>(width);
    uint64_t delta = 0;
    for (int done = 0; done < width;) {
      const uint64_t at = bit + static_cast<uint64_t>(done);
      const size_t word = static_cast<size_t>(at / 32);
      const int shift = static_cast<int>(at % 32);
      const int take = std::min(32 - shift, width - done);
      const uint64_t piece = (static_cast<uint64_t>(words[word * kLanes + lane]) >> shift) &
                             ((1ull << take) - 1);
      delta |= piece << done;
      done += take;
    }
    out[i] = static_cast<int64_t>(static_cast<uint64_t>(base) + delta);
  }
}

const char* bytes_codec_name(BytesCodec codec) {
  switch (codec) {
    case BytesCodec::kNone: return "none";
    case BytesCodec::kZstd: return "zstd";
    case BytesCodec::kLz4: return "lz4";
  }
  return "?";
}

bool bytes_frames(const uint8_t* section, uint64_t size, uint64_t plain, std::vector<BytesFrame>& frames) {
  frames.clear();
  if (size < 8) return false;
  uint64_t count;
  std::memcpy(&count, section, 8);
  if (plain > UINT64_MAX - kFramePlain) return false;
  if (count != (plain + kFramePlain - 1) / kFramePlain || count > (size - 8) / 8) return false;
  uint64_t at = 8 + 8 * count;
  frames.reserve(static_cast<size_t>(count));
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t n;
    std::memcpy(&n, section + 8 + 8 * i, 8);
    if (n == 0 || n > size - at) return false;
    const uint64_t plain_at = i * kFramePlain;
    frames.push_back(BytesFrame{at, n, plain_at, std::min(kFramePlain, plain - plain_at)});
    at += n;
  }
  return at == size;
}

}  // namespace kestrel::io::kcol
