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

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/stream.hpp"
#include "gpu/stream_pool.hpp"
#include "io/kcol/kcol_encode_device.hpp"
#endif

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

EncodedChunk encode_chunk(const kcol::ColumnInfo& info, const std::vector<Slice>& slices, size_t rows,
                          kcol::BytesCodec string_codec) {
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
  if (!type.is_variable_width()) {
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
    // Compressed only where it pays: big sections that shrink by a quarter or more.
    if (string_codec != kcol::BytesCodec::kNone && bytes.size() >= kCompressMinBytes &&
        bytes.size() <= kcol::kMaxCompressedStringBytes) {
      const CompressionCodec codec =
          string_codec == kcol::BytesCodec::kZstd ? CompressionCodec::kZstd : CompressionCodec::kLz4Raw;
      // Frames of kFramePlain bytes behind a table of their sizes (docs/kcol.md).
      const size_t frames = static_cast<size_t>((bytes.size() + kcol::kFramePlain - 1) / kcol::kFramePlain);
      std::vector<uint8_t> packed(8 + 8 * frames);
      const uint64_t count = frames;
      std::memcpy(packed.data(), &count, 8);
      for (size_t f = 0; f < frames; ++f) {
        const size_t at = f * kcol::kFramePlain;
        const size_t n = std::min<size_t>(kcol::kFramePlain, bytes.size() - at);
        std::vector<uint8_t> frame = compress(codec, {bytes.data() + at, n}, codec == CompressionCodec::kZstd ? 1 : 0);
        const uint64_t frame_size = frame.size();
        std::memcpy(packed.data() + 8 + 8 * f, &frame_size, 8);
        packed.insert(packed.end(), frame.begin(), frame.end());
      }
      // Kept only if it pays and readers will accept its ratio.
      if (packed.size() * 4 < bytes.size() * 3 && bytes.size() <= kcol::plausible_string_bytes(packed.size())) {
        bytes = std::move(packed);
        out.meta.bytes_codec = string_codec;
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

#if KESTREL_WITH_CUDA

/// The GPU twin of encode_chunk for slices of device columns: the same sections in the same order, built on the
/// device (PACKED blocks a warp each), copied back once. String bytes stay uncompressed (zstd is optional in the
/// format); DICTIONARY is chosen when the slices share one dictionary column of at most kMaxDictionaryEntries entries
/// (its unused entries are kept), STRINGS otherwise.
EncodedChunk encode_chunk_on_device(const kcol::ColumnInfo& info, const std::vector<Slice>& slices, size_t rows,
                                    gpu::Stream stream, gpu::MemoryResource& mr) {
  EncodedChunk out;
  const LogicalType& type = info.type;
  std::vector<BufferPtr> held;
  auto device = [&](size_t bytes) {
    held.push_back(Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream));
    return held.back()->as<uint8_t>();
  };
  gpu::SyncOnError sync_on_error(stream);
  auto slice_of = [](const Slice& s) {
    kcol::DeviceSlice d;
    const Column& c = *s.column;
    d.validity = c.null_count() > 0 && c.validity() ? c.validity()->as<uint8_t>() : nullptr;
    d.first = s.begin;
    d.count = s.count;
    return d;
  };
  uint8_t* valid = device(rows);
  const uint64_t blocks = (rows + kcol::kBlockValues - 1) / kcol::kBlockValues;
  // Codes or values as i64 for PACKED chunks; string sections; PLAIN values.
  int64_t* values = nullptr;
  uint8_t* plain = nullptr;
  uint64_t* string_offsets = nullptr;
  const Column* dictionary = nullptr;
  enum class Kind { kPacked, kDictionary, kStrings, kPlain } kind;
  if (kcol::packed_type(type)) {
    kind = Kind::kPacked;
  } else if (type.is_variable_width()) {
    dictionary = slices.front().column->dictionary().get();
    bool shared = dictionary != nullptr && dictionary->length() > 0 && dictionary->length() <= kMaxDictionaryEntries;
    for (const Slice& s : slices) shared = shared && s.column->dictionary().get() == dictionary;
    kind = shared ? Kind::kDictionary : Kind::kStrings;
  } else {
    kind = Kind::kPlain;
  }
  {
    uint64_t at = 0;
    if (kind == Kind::kPacked || kind == Kind::kDictionary) values = reinterpret_cast<int64_t*>(device(rows * 8));
    if (kind == Kind::kPlain) plain = device(rows * type.physical_width());
    uint64_t* lengths = kind == Kind::kStrings ? reinterpret_cast<uint64_t*>(device(rows * 8)) : nullptr;
    for (const Slice& s : slices) {
      kcol::DeviceSlice d = slice_of(s);
      d.at = at;
      const Column& c = *s.column;
      if (kind == Kind::kStrings) {
        d.dictionary = c.is_dictionary() ? 1 : 0;
        const Column& strings = c.is_dictionary() ? *c.dictionary() : c;
        d.values = c.is_dictionary() ? c.values()->as<uint8_t>() : nullptr;
        d.offsets = strings.offsets()->as<int64_t>();
        d.chars = strings.values() ? strings.values()->as<uint8_t>() : nullptr;
        kcol::string_lengths_gpu(d, lengths, valid, stream);
      } else {
        d.values = c.values()->as<uint8_t>();
        d.width = kind == Kind::kDictionary ? 4 : static_cast<int32_t>(type.physical_width());
        d.boolean = type.id() == TypeId::kBoolean ? 1 : 0;
        if (kind == Kind::kPlain) {
          kcol::gather_plain_gpu(d, plain, valid, stream);
        } else {
          kcol::gather_i64_gpu(d, values, valid, stream);
        }
      }
      at += s.count;
    }
    if (kind == Kind::kStrings) {
      string_offsets = reinterpret_cast<uint64_t*>(device((rows + 1) * 8));
      kcol::running_sum_gpu(lengths, rows, string_offsets, stream, mr);
    }
  }
  // Validity, block bounds; then the sizes the host needs.
  uint8_t* bitmap = device((rows + 7) / 8);
  auto* valid_count = reinterpret_cast<unsigned long long*>(device(8));
  KESTREL_CUDA_CHECK(cudaMemsetAsync(valid_count, 0, 8, stream.handle()));
  kcol::bitmap_from_valid_gpu(valid, rows, bitmap, valid_count, stream);
  kcol::BlockHeader* headers = nullptr;
  uint64_t* word_offsets = nullptr;
  uint8_t* seen = nullptr;
  uint32_t* words = nullptr;
  if (values != nullptr) {
    headers = reinterpret_cast<kcol::BlockHeader*>(device(blocks * sizeof(kcol::BlockHeader)));
    auto* word_counts = reinterpret_cast<uint64_t*>(device(blocks * 8));
    seen = device(blocks);
    word_offsets = reinterpret_cast<uint64_t*>(device((blocks + 1) * 8));
    kcol::block_bounds_gpu(values, valid, rows, headers, word_counts, seen, stream);
    kcol::running_sum_gpu(word_counts, blocks, word_offsets, stream, mr);
    words = reinterpret_cast<uint32_t*>(device(blocks * kcol::kLanes * 64 * 4));  // room for 64-bit widths
    kcol::pack_blocks_gpu(values, valid, rows, headers, word_offsets, words, stream);
  }
  gpu::PinnedBlock sizes = gpu::acquire_pinned(64);
  auto* size_words = reinterpret_cast<uint64_t*>(sizes.data());
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(size_words, valid_count, 8, cudaMemcpyDeviceToHost, stream.handle()));
  if (words != nullptr) {
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(size_words + 1, word_offsets + blocks, 8, cudaMemcpyDeviceToHost,
                                       stream.handle()));
  }
  if (string_offsets != nullptr) {
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(size_words + 2, string_offsets + rows, 8, cudaMemcpyDeviceToHost,
                                       stream.handle()));
  }
  int64_t dictionary_first = 0, dictionary_last = 0;
  if (kind == Kind::kDictionary) {
    const int64_t* o = dictionary->offsets()->as<int64_t>();
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(size_words + 3, o, 8, cudaMemcpyDeviceToHost, stream.handle()));
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(size_words + 4, o + dictionary->length(), 8, cudaMemcpyDeviceToHost,
                                       stream.handle()));
  }
  stream.synchronize();
  const uint64_t nulls = rows - size_words[0];
  const uint64_t word_total = words != nullptr ? size_words[1] : 0;
  uint64_t string_bytes = string_offsets != nullptr ? size_words[2] : 0;
  if (kind == Kind::kDictionary) {
    std::memcpy(&dictionary_first, size_words + 3, 8);
    std::memcpy(&dictionary_last, size_words + 4, 8);
  }
  if (nulls > 0 && !info.nullable) throw InvalidInput("column '" + info.name + "' is NOT NULL but holds a NULL");
  uint8_t* bytes = nullptr;
  if (kind == Kind::kStrings) {
    bytes = device(string_bytes);
    uint64_t at = 0;
    for (const Slice& s : slices) {
      kcol::DeviceSlice d = slice_of(s);
      d.at = at;
      const Column& c = *s.column;
      d.dictionary = c.is_dictionary() ? 1 : 0;
      const Column& strings = c.is_dictionary() ? *c.dictionary() : c;
      d.values = c.is_dictionary() ? c.values()->as<uint8_t>() : nullptr;
      d.offsets = strings.offsets()->as<int64_t>();
      d.chars = strings.values() ? strings.values()->as<uint8_t>() : nullptr;
      kcol::copy_strings_gpu(d, string_offsets, bytes, stream);
      at += s.count;
    }
  }

  // The sections, in encode_chunk's order, copied back into one pinned block.
  struct Section {
    const void* src;
    size_t size;
    uint64_t* offset_field;
  };
  std::vector<Section> sections;
  out.meta.null_count = nulls;
  if (nulls > 0) {
    out.meta.validity_size = (rows + 7) / 8;
    sections.push_back({bitmap, out.meta.validity_size, &out.meta.validity_offset});
  }
  std::vector<uint64_t> entry_offsets;  // dictionary entries' offsets from 0 (host, from the dictionary's)
  switch (kind) {
    case Kind::kPacked:
    case Kind::kDictionary:
      if (kind == Kind::kDictionary) {
        out.meta.encoding = Encoding::kDictionary;
        out.meta.dictionary_entries = dictionary->length();
        out.meta.aux_size = (dictionary->length() + 1) * 8;
        sections.push_back({dictionary->offsets()->as<int64_t>(), out.meta.aux_size, &out.meta.aux_offset});
        out.meta.aux2_size = static_cast<uint64_t>(dictionary_last - dictionary_first);
        sections.push_back({dictionary->values() ? dictionary->values()->as<uint8_t>() + dictionary_first : nullptr,
                            out.meta.aux2_size, &out.meta.aux2_offset});
      } else {
        out.meta.encoding = Encoding::kPacked;
      }
      out.meta.block_count = blocks;
      sections.push_back({headers, blocks * sizeof(kcol::BlockHeader), &out.meta.blocks_offset});
      out.meta.data_size = word_total * 4;
      sections.push_back({words, out.meta.data_size, &out.meta.data_offset});
      break;
    case Kind::kStrings:
      out.meta.encoding = Encoding::kStrings;
      out.meta.aux_size = (rows + 1) * 8;
      sections.push_back({string_offsets, out.meta.aux_size, &out.meta.aux_offset});
      out.meta.data_size = string_bytes;
      sections.push_back({bytes, string_bytes, &out.meta.data_offset});
      break;
    case Kind::kPlain:
      out.meta.encoding = Encoding::kPlain;
      out.meta.data_size = rows * type.physical_width();
      sections.push_back({plain, out.meta.data_size, &out.meta.data_offset});
      break;
  }
  size_t total = 0;
  for (const Section& s : sections) total = (total + 7) / 8 * 8 + s.size;
  gpu::PinnedBlock host = gpu::acquire_pinned(std::max<size_t>(total, 8));
  {
    size_t at = 0;
    for (const Section& s : sections) {
      at = (at + 7) / 8 * 8;
      *s.offset_field = at;
      if (s.size > 0) {
        KESTREL_CUDA_CHECK(cudaMemcpyAsync(host.data() + at, s.src, s.size, cudaMemcpyDeviceToHost, stream.handle()));
      }
      at += s.size;
    }
  }
  // Block headers for min/max (PACKED; DICTIONARY chunks keep 0, as on the CPU).
  std::vector<uint8_t> block_seen(values != nullptr ? blocks : 0);
  if (!block_seen.empty()) {
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(block_seen.data(), seen, blocks, cudaMemcpyDeviceToHost, stream.handle()));
  }
  stream.synchronize();
  out.bytes.assign(host.data(), host.data() + total);
  if (kind == Kind::kDictionary && dictionary_first != 0) {
    // Entry offsets from 0.
    auto* o = reinterpret_cast<uint64_t*>(out.bytes.data() + out.meta.aux_offset);
    for (size_t i = 0; i <= dictionary->length(); ++i) o[i] -= static_cast<uint64_t>(dictionary_first);
  }
  if (kind == Kind::kPacked) {
    const auto* h = reinterpret_cast<const kcol::BlockHeader*>(out.bytes.data() + out.meta.blocks_offset);
    bool any = false;
    for (uint64_t b = 0; b < blocks; ++b) {
      if (block_seen[b] == 0) continue;
      out.meta.min = any ? std::min(out.meta.min, h[b].base) : h[b].base;
      out.meta.max = any ? std::max(out.meta.max, h[b].max) : h[b].max;
      any = true;
    }
  }
  return out;
}

#endif

}  // namespace

size_t write_kcol_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                       const std::vector<std::pair<std::string, std::string>>& options,
                       gpu::MemoryResource* device_mr) {
  const std::string prefix = "kcol file '" + path + "': ";
  size_t row_group_rows = kDefaultRowGroupRows;
  kcol::BytesCodec string_codec = kcol::BytesCodec::kLz4;
  for (const auto& [name, value] : options) {
    std::string key = name;
    std::transform(key.begin(), key.end(), key.begin(), ::tolower);
    if (key == "row_group_size") {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v == 0) throw InvalidInput(prefix + "row_group_size must be a positive integer");
      row_group_rows = static_cast<size_t>(v);
    } else if (key == "string_compression") {
      std::string v = value;
      std::transform(v.begin(), v.end(), v.begin(), ::tolower);
      if (v == "none") {
        string_codec = kcol::BytesCodec::kNone;
      } else if (v == "zstd") {
        string_codec = kcol::BytesCodec::kZstd;
      } else if (v == "lz4") {
        string_codec = kcol::BytesCodec::kLz4;
      } else {
        throw InvalidInput(prefix + "string_compression must be 'lz4', 'zstd' or 'none', not '" + value + "'");
      }
    } else {
      throw InvalidInput(prefix + "no option '" + name + "' for kcol files");
    }
  }
  kcol::Footer footer;
  for (const Field& f : schema.fields()) {
    if (f.type.id() == TypeId::kNull) throw NotImplemented(prefix + "column '" + f.name + "' has no type");
    if (f.type.id() == TypeId::kTimestampTz) {
      throw NotImplemented(prefix + "column '" + f.name + "': TIMESTAMP WITH TIME ZONE cannot be written to kcol yet");
    }
    if (f.type.is_nested()) {
      throw NotImplemented(prefix + "column '" + f.name + "' is " + f.type.to_string() +
                           ", and kcol cannot store ARRAY, MAP or ROW values yet");
    }
    if (f.name.size() > 65535) throw InvalidInput(prefix + "a column name of " + std::to_string(f.name.size()) + " bytes");
    footer.columns.push_back(kcol::ColumnInfo{f.name, f.type, f.nullable});
  }
  if (footer.columns.empty()) throw InvalidInput(prefix + "no columns");
  for (const Batch& b : batches) {
    if (b.on_device() && device_mr == nullptr) throw InvalidInput(prefix + "kcol files are written from host batches");
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
    bool device = false;
    for (const Slice& s : groups[g][c]) device = device || s.column->on_device();
#if KESTREL_WITH_CUDA
    if (device) {
      chunks[i] = encode_chunk_on_device(footer.columns[c], groups[g][c], static_cast<size_t>(footer.row_group_rows[g]),
                                         gpu::driver_stream(), *device_mr);
      return;
    }
#endif
    if (device) throw NotImplemented(prefix + "this build of Kestrel has no GPU support");
    chunks[i] = encode_chunk(footer.columns[c], groups[g][c], static_cast<size_t>(footer.row_group_rows[g]),
                             string_codec);
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
