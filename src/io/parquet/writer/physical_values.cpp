#include "io/parquet/writer/physical_values.hpp"

#include <cmath>
#include <cstring>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "io/parquet/writer/column_chunk_encoder.hpp"

namespace kestrel::io::parquet {
namespace {

template <typename T>
T load(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

}  // namespace

int32_t decimal_byte_width(int precision) {
  using u128 = unsigned __int128;
  u128 largest = static_cast<u128>(pow10_i128(precision) - 1);
  for (int32_t n = 1; n < 16; ++n) {
    if (largest < (u128{1} << (8 * n - 1))) return n;
  }
  return 16;
}

SchemaElement schema_element_for(const Field& field) {
  using Kind = LogicalTypeAnnotation::Kind;
  SchemaElement e;
  e.name = field.name;
  e.repetition = field.nullable ? Repetition::kOptional : Repetition::kRequired;
  const LogicalType& t = field.type;
  auto integer = [&](int bits) {
    e.type = PhysicalType::kInt32;
    e.converted_type = bits == 8 ? ConvertedType::kInt8 : ConvertedType::kInt16;
    e.logical_type.kind = Kind::kInteger;
    e.logical_type.bit_width = static_cast<int8_t>(bits);
    e.logical_type.is_signed = true;
  };
  switch (t.id()) {
    case TypeId::kBoolean: e.type = PhysicalType::kBoolean; break;
    case TypeId::kTinyInt: integer(8); break;
    case TypeId::kSmallInt: integer(16); break;
    case TypeId::kInteger: e.type = PhysicalType::kInt32; break;
    case TypeId::kBigInt: e.type = PhysicalType::kInt64; break;
    case TypeId::kReal: e.type = PhysicalType::kFloat; break;
    case TypeId::kDouble: e.type = PhysicalType::kDouble; break;
    case TypeId::kDecimal:
      if (t.precision() <= 9) {
        e.type = PhysicalType::kInt32;
      } else if (t.precision() <= kMaxInt64DecimalPrecision) {
        e.type = PhysicalType::kInt64;
      } else {
        e.type = PhysicalType::kFixedLenByteArray;
        e.type_length = decimal_byte_width(t.precision());
      }
      e.converted_type = ConvertedType::kDecimal;
      e.precision = t.precision();
      e.scale = t.scale();
      e.logical_type.kind = Kind::kDecimal;
      e.logical_type.precision = t.precision();
      e.logical_type.scale = t.scale();
      break;
    case TypeId::kDate:
      e.type = PhysicalType::kInt32;
      e.converted_type = ConvertedType::kDate;
      e.logical_type.kind = Kind::kDate;
      break;
    case TypeId::kTimestamp:
      // No converted type: TIMESTAMP_MICROS would claim UTC-adjusted values, and Kestrel timestamps have no zone.
      e.type = PhysicalType::kInt64;
      e.logical_type.kind = Kind::kTimestamp;
      e.logical_type.unit = TimeUnit::kMicros;
      e.logical_type.adjusted_to_utc = false;
      break;
    case TypeId::kTimestampTz:
      // The instants, UTC-adjusted; the zone of each value is not kept (Parquet has no zone per value).
      e.type = PhysicalType::kInt64;
      e.converted_type = ConvertedType::kTimestampMicros;
      e.logical_type.kind = Kind::kTimestamp;
      e.logical_type.unit = TimeUnit::kMicros;
      e.logical_type.adjusted_to_utc = true;
      break;
    case TypeId::kVarchar:
      e.type = PhysicalType::kByteArray;
      e.converted_type = ConvertedType::kUtf8;
      e.logical_type.kind = Kind::kString;
      break;
    case TypeId::kVarbinary: e.type = PhysicalType::kByteArray; break;  // bytes: no annotation
    case TypeId::kJson:
      e.type = PhysicalType::kByteArray;
      e.converted_type = ConvertedType::kJson;
      e.logical_type.kind = Kind::kJson;
      break;
    case TypeId::kInterval:
      throw NotImplemented("column '" + field.name +
                           "': INTERVAL cannot be written to Parquet (its interval type has no microseconds)");
    case TypeId::kNull: throw NotImplemented("column '" + field.name + "': a column of type NULL cannot be written");
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      throw InternalError("column '" + field.name + "': " + t.to_string() +
                          " is not a leaf (nested columns are written through append_schema_elements)");
  }
  return e;
}

PhysicalValues::PhysicalValues(const LogicalType& type) : type_(type) {
  switch (type.id()) {
    case TypeId::kBoolean: kind = StatKind::kBoolean, width = 1; break;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kDate: kind = StatKind::kInt32, width = 4; break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: kind = StatKind::kInt64, width = 8; break;
    case TypeId::kReal: kind = StatKind::kFloat, width = 4; break;
    case TypeId::kDouble: kind = StatKind::kDouble, width = 8; break;
    case TypeId::kDecimal:
      if (type.precision() <= 9) {
        kind = StatKind::kInt32, width = 4;
      } else if (type.precision() <= kMaxInt64DecimalPrecision) {
        kind = StatKind::kInt64, width = 8;
      } else {
        kind = StatKind::kBigEndianDecimal, width = static_cast<size_t>(decimal_byte_width(type.precision()));
      }
      break;
    case TypeId::kVarchar:
    case TypeId::kVarbinary:
    case TypeId::kJson: kind = StatKind::kByteArray; break;
    default: throw NotImplemented("Parquet writer: type " + type.to_string() + " cannot be written");
  }
}

void PhysicalValues::put(const void* bytes, size_t n) {
  const auto* p = static_cast<const uint8_t*>(bytes);
  data.insert(data.end(), p, p + n);
}

void PhysicalValues::append(const Column& column, size_t row) {
  const Column* src = &column;
  if (column.is_dictionary()) {
    row = static_cast<size_t>(column.data<int32_t>()[row]);
    src = column.dictionary().get();
  }
  switch (type_.id()) {
    case TypeId::kBoolean: data.push_back(src->data<uint8_t>()[row] != 0 ? 1 : 0); break;
    case TypeId::kTinyInt: {
      int32_t v = src->data<int8_t>()[row];
      put(&v, 4);
      break;
    }
    case TypeId::kSmallInt: {
      int32_t v = src->data<int16_t>()[row];
      put(&v, 4);
      break;
    }
    case TypeId::kInteger:
    case TypeId::kDate:
    case TypeId::kReal: put(src->data<uint8_t>() + row * 4, 4); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kDouble: put(src->data<uint8_t>() + row * 8, 8); break;
    case TypeId::kTimestampTz: put(&src->data<TimestampTz>()[row].micros, 8); break;
    case TypeId::kDecimal:
      if (kind == StatKind::kBigEndianDecimal) {
        int128_t v = type_.is_wide_decimal() ? src->data<int128_t>()[row] : src->data<int64_t>()[row];
        for (size_t b = width; b-- > 0;) data.push_back(static_cast<uint8_t>(v >> (8 * b)));
      } else if (width == 4) {
        auto v = static_cast<int32_t>(src->data<int64_t>()[row]);
        put(&v, 4);
      } else {
        put(src->data<int64_t>() + row, 8);
      }
      break;
    case TypeId::kVarchar:
    case TypeId::kVarbinary:
    case TypeId::kJson: {
      std::string_view s = src->string_at(row);
      put(s.data(), s.size());
      offsets_.push_back(data.size());
      break;
    }
    default: throw InternalError("PhysicalValues::append: unexpected type " + type_.to_string());
  }
  ++count_;
}

void PhysicalValues::reserve(size_t values, size_t bytes) {
  data.reserve(data.size() + bytes);
  if (is_byte_array()) offsets_.reserve(offsets_.size() + values);
}

void PhysicalValues::append_rows(const Column& column, size_t begin, size_t count) {
  if (count == 0) return;
  if (!column.is_dictionary()) {
    const TypeId id = type_.id();
    size_t bytes = 0;
    if (id == TypeId::kInteger || id == TypeId::kDate || id == TypeId::kReal) bytes = 4;
    if (id == TypeId::kBigInt || id == TypeId::kTimestamp || id == TypeId::kDouble) bytes = 8;
    if (id == TypeId::kDecimal && kind == StatKind::kInt64) bytes = 8;
    if (bytes > 0) {  // the physical layout is the column's: one copy
      put(column.data<uint8_t>() + begin * bytes, count * bytes);
      count_ += count;
      return;
    }
    if (id == TypeId::kVarchar || id == TypeId::kVarbinary || id == TypeId::kJson) {
      const int64_t* offsets = column.offsets()->as<int64_t>();
      const size_t first = static_cast<size_t>(offsets[begin]);
      const size_t base = data.size();
      put(column.values()->as<uint8_t>() + first, static_cast<size_t>(offsets[begin + count]) - first);
      for (size_t r = begin; r < begin + count; ++r) offsets_.push_back(base + static_cast<size_t>(offsets[r + 1]) - first);
      count_ += count;
      return;
    }
  }
  for (size_t r = begin; r < begin + count; ++r) append(column, r);
}

PhysicalValues PhysicalValues::select(const std::vector<uint32_t>& indices) const {
  PhysicalValues out(type_);
  for (uint32_t i : indices) {
    std::string_view v = at(i);
    out.put(v.data(), v.size());
    if (is_byte_array()) out.offsets_.push_back(out.data.size());
    ++out.count_;
  }
  return out;
}

bool PhysicalValues::less(size_t a, size_t b) const {
  std::string_view x = at(a), y = at(b);
  switch (kind) {
    case StatKind::kBoolean: return x[0] < y[0];
    case StatKind::kInt32: return load<int32_t>(x) < load<int32_t>(y);
    case StatKind::kInt64: return load<int64_t>(x) < load<int64_t>(y);
    case StatKind::kFloat: return load<float>(x) < load<float>(y);
    case StatKind::kDouble: return load<double>(x) < load<double>(y);
    case StatKind::kByteArray: return x < y;  // char_traits<char> compares as unsigned char
    case StatKind::kBigEndianDecimal: {
      auto hx = static_cast<int8_t>(x[0]), hy = static_cast<int8_t>(y[0]);
      if (hx != hy) return hx < hy;
      return x.substr(1) < y.substr(1);
    }
  }
  return false;
}

namespace {

/// min_max of fixed-width integers, without a comparison call per value.
template <typename T>
std::pair<std::optional<size_t>, std::optional<size_t>> integer_min_max(const uint8_t* data, size_t count) {
  if (count == 0) return {std::nullopt, std::nullopt};
  size_t lo = 0, hi = 0;
  T low, high;
  std::memcpy(&low, data, sizeof(T));
  high = low;
  for (size_t i = 1; i < count; ++i) {
    T v;
    std::memcpy(&v, data + i * sizeof(T), sizeof(T));
    if (v < low) low = v, lo = i;
    if (high < v) high = v, hi = i;
  }
  return {lo, hi};
}

}  // namespace

std::pair<std::optional<size_t>, std::optional<size_t>> PhysicalValues::min_max() const {
  if (kind == StatKind::kInt32) return integer_min_max<int32_t>(data.data(), count_);
  if (kind == StatKind::kInt64) return integer_min_max<int64_t>(data.data(), count_);
  std::optional<size_t> lo, hi;
  for (size_t i = 0; i < count_; ++i) {
    if (kind == StatKind::kFloat && std::isnan(load<float>(at(i)))) continue;
    if (kind == StatKind::kDouble && std::isnan(load<double>(at(i)))) continue;
    if (!lo) {
      lo = hi = i;
      continue;
    }
    if (less(i, *lo)) lo = i;
    if (less(*hi, i)) hi = i;
  }
  return {lo, hi};
}

void PhysicalValues::normalize_zero_bounds(std::string& min, std::string& max) const {
  if (kind == StatKind::kFloat) {
    float lo = load<float>(min), hi = load<float>(max);
    if (lo == 0.0f) lo = -0.0f, std::memcpy(min.data(), &lo, 4);
    if (hi == 0.0f) hi = 0.0f, std::memcpy(max.data(), &hi, 4);
  } else if (kind == StatKind::kDouble) {
    double lo = load<double>(min), hi = load<double>(max);
    if (lo == 0.0) lo = -0.0, std::memcpy(min.data(), &lo, 8);
    if (hi == 0.0) hi = 0.0, std::memcpy(max.data(), &hi, 8);
  }
}

}  // namespace kestrel::io::parquet
