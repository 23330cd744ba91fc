#include "io/parquet/writer/rle_encoder.hpp"

#include "common/error.hpp"

namespace kestrel::io::parquet {
namespace {

/// Repeats at least this long become RLE runs.
constexpr size_t kMinRleRun = 8;

void put_varint(uint64_t v, std::vector<uint8_t>& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

/// A bit-packed run of values [begin, end), padded with zeros to whole groups of 8.
void put_bit_packed_run(const uint32_t* values, size_t begin, size_t end, int bit_width, std::vector<uint8_t>& out) {
  size_t count = end - begin;
  if (count == 0) return;
  size_t groups = (count + 7) / 8;
  put_varint((static_cast<uint64_t>(groups) << 1) | 1, out);
  pack_bits(values + begin, count, bit_width, out);
  // Padding values are zero bits: complete the last group's bytes.
  size_t written_bits = count * static_cast<size_t>(bit_width);
  size_t needed_bits = groups * 8 * static_cast<size_t>(bit_width);
  out.insert(out.end(), (needed_bits + 7) / 8 - (written_bits + 7) / 8, 0);
}

void put_rle_run(uint32_t value, size_t count, int bit_width, std::vector<uint8_t>& out) {
  put_varint(static_cast<uint64_t>(count) << 1, out);
  for (int b = 0; b < (bit_width + 7) / 8; ++b) out.push_back(static_cast<uint8_t>(value >> (8 * b)));
}

}  // namespace

void pack_bits(const uint32_t* values, size_t count, int bit_width, std::vector<uint8_t>& out) {
  if (bit_width < 0 || bit_width > 32) throw InternalError("pack_bits: bit width " + std::to_string(bit_width));
  if (bit_width == 0) return;
  uint64_t acc = 0;
  int acc_bits = 0;
  const uint64_t mask = bit_width == 32 ? 0xffffffffull : ((1ull << bit_width) - 1);
  for (size_t i = 0; i < count; ++i) {
    acc |= (static_cast<uint64_t>(values[i]) & mask) << acc_bits;
    acc_bits += bit_width;
    while (acc_bits >= 8) {
      out.push_back(static_cast<uint8_t>(acc));
      acc >>= 8;
      acc_bits -= 8;
    }
  }
  if (acc_bits > 0) out.push_back(static_cast<uint8_t>(acc));
}

void rle_encode(const uint32_t* values, size_t count, int bit_width, std::vector<uint8_t>& out) {
  size_t literal_begin = 0;
  size_t i = 0;
  while (i < count) {
    size_t run = 1;
    while (i + run < count && values[i + run] == values[i]) ++run;
    if (run < kMinRleRun) {
      i += run;
      continue;
    }
    // A bit-packed run must hold whole groups of 8 unless it ends the stream: lend it values from this repeat.
    size_t literals = i - literal_begin;
    size_t lend = (8 - literals % 8) % 8;
    if (literals == 0) lend = 0;
    i += lend;
    run -= lend;
    put_bit_packed_run(values, literal_begin, i, bit_width, out);
    put_rle_run(values[i], run, bit_width, out);
    i += run;
    literal_begin = i;
  }
  put_bit_packed_run(values, literal_begin, count, bit_width, out);
}

}  // namespace kestrel::io::parquet
