#pragma once
/// A decoder of the Thrift compact protocol, the encoding of Parquet's footer and page headers. Every read is
/// bounds-checked against the input; malformed input throws InvalidInput with a short reason (the caller adds the
/// file and the place). Unknown fields are skipped, so newer writers' additions are harmless.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kestrel::io::parquet {

/// Type codes of the compact protocol.
enum class ThriftType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

/// The header of one struct field; `type` kStop ends the struct.
struct ThriftField {
  int16_t id = 0;
  ThriftType type = ThriftType::kStop;
};

/// The header of a list or set.
struct ThriftList {
  ThriftType element_type = ThriftType::kStop;
  uint32_t size = 0;
};

/// Reads compact-protocol values from a byte range. Struct reading is driven by the caller:
///   reader.begin_struct(); while (auto f = reader.read_field(); f.type != kStop) { switch (f.id) ... }
///   reader.end_struct();
class ThriftCompactReader {
 public:
  /// The deepest nesting of structs and containers accepted; deeper input is rejected (no stack exhaustion).
  static constexpr int kMaxDepth = 64;

  ThriftCompactReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  /// Bytes consumed so far.
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  void begin_struct();
  void end_struct();
  /// Next field header of the current struct (field ids are delta-encoded against the previous one).
  ThriftField read_field();

  /// A boolean field: its value is folded into the field header's type code.
  static bool bool_field_value(ThriftType type) { return type == ThriftType::kBoolTrue; }
  /// A boolean element of a list (one byte, 1 is true).
  bool read_bool_element();
  int8_t read_byte();
  int16_t read_i16();
  int32_t read_i32();
  int64_t read_i64();
  double read_double();
  /// A length-prefixed byte string, viewing the input (valid while the input is).
  std::string_view read_binary();
  std::string read_string() { return std::string(read_binary()); }
  /// A list or set header; the size is checked against the bytes left (each element takes at least one byte).
  ThriftList read_list_header();
  /// Skips one value of `type`, containers and structs included.
  void skip(ThriftType type);

  /// Raw ULEB128 varint of up to 64 bits.
  uint64_t read_varint();

 private:
  uint8_t read_raw_byte();
  void enter();
  void leave() { --depth_; }
  [[noreturn]] void fail(const std::string& what) const;

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int depth_ = 0;
  /// Last field id of each open struct (field ids are deltas from it).
  int16_t last_field_id_[kMaxDepth + 1] = {};
  int struct_depth_ = 0;
};

/// Helper for a required field: throws InvalidInput naming the struct and the field when it was absent.
void require_field(bool present, const char* struct_name, const char* field_name);

}  // namespace kestrel::io::parquet
