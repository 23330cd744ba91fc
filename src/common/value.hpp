#pragma once
/// A single typed SQL value (a literal, a constant-folded expression, one cell of a result).

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "common/types.hpp"

namespace kestrel {

/// A typed scalar that may be NULL. Integral types, DATE, TIMESTAMP and narrow DECIMAL store int64; wide DECIMAL
/// stores int128; REAL and DOUBLE store double; VARCHAR, VARBINARY and JSON store std::string (VARBINARY's any
/// bytes, JSON its canonical text); INTERVAL and TIMESTAMP WITH TIME ZONE their structs; ARRAY, MAP and ROW their
/// children (nested_value.cpp).
class Value {
 public:
  /// An untyped NULL.
  Value() = default;
  static Value null(LogicalType type);
  static Value boolean(bool v);
  static Value tinyint(int8_t v) { return integral(TypeId::kTinyInt, v); }
  static Value smallint(int16_t v) { return integral(TypeId::kSmallInt, v); }
  static Value integer(int32_t v) { return integral(TypeId::kInteger, v); }
  static Value bigint(int64_t v) { return integral(TypeId::kBigInt, v); }
  static Value real(float v);
  static Value double_value(double v);
  /// DECIMAL from its unscaled integer.
  static Value decimal(int128_t unscaled, int precision, int scale);
  static Value date(int32_t days);
  static Value timestamp(int64_t micros);
  static Value interval(Interval v);
  /// TIMESTAMP WITH TIME ZONE: UTC microseconds and a zone key (common/time_zone.hpp).
  static Value timestamp_tz(int64_t micros, int32_t zone);
  static Value varchar(std::string v);
  static Value varbinary(std::string bytes);
  /// A JSON value; `text` must be canonical JSON text (json_text.hpp makes it).
  static Value json(std::string text);
  /// ARRAY of `type` (an ARRAY type) holding `elements` (each NULL or of the element type).
  static Value array(LogicalType type, std::vector<Value> elements);
  /// MAP of `type` from parallel keys and values (keys distinct and not NULL: the caller checked).
  static Value map(LogicalType type, const std::vector<Value>& keys, const std::vector<Value>& values);
  /// ROW of `type` with one value per field.
  static Value row(LogicalType type, std::vector<Value> fields);

  const LogicalType& type() const { return type_; }
  bool is_null() const { return null_; }

  /// Accessors; the caller has checked the type.
  bool as_bool() const { return std::get<int64_t>(data_) != 0; }
  int64_t as_int64() const { return std::get<int64_t>(data_); }
  int128_t as_int128() const;
  double as_double() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Interval& as_interval() const { return std::get<Interval>(data_); }
  const TimestampTz& as_timestamp_tz() const { return std::get<TimestampTz>(data_); }
  /// ARRAY elements; ROW fields; MAP entries as ROW(key, value) values, in order.
  const std::vector<Value>& children() const;

  /// The value as text, the way the CLI prints it (NULL as "NULL"; VARBINARY as hex bytes, `00 ff`; `[1, 2]`,
  /// `{a=1}` and `{x=1, y=a}` for ARRAY, MAP and ROW).
  std::string to_string() const;

  friend bool operator==(const Value& a, const Value& b);

 private:
  static Value integral(TypeId id, int64_t v);
  std::string nested_to_string() const;

  LogicalType type_;
  bool null_ = true;
  std::variant<std::monostate, int64_t, int128_t, double, std::string, Interval, TimestampTz,
               std::shared_ptr<const std::vector<Value>>>
      data_;
};

}  // namespace kestrel
