#include "common/types.hpp"

#include "common/error.hpp"

namespace kestrel {

LogicalType LogicalType::decimal(int precision, int scale) {
  if (precision < 1 || precision > kMaxDecimalPrecision) {
    throw InvalidInput("DECIMAL precision must be between 1 and 38, got " + std::to_string(precision));
  }
  if (scale < 0 || scale > precision) {
    throw InvalidInput("DECIMAL scale must be between 0 and the precision " + std::to_string(precision) +
                       ", got " + std::to_string(scale));
  }
  LogicalType type(TypeId::kDecimal);
  type.precision_ = static_cast<uint8_t>(precision);
  type.scale_ = static_cast<uint8_t>(scale);
  return type;
}

size_t LogicalType::physical_width() const {
  switch (id_) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return 1;
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger: return 4;
    case TypeId::kBigInt: return 8;
    case TypeId::kReal: return 4;
    case TypeId::kDouble: return 8;
    case TypeId::kDecimal: return is_wide_decimal() ? 16 : 8;
    case TypeId::kDate: return 4;
    case TypeId::kTimestamp: return 8;
    case TypeId::kInterval: return 16;
    case TypeId::kTimestampTz: return 16;
    case TypeId::kVarchar:
    case TypeId::kVarbinary:
    case TypeId::kJson:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return 0;
  }
  return 0;
}

bool LogicalType::is_integral() const {
  switch (id_) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return true;
    default: return false;
  }
}

bool LogicalType::is_numeric() const {
  return is_integral() || id_ == TypeId::kReal || id_ == TypeId::kDouble || id_ == TypeId::kDecimal;
}

std::string LogicalType::to_string() const {
  switch (id_) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kTinyInt: return "TINYINT";
    case TypeId::kSmallInt: return "SMALLINT";
    case TypeId::kInteger: return "INTEGER";
    case TypeId::kBigInt: return "BIGINT";
    case TypeId::kReal: return "REAL";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kDate: return "DATE";
    case TypeId::kTimestamp: return "TIMESTAMP";
    case TypeId::kInterval: return "INTERVAL";
    case TypeId::kTimestampTz: return "TIMESTAMP WITH TIME ZONE";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kVarbinary: return "VARBINARY";
    case TypeId::kJson: return "JSON";
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return nested_to_string();
  }
  return "?";
}

const LogicalType* all_storable_types(size_t* count) {
  static const LogicalType kTypes[] = {
      TypeId::kBoolean,  TypeId::kTinyInt,           TypeId::kSmallInt,           TypeId::kInteger,
      TypeId::kBigInt,   TypeId::kReal,              TypeId::kDouble,             LogicalType::decimal(15, 2),
      LogicalType::decimal(38, 10), TypeId::kDate,  TypeId::kTimestamp,          TypeId::kInterval,
      TypeId::kVarchar,
  };
  *count = sizeof(kTypes) / sizeof(kTypes[0]);
  return kTypes;
}

}  // namespace kestrel
