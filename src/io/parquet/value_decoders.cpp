#include "io/parquet/value_decoders.hpp"

#include <cstring>
#include <string>

#include "common/error.hpp"
#include "io/parquet/rle_bit_packed.hpp"

namespace kestrel::io::parquet {

namespace {

/// The largest output one DELTA_BYTE_ARRAY page may expand to; prefixes make the output grow quadratically in the
/// input, so a small corrupt page could otherwise ask for any size.
constexpr size_t kMaxExpandedPageBytes = size_t{1} << 31;

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// A cursor over encoded bytes with checked varint reads.
struct Cursor {
  ByteSpan in;
  size_t pos = 0;

  uint64_t uleb(const char* what) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (pos >= in.size) fail(std::string("DELTA_BINARY_PACKED ") + what + " cut short by the end of the data");
      if (shift > 63) fail(std::string("DELTA_BINARY_PACKED ") + what + " varint too long");
      uint8_t b = in.data[pos++];
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
  }
  int64_t zigzag(const char* what) {
    uint64_t u = uleb(what);
    return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }
};

template <typename T>
size_t delta_binary_packed(ByteSpan in, size_t count, T* out) {
  Cursor c{in};
  uint64_t block_size = c.uleb("block size");
  uint64_t miniblocks = c.uleb("miniblock count");
  uint64_t total = c.uleb("value count");
  uint64_t last = static_cast<uint64_t>(c.zigzag("first value"));
  if (block_size == 0 || block_size % 128 != 0 || block_size > (1u << 20)) {
    fail("DELTA_BINARY_PACKED block size " + std::to_string(block_size) + " is not a multiple of 128 up to 2^20");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    fail("DELTA_BINARY_PACKED has " + std::to_string(miniblocks) + " miniblocks in blocks of " +
         std::to_string(block_size));
  }
  if (total < count) {
    fail("DELTA_BINARY_PACKED holds " + std::to_string(total) + " values, " + std::to_string(count) + " needed");
  }
  if (count == 0) return c.pos;
  const size_t per_miniblock = static_cast<size_t>(block_size / miniblocks);
  std::vector<uint64_t> deltas(per_miniblock);
  out[0] = static_cast<T>(last);
  size_t done = 1;
  while (done < count) {
    uint64_t min_delta = static_cast<uint64_t>(c.zigzag("min delta"));
    if (miniblocks > in.size - c.pos) fail("DELTA_BINARY_PACKED bit widths cut short by the end of the data");
    const uint8_t* widths = in.data + c.pos;
    c.pos += miniblocks;
    for (uint64_t m = 0; m < miniblocks && done < count; ++m) {
      int width = widths[m];
      if (width > 64) fail("DELTA_BINARY_PACKED miniblock bit width " + std::to_string(width) + " above 64");
      size_t bytes = per_miniblock * static_cast<size_t>(width) / 8;
      size_t available = std::min(bytes, in.size - c.pos);
      size_t n = std::min(per_miniblock, count - done);
      if (packed_bytes(n, width) > available) fail("DELTA_BINARY_PACKED miniblock cut short by the end of the data");
      unpack_bits64(in.data + c.pos, available, width, n, deltas.data());
      for (size_t i = 0; i < n; ++i) {
        last += min_delta + deltas[i];
        out[done + i] = static_cast<T>(last);
      }
      done += n;
      c.pos += available;
    }
  }
  return c.pos;
}

}  // namespace

void decode_plain_fixed(ByteSpan in, size_t count, size_t width, void* out) {
  if (count > in.size / width) {
    fail("PLAIN data of " + std::to_string(in.size) + " bytes holds fewer than " + std::to_string(count) +
         " values of " + std::to_string(width) + " bytes");
  }
  if (count > 0) std::memcpy(out, in.data, count * width);
}

void decode_plain_booleans(ByteSpan in, size_t count, uint8_t* out) {
  if ((count + 7) / 8 > in.size) fail("PLAIN boolean data cut short: " + std::to_string(count) + " values needed");
  for (size_t i = 0; i < count; ++i) out[i] = (in.data[i >> 3] >> (i & 7)) & 1;
}

void decode_rle_booleans(ByteSpan in, size_t count, uint8_t* out) {
  if (in.size < 4) fail("RLE boolean data lacks its length");
  size_t length = load_le32(in.data);
  if (length > in.size - 4) fail("RLE boolean length " + std::to_string(length) + " exceeds the page");
  RleBitPackedDecoder decoder(in.data + 4, length, 1);
  decoder.decode(out, count);
}

void decode_plain_byte_arrays(ByteSpan in, size_t count, BinaryValues& out) {
  if (count > in.size / 4) {
    fail("PLAIN byte array data of " + std::to_string(in.size) + " bytes cannot hold " + std::to_string(count) +
         " values");
  }
  out.views.resize(count);
  size_t pos = 0;
  for (size_t i = 0; i < count; ++i) {
    if (in.size - pos < 4) fail("PLAIN byte array " + std::to_string(i) + " lacks its length");
    size_t length = load_le32(in.data + pos);
    pos += 4;
    if (length > in.size - pos) {
      fail("PLAIN byte array " + std::to_string(i) + " of " + std::to_string(length) + " bytes exceeds the page");
    }
    out.views[i] = std::string_view(reinterpret_cast<const char*>(in.data + pos), length);
    pos += length;
  }
}

void decode_plain_fixed_len(ByteSpan in, size_t count, size_t width, BinaryValues& out) {
  if (width == 0 ? false : count > in.size / width) {
    fail("PLAIN data of " + std::to_string(in.size) + " bytes holds fewer than " + std::to_string(count) +
         " values of " + std::to_string(width) + " bytes");
  }
  out.views.resize(count);
  for (size_t i = 0; i < count; ++i) {
    out.views[i] = std::string_view(reinterpret_cast<const char*>(in.data + i * width), width);
  }
}

size_t decode_delta_binary_packed(ByteSpan in, size_t count, int32_t* out) {
  return delta_binary_packed(in, count, out);
}

size_t decode_delta_binary_packed(ByteSpan in, size_t count, int64_t* out) {
  return delta_binary_packed(in, count, out);
}

namespace {

/// Decodes all lengths of a DELTA_BINARY_PACKED section (its own count), checking `count` of them are there and
/// each is a valid length; returns the bytes the section took.
size_t decode_lengths(ByteSpan in, size_t count, std::vector<int64_t>& lengths, const char* what) {
  Cursor c{in};
  c.uleb("block size");
  c.uleb("miniblock count");
  uint64_t total = c.uleb("value count");
  if (total < count) {
    fail(std::string(what) + " holds " + std::to_string(total) + " values, " + std::to_string(count) + " needed");
  }
  // Every 128 values take at least two bytes (a min delta and a bit width), which bounds an honest count.
  if (total > count && total / 64 > in.size) {
    fail(std::string(what) + " value count " + std::to_string(total) + " is impossible");
  }
  lengths.resize(static_cast<size_t>(total));
  size_t used = delta_binary_packed(in, static_cast<size_t>(total), lengths.data());
  for (size_t i = 0; i < count; ++i) {
    if (lengths[i] < 0 || static_cast<uint64_t>(lengths[i]) > in.size) {
      fail(std::string(what) + " " + std::to_string(i) + " is " + std::to_string(lengths[i]));
    }
  }
  return used;
}

}  // namespace

void decode_delta_length_byte_arrays(ByteSpan in, size_t count, BinaryValues& out) {
  std::vector<int64_t> lengths;
  size_t pos = decode_lengths(in, count, lengths, "DELTA_LENGTH_BYTE_ARRAY length");
  out.views.resize(count);
  for (size_t i = 0; i < count; ++i) {
    size_t length = static_cast<size_t>(lengths[i]);
    if (length > in.size - pos) fail("DELTA_LENGTH_BYTE_ARRAY value " + std::to_string(i) + " exceeds the page");
    out.views[i] = std::string_view(reinterpret_cast<const char*>(in.data + pos), length);
    pos += length;
  }
}

void decode_delta_byte_arrays(ByteSpan in, size_t count, BinaryValues& out) {
  std::vector<int64_t> prefixes;
  size_t pos = decode_lengths(in, count, prefixes, "DELTA_BYTE_ARRAY prefix length");
  BinaryValues suffixes;
  decode_delta_length_byte_arrays(ByteSpan{in.data + pos, in.size - pos}, count, suffixes);
  // Sizes first, so the storage never moves once views point into it.
  size_t total = 0;
  size_t previous = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t prefix = static_cast<size_t>(prefixes[i]);
    if (prefix > previous) {
      fail("DELTA_BYTE_ARRAY prefix " + std::to_string(prefix) + " of value " + std::to_string(i) +
           " is longer than the previous value");
    }
    previous = prefix + suffixes.views[i].size();
    total += previous;
    if (total > kMaxExpandedPageBytes) fail("DELTA_BYTE_ARRAY page expands past 2 GiB");
  }
  out.storage.resize(total);
  out.views.resize(count);
  char* dst = out.storage.data();
  const char* prev = dst;
  for (size_t i = 0; i < count; ++i) {
    size_t prefix = static_cast<size_t>(prefixes[i]);
    if (prefix > 0) std::memcpy(dst, prev, prefix);  // the previous value ends where this one starts
    // An empty suffix may have no data pointer, and an all-empty page no storage: memcpy takes neither.
    if (!suffixes.views[i].empty()) std::memcpy(dst + prefix, suffixes.views[i].data(), suffixes.views[i].size());
    size_t size = prefix + suffixes.views[i].size();
    out.views[i] = std::string_view(dst, size);
    prev = dst;
    dst += size;
  }
}

void decode_byte_stream_split(ByteSpan in, size_t count, size_t width, uint8_t* out) {
  if (width == 0) return;
  size_t stride = in.size / width;
  if (in.size % width != 0 || stride < count) {
    fail("BYTE_STREAM_SPLIT data of " + std::to_string(in.size) + " bytes does not hold " + std::to_string(count) +
         " values of " + std::to_string(width) + " bytes");
  }
  for (size_t k = 0; k < width; ++k) {
    const uint8_t* stream = in.data + k * stride;
    for (size_t i = 0; i < count; ++i) out[i * width + k] = stream[i];
  }
}

}  // namespace kestrel::io::parquet
