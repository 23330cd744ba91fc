#pragma once
/// Block compression codecs of the file formats Kestrel reads and writes (Parquet pages today), over the system
/// libraries (zstd, snappy, lz4, zlib, brotli). One place for every codec so the readers and the writers agree.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace kestrel::io {

/// A compression codec. The numbering is Parquet's CompressionCodec, so a footer value maps directly.
enum class CompressionCodec : uint8_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4Hadoop = 5,  ///< Parquet's deprecated LZ4: Hadoop block framing, or the LZ4 frame format, or a raw block
  kZstd = 6,
  kLz4Raw = 7,  ///< a single raw LZ4 block
};

/// Upper-case name of a codec as Parquet spells it ("SNAPPY", "LZ4_RAW").
const char* codec_name(CompressionCodec codec);

/// True for the codecs `decompress` understands (all but LZO).
bool codec_supported(CompressionCodec codec);

/// Decompresses `input` into exactly `output.size()` bytes. Throws InvalidInput (with a message that names the codec
/// and what is wrong, but no file: the caller adds where) when the input is corrupt, decompresses to a different
/// size, or the codec is not supported. Never writes outside `output`.
void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output);

/// Compresses `input` with `codec`; `level` 0 means the codec's default. GZIP writes a gzip member, kLz4Hadoop the
/// Hadoop framing. Throws NotImplemented for LZO.
std::vector<uint8_t> compress(CompressionCodec codec, std::span<const uint8_t> input, int level = 0);

/// CRC-32 (the zlib/gzip polynomial) of `data`, continuing from `crc` (0 to start); Parquet's page checksum.
uint32_t crc32(std::span<const uint8_t> data, uint32_t crc = 0);

}  // namespace kestrel::io
