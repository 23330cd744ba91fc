#pragma once
/// The kcol file format (docs/kcol.md): footer structs, their encoding, and the interleaved frame-of-reference
/// bit-packing of 1024-value blocks. The CPU reader and writer share these; the GPU decoder reads the same layout.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/types.hpp"

namespace kestrel::io::kcol {

constexpr char kMagic[4] = {'K', 'C', 'O', 'L'};
constexpr uint32_t kVersion = 1;
constexpr size_t kBlockValues = 1024;
constexpr size_t kLanes = 32;
constexpr size_t kValuesPerLane = kBlockValues / kLanes;
constexpr size_t kChunkAlignment = 64;

enum class Encoding : uint64_t { kPlain = 0, kPacked = 1, kDictionary = 2, kStrings = 3 };

/// One block of a PACKED (or DICTIONARY) chunk.
struct BlockHeader {
  int64_t base = 0;    ///< the block's smallest value
  int64_t max = 0;     ///< its largest value
  uint64_t width = 0;  ///< bits per value (0..64)
  uint64_t word = 0;   ///< first u32 word of the block, from the chunk's data offset
};

/// The compression of a chunk's string bytes. Each frame is a zstd frame, or one raw LZ4 block.
enum class BytesCodec : uint8_t { kNone, kZstd, kLz4 };
const char* bytes_codec_name(BytesCodec codec);

/// Where the sections of one column chunk lie (offsets from the chunk's start).
struct ChunkMeta {
  uint64_t offset = 0, size = 0;
  Encoding encoding = Encoding::kPlain;
  uint64_t null_count = 0;
  uint64_t validity_offset = 0, validity_size = 0;
  uint64_t blocks_offset = 0, block_count = 0;
  uint64_t data_offset = 0, data_size = 0;
  uint64_t aux_offset = 0, aux_size = 0;
  uint64_t aux2_offset = 0, aux2_size = 0;
  uint64_t dictionary_entries = 0;
  int64_t min = 0, max = 0;
  /// How the string bytes (STRINGS: data; DICTIONARY: aux2) are stored: plain, or frames of zstd or LZ4 (kept in
  /// the encoding word's bits 8 and 9).
  BytesCodec bytes_codec = BytesCodec::kNone;
};

/// The encoding word's flags for compressed string bytes (at most one is set).
constexpr uint64_t kZstdBytesFlag = 0x100;
constexpr uint64_t kLz4BytesFlag = 0x200;
/// Plain bytes per frame of a compressed string section (the last frame holds the rest): frames decompress
/// independently, on host threads or as one batch on the GPU.
constexpr uint64_t kFramePlain = uint64_t{256} << 10;
/// One frame of a compressed string section: its bytes (relative to the section) and what it decompresses to.
struct BytesFrame {
  uint64_t offset = 0, size = 0;
  uint64_t plain_offset = 0, plain_size = 0;
};
/// The frames of a compressed section of `size` bytes at `section` that holds `plain` bytes: a u64 frame count F
/// (which must be ceil(plain / kFramePlain)), F u64 frame sizes, then the frames back to back, filling the
/// section. False when the table does not describe the section.
bool bytes_frames(const uint8_t* section, uint64_t size, uint64_t plain, std::vector<BytesFrame>& frames);
/// The most a compressed string section may expand to; the writer leaves bigger sections uncompressed.
constexpr uint64_t kMaxCompressedStringBytes = uint64_t{256} << 20;
/// The decompressed size a section of `compressed` bytes may claim before it counts as corrupt: generous (zstd
/// and LZ4 turn repeated strings into almost nothing) but it keeps a flipped bit from asking for gigabytes.
inline uint64_t plausible_string_bytes(uint64_t compressed) {
  const uint64_t by_ratio = compressed * 4096 > (uint64_t{16} << 20) ? compressed * 4096 : (uint64_t{16} << 20);
  return by_ratio < kMaxCompressedStringBytes ? by_ratio : kMaxCompressedStringBytes;
}

struct ColumnInfo {
  std::string name;
  LogicalType type;
  bool nullable = true;
};

struct Footer {
  std::vector<ColumnInfo> columns;
  std::vector<uint64_t> row_group_rows;
  std::vector<ChunkMeta> chunks;  ///< row group major: chunk(g, c) = chunks[g * columns.size() + c]
  uint64_t num_rows = 0;
  const ChunkMeta& chunk(size_t row_group, size_t column) const { return chunks[row_group * columns.size() + column]; }
};

/// The footer's bytes, and back; decoding throws InvalidInput (without the file name) when the bytes are malformed.
std::vector<uint8_t> encode_footer(const Footer& footer);
Footer decode_footer(const uint8_t* data, size_t size);

/// Which encodings a type's chunks use: PACKED types (integers, dates, times, booleans, narrow decimals) or PLAIN.
bool packed_type(const LogicalType& type);

/// Bit width of values up to `range` (0 -> 0).
int width_for(uint64_t range);

/// Packs `count` (<= 1024) values of one block as (v - base) with `width` bits each into 32 x width words appended
/// to `words` (values past `count` pack as 0).
void pack_block(const int64_t* values, size_t count, int64_t base, int width, std::vector<uint32_t>& words);
/// Unpacks `count` values of one block from its words (32 x width of them).
void unpack_block(const uint32_t* words, size_t count, int64_t base, int width, int64_t* out);

}  // namespace kestrel::io::kcol
