#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "io/compression/codec.hpp"
#include "io/parquet/device/snappy_literals.hpp"

namespace kestrel::io::parquet {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> data(n);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  return data;
}

/// The literals put together, as the GPU reader gathers them.
std::vector<uint8_t> gather(const std::vector<uint8_t>& stream, const std::vector<SnappyLiteral>& literals) {
  std::vector<uint8_t> out;
  for (const SnappyLiteral& l : literals) {
    out.insert(out.end(), stream.begin() + l.offset, stream.begin() + l.offset + l.length);
  }
  return out;
}

TEST(SnappyLiterals, IncompressibleDataIsLiteralsThatGatherToTheInput) {
  for (size_t n : {1, 59, 60, 61, 255, 256, 65535, 65536, 65537, 200000, 1 << 20}) {
    const auto input = random_bytes(n, static_cast<uint32_t>(n));
    const auto packed = compress(CompressionCodec::kSnappy, input);
    std::vector<SnappyLiteral> literals;
    ASSERT_TRUE(snappy_literals(packed.data(), packed.size(), n, 64, literals)) << n;
    EXPECT_EQ(gather(packed, literals), input) << n;
    EXPECT_EQ(literals.size(), (n + 65535) / 65536) << "snappy compresses 64 KiB blocks: " << n;
  }
}

TEST(SnappyLiterals, StreamsWithCopiesAreLeftToTheDecompressor) {
  std::vector<uint8_t> input(100000);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>('a' + i % 7);
  const auto packed = compress(CompressionCodec::kSnappy, input);
  std::vector<SnappyLiteral> literals;
  EXPECT_FALSE(snappy_literals(packed.data(), packed.size(), input.size(), 64, literals));
}

TEST(SnappyLiterals, InconsistentStreamsAreRejected) {
  const auto input = random_bytes(70000, 3);
  const auto packed = compress(CompressionCodec::kSnappy, input);
  std::vector<SnappyLiteral> literals;
  // A different expected size, a truncated stream, a trailing byte, too few literals allowed.
  EXPECT_FALSE(snappy_literals(packed.data(), packed.size(), input.size() - 1, 64, literals));
  EXPECT_FALSE(snappy_literals(packed.data(), packed.size() - 1, input.size(), 64, literals));
  auto longer = packed;
  longer.push_back(0);
  EXPECT_FALSE(snappy_literals(longer.data(), longer.size(), input.size(), 64, literals));
  EXPECT_FALSE(snappy_literals(packed.data(), packed.size(), input.size(), 1, literals));
  EXPECT_FALSE(snappy_literals(packed.data(), 0, 0, 64, literals));
  // Every truncation and every single-byte change either still parses as a consistent literal stream (and then
  // gathers to exactly the declared size) or is rejected; none reads past the end.
  for (size_t cut = 0; cut < 12; ++cut) {
    EXPECT_FALSE(snappy_literals(packed.data(), cut, input.size(), 64, literals));
  }
  std::mt19937 rng(9);
  for (int round = 0; round < 2000; ++round) {
    auto bad = packed;
    bad[rng() % 16] = static_cast<uint8_t>(rng());
    if (snappy_literals(bad.data(), bad.size(), input.size(), 64, literals)) {
      EXPECT_EQ(gather(bad, literals).size(), input.size());
    }
  }
}

}  // namespace
}  // namespace kestrel::io::parquet
