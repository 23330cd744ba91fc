#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/value_conversion.hpp"
#include "io/parquet/value_decoders.hpp"

namespace kestrel::io::parquet {
namespace {

/// Packs values LSB first, `width` bits each (the reference for the unpackers).
std::vector<uint8_t> pack(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out(packed_bytes(values.size(), width), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < width; ++b) {
      if ((values[i] >> b) & 1) {
        size_t bit = i * static_cast<size_t>(width) + static_cast<size_t>(b);
        out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
    }
  }
  return out;
}

void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

TEST(ParquetEncoding, UnpackEveryWidth) {
  std::mt19937_64 rng(1);
  for (int width = 0; width <= 64; ++width) {
    for (size_t count : {0, 1, 7, 8, 9, 31, 64, 333}) {
      std::vector<uint64_t> values(count);
      uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      for (auto& v : values) v = rng() & mask;
      auto packed = pack(values, width);
      std::vector<uint64_t> out64(count);
      unpack_bits64(packed.data(), packed.size(), width, count, out64.data());
      EXPECT_EQ(out64, values) << "width " << width << " count " << count;
      if (width <= 32) {
        std::vector<uint32_t> out32(count);
        unpack_bits32(packed.data(), packed.size(), width, count, out32.data());
        for (size_t i = 0; i < count; ++i) ASSERT_EQ(out32[i], values[i]) << width;
      }
    }
  }
  uint32_t x;
  EXPECT_THROW(unpack_bits32(nullptr, 0, 33, 1, &x), InvalidInput);
}

TEST(ParquetEncoding, RleAndBitPackedRuns) {
  // An RLE run of 5 x 3, a bit-packed run of 8 values (width 3), an RLE run of 300 x 6.
  std::vector<uint8_t> data;
  put_varint(data, 5 << 1);
  data.push_back(3);
  put_varint(data, (1 << 1) | 1);
  auto packed = pack({0, 1, 2, 3, 4, 5, 6, 7}, 3);
  data.insert(data.end(), packed.begin(), packed.end());
  put_varint(data, 300 << 1);
  data.push_back(6);
  RleBitPackedDecoder d(data.data(), data.size(), 3);
  std::vector<uint32_t> out(313);
  // Decode in uneven pieces to cross run boundaries mid-run.
  d.decode(out.data(), 2);
  d.decode(out.data() + 2, 6);
  d.decode(out.data() + 8, 305);
  std::vector<uint32_t> want = {3, 3, 3, 3, 3, 0, 1, 2, 3, 4, 5, 6, 7};
  want.resize(313, 6);
  EXPECT_EQ(out, want);
  EXPECT_THROW(d.decode(out.data(), 1), InvalidInput);  // exhausted
}

TEST(ParquetEncoding, RleEdgeCases) {
  // Width 0 with no data: every value is 0.
  RleBitPackedDecoder zero(nullptr, 0, 0);
  std::vector<uint32_t> out(10, 9);
  zero.decode(out.data(), 10);
  EXPECT_EQ(out, std::vector<uint32_t>(10, 0));
  // A final bit-packed run cut short: the values it still holds are readable, one more is an error.
  std::vector<uint8_t> data;
  put_varint(data, (4 << 1) | 1);  // claims 32 values of width 8
  for (uint8_t i = 0; i < 10; ++i) data.push_back(i);
  RleBitPackedDecoder cut(data.data(), data.size(), 8);
  std::vector<uint32_t> ten(10);
  cut.decode(ten.data(), 10);
  EXPECT_EQ(ten[9], 9u);
  EXPECT_THROW(cut.decode(ten.data(), 1), InvalidInput);
  // An RLE value wider than the bit width.
  const uint8_t wide[] = {0x02, 0x05};
  RleBitPackedDecoder w(wide, sizeof(wide), 2);
  EXPECT_THROW(w.decode(out.data(), 1), InvalidInput);
  // An RLE value cut off.
  const uint8_t no_value[] = {0x02};
  RleBitPackedDecoder nv(no_value, sizeof(no_value), 8);
  EXPECT_THROW(nv.decode(out.data(), 1), InvalidInput);
  // Dictionary indices out of range.
  const uint8_t idx[] = {0x04, 0x07};
  RleBitPackedDecoder di(idx, sizeof(idx), 3);
  int32_t indices[2];
  EXPECT_THROW(di.decode_indices(indices, 2, 7), InvalidInput);
  RleBitPackedDecoder di2(idx, sizeof(idx), 3);
  di2.decode_indices(indices, 2, 8);
  EXPECT_EQ(indices[1], 7);
  // Bit widths above 32 are rejected up front.
  EXPECT_THROW(RleBitPackedDecoder(idx, sizeof(idx), 33), InvalidInput);
}

TEST(ParquetEncoding, LevelsToBitmap) {
  std::vector<uint8_t> data;
  put_varint(data, 3 << 1);  // 3 x 1
  data.push_back(1);
  put_varint(data, (2 << 1) | 1);  // 16 bit-packed values of width 1
  data.push_back(0b10101010);
  data.push_back(0b11110000);
  put_varint(data, 20 << 1);  // 20 x 0
  data.push_back(0);
  RleBitPackedDecoder d(data.data(), data.size(), 1);
  std::vector<uint8_t> bitmap(8, 0xee);
  size_t set = d.decode_to_bitmap(bitmap.data(), 5, 39, 1);
  EXPECT_EQ(set, 3u + 4u + 4u);
  for (size_t i = 0; i < 39; ++i) {
    bool want = i < 3 || (i >= 3 && i < 11 && ((i - 3) % 2 == 1)) || (i >= 15 && i < 19);
    EXPECT_EQ(bits::get(bitmap.data(), 5 + i), want) << i;
  }
}

TEST(ParquetEncoding, PlainValues) {
  const uint8_t ints[] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  int32_t out[2];
  decode_plain_fixed({ints, 8}, 2, 4, out);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -1);
  EXPECT_THROW(decode_plain_fixed({ints, 7}, 2, 4, out), InvalidInput);
  const uint8_t bools[] = {0b00000101, 0b1};
  uint8_t b[9];
  decode_plain_booleans({bools, 2}, 9, b);
  EXPECT_EQ(std::vector<uint8_t>(b, b + 9), (std::vector<uint8_t>{1, 0, 1, 0, 0, 0, 0, 0, 1}));
  EXPECT_THROW(decode_plain_booleans({bools, 1}, 9, b), InvalidInput);
  const uint8_t strings[] = {2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 3, 0, 0, 0, 'a', 'b'};
  BinaryValues v;
  decode_plain_byte_arrays({strings, 14}, 2, v);
  EXPECT_EQ(v.views[0], "hi");
  EXPECT_EQ(v.views[1], "");
  EXPECT_THROW(decode_plain_byte_arrays({strings, 16}, 3, v), InvalidInput);  // 3rd claims 3 bytes, 2 left
  EXPECT_THROW(decode_plain_byte_arrays({strings, 16}, 1000000, v), InvalidInput);
  // RLE booleans: 4-byte length, then an RLE run of 3 x true.
  const uint8_t rle[] = {2, 0, 0, 0, 0x06, 0x01};
  decode_rle_booleans({rle, 6}, 3, b);
  EXPECT_EQ(std::vector<uint8_t>(b, b + 3), (std::vector<uint8_t>{1, 1, 1}));
  const uint8_t rle_long[] = {9, 0, 0, 0, 0x06, 0x01};
  EXPECT_THROW(decode_rle_booleans({rle_long, 6}, 3, b), InvalidInput);
}

/// A straightforward DELTA_BINARY_PACKED encoder (blocks of 128, 4 miniblocks) to test the decoder against.
template <typename T>
std::vector<uint8_t> encode_delta(const std::vector<T>& values) {
  std::vector<uint8_t> out;
  put_varint(out, 128);
  put_varint(out, 4);
  put_varint(out, values.size());
  auto zigzag = [](int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); };
  put_varint(out, zigzag(values.empty() ? 0 : static_cast<int64_t>(values[0])));
  for (size_t start = 1; start < values.size(); start += 128) {
    size_t n = std::min<size_t>(128, values.size() - start);
    std::vector<int64_t> deltas(n);
    for (size_t i = 0; i < n; ++i) {
      // Deltas in the value type's own width, wrapping, as writers do.
      deltas[i] = static_cast<int64_t>(static_cast<T>(static_cast<std::make_unsigned_t<T>>(values[start + i]) -
                                                      static_cast<std::make_unsigned_t<T>>(values[start + i - 1])));
    }
    int64_t min_delta = *std::min_element(deltas.begin(), deltas.end());
    put_varint(out, zigzag(min_delta));
    std::vector<std::vector<uint64_t>> minis(4);
    std::vector<uint8_t> widths(4, 0);
    for (size_t m = 0; m < 4; ++m) {
      for (size_t i = m * 32; i < m * 32 + 32; ++i) {
        uint64_t rel = i < n ? static_cast<uint64_t>(deltas[i]) - static_cast<uint64_t>(min_delta) : 0;
        minis[m].push_back(rel);
        widths[m] = static_cast<uint8_t>(std::max(widths[m], static_cast<uint8_t>(bit_width_for(rel))));
      }
    }
    out.insert(out.end(), widths.begin(), widths.end());
    for (size_t m = 0; m < 4 && m * 32 < n; ++m) {
      auto packed = pack(minis[m], widths[m]);
      out.insert(out.end(), packed.begin(), packed.end());
    }
  }
  return out;
}

TEST(ParquetEncoding, DeltaBinaryPackedHandMade) {
  // 1..5: min delta 1, every bit width 0, no miniblock data.
  const uint8_t simple[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  int32_t out[8];
  EXPECT_EQ(decode_delta_binary_packed({simple, sizeof(simple)}, 5, out), sizeof(simple));
  EXPECT_EQ(std::vector<int32_t>(out, out + 5), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  // 7 5 3 1 2 3 4 5: min delta -2, first miniblock of width 2.
  const uint8_t mixed[] = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00, 0x00,
                           0xc0, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(decode_delta_binary_packed({mixed, sizeof(mixed)}, 8, out), sizeof(mixed));
  EXPECT_EQ(std::vector<int32_t>(out, out + 8), (std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  // Asking for more values than encoded, a bad block size, a miniblock cut short.
  EXPECT_THROW(decode_delta_binary_packed({simple, sizeof(simple)}, 6, out), InvalidInput);
  const uint8_t bad_block[] = {0x81, 0x01, 0x04, 0x05, 0x02};
  EXPECT_THROW(decode_delta_binary_packed({bad_block, sizeof(bad_block)}, 1, out), InvalidInput);
  EXPECT_THROW(decode_delta_binary_packed({mixed, sizeof(mixed) - 7}, 8, out), InvalidInput);
  const uint8_t wide[] = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x41, 0x00, 0x00, 0x00};
  EXPECT_THROW(decode_delta_binary_packed({wide, sizeof(wide)}, 8, out), InvalidInput);
}

TEST(ParquetEncoding, DeltaBinaryPackedRoundTrip) {
  std::mt19937_64 rng(3);
  for (size_t n : {1, 2, 127, 128, 129, 1000}) {
    std::vector<int64_t> v64(n);
    std::vector<int32_t> v32(n);
    for (size_t i = 0; i < n; ++i) {
      v64[i] = i % 7 == 0 ? (rng() % 2 ? INT64_MAX : INT64_MIN) : static_cast<int64_t>(rng() % 1000) - 500;
      v32[i] = i % 5 == 0 ? (rng() % 2 ? INT32_MAX : INT32_MIN) : static_cast<int32_t>(rng() % 100000);
    }
    auto e64 = encode_delta(v64);
    std::vector<int64_t> d64(n);
    EXPECT_EQ(decode_delta_binary_packed({e64.data(), e64.size()}, n, d64.data()), e64.size());
    EXPECT_EQ(d64, v64);
    auto e32 = encode_delta(v32);
    std::vector<int32_t> d32(n);
    EXPECT_EQ(decode_delta_binary_packed({e32.data(), e32.size()}, n, d32.data()), e32.size());
    EXPECT_EQ(d32, v32);
  }
}

TEST(ParquetEncoding, DeltaByteArrays) {
  std::vector<std::string> words = {"apple", "applesauce", "apply", "", "banana", "band"};
  // DELTA_LENGTH_BYTE_ARRAY: lengths, then the bytes.
  std::vector<int32_t> lengths;
  std::string all;
  for (auto& w : words) {
    lengths.push_back(static_cast<int32_t>(w.size()));
    all += w;
  }
  auto dlba = encode_delta(lengths);
  dlba.insert(dlba.end(), all.begin(), all.end());
  BinaryValues v;
  decode_delta_length_byte_arrays({dlba.data(), dlba.size()}, words.size(), v);
  ASSERT_EQ(v.views.size(), words.size());
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(v.views[i], words[i]);
  EXPECT_THROW(decode_delta_length_byte_arrays({dlba.data(), dlba.size() - 1}, words.size(), v), InvalidInput);
  // DELTA_BYTE_ARRAY: prefix lengths, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
  std::vector<int32_t> prefixes = {0, 5, 4, 0, 0, 3};
  std::vector<int32_t> suffix_lengths;
  std::string suffixes;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string s = words[i].substr(static_cast<size_t>(prefixes[i]));
    suffix_lengths.push_back(static_cast<int32_t>(s.size()));
    suffixes += s;
  }
  auto dba = encode_delta(prefixes);
  auto sl = encode_delta(suffix_lengths);
  dba.insert(dba.end(), sl.begin(), sl.end());
  dba.insert(dba.end(), suffixes.begin(), suffixes.end());
  decode_delta_byte_arrays({dba.data(), dba.size()}, words.size(), v);
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(v.views[i], words[i]);
  // A prefix longer than the previous value.
  std::vector<int32_t> bad_prefixes = {0, 9, 0, 0, 0, 0};
  auto bad = encode_delta(bad_prefixes);
  bad.insert(bad.end(), sl.begin(), sl.end());
  bad.insert(bad.end(), suffixes.begin(), suffixes.end());
  EXPECT_THROW(decode_delta_byte_arrays({bad.data(), bad.size()}, words.size(), v), InvalidInput);
  // Negative lengths.
  std::vector<int32_t> negative = {3, -1};
  auto neg = encode_delta(negative);
  EXPECT_THROW(decode_delta_length_byte_arrays({neg.data(), neg.size()}, 2, v), InvalidInput);
}

TEST(ParquetEncoding, ByteStreamSplit) {
  std::vector<float> values = {1.5f, -2.25f, 3e38f};
  std::vector<uint8_t> raw(values.size() * 4);
  std::memcpy(raw.data(), values.data(), raw.size());
  std::vector<uint8_t> split(raw.size());
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t k = 0; k < 4; ++k) split[k * values.size() + i] = raw[i * 4 + k];
  }
  std::vector<float> out(values.size());
  decode_byte_stream_split({split.data(), split.size()}, values.size(), 4, reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, values);
  EXPECT_THROW(decode_byte_stream_split({split.data(), split.size() - 1}, 3, 4, reinterpret_cast<uint8_t*>(out.data())),
               InvalidInput);
  EXPECT_THROW(decode_byte_stream_split({split.data(), 8}, 3, 4, reinterpret_cast<uint8_t*>(out.data())),
               InvalidInput);
}

TEST(ParquetEncoding, Conversions) {
  EXPECT_EQ(float16_to_float(0x3c00), 1.0f);
  EXPECT_EQ(float16_to_float(0xc000), -2.0f);
  EXPECT_EQ(float16_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(float16_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(float16_to_float(0x7c00)));
  EXPECT_TRUE(std::isnan(float16_to_float(0x7e00)));
  EXPECT_TRUE(std::signbit(float16_to_float(0x8000)));
  // INT96: Julian day 2440588 is 1970-01-01; nanoseconds of the day round down to microseconds.
  uint8_t int96[12] = {};
  int64_t nanos = 3'600'000'001'999;
  int32_t day = 2440589;
  std::memcpy(int96, &nanos, 8);
  std::memcpy(int96 + 8, &day, 4);
  EXPECT_EQ(int96_to_micros(int96), 86'400'000'000LL + 3'600'000'001LL);
  EXPECT_EQ(big_endian_to_int128(std::string("\xff\xfe", 2)), int128_t{-2});
  EXPECT_EQ(big_endian_to_int128(std::string("\x01\x00", 2)), int128_t{256});
  EXPECT_EQ(big_endian_to_int128(""), int128_t{0});
  std::string long_negative(20, '\xff');
  EXPECT_EQ(big_endian_to_int128(long_negative), int128_t{-1});
  std::string too_big(17, '\0');
  too_big[0] = 1;
  EXPECT_FALSE(big_endian_to_int128(too_big).has_value());
}

}  // namespace
}  // namespace kestrel::io::parquet
