#pragma once
/// The non-null values of a column chunk in their Parquet physical form (each value's PLAIN bytes, without the
/// length prefix of byte arrays), gathered from Kestrel columns. Dictionary building, PLAIN encoding and statistics
/// all work on these bytes, so every Kestrel type goes through one path.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/types.hpp"
#include "vector/column.hpp"

namespace kestrel::io::parquet {

/// How a physical value is ordered (Parquet's type-defined order) and laid out.
enum class StatKind : uint8_t {
  kBoolean,           ///< one byte 0/1 here; bit-packed in PLAIN
  kInt32,             ///< 4 bytes little-endian, signed
  kInt64,             ///< 8 bytes little-endian, signed
  kFloat,             ///< IEEE, NaN left out of min/max
  kDouble,
  kByteArray,         ///< variable length, unsigned lexicographic
  kBigEndianDecimal,  ///< FIXED_LEN_BYTE_ARRAY two's complement, signed
};

/// Bytes of a FIXED_LEN_BYTE_ARRAY that hold every DECIMAL of `precision` digits.
int32_t decimal_byte_width(int precision);

class PhysicalValues {
 public:
  explicit PhysicalValues(const LogicalType& type);

  /// Appends row `row` of `column` (which must be valid there); dictionary-encoded columns are looked through.
  void append(const Column& column, size_t row);
  /// Appends rows [begin, begin + count) of `column`, all valid: whole ranges at once where the layouts agree.
  void append_rows(const Column& column, size_t begin, size_t count);
  /// Room for `values` more values of `bytes` bytes in all.
  void reserve(size_t values, size_t bytes);

  size_t size() const { return count_; }
  /// The physical bytes of value `i`.
  std::string_view at(size_t i) const {
    if (is_byte_array()) {
      return {reinterpret_cast<const char*>(data.data()) + offsets_[i], offsets_[i + 1] - offsets_[i]};
    }
    return {reinterpret_cast<const char*>(data.data()) + i * width, width};
  }
  bool is_byte_array() const { return kind == StatKind::kByteArray; }

  /// The values at `indices`, in that order.
  PhysicalValues select(const std::vector<uint32_t>& indices) const;
  /// Indices of the smallest and largest value in the type's order (NaN ignored); nullopt when there is none.
  std::pair<std::optional<size_t>, std::optional<size_t>> min_max() const;
  /// Float zero bounds as Parquet asks: a zero minimum is written as -0.0, a zero maximum as +0.0.
  void normalize_zero_bounds(std::string& min, std::string& max) const;
  /// Whether the legacy (signed-order) min/max fields mean the same as min_value/max_value.
  bool legacy_statistics_valid() const { return kind != StatKind::kByteArray && kind != StatKind::kBigEndianDecimal; }

  StatKind kind;
  size_t width = 0;           ///< bytes per value (fixed-width kinds)
  std::vector<uint8_t> data;  ///< the values' bytes

 private:
  bool less(size_t a, size_t b) const;
  void put(const void* bytes, size_t n);

  LogicalType type_;
  size_t count_ = 0;
  std::vector<size_t> offsets_{0};  ///< byte arrays: start of each value, plus the end
};

}  // namespace kestrel::io::parquet
