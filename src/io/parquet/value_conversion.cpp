#include "io/parquet/value_conversion.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "common/error.hpp"
#include "common/temporal.hpp"

namespace kestrel::io::parquet {

namespace {

constexpr int64_t kJulianDayOfEpoch = 2440588;

template <typename In, typename Out, typename F>
void convert(const uint8_t* in, size_t count, uint8_t* out, F f) {
  for (size_t i = 0; i < count; ++i) {
    In v;
    std::memcpy(&v, in + i * sizeof(In), sizeof(In));
    Out o = f(v);
    std::memcpy(out + i * sizeof(Out), &o, sizeof(Out));
  }
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

[[noreturn]] void decimal_does_not_fit(size_t bytes, const char* storage) {
  throw InvalidInput("DECIMAL value of " + std::to_string(bytes) + " bytes does not fit " + storage);
}

Value value_of(const LogicalType& type, const uint8_t* p) {
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(p[0] != 0);
    case TypeId::kTinyInt: return Value::tinyint(load(int8_t{}));
    case TypeId::kSmallInt: return Value::smallint(load(int16_t{}));
    case TypeId::kInteger: return Value::integer(load(int32_t{}));
    case TypeId::kBigInt: return Value::bigint(load(int64_t{}));
    case TypeId::kReal: return Value::real(load(float{}));
    case TypeId::kDouble: return Value::double_value(load(double{}));
    case TypeId::kDecimal:
      return Value::decimal(type.is_wide_decimal() ? load(int128_t{}) : load(int64_t{}), type.precision(),
                            type.scale());
    case TypeId::kDate: return Value::date(load(int32_t{}));
    case TypeId::kTimestamp: return Value::timestamp(load(int64_t{}));
    default: break;
  }
  return Value::null(type);
}

}  // namespace

int64_t int96_to_micros(const uint8_t* p) {
  int64_t nanos;
  int32_t day;
  std::memcpy(&nanos, p, 8);
  std::memcpy(&day, p + 8, 4);
  int64_t days = static_cast<int64_t>(day) - kJulianDayOfEpoch;
  return static_cast<int64_t>(static_cast<uint64_t>(wrapping_mul(days, kMicrosPerDay)) +
                              static_cast<uint64_t>(floor_div(nanos, 1000)));
}

float float16_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  int exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  uint32_t bits;
  std::memcpy(&bits, &magnitude, 4);
  bits |= sign;
  if (exponent == 31 && mantissa != 0) bits = sign | 0x7fc00000u | (mantissa << 13);
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

std::optional<int128_t> big_endian_to_int128(std::string_view bytes) {
  if (bytes.empty()) return int128_t{0};
  auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size();
  size_t start = 0;
  if (n > 16) {
    // Longer encodings are fine when the extra leading bytes only extend the sign.
    uint8_t fill = (b[n - 16] & 0x80) ? 0xff : 0x00;
    for (size_t i = 0; i < n - 16; ++i) {
      if (b[i] != fill) return std::nullopt;
    }
    start = n - 16;
  }
  unsigned __int128 u = (b[start] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = start; i < n; ++i) u = (u << 8) | b[i];
  return static_cast<int128_t>(u);
}

void convert_fixed_values(ValueConversion conversion, const uint8_t* in, size_t count, uint8_t* out) {
  switch (conversion) {
    case ValueConversion::kInt32ToInt8: return convert<int32_t, int8_t>(in, count, out, [](int32_t v) { return static_cast<int8_t>(v); });
    case ValueConversion::kInt32ToInt16: return convert<int32_t, int16_t>(in, count, out, [](int32_t v) { return static_cast<int16_t>(v); });
    case ValueConversion::kUint8ToInt16:
      return convert<int32_t, int16_t>(in, count, out, [](int32_t v) { return static_cast<int16_t>(static_cast<uint8_t>(v)); });
    case ValueConversion::kUint16ToInt32:
      return convert<int32_t, int32_t>(in, count, out, [](int32_t v) { return static_cast<int32_t>(static_cast<uint16_t>(v)); });
    case ValueConversion::kUint32ToInt64:
      return convert<int32_t, int64_t>(in, count, out, [](int32_t v) { return static_cast<int64_t>(static_cast<uint32_t>(v)); });
    case ValueConversion::kInt32ToInt64: return convert<int32_t, int64_t>(in, count, out, [](int32_t v) { return int64_t{v}; });
    case ValueConversion::kInt32ToInt128: return convert<int32_t, int128_t>(in, count, out, [](int32_t v) { return int128_t{v}; });
    case ValueConversion::kInt64ToInt128: return convert<int64_t, int128_t>(in, count, out, [](int64_t v) { return int128_t{v}; });
    case ValueConversion::kUint64ToInt128:
      return convert<int64_t, int128_t>(in, count, out, [](int64_t v) { return static_cast<int128_t>(static_cast<uint64_t>(v)); });
    case ValueConversion::kMillisToMicros: return convert<int64_t, int64_t>(in, count, out, [](int64_t v) { return wrapping_mul(v, 1000); });
    case ValueConversion::kNanosToMicros: return convert<int64_t, int64_t>(in, count, out, [](int64_t v) { return floor_div(v, 1000); });
    case ValueConversion::kInt96ToMicros:
      for (size_t i = 0; i < count; ++i) {
        int64_t v = int96_to_micros(in + i * 12);
        std::memcpy(out + i * 8, &v, 8);
      }
      return;
    case ValueConversion::kIdentity:
    case ValueConversion::kBoolean:
    case ValueConversion::kFloat16ToFloat:
    case ValueConversion::kBigEndianToInt64:
    case ValueConversion::kBigEndianToInt128:
    case ValueConversion::kBinaryToString: break;
  }
  throw InternalError("convert_fixed_values: conversion " + std::to_string(static_cast<int>(conversion)));
}

void convert_binary_values(ValueConversion conversion, const std::string_view* in, size_t count, uint8_t* out) {
  switch (conversion) {
    case ValueConversion::kFloat16ToFloat:
      for (size_t i = 0; i < count; ++i) {
        if (in[i].size() != 2) throw InvalidInput("FLOAT16 value of " + std::to_string(in[i].size()) + " bytes");
        uint16_t h = static_cast<uint16_t>(static_cast<uint8_t>(in[i][0]) | (static_cast<uint8_t>(in[i][1]) << 8));
        float f = float16_to_float(h);
        std::memcpy(out + i * 4, &f, 4);
      }
      return;
    case ValueConversion::kBigEndianToInt64:
      for (size_t i = 0; i < count; ++i) {
        auto v = big_endian_to_int128(in[i]);
        if (!v || *v < INT64_MIN || *v > INT64_MAX) decimal_does_not_fit(in[i].size(), "64 bits");
        int64_t s = static_cast<int64_t>(*v);
        std::memcpy(out + i * 8, &s, 8);
      }
      return;
    case ValueConversion::kBigEndianToInt128:
      for (size_t i = 0; i < count; ++i) {
        auto v = big_endian_to_int128(in[i]);
        if (!v) decimal_does_not_fit(in[i].size(), "128 bits");
        std::memcpy(out + i * 16, &*v, 16);
      }
      return;
    default: break;
  }
  throw InternalError("convert_binary_values: conversion " + std::to_string(static_cast<int>(conversion)));
}

std::optional<Value> decode_statistic(const ColumnDescriptor& column, std::string_view bytes) {
  const LogicalType& type = column.type;
  auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  alignas(16) uint8_t buffer[16] = {};
  switch (column.conversion) {
    case ValueConversion::kBinaryToString:
      if (type.id() == TypeId::kJson) return std::nullopt;  // a JSON value's order is not its text's
      return type.id() == TypeId::kVarbinary ? Value::varbinary(std::string(bytes)) : Value::varchar(std::string(bytes));
    case ValueConversion::kFloat16ToFloat:
    case ValueConversion::kBigEndianToInt64:
    case ValueConversion::kBigEndianToInt128: {
      if (column.physical_type == PhysicalType::kFixedLenByteArray &&
          bytes.size() != static_cast<size_t>(column.type_length)) {
        return std::nullopt;
      }
      try {
        convert_binary_values(column.conversion, &bytes, 1, buffer);
      } catch (const InvalidInput&) {
        return std::nullopt;
      }
      break;
    }
    case ValueConversion::kInt96ToMicros: return std::nullopt;  // INT96 has no defined order
    case ValueConversion::kBoolean:
      if (bytes.size() != 1) return std::nullopt;
      buffer[0] = p[0] != 0;
      break;
    default: {
      size_t width = physical_width(column.physical_type, column.type_length);
      if (bytes.size() != width) return std::nullopt;
      if (column.conversion == ValueConversion::kIdentity) {
        std::memcpy(buffer, p, width);
      } else {
        convert_fixed_values(column.conversion, p, 1, buffer);
      }
      break;
    }
  }
  Value v = value_of(type, buffer);
  if ((type.id() == TypeId::kReal || type.id() == TypeId::kDouble) && std::isnan(v.as_double())) return std::nullopt;
  return v;
}

}  // namespace kestrel::io::parquet
