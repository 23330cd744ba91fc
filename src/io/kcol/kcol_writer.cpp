#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <unordered_map>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/kcol/kcol_file.hpp"
#include "io/parquet/parallel_decode.hpp"

namespace kestrel::io {

using kcol::ChunkMeta;
using kcol::Encoding;

namespace {

constexpr size_t kDefaultRowGroupRows = size_t{1} << 20;
constexpr size_t kMaxDictionaryEntries = size_t{1} << 20;
constexpr size_t kCompressMinBytes = size_t{64} << 10;

/// Rows [begin, begin + count) of a host column.
struct Slice {
  const Column* column;
  size_t begin, count;
};

/// The encoded bytes of one chunk and where its sections lie.
struct EncodedChunk {
  std::vector<uint8_t> bytes;
  ChunkMeta meta;
};

void pad_to(std::vector<uint8_t>& out, size_t alignment) {
  while (out.size() % alignment != 0) out.push_back(0);
}

template <typename T>
uint64_t append_section(std::vector<uint8_t>& out, const T* data, size_t count) {
  pad_to(out, 8);
  const uint64_t at = out.size();
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + count * sizeof(T));
  return at;
}

int64_t load_integer(const Column& column, size_t row) {
  switch (column.type().physical_width()) {
    case 1: return column.type().id() == TypeId::kBoolean ? column.data<uint8_t>()[row] : column.data<int8_t>()[row];
    case 2: return column.data<int16_t>()[row];
    case 4: return column.data<int32_t>()[row];
    default: return column.data<int64_t>()[row];
  }
}

/// PACKED (or DICTIONARY codes): blocks of 1024, each frame-of-reference coded against its smallest valid value;
/// NULL rows take that value so they do not widen the block.
void encode_packed(const std::vector<int64_t>& values, const std::vector<uint8_t>& valid, EncodedChunk& out) {
  const size_t rows = values.size();
  const size_t blocks = (rows + kcol::kBlockValues - 1) / kcol::kBlockValues;
  std::vector<kcol::BlockHeader> headers(blocks);
  std::vector<uint32_t> words;
  std::vector<int64_t> block(kcol::kBlockValues);
  bool any = false;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t first = b * kcol::kBlockValues;
    const size_t count = std::min(kcol::kBlockValues, rows - first);
    int64_t lo = 0, hi = 0;
    bool seen = false;
    for (size_t i = 0; i < count; ++i) {
      if (!valid[first + i]) continue;
      const int64_t v = values[first + i];
      if (!seen || v < lo) lo = v;
      if (!seen || v > hi) hi = v;
      seen = true;
    }
    for (size_t i = 0; i < count; ++i) block[i] = valid[first + i] ? values[first + i] : lo;
    kcol::BlockHeader& h = headers[b];
    h.base = lo;
    h.max = hi;
    h.width = static_cast<uint64_t>(kcol::width_for(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)));
    h.word = words.size();
    kcol::pack_block(block.data(), count, lo, static_cast<int>(h.width), words);
    if (seen) {
      out.meta.min = any ? std::min(out.meta.min, lo) : lo;
      out.meta.max = any ? std::max(out.meta.max, hi) : hi;
      any = true;
    }
  }
  out.meta.block_count = blocks;
  out.meta.blocks_offset = append_section(out.bytes, headers.data(), headers.size());
  out.meta.data_offset = append_section(out.bytes, words.data(), words.size());
  out.meta.data_size = words.size() * 4;
}

EncodedChunk encode_chunk(const kcol::ColumnInfo& info, const std::vector<Slice>& slices, size_t rows) {
  EncodedChunk out;
  const LogicalType& type = info.type;
  std::vector<uint8_t> valid(rows, 1);
  {
    size_t at = 0;
    for (const Slice& s : slices) {
      for (size_t r = 0; r < s.count; ++r) valid[at + r] = s.column->is_valid(s.begin + r) ? 1 : 0;
      at += s.count;
    }
  }
  const size_t nulls = static_cast<size_t>(std::count(valid.begin(), valid.end(), uint8_t{0}));
  if (nulls > 0 && !info.nullable) throw InvalidInput("column '" + info.name + "' is NOT NULL but holds a NULL");
  out.meta.null_count = nulls;
  if (nulls > 0) {
    std::vector<uint8_t> bitmap((rows + 7) / 8, 0);
    for (size_t r = 0; r < rows; ++r) {
      if (valid[r]) bits::set(bitmap.data(), r);
    }
    out.meta.validity_offset = append_section(out.bytes, bitmap.data(), bitmap.size());
    out.meta.validity_size = bitmap.size();
  }
  if (kcol::packed_type(type)) {
    std::vector<int64_t> values(rows);
    size_t at = 0;
    for (const Slice& s : slices) {
      for (size_t r = 0; r < s.count; ++r) values[at + r] = valid[at + r] ? load_integer(*s.column, s.begin + r) : 0;
      at += s.count;
    }
    out.meta.encoding = Encoding::kPacked;
    encode_packed(values, valid, out);
    return out;
  }
  if (type.id() != TypeId::kVarchar) {
    const size_t width = type.physical_width();
    std::vector<uint8_t> data(rows * width, 0);
    size_t at = 0;
    for (const Slice& s : slices) {
      std::memcpy(data.data() + at * width, s.column->data<uint8_t>() + s.begin * width, s.count * width);
      at += s.count;
    }
    for (size_t r = 0; r < rows; ++r) {
      if (!valid[r]) std::memset(data.data() + r * width, 0, width);
    }
    out.meta.encoding = Encoding::kPlain;
    out.meta.data_offset = append_section(out.bytes, data.data(), data.size());
    out.meta.data_size = data.size();
    return out;
  }
  // Strings: a dictionary when the distinct values are few and small, else offsets and bytes.
  std::vector<std::string_view> views(rows);
  size_t total = 0;
  {
    size_t at = 0;
    for (const Slice& s : slices) {
      for (size_t r = 0; r < s.count; ++r) {
        if (valid[at + r]) views[at + r] = s.column->string_at(s.begin + r);
        total += views[at + r].size();
      }
      at += s.count;
    }
  }
  std::unordered_map<std::string_view, uint32_t> codes;
  std::vector<std::string_view> entries;
  size_t entry_bytes = 0;
  bool dictionary = true;
  std::vector<int64_t> row_codes(rows, 0);
  for (size_t r = 0; r < rows && dictionary; ++r) {
    if (!valid[r]) continue;
    auto [it, inserted] = codes.emplace(views[r], static_cast<uint32_t>(entries.size()));
    if (inserted) {
      entries.push_back(views[r]);
      entry_bytes += views[r].size();
      if (entries.size() > kMaxDictionaryEntries || (entry_bytes > total / 2 && entry_bytes > 4096)) dictionary = false;
    }
    row_codes[r] = it->second;
  }
  auto strings = [&](const std::vector<std::string_view>& values, uint64_t& offsets_at, uint64_t& offsets_size,
                     uint64_t& bytes_at, uint64_t& bytes_size) {
    std::vector<uint64_t> offsets(values.size() + 1, 0);
    std::vector<uint8_t> bytes;
    bytes.reserve(total);
    for (size_t i = 0; i < values.size(); ++i) {
      bytes.insert(bytes.end(), values[i].begin(), values[i].end());
      offsets[i + 1] = bytes.size();
    }
    offsets_at = append_section(out.bytes, offsets.data(), offsets.size());
    offsets_size = offsets.size() * 8;
    // zstd only where it pays: big sections that shrink by a quarter or more.
    if (bytes.size() >= kCompressMinBytes && bytes.size() <= kcol::kMaxCompressedStringBytes) {
      // Frames of kZstdFramePlain bytes behind a table of their sizes (docs/kcol.md).
      const size_t frames = static_cast<size_t>((bytes.size() + kcol::kZstdFramePlain - 1) / kcol::kZstdFramePlain);
      std::vector<uint8_t> packed(8 + 8 * frames);
      const uint64_t count = frames;
      std::memcpy(packed.data(), &count, 8);
      for (size_t f = 0; f < frames; ++f) {
        const size_t at = f * kcol::kZstdFramePlain;
        const size_t n = std::min<size_t>(kcol::kZstdFramePlain, bytes.size() - at);
        std::vector<uint8_t> frame = compress(CompressionCodec::kZstd, {bytes.data() + at, n}, 1);
        const uint64_t frame_size = frame.size();
        std::memcpy(packed.data() + 8 + 8 * f, &frame_size, 8);
        packed.insert(packed.end(), frame.begin(), frame.end());
      }
      // Kept only if it pays and readers will accept its ratio.
      if (packed.size() * 4 < bytes.size() * 3 && bytes.size() <= kcol::plausible_string_bytes(packed.size())) {
        bytes = std::move(packed);
        out.meta.bytes_zstd = true;
      }
    }
    bytes_at = append_section(out.bytes, bytes.data(), bytes.size());
    bytes_size = bytes.size();
  };
  if (dictionary) {
    out.meta.encoding = Encoding::kDictionary;
    out.meta.dictionary_entries = entries.size();
    strings(entries, out.meta.aux_offset, out.meta.aux_size, out.meta.aux2_offset, out.meta.aux2_size);
    encode_packed(row_codes, valid, out);
    out.meta.min = out.meta.max = 0;
  } else {
    out.meta.encoding = Encoding::kStrings;
    strings(views, out.meta.aux_offset, out.meta.aux_size, out.meta.data_offset, out.meta.data_size);
  }
  return out;
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

size_t write_kcol_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                       const std::vector<std::pair<std::string, std::string>>& options) {
  const std::string prefix = "kcol file '" + path + "': ";
  size_t row_group_rows = kDefaultRowGroupRows;
  for (const auto& [name, value] : options) {
    std::string key = name;
    std::transform(key.begin(), key.end(), key.begin(), ::tolower);
    if (key == "row_group_size") {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v == 0) throw InvalidInput(prefix + "row_group_size must be a positive integer");
      row_group_rows = static_cast<size_t>(v);
    } else {
      throw InvalidInput(prefix + "no option '" + name + "' for kcol files");
    }
  }
  kcol::Footer footer;
  for (const Field& f : schema.fields()) {
    if (f.type.id() == TypeId::kNull) throw NotImplemented(prefix + "column '" + f.name + "' has no type");
    if (f.name.size() > 65535) throw InvalidInput(prefix + "a column name of " + std::to_string(f.name.size()) + " bytes");
    footer.columns.push_back(kcol::ColumnInfo{f.name, f.type, f.nullable});
  }
  if (footer.columns.empty()) throw InvalidInput(prefix + "no columns");
  for (const Batch& b : batches) {
    if (b.on_device()) throw InvalidInput(prefix + "kcol files are written from host batches");
    footer.num_rows += b.num_rows();
  }
  // Row groups as slices of the batches.
  std::vector<std::vector<std::vector<Slice>>> groups;  // group -> column -> slices
  {
    size_t b = 0, offset = 0;
    uint64_t left = footer.num_rows;
    while (left > 0) {
      const size_t rows = static_cast<size_t>(std::min<uint64_t>(left, row_group_rows));
      groups.emplace_back(schema.size());
      size_t taken = 0;
      while (taken < rows) {
        const Batch& batch = batches[b];
        const size_t n = std::min(rows - taken, batch.num_rows() - offset);
        for (size_t c = 0; c < schema.size(); ++c) groups.back()[c].push_back({batch.column(c).get(), offset, n});
        taken += n;
        offset += n;
        if (offset == batch.num_rows()) {
          ++b;
          offset = 0;
        }
      }
      footer.row_group_rows.push_back(rows);
      left -= rows;
    }
  }
  const size_t columns = schema.size();
  std::vector<EncodedChunk> chunks(groups.size() * columns);
  parallel_for(chunks.size(), 0, [&](size_t i) {
    const size_t g = i / columns, c = i % columns;
    chunks[i] = encode_chunk(footer.columns[c], groups[g][c], static_cast<size_t>(footer.row_group_rows[g]));
  });

  namespace fs = std::filesystem;
  static std::atomic<uint64_t> counter{0};
  fs::path target(path);
  const std::string temp = (target.parent_path() / ("." + target.filename().string() + ".tmp-" +
                                                    std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                               .string();
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(prefix + "cannot create '" + temp + "': " + errno_text());
  uint64_t offset = 0;
  auto append = [&](const uint8_t* data, size_t size) {
    while (size > 0) {
      ssize_t n = ::write(fd, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const std::string why = errno_text();
        ::close(fd);
        ::unlink(temp.c_str());
        throw IoError(prefix + "cannot write '" + temp + "': " + why);
      }
      data += n;
      size -= static_cast<size_t>(n);
      offset += static_cast<uint64_t>(n);
    }
  };
  uint8_t head[8];
  std::memcpy(head, kcol::kMagic, 4);
  std::memcpy(head + 4, &kcol::kVersion, 4);
  append(head, 8);
  const std::vector<uint8_t> zeros(kcol::kChunkAlignment, 0);
  for (EncodedChunk& e : chunks) {
    if (offset % kcol::kChunkAlignment != 0) append(zeros.data(), kcol::kChunkAlignment - offset % kcol::kChunkAlignment);
    e.meta.offset = offset;
    e.meta.size = e.bytes.size();
    append(e.bytes.data(), e.bytes.size());
    footer.chunks.push_back(e.meta);
    e.bytes = {};
  }
  const std::vector<uint8_t> encoded = kcol::encode_footer(footer);
  append(encoded.data(), encoded.size());
  uint8_t tail[12];
  const uint64_t footer_size = encoded.size();
  std::memcpy(tail, &footer_size, 8);
  std::memcpy(tail + 8, kcol::kMagic, 4);
  append(tail, 12);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(temp.c_str());
    throw IoError(prefix + "cannot finish '" + temp + "': " + errno_text());
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(temp.c_str());
    throw IoError(prefix + "cannot rename into place: " + why);
  }
  return static_cast<size_t>(footer.num_rows);
}

}  // namespace kestrel::io
