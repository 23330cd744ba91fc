#pragma once
/// Bit unpacking and the RLE / bit-packing hybrid of Parquet (definition levels, dictionary indices, RLE booleans).
/// Every read is bounds-checked; malformed input throws InvalidInput with the reason.

#include <cstddef>
#include <cstdint>

namespace kestrel::io::parquet {

/// Unpacks `count` values of `bit_width` (0..32) bits each, packed LSB first, from `in` (`in_size` bytes). Bits past
/// the end of `in` read as zero; callers check that the values they need are inside.
void unpack_bits32(const uint8_t* in, size_t in_size, int bit_width, size_t count, uint32_t* out);
/// The same for widths 0..64 (delta encodings of 64-bit columns).
void unpack_bits64(const uint8_t* in, size_t in_size, int bit_width, size_t count, uint64_t* out);

/// Bytes that `count` values of `bit_width` bits occupy.
inline size_t packed_bytes(size_t count, int bit_width) { return (count * static_cast<size_t>(bit_width) + 7) / 8; }

/// Number of bits needed for values up to `max_value` (0 -> 0, 1 -> 1, 2..3 -> 2, ...).
int bit_width_for(uint64_t max_value);

/// Reads a run-length / bit-packed hybrid stream without a length prefix. Runs are decoded lazily, so a stream can
/// be consumed in pieces. A final bit-packed run cut short by the end of the data yields the values it still holds.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width);

  /// Decodes exactly `count` values into `out`; throws InvalidInput when the stream holds fewer.
  void decode(uint32_t* out, size_t count);
  /// Decodes exactly `count` values into bytes (bit widths up to 8: levels and booleans).
  void decode(uint8_t* out, size_t count);
  /// Like decode(uint32_t*), checking every value is below `limit` (dictionary indices).
  void decode_indices(int32_t* out, size_t count, uint32_t limit);
  /// Counts the values equal to `value` among the next `count`, consuming them; for definition levels.
  /// Fills `bitmap` bits [offset, offset+count) with (level == value) and returns how many were set.
  size_t decode_to_bitmap(uint8_t* bitmap, size_t offset, size_t count, uint32_t value);

  int bit_width() const { return bit_width_; }

 private:
  /// Loads the next run; false at the end of the data.
  bool next_run();
  template <typename T>
  void decode_impl(T* out, size_t count);

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int bit_width_;
  size_t value_bytes_;        ///< bytes of an RLE run's value
  uint64_t run_left_ = 0;     ///< values left in the current run
  bool run_is_rle_ = false;
  uint32_t rle_value_ = 0;
  const uint8_t* packed_ = nullptr;  ///< start of the current bit-packed run
  size_t packed_size_ = 0;           ///< its bytes (possibly cut short)
  size_t packed_index_ = 0;          ///< values of it already consumed
};

}  // namespace kestrel::io::parquet
