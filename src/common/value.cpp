#include "common/value.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/decimal.hpp"
#include "common/format.hpp"
#include "common/temporal.hpp"
#include "common/time_zone.hpp"

namespace kestrel {



Value Value::null(LogicalType type) {
  Value v;
  v.type_ = type;
  return v;
}

Value Value::integral(TypeId id, int64_t x) {
  Value v;
  v.type_ = id;
  v.null_ = false;
  v.data_ = x;
  return v;
}

Value Value::boolean(bool b) { return integral(TypeId::kBoolean, b ? 1 : 0); }

Value Value::real(float x) {
  Value v;
  v.type_ = TypeId::kReal;
  v.null_ = false;
  v.data_ = static_cast<double>(x);
  return v;
}

Value Value::double_value(double x) {
  Value v;
  v.type_ = TypeId::kDouble;
  v.null_ = false;
  v.data_ = x;
  return v;
}

Value Value::decimal(int128_t unscaled, int precision, int scale) {
  Value v;
  v.type_ = LogicalType::decimal(precision, scale);
  v.null_ = false;
  if (v.type_.is_wide_decimal()) {
    v.data_ = unscaled;
  } else {
    v.data_ = static_cast<int64_t>(unscaled);
  }
  return v;
}

Value Value::date(int32_t days) { return integral(TypeId::kDate, days); }
Value Value::timestamp(int64_t micros) { return integral(TypeId::kTimestamp, micros); }

Value Value::interval(Interval x) {
  Value v;
  v.type_ = TypeId::kInterval;
  v.null_ = false;
  v.data_ = x;
  return v;
}

Value Value::timestamp_tz(int64_t micros, int32_t zone) {
  Value v;
  v.type_ = TypeId::kTimestampTz;
  v.null_ = false;
  v.data_ = TimestampTz{micros, zone, 0};
  return v;
}

Value Value::varchar(std::string s) {
  Value v;
  v.type_ = TypeId::kVarchar;
  v.null_ = false;
  v.data_ = std::move(s);
  return v;
}

Value Value::varbinary(std::string bytes) {
  Value v;
  v.type_ = TypeId::kVarbinary;
  v.null_ = false;
  v.data_ = std::move(bytes);
  return v;
}

Value Value::json(std::string text) {
  Value v;
  v.type_ = TypeId::kJson;
  v.null_ = false;
  v.data_ = std::move(text);
  return v;
}

int128_t Value::as_int128() const {
  if (auto p = std::get_if<int128_t>(&data_)) return *p;
  return std::get<int64_t>(data_);
}

std::string Value::to_string() const {
  if (null_) return "NULL";
  switch (type_.id()) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return as_bool() ? "true" : "false";
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return std::to_string(as_int64());
    case TypeId::kReal:
    case TypeId::kDouble: return format_double(as_double());
    case TypeId::kDecimal: return format_decimal(as_int128(), type_.scale());
    case TypeId::kDate: return format_date(static_cast<int32_t>(as_int64()));
    case TypeId::kTimestamp: return format_timestamp(as_int64());
    case TypeId::kInterval: return format_interval(as_interval());
    case TypeId::kTimestampTz: return tz::format_timestamp_tz(as_timestamp_tz());
    case TypeId::kVarchar:
    case TypeId::kJson: return as_string();
    case TypeId::kVarbinary: return format_varbinary(as_string());
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return nested_to_string();
  }
  return "?";
}

bool operator==(const Value& a, const Value& b) {
  if (!(a.type_ == b.type_) || a.null_ != b.null_) return false;
  if (!a.null_ && a.type_.is_nested()) return a.children() == b.children();
  return a.data_ == b.data_;
}

std::string format_double(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f", v);
    return buf;
  }
  // Shortest representation that round-trips.
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string format_varbinary(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i > 0) out.push_back(' ');
    const auto b = static_cast<unsigned char>(bytes[i]);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

}  // namespace kestrel
