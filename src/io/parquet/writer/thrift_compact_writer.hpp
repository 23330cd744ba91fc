#pragma once
/// An encoder of the Thrift compact protocol, the mirror of the reader's ThriftCompactReader: the Parquet writer
/// builds its footer and page headers with it. Struct writing is driven by the caller:
///   writer.begin_struct(); writer.field_i32(1, v); ...; writer.end_struct();
/// Field ids must grow within a struct only where the short (delta) form is wanted; any order is valid.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "io/parquet/thrift_compact.hpp"

namespace kestrel::io::parquet {

/// Appends compact-protocol values to a byte vector.
class ThriftCompactWriter {
 public:
  /// The encoded bytes so far.
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t> take() { return std::move(bytes_); }

  /// Opens a struct: the top-level one, or a list element. A struct-valued field uses field_struct_begin.
  void begin_struct();
  /// Writes the stop marker and closes the innermost struct.
  void end_struct();

  /// Field headers and values of the current struct.
  void field_bool(int16_t id, bool value);
  void field_byte(int16_t id, int8_t value);
  void field_i16(int16_t id, int16_t value);
  void field_i32(int16_t id, int32_t value);
  void field_i64(int16_t id, int64_t value);
  void field_double(int16_t id, double value);
  void field_binary(int16_t id, std::string_view value);
  /// A struct-valued field: writes the header and opens the struct (close it with end_struct).
  void field_struct_begin(int16_t id);
  /// A field holding an empty struct (the members of Parquet's unions that carry no data).
  void field_empty_struct(int16_t id);
  /// A list-valued field: writes the header; the caller then writes `size` elements with the element writers.
  void field_list_begin(int16_t id, ThriftType element_type, size_t size);

  /// List elements.
  void element_i32(int32_t value) { varint(zigzag(value)); }
  void element_i64(int64_t value) { varint(zigzag(value)); }
  void element_binary(std::string_view value);
  void element_bool(bool value) { bytes_.push_back(value ? 1 : 2); }

  /// Raw ULEB128 varint, and zigzag mapping of signed integers.
  void varint(uint64_t value);
  static uint64_t zigzag(int64_t value) {
    return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  }

 private:
  void field_header(int16_t id, ThriftType type);

  std::vector<uint8_t> bytes_;
  /// The last field id of each open struct (ids are written as deltas from it when they fit in 4 bits).
  std::vector<int16_t> last_field_id_;
};

}  // namespace kestrel::io::parquet
