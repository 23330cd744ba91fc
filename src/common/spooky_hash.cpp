// SpookyHash V2: inputs under 192 bytes take the short path (four 64-bit lanes mixed per 32 bytes), longer ones the
// long path (twelve lanes mixed per 96-byte block, the tail padded with zeros and its length in the last byte).

#include "common/spooky_hash.hpp"

#include <array>
#include <cstring>

namespace kestrel {

namespace {

constexpr uint64_t kSeedConstant = 0xdeadbeefdeadbeefULL;
constexpr size_t kLanes = 12;
constexpr size_t kBlockBytes = kLanes * 8;     // 96
constexpr size_t kShortLimit = 2 * kBlockBytes;  // inputs below this take the short path

constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t load64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint32_t load32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

/// One round of the short path's mixing of its four lanes.
void short_mix(std::array<uint64_t, 4>& h) {
  // Per step: lane x is rotated by r, takes in lane y, and is folded into lane z.
  struct Step {
    int x, y, z, r;
  };
  static constexpr Step kSteps[] = {{2, 3, 0, 50}, {3, 0, 1, 52}, {0, 1, 2, 30}, {1, 2, 3, 41},
                                    {2, 3, 0, 54}, {3, 0, 1, 48}, {0, 1, 2, 38}, {1, 2, 3, 37},
                                    {2, 3, 0, 62}, {3, 0, 1, 34}, {0, 1, 2, 5},  {1, 2, 3, 36}};
  for (const Step& s : kSteps) {
    h[s.x] = rotl(h[s.x], s.r);
    h[s.x] += h[s.y];
    h[s.z] ^= h[s.x];
  }
}

/// The short path's final mixing.
void short_end(std::array<uint64_t, 4>& h) {
  // Per step: lane z takes in lane x, x is rotated by r, and z adds it.
  struct Step {
    int z, x, r;
  };
  static constexpr Step kSteps[] = {{3, 2, 15}, {0, 3, 52}, {1, 0, 26}, {2, 1, 51}, {3, 2, 28}, {0, 3, 9},
                                    {1, 0, 47}, {2, 1, 54}, {3, 2, 32}, {0, 3, 25}, {1, 0, 63}};
  for (const Step& s : kSteps) {
    h[s.z] ^= h[s.x];
    h[s.x] = rotl(h[s.x], s.r);
    h[s.z] += h[s.x];
  }
}

SpookyHash128 short_hash(const uint8_t* p, size_t size, uint64_t seed1, uint64_t seed2) {
  std::array<uint64_t, 4> h{seed1, seed2, kSeedConstant, kSeedConstant};
  size_t left = size % 32;
  if (size > 15) {
    for (const uint8_t* end = p + size / 32 * 32; p < end; p += 32) {
      h[2] += load64(p);
      h[3] += load64(p + 8);
      short_mix(h);
      h[0] += load64(p + 16);
      h[1] += load64(p + 24);
    }
    if (left >= 16) {
      h[2] += load64(p);
      h[3] += load64(p + 8);
      short_mix(h);
      p += 16;
      left -= 16;
    }
  }
  // The last 0..15 bytes: the first eight go to lane 2, the rest to lane 3, which also holds the length.
  h[3] += static_cast<uint64_t>(size) << 56;
  if (left == 0) {
    h[2] += kSeedConstant;
    h[3] += kSeedConstant;
  } else if (left >= 12) {
    h[2] += load64(p);
    h[3] += load32(p + 8);
    for (size_t k = 12; k < left; ++k) h[3] += static_cast<uint64_t>(p[k]) << (8 * (k - 8));
  } else if (left >= 8) {
    h[2] += load64(p);
    for (size_t k = 8; k < left; ++k) h[3] += static_cast<uint64_t>(p[k]) << (8 * (k - 8));
  } else if (left >= 4) {
    h[2] += load32(p);
    for (size_t k = 4; k < left; ++k) h[2] += static_cast<uint64_t>(p[k]) << (8 * k);
  } else {
    for (size_t k = 0; k < left; ++k) h[2] += static_cast<uint64_t>(p[k]) << (8 * k);
  }
  short_end(h);
  return {h[0], h[1]};
}

using Lanes = std::array<uint64_t, kLanes>;

/// Mixes one 96-byte block into the twelve lanes.
void mix_block(const uint8_t* block, Lanes& s) {
  static constexpr int kRotations[kLanes] = {11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46};
  for (size_t i = 0; i < kLanes; ++i) {
    s[i] += load64(block + 8 * i);
    s[(i + 2) % kLanes] ^= s[(i + 10) % kLanes];
    s[(i + 11) % kLanes] ^= s[i];
    s[i] = rotl(s[i], kRotations[i]);
    s[(i + 11) % kLanes] += s[(i + 1) % kLanes];
  }
}

/// One round of the long path's final mixing.
void end_partial(Lanes& h) {
  static constexpr int kRotations[kLanes] = {44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54};
  for (size_t i = 0; i < kLanes; ++i) {
    // Step i: lane i-1 adds lane i+1, lane i+2 takes in lane i-1, lane i+1 is rotated.
    const size_t prev = (i + kLanes - 1) % kLanes, next = (i + 1) % kLanes, after = (i + 2) % kLanes;
    h[prev] += h[next];
    h[after] ^= h[prev];
    h[next] = rotl(h[next], kRotations[i]);
  }
}

SpookyHash128 long_hash(const uint8_t* p, size_t size, uint64_t seed1, uint64_t seed2) {
  Lanes h;
  for (size_t i = 0; i < kLanes; ++i) h[i] = i % 3 == 0 ? seed1 : i % 3 == 1 ? seed2 : kSeedConstant;
  const size_t blocks = size / kBlockBytes;
  for (size_t b = 0; b < blocks; ++b) mix_block(p + b * kBlockBytes, h);
  // The tail, zero padded, with its length in the block's last byte.
  uint8_t last[kBlockBytes] = {};
  const size_t left = size - blocks * kBlockBytes;
  if (left > 0) std::memcpy(last, p + blocks * kBlockBytes, left);
  last[kBlockBytes - 1] = static_cast<uint8_t>(left);
  for (size_t i = 0; i < kLanes; ++i) h[i] += load64(last + 8 * i);
  for (int round = 0; round < 3; ++round) end_partial(h);
  return {h[0], h[1]};
}

}  // namespace

SpookyHash128 spooky_hash128(const void* data, size_t size, uint64_t seed1, uint64_t seed2) {
  const auto* p = static_cast<const uint8_t*>(data);
  return size < kShortLimit ? short_hash(p, size, seed1, seed2) : long_hash(p, size, seed1, seed2);
}

}  // namespace kestrel
