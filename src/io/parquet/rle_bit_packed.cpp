#include "io/parquet/rle_bit_packed.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/bit_util.hpp"
#include "common/error.hpp"

namespace kestrel::io::parquet {

namespace {

/// Value `index` of width `bit_width` assembled byte by byte; bytes past `in_size` read as zero.
uint64_t unpack_one_slow(const uint8_t* in, size_t in_size, int bit_width, size_t index) {
  uint64_t v = 0;
  size_t bit = index * static_cast<size_t>(bit_width);
  for (int b = 0; b < bit_width;) {
    size_t byte = (bit + static_cast<size_t>(b)) >> 3;
    int shift = static_cast<int>((bit + static_cast<size_t>(b)) & 7);
    int take = std::min(8 - shift, bit_width - b);
    uint64_t piece = byte < in_size ? (in[byte] >> shift) & ((1u << take) - 1) : 0;
    v |= piece << b;
    b += take;
  }
  return v;
}

/// Unpacking with a compile-time width: groups of 8 values (BW bytes) with constant shifts.
template <int BW, typename Out>
void unpack_fixed(const uint8_t* in, size_t in_size, size_t count, Out* out) {
  if constexpr (BW == 0) {
    std::fill(out, out + count, Out{0});
  } else {
    constexpr uint64_t kMask = BW == 64 ? ~uint64_t{0} : (uint64_t{1} << BW) - 1;
    size_t i = 0;
    if constexpr (BW <= 56) {
      // A group's last load starts at byte (7*BW)/8 of the group and reads 8 bytes.
      size_t groups = count / 8;
      size_t safe_groups = in_size >= static_cast<size_t>(BW) + 8 ? (in_size - BW - 8) / BW + 1 : 0;
      groups = std::min(groups, safe_groups);
      for (size_t g = 0; g < groups; ++g) {
        const uint8_t* base = in + g * BW;
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) {
          uint64_t w;
          std::memcpy(&w, base + ((j * BW) >> 3), 8);
          out[g * 8 + static_cast<size_t>(j)] = static_cast<Out>((w >> ((j * BW) & 7)) & kMask);
        }
      }
      i = groups * 8;
    }
    for (; i < count; ++i) out[i] = static_cast<Out>(unpack_one_slow(in, in_size, BW, i));
  }
}

template <typename Out, int... BWs>
void unpack_dispatch(const uint8_t* in, size_t in_size, int bit_width, size_t count, Out* out,
                     std::integer_sequence<int, BWs...>) {
  using Fn = void (*)(const uint8_t*, size_t, size_t, Out*);
  static constexpr Fn kTable[] = {&unpack_fixed<BWs, Out>...};
  kTable[bit_width](in, in_size, count, out);
}

[[noreturn]] void too_few(size_t wanted, size_t got) {
  throw InvalidInput("RLE/bit-packed data holds " + std::to_string(got) + " values, " + std::to_string(wanted) +
                     " needed");
}

void fill_bits(uint8_t* bitmap, size_t offset, size_t count, bool value) {
  size_t i = offset;
  size_t end = offset + count;
  while (i < end && (i & 7) != 0) bits::assign(bitmap, i++, value);
  size_t whole = (end - i) / 8;
  std::memset(bitmap + i / 8, value ? 0xff : 0, whole);
  i += whole * 8;
  while (i < end) bits::assign(bitmap, i++, value);
}

}  // namespace

void unpack_bits32(const uint8_t* in, size_t in_size, int bit_width, size_t count, uint32_t* out) {
  if (bit_width < 0 || bit_width > 32) throw InvalidInput("bit width " + std::to_string(bit_width) + " above 32");
  unpack_dispatch<uint32_t>(in, in_size, bit_width, count, out, std::make_integer_sequence<int, 33>{});
}

void unpack_bits64(const uint8_t* in, size_t in_size, int bit_width, size_t count, uint64_t* out) {
  if (bit_width < 0 || bit_width > 64) throw InvalidInput("bit width " + std::to_string(bit_width) + " above 64");
  unpack_dispatch<uint64_t>(in, in_size, bit_width, count, out, std::make_integer_sequence<int, 65>{});
}

int bit_width_for(uint64_t max_value) {
  int w = 0;
  while (max_value != 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width)
    : data_(data), size_(size), bit_width_(bit_width), value_bytes_(static_cast<size_t>((bit_width + 7) / 8)) {
  if (bit_width < 0 || bit_width > 32) {
    throw InvalidInput("RLE/bit-packed bit width " + std::to_string(bit_width) + " outside 0..32");
  }
}

bool RleBitPackedDecoder::next_run() {
  if (pos_ >= size_) return false;
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= size_ || shift > 63) throw InvalidInput("RLE/bit-packed run header is malformed");
    uint8_t b = data_[pos_++];
    header |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  if ((header & 1) == 0) {
    run_is_rle_ = true;
    run_left_ = header >> 1;
    if (value_bytes_ > size_ - pos_) throw InvalidInput("RLE run value cut short by the end of the data");
    uint32_t v = 0;
    for (size_t i = 0; i < value_bytes_; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += value_bytes_;
    if (bit_width_ < 32 && (v >> bit_width_) != 0) {
      throw InvalidInput("RLE run value " + std::to_string(v) + " wider than " + std::to_string(bit_width_) +
                         " bits");
    }
    rle_value_ = v;
  } else {
    run_is_rle_ = false;
    uint64_t groups = header >> 1;
    size_t bytes = static_cast<size_t>(std::min<uint64_t>(groups * static_cast<uint64_t>(bit_width_), size_ - pos_));
    uint64_t values = groups * 8;
    if (bit_width_ > 0 && bytes < groups * static_cast<uint64_t>(bit_width_)) {
      values = bytes * 8 / static_cast<size_t>(bit_width_);  // cut short by the end of the data
    }
    packed_ = data_ + pos_;
    packed_size_ = bytes;
    packed_index_ = 0;
    run_left_ = values;
    pos_ += bytes;
  }
  return true;
}

template <typename T>
void RleBitPackedDecoder::decode_impl(T* out, size_t count) {
  size_t done = 0;
  uint32_t tmp[256];
  while (done < count) {
    if (run_left_ == 0) {
      if (!next_run()) {
        if (bit_width_ == 0) {  // a zero-width stream may be empty: every value is 0
          std::fill(out + done, out + count, T{0});
          return;
        }
        too_few(count, done);
      }
      continue;
    }
    size_t n = static_cast<size_t>(std::min<uint64_t>(run_left_, count - done));
    if (run_is_rle_) {
      std::fill(out + done, out + done + n, static_cast<T>(rle_value_));
    } else if constexpr (sizeof(T) == 4) {
      // Unpack starting at a whole byte: packed_index_ is a multiple of 8 except after a partial read, so the
      // general path offsets the source by whole groups and unpacks from there.
      size_t group = packed_index_ / 8;
      size_t skip = packed_index_ % 8;
      const uint8_t* src = packed_ + group * static_cast<size_t>(bit_width_);
      size_t src_size = packed_size_ - group * static_cast<size_t>(bit_width_);
      if (skip == 0) {
        unpack_bits32(src, src_size, bit_width_, n, reinterpret_cast<uint32_t*>(out + done));
      } else {
        size_t m = std::min<size_t>(n, 8 - skip);
        unpack_bits32(src, src_size, bit_width_, skip + m, tmp);
        std::copy(tmp + skip, tmp + skip + m, out + done);
        n = m;
      }
    } else {
      n = std::min<size_t>(n, 248);
      size_t group = packed_index_ / 8;
      size_t skip = packed_index_ % 8;
      const uint8_t* src = packed_ + group * static_cast<size_t>(bit_width_);
      size_t src_size = packed_size_ - group * static_cast<size_t>(bit_width_);
      unpack_bits32(src, src_size, bit_width_, skip + n, tmp);
      for (size_t i = 0; i < n; ++i) out[done + i] = static_cast<T>(tmp[skip + i]);
    }
    packed_index_ += run_is_rle_ ? 0 : n;
    run_left_ -= n;
    done += n;
  }
}

void RleBitPackedDecoder::decode(uint32_t* out, size_t count) { decode_impl(out, count); }

void RleBitPackedDecoder::decode(uint8_t* out, size_t count) {
  if (bit_width_ > 8) throw InvalidInput("level bit width " + std::to_string(bit_width_) + " above 8");
  decode_impl(out, count);
}

void RleBitPackedDecoder::decode_indices(int32_t* out, size_t count, uint32_t limit) {
  static_assert(sizeof(int32_t) == sizeof(uint32_t));
  auto* u = reinterpret_cast<uint32_t*>(out);
  decode_impl(u, count);
  uint32_t max = 0;
  for (size_t i = 0; i < count; ++i) max = std::max(max, u[i]);
  if (count > 0 && max >= limit) {
    throw InvalidInput("dictionary index " + std::to_string(max) + " out of range for a dictionary of " +
                       std::to_string(limit) + " values");
  }
}

size_t RleBitPackedDecoder::decode_to_bitmap(uint8_t* bitmap, size_t offset, size_t count, uint32_t value) {
  size_t done = 0;
  size_t set = 0;
  uint32_t tmp[256];
  while (done < count) {
    if (run_left_ == 0) {
      if (!next_run()) {
        if (bit_width_ == 0) {
          bool v = value == 0;
          fill_bits(bitmap, offset + done, count - done, v);
          return set + (v ? count - done : 0);
        }
        too_few(count, done);
      }
      continue;
    }
    size_t n = static_cast<size_t>(std::min<uint64_t>(run_left_, count - done));
    if (run_is_rle_) {
      bool v = rle_value_ == value;
      fill_bits(bitmap, offset + done, n, v);
      if (v) set += n;
    } else {
      n = std::min<size_t>(n, 248);
      size_t group = packed_index_ / 8;
      size_t skip = packed_index_ % 8;
      const uint8_t* src = packed_ + group * static_cast<size_t>(bit_width_);
      size_t src_size = packed_size_ - group * static_cast<size_t>(bit_width_);
      unpack_bits32(src, src_size, bit_width_, skip + n, tmp);
      for (size_t i = 0; i < n; ++i) {
        bool v = tmp[skip + i] == value;
        bits::assign(bitmap, offset + done + i, v);
        set += v;
      }
      packed_index_ += n;
    }
    run_left_ -= n;
    done += n;
  }
  return set;
}

}  // namespace kestrel::io::parquet
