// The kcol block layout (docs/kcol.md): frame-of-reference bit-packing round-trips every width 0..64, lays value i
// of a block into lane i mod 32 as the lane's value i div 32 (word j of a lane at j * 32 + lane), and the footer
// encoding round-trips and rejects truncation.

#include <gtest/gtest.h>

#include <random>

#include "common/error.hpp"
#include "io/kcol/kcol_format.hpp"

namespace kestrel::io::kcol {
namespace {

TEST(KcolFormat, PackedBlocksRoundTripEveryWidth) {
  std::mt19937_64 rng(3);
  for (int width = 0; width <= 64; ++width) {
    for (size_t count : {size_t{1}, size_t{31}, size_t{1000}, kBlockValues}) {
      const int64_t base = width == 64 ? INT64_MIN : static_cast<int64_t>(rng() % 1000) - 500;
      std::vector<int64_t> values(count);
      for (auto& v : values) {
        const uint64_t mask = width == 64 ? ~0ull : (width == 0 ? 0 : (1ull << width) - 1);
        v = static_cast<int64_t>(static_cast<uint64_t>(base) + (rng() & mask));
      }
      std::vector<uint32_t> words;
      pack_block(values.data(), count, base, width, words);
      ASSERT_EQ(words.size(), kLanes * static_cast<size_t>(width));
      std::vector<int64_t> back(count);
      unpack_block(words.data(), count, base, width, back.data());
      EXPECT_EQ(back, values) << "width " << width << ", " << count << " values";
    }
  }
}

TEST(KcolFormat, LanesAreInterleaved) {
  // Width 32: lane l's value k is exactly word k * 32 + l.
  std::vector<int64_t> values(kBlockValues);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * 3 + 7);
  std::vector<uint32_t> words;
  pack_block(values.data(), values.size(), 0, 32, words);
  for (size_t lane = 0; lane < kLanes; ++lane) {
    for (size_t k = 0; k < kValuesPerLane; ++k) {
      EXPECT_EQ(words[k * kLanes + lane], static_cast<uint32_t>(values[k * kLanes + lane]));
    }
  }
  // Width 4: lane 0's first word holds values 0, 32, 64, ... (8 of them), least significant bits first.
  std::vector<int64_t> small(kBlockValues);
  for (size_t i = 0; i < small.size(); ++i) small[i] = static_cast<int64_t>((i / kLanes) % 16);
  words.clear();
  pack_block(small.data(), small.size(), 0, 4, words);
  EXPECT_EQ(words[0], 0x76543210u);
  EXPECT_EQ(words[kLanes], 0xfedcba98u);
}

TEST(KcolFormat, FooterRoundTripsAndRejectsTruncation) {
  Footer f;
  f.columns = {{"a", LogicalType(TypeId::kBigInt), false}, {"s", LogicalType::decimal(20, 3), true}};
  f.row_group_rows = {5, 7};
  f.num_rows = 12;
  f.chunks.resize(4);
  for (size_t i = 0; i < 4; ++i) {
    f.chunks[i].offset = 64 * (i + 1);
    f.chunks[i].size = 10 + i;
    f.chunks[i].encoding = Encoding::kPacked;
    f.chunks[i].min = -static_cast<int64_t>(i);
    f.chunks[i].max = static_cast<int64_t>(i) * 1000;
  }
  std::vector<uint8_t> bytes = encode_footer(f);
  Footer g = decode_footer(bytes.data(), bytes.size());
  ASSERT_EQ(g.columns.size(), 2u);
  EXPECT_EQ(g.columns[1].type, LogicalType::decimal(20, 3));
  EXPECT_FALSE(g.columns[0].nullable);
  EXPECT_EQ(g.chunk(1, 1).max, 3000);
  EXPECT_EQ(g.chunk(1, 0).offset, 64u * 3);
  for (size_t cut : {size_t{0}, size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THROW(decode_footer(bytes.data(), cut), InvalidInput) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace kestrel::io::kcol
