#pragma once
/// Encoders of Parquet's RLE / bit-packing hybrid (definition levels, dictionary indices) and of plain bit packing
/// (PLAIN booleans); the reader's RleBitPackedDecoder is their inverse.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kestrel::io::parquet {

/// Appends `count` values of `bit_width` (0..32) bits each, packed LSB first, to `out`.
void pack_bits(const uint32_t* values, size_t count, int bit_width, std::vector<uint8_t>& out);

/// Appends the hybrid encoding of `values` (each below 2^bit_width) to `out`, without a length prefix. Runs of 8 or
/// more equal values become RLE runs; the rest goes into bit-packed runs of whole groups of 8 (the last group is
/// padded with zeros, which a reader that knows the value count ignores).
void rle_encode(const uint32_t* values, size_t count, int bit_width, std::vector<uint8_t>& out);

}  // namespace kestrel::io::parquet
