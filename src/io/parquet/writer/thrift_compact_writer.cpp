#include "io/parquet/writer/thrift_compact_writer.hpp"

#include <cstring>

#include "common/error.hpp"

namespace kestrel::io::parquet {

void ThriftCompactWriter::begin_struct() { last_field_id_.push_back(0); }

void ThriftCompactWriter::end_struct() {
  if (last_field_id_.empty()) throw InternalError("Thrift writer: end_struct without an open struct");
  bytes_.push_back(static_cast<uint8_t>(ThriftType::kStop));
  last_field_id_.pop_back();
}

void ThriftCompactWriter::varint(uint64_t value) {
  while (value >= 0x80) {
    bytes_.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  bytes_.push_back(static_cast<uint8_t>(value));
}

void ThriftCompactWriter::field_header(int16_t id, ThriftType type) {
  if (last_field_id_.empty()) throw InternalError("Thrift writer: field outside a struct");
  int delta = static_cast<int>(id) - last_field_id_.back();
  auto code = static_cast<uint8_t>(type);
  if (delta > 0 && delta <= 15) {
    bytes_.push_back(static_cast<uint8_t>((delta << 4) | code));
  } else {
    bytes_.push_back(code);
    varint(zigzag(id));
  }
  last_field_id_.back() = id;
}

void ThriftCompactWriter::field_bool(int16_t id, bool value) {
  field_header(id, value ? ThriftType::kBoolTrue : ThriftType::kBoolFalse);
}

void ThriftCompactWriter::field_byte(int16_t id, int8_t value) {
  field_header(id, ThriftType::kByte);
  bytes_.push_back(static_cast<uint8_t>(value));
}

void ThriftCompactWriter::field_i16(int16_t id, int16_t value) {
  field_header(id, ThriftType::kI16);
  varint(zigzag(value));
}

void ThriftCompactWriter::field_i32(int16_t id, int32_t value) {
  field_header(id, ThriftType::kI32);
  varint(zigzag(value));
}

void ThriftCompactWriter::field_i64(int16_t id, int64_t value) {
  field_header(id, ThriftType::kI64);
  varint(zigzag(value));
}

void ThriftCompactWriter::field_double(int16_t id, double value) {
  field_header(id, ThriftType::kDouble);
  uint8_t raw[8];
  std::memcpy(raw, &value, 8);  // little-endian hosts only, like the rest of Kestrel
  bytes_.insert(bytes_.end(), raw, raw + 8);
}

void ThriftCompactWriter::field_binary(int16_t id, std::string_view value) {
  field_header(id, ThriftType::kBinary);
  element_binary(value);
}

void ThriftCompactWriter::element_binary(std::string_view value) {
  varint(value.size());
  bytes_.insert(bytes_.end(), value.begin(), value.end());
}

void ThriftCompactWriter::field_struct_begin(int16_t id) {
  field_header(id, ThriftType::kStruct);
  begin_struct();
}

void ThriftCompactWriter::field_empty_struct(int16_t id) {
  field_struct_begin(id);
  end_struct();
}

void ThriftCompactWriter::field_list_begin(int16_t id, ThriftType element_type, size_t size) {
  field_header(id, ThriftType::kList);
  auto code = static_cast<uint8_t>(element_type);
  if (size < 15) {
    bytes_.push_back(static_cast<uint8_t>((size << 4) | code));
  } else {
    bytes_.push_back(static_cast<uint8_t>(0xf0 | code));
    varint(size);
  }
}

}  // namespace kestrel::io::parquet
