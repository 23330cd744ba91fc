#include "io/parquet/thrift_compact.hpp"

#include <cstring>

#include "common/error.hpp"

namespace kestrel::io::parquet {

void ThriftCompactReader::fail(const std::string& what) const {
  throw InvalidInput("malformed metadata at byte " + std::to_string(pos_) + ": " + what);
}

uint8_t ThriftCompactReader::read_raw_byte() {
  if (pos_ >= size_) fail("unexpected end of data");
  return data_[pos_++];
}

uint64_t ThriftCompactReader::read_varint() {
  uint64_t value = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    uint8_t b = read_raw_byte();
    if (shift == 63 && (b & 0x7e) != 0) fail("varint overflows 64 bits");
    value |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return value;
  }
  fail("varint longer than 10 bytes");
}

void ThriftCompactReader::enter() {
  if (++depth_ > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
}

void ThriftCompactReader::begin_struct() {
  enter();
  if (struct_depth_ >= kMaxDepth) fail("structs nested too deep");
  last_field_id_[++struct_depth_] = 0;
}

void ThriftCompactReader::end_struct() {
  --struct_depth_;
  leave();
}

ThriftField ThriftCompactReader::read_field() {
  uint8_t header = read_raw_byte();
  ThriftField field;
  uint8_t type = header & 0x0f;
  if (type == 0) return field;  // stop
  if (type > static_cast<uint8_t>(ThriftType::kStruct)) fail("unknown field type " + std::to_string(type));
  field.type = static_cast<ThriftType>(type);
  int16_t& last = last_field_id_[struct_depth_];
  uint8_t delta = header >> 4;
  if (delta != 0) {
    field.id = static_cast<int16_t>(last + delta);
  } else {
    field.id = read_i16();
  }
  last = field.id;
  return field;
}

bool ThriftCompactReader::read_bool_element() { return read_raw_byte() == 1; }

int8_t ThriftCompactReader::read_byte() { return static_cast<int8_t>(read_raw_byte()); }

int16_t ThriftCompactReader::read_i16() {
  int64_t v = read_i64();
  if (v < INT16_MIN || v > INT16_MAX) fail("i16 out of range: " + std::to_string(v));
  return static_cast<int16_t>(v);
}

int32_t ThriftCompactReader::read_i32() {
  int64_t v = read_i64();
  if (v < INT32_MIN || v > INT32_MAX) fail("i32 out of range: " + std::to_string(v));
  return static_cast<int32_t>(v);
}

int64_t ThriftCompactReader::read_i64() {
  uint64_t u = read_varint();
  return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));  // zigzag
}

double ThriftCompactReader::read_double() {
  if (remaining() < 8) fail("unexpected end of data in a double");
  double v;
  std::memcpy(&v, data_ + pos_, 8);
  pos_ += 8;
  return v;
}

std::string_view ThriftCompactReader::read_binary() {
  uint64_t length = read_varint();
  if (length > remaining()) {
    fail("string of " + std::to_string(length) + " bytes exceeds the " + std::to_string(remaining()) + " left");
  }
  std::string_view v(reinterpret_cast<const char*>(data_ + pos_), length);
  pos_ += length;
  return v;
}

ThriftList ThriftCompactReader::read_list_header() {
  uint8_t header = read_raw_byte();
  ThriftList list;
  uint8_t type = header & 0x0f;
  if (type == 0 || type > static_cast<uint8_t>(ThriftType::kStruct)) {
    fail("unknown list element type " + std::to_string(type));
  }
  list.element_type = static_cast<ThriftType>(type);
  uint64_t size = header >> 4;
  if (size == 15) size = read_varint();
  if (size > remaining()) {
    fail("list of " + std::to_string(size) + " elements exceeds the " + std::to_string(remaining()) + " bytes left");
  }
  list.size = static_cast<uint32_t>(size);
  return list;
}

void ThriftCompactReader::skip(ThriftType type) {
  switch (type) {
    case ThriftType::kBoolTrue:
    case ThriftType::kBoolFalse: return;  // the value lived in the field header
    case ThriftType::kByte: read_raw_byte(); return;
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64: read_varint(); return;
    case ThriftType::kDouble: read_double(); return;
    case ThriftType::kBinary: read_binary(); return;
    case ThriftType::kList:
    case ThriftType::kSet: {
      enter();
      ThriftList list = read_list_header();
      for (uint32_t i = 0; i < list.size; ++i) {
        if (list.element_type == ThriftType::kBoolTrue || list.element_type == ThriftType::kBoolFalse) {
          read_raw_byte();
        } else {
          skip(list.element_type);
        }
      }
      leave();
      return;
    }
    case ThriftType::kMap: {
      enter();
      uint64_t size = read_varint();
      if (size > remaining()) fail("map of " + std::to_string(size) + " entries exceeds the bytes left");
      if (size > 0) {
        uint8_t types = read_raw_byte();
        auto key = static_cast<ThriftType>(types >> 4);
        auto value = static_cast<ThriftType>(types & 0x0f);
        if ((types >> 4) == 0 || (types >> 4) > 12 || (types & 0x0f) == 0 || (types & 0x0f) > 12) {
          fail("unknown map element types " + std::to_string(types));
        }
        for (uint64_t i = 0; i < size; ++i) {
          for (ThriftType t : {key, value}) {
            if (t == ThriftType::kBoolTrue || t == ThriftType::kBoolFalse) {
              read_raw_byte();
            } else {
              skip(t);
            }
          }
        }
      }
      leave();
      return;
    }
    case ThriftType::kStruct: {
      begin_struct();
      while (true) {
        ThriftField field = read_field();
        if (field.type == ThriftType::kStop) break;
        skip(field.type);
      }
      end_struct();
      return;
    }
    case ThriftType::kStop: break;
  }
  fail("cannot skip a value of type " + std::to_string(static_cast<int>(type)));
}

void require_field(bool present, const char* struct_name, const char* field_name) {
  if (!present) {
    throw InvalidInput(std::string("malformed metadata: ") + struct_name + " lacks its required field " + field_name);
  }
}

}  // namespace kestrel::io::parquet
