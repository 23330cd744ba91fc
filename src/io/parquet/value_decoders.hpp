#pragma once
/// Decoders of the Parquet value encodings into physical values: PLAIN, DELTA_BINARY_PACKED,
/// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT (dictionary indices and RLE booleans are in
/// rle_bit_packed.hpp). Each takes the encoded bytes of one page and the number of values wanted, checks every
/// length against the data, and throws InvalidInput with the reason on malformed input.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kestrel::io::parquet {

/// A span of bytes (page data).
struct ByteSpan {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

/// Byte-array values of a page: views into the page (or into `storage` for DELTA_BYTE_ARRAY).
struct BinaryValues {
  std::vector<std::string_view> views;
  std::vector<char> storage;
};

/// PLAIN fixed-width values (`width` bytes each: 4, 8, 12 for INT96); copies `count * width` bytes.
void decode_plain_fixed(ByteSpan in, size_t count, size_t width, void* out);
/// PLAIN booleans: bit-packed, LSB first, one byte 0/1 per value out.
void decode_plain_booleans(ByteSpan in, size_t count, uint8_t* out);
/// RLE booleans (data page v2 and later v1 writers): a 4-byte length, then the hybrid stream of width 1.
void decode_rle_booleans(ByteSpan in, size_t count, uint8_t* out);
/// PLAIN BYTE_ARRAY: 4-byte little-endian length, then the bytes, per value.
void decode_plain_byte_arrays(ByteSpan in, size_t count, BinaryValues& out);
/// PLAIN FIXED_LEN_BYTE_ARRAY of `width` bytes each.
void decode_plain_fixed_len(ByteSpan in, size_t count, size_t width, BinaryValues& out);

/// DELTA_BINARY_PACKED: decodes `count` values into `out` (int32 or int64, arithmetic modulo the width) and
/// returns the bytes of `in` the encoded values took (a following section starts there).
size_t decode_delta_binary_packed(ByteSpan in, size_t count, int32_t* out);
size_t decode_delta_binary_packed(ByteSpan in, size_t count, int64_t* out);
/// DELTA_LENGTH_BYTE_ARRAY: lengths (delta-packed), then the concatenated bytes.
void decode_delta_length_byte_arrays(ByteSpan in, size_t count, BinaryValues& out);
/// DELTA_BYTE_ARRAY (incremental): prefix lengths, then suffixes as DELTA_LENGTH_BYTE_ARRAY.
void decode_delta_byte_arrays(ByteSpan in, size_t count, BinaryValues& out);
/// BYTE_STREAM_SPLIT: `width` byte streams of (in.size / width) values; writes `count * width` bytes.
void decode_byte_stream_split(ByteSpan in, size_t count, size_t width, uint8_t* out);

}  // namespace kestrel::io::parquet
