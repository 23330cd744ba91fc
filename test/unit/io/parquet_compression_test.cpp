#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/error.hpp"
#include "io/compression/codec.hpp"

namespace kestrel::io {
namespace {

std::vector<uint8_t> sample(size_t n) {
  std::mt19937 rng(5);
  std::vector<uint8_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = i % 97 < 60 ? static_cast<uint8_t>('a' + i % 7) : static_cast<uint8_t>(rng());
  return data;
}

const CompressionCodec kCodecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                    CompressionCodec::kGzip,         CompressionCodec::kBrotli,
                                    CompressionCodec::kLz4Hadoop,    CompressionCodec::kZstd,
                                    CompressionCodec::kLz4Raw};

TEST(ParquetCompression, RoundTripEveryCodec) {
  for (CompressionCodec codec : kCodecs) {
    for (size_t n : {0, 1, 1000, 300000}) {
      auto input = sample(n);
      auto packed = compress(codec, input);
      std::vector<uint8_t> out(n);
      decompress(codec, packed, out);
      EXPECT_EQ(out, input) << codec_name(codec) << " " << n;
    }
  }
}

TEST(ParquetCompression, WrongSizeOrCorruptInputIsInvalidInput) {
  auto input = sample(5000);
  for (CompressionCodec codec : kCodecs) {
    auto packed = compress(codec, input);
    std::vector<uint8_t> small(input.size() - 1);
    EXPECT_THROW(decompress(codec, packed, small), InvalidInput) << codec_name(codec);
    std::vector<uint8_t> big(input.size() + 1);
    EXPECT_THROW(decompress(codec, packed, big), InvalidInput) << codec_name(codec);
    if (codec == CompressionCodec::kUncompressed) continue;
    std::vector<uint8_t> out(input.size());
    std::vector<uint8_t> truncated(packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(packed.size() / 2));
    EXPECT_THROW(decompress(codec, truncated, out), InvalidInput) << codec_name(codec);
    // Bit flips decompress to something or fail cleanly; never write past the output.
    std::mt19937 rng(9);
    for (int k = 0; k < 200; ++k) {
      auto flipped = packed;
      flipped[rng() % flipped.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      try {
        decompress(codec, flipped, out);
      } catch (const InvalidInput&) {
      }
    }
  }
  std::vector<uint8_t> out(4);
  EXPECT_THROW(decompress(CompressionCodec::kLzo, input, out), InvalidInput);
  EXPECT_THROW(compress(CompressionCodec::kLzo, input), NotImplemented);
}

TEST(ParquetCompression, GzipMultiMember) {
  auto a = sample(1000);
  auto b = sample(3000);
  auto packed = compress(CompressionCodec::kGzip, a);
  auto second = compress(CompressionCodec::kGzip, b);
  packed.insert(packed.end(), second.begin(), second.end());
  std::vector<uint8_t> out(a.size() + b.size());
  decompress(CompressionCodec::kGzip, packed, out);
  std::vector<uint8_t> want = a;
  want.insert(want.end(), b.begin(), b.end());
  EXPECT_EQ(out, want);
}

TEST(ParquetCompression, Lz4WithAndWithoutHadoopFraming) {
  auto input = sample(20000);
  auto raw = compress(CompressionCodec::kLz4Raw, input);
  std::vector<uint8_t> out(input.size());
  // The deprecated LZ4 codec accepts a raw block (no framing) as well as Hadoop's framing.
  decompress(CompressionCodec::kLz4Hadoop, raw, out);
  EXPECT_EQ(out, input);
  // Hadoop framing with two blocks.
  std::vector<uint8_t> framed;
  for (size_t start : {size_t{0}, size_t{12000}}) {
    size_t n = start == 0 ? 12000 : input.size() - 12000;
    auto block = compress(CompressionCodec::kLz4Raw, std::span<const uint8_t>(input.data() + start, n));
    for (uint32_t v : {static_cast<uint32_t>(n), static_cast<uint32_t>(block.size())}) {
      for (int s = 24; s >= 0; s -= 8) framed.push_back(static_cast<uint8_t>(v >> s));
    }
    framed.insert(framed.end(), block.begin(), block.end());
  }
  std::fill(out.begin(), out.end(), 0);
  decompress(CompressionCodec::kLz4Hadoop, framed, out);
  EXPECT_EQ(out, input);
}

TEST(ParquetCompression, Crc32) {
  std::string check = "123456789";
  EXPECT_EQ(crc32({reinterpret_cast<const uint8_t*>(check.data()), check.size()}), 0xCBF43926u);
  EXPECT_EQ(crc32({}), 0u);
}

}  // namespace
}  // namespace kestrel::io
