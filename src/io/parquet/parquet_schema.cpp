#include "io/parquet/parquet_schema.hpp"

#include <string>

#include "common/error.hpp"
#include "io/parquet/nested_schema.hpp"

namespace kestrel::io::parquet {

namespace {

using Kind = LogicalTypeAnnotation::Kind;

using Typing = PrimitiveTyping;

Typing typed(LogicalType type, ValueConversion conversion, SortOrder order = SortOrder::kSigned) {
  Typing t;
  t.ok = true;
  t.type = type;
  t.conversion = conversion;
  t.order = order;
  return t;
}

Typing unsupported(std::string reason) {
  Typing t;
  t.reason = std::move(reason);
  return t;
}

/// The logical annotation of a primitive, from the LogicalType field or else the legacy ConvertedType.
LogicalTypeAnnotation annotation_of(const SchemaElement& e) {
  if (e.logical_type.kind != Kind::kNone) return e.logical_type;
  LogicalTypeAnnotation a;
  if (!e.converted_type) return a;
  auto integer = [&](int bits, bool is_signed) {
    a.kind = Kind::kInteger;
    a.bit_width = static_cast<int8_t>(bits);
    a.is_signed = is_signed;
  };
  switch (*e.converted_type) {
    case ConvertedType::kUtf8: a.kind = Kind::kString; break;
    case ConvertedType::kEnum: a.kind = Kind::kEnum; break;
    case ConvertedType::kJson: a.kind = Kind::kJson; break;
    case ConvertedType::kBson: a.kind = Kind::kBson; break;
    case ConvertedType::kDecimal:
      a.kind = Kind::kDecimal;
      a.precision = e.precision;
      a.scale = e.scale;
      break;
    case ConvertedType::kDate: a.kind = Kind::kDate; break;
    case ConvertedType::kTimeMillis:
    case ConvertedType::kTimeMicros: a.kind = Kind::kTime; break;
    case ConvertedType::kTimestampMillis:
      a.kind = Kind::kTimestamp;
      a.unit = TimeUnit::kMillis;
      break;
    case ConvertedType::kTimestampMicros:
      a.kind = Kind::kTimestamp;
      a.unit = TimeUnit::kMicros;
      break;
    case ConvertedType::kUint8: integer(8, false); break;
    case ConvertedType::kUint16: integer(16, false); break;
    case ConvertedType::kUint32: integer(32, false); break;
    case ConvertedType::kUint64: integer(64, false); break;
    case ConvertedType::kInt8: integer(8, true); break;
    case ConvertedType::kInt16: integer(16, true); break;
    case ConvertedType::kInt32: integer(32, true); break;
    case ConvertedType::kInt64: integer(64, true); break;
    case ConvertedType::kInterval: a.kind = Kind::kOther; break;
    default: break;
  }
  return a;
}

Typing decimal_typing(const LogicalTypeAnnotation& a, PhysicalType physical) {
  if (a.precision < 1 || a.precision > kMaxDecimalPrecision || a.scale < 0 || a.scale > a.precision) {
    return unsupported("DECIMAL(" + std::to_string(a.precision) + "," + std::to_string(a.scale) +
                       ") is outside what Kestrel holds (precision 1..38, scale 0..precision)");
  }
  LogicalType type = LogicalType::decimal(a.precision, a.scale);
  bool wide = type.is_wide_decimal();
  switch (physical) {
    case PhysicalType::kInt32:
      return typed(type, wide ? ValueConversion::kInt32ToInt128 : ValueConversion::kInt32ToInt64);
    case PhysicalType::kInt64:
      return typed(type, wide ? ValueConversion::kInt64ToInt128 : ValueConversion::kIdentity);
    case PhysicalType::kFixedLenByteArray:
    case PhysicalType::kByteArray:
      return typed(type, wide ? ValueConversion::kBigEndianToInt128 : ValueConversion::kBigEndianToInt64,
                   SortOrder::kSigned);
    default: return unsupported(std::string("DECIMAL on ") + physical_type_name(physical));
  }
}

Typing integer_typing(const LogicalTypeAnnotation& a, PhysicalType physical) {
  bool on_int32 = physical == PhysicalType::kInt32;
  bool on_int64 = physical == PhysicalType::kInt64;
  if (a.is_signed) {
    if (a.bit_width == 8 && on_int32) return typed(TypeId::kTinyInt, ValueConversion::kInt32ToInt8);
    if (a.bit_width == 16 && on_int32) return typed(TypeId::kSmallInt, ValueConversion::kInt32ToInt16);
    if (a.bit_width == 32 && on_int32) return typed(TypeId::kInteger, ValueConversion::kIdentity);
    if (a.bit_width == 64 && on_int64) return typed(TypeId::kBigInt, ValueConversion::kIdentity);
  } else {
    if (a.bit_width == 8 && on_int32) return typed(TypeId::kSmallInt, ValueConversion::kUint8ToInt16, SortOrder::kUnsigned);
    if (a.bit_width == 16 && on_int32) return typed(TypeId::kInteger, ValueConversion::kUint16ToInt32, SortOrder::kUnsigned);
    if (a.bit_width == 32 && on_int32) return typed(TypeId::kBigInt, ValueConversion::kUint32ToInt64, SortOrder::kUnsigned);
    if (a.bit_width == 64 && on_int64) {
      return typed(LogicalType::decimal(20, 0), ValueConversion::kUint64ToInt128, SortOrder::kUnsigned);
    }
  }
  return unsupported("INT(" + std::to_string(a.bit_width) + ", " + (a.is_signed ? "signed" : "unsigned") + ") on " +
                     physical_type_name(physical));
}

}  // namespace

Typing type_primitive(const SchemaElement& e) {
  PhysicalType physical = *e.type;
  LogicalTypeAnnotation a = annotation_of(e);
  if (physical == PhysicalType::kFixedLenByteArray && e.type_length <= 0) {
    return unsupported("FIXED_LEN_BYTE_ARRAY without a positive length");
  }
  switch (a.kind) {
    case Kind::kDecimal: return decimal_typing(a, physical);
    case Kind::kInteger: return integer_typing(a, physical);
    case Kind::kDate:
      if (physical != PhysicalType::kInt32) return unsupported("DATE on a non-INT32 column");
      return typed(TypeId::kDate, ValueConversion::kIdentity);
    case Kind::kTimestamp:
      if (physical != PhysicalType::kInt64) return unsupported("TIMESTAMP on a non-INT64 column");
      if (a.unit == TimeUnit::kMillis) return typed(TypeId::kTimestamp, ValueConversion::kMillisToMicros);
      if (a.unit == TimeUnit::kNanos) return typed(TypeId::kTimestamp, ValueConversion::kNanosToMicros);
      return typed(TypeId::kTimestamp, ValueConversion::kIdentity);
    case Kind::kTime: return unsupported("TIME columns are not supported");
    case Kind::kFloat16:
      if (physical != PhysicalType::kFixedLenByteArray || e.type_length != 2) {
        return unsupported("FLOAT16 that is not FIXED_LEN_BYTE_ARRAY(2)");
      }
      return typed(TypeId::kReal, ValueConversion::kFloat16ToFloat);
    case Kind::kMap:
    case Kind::kList: return unsupported("a LIST or MAP annotation on a primitive column");
    default: break;  // strings, JSON, UUID, unknown annotations: by the physical type
  }
  if (e.converted_type == ConvertedType::kInterval) return unsupported("INTERVAL columns are not supported");
  switch (physical) {
    case PhysicalType::kBoolean: return typed(TypeId::kBoolean, ValueConversion::kBoolean);
    case PhysicalType::kInt32: return typed(TypeId::kInteger, ValueConversion::kIdentity);
    case PhysicalType::kInt64: return typed(TypeId::kBigInt, ValueConversion::kIdentity);
    case PhysicalType::kInt96: return typed(TypeId::kTimestamp, ValueConversion::kInt96ToMicros, SortOrder::kUnknown);
    case PhysicalType::kFloat: return typed(TypeId::kReal, ValueConversion::kIdentity);
    case PhysicalType::kDouble: return typed(TypeId::kDouble, ValueConversion::kIdentity);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      // Text annotations read as VARCHAR, JSON as JSON; bytes without one (and BSON, UUID, unknown annotations) as
      // VARBINARY.
      const bool text = a.kind == Kind::kString || a.kind == Kind::kEnum;
      const TypeId id = a.kind == Kind::kJson ? TypeId::kJson : text ? TypeId::kVarchar : TypeId::kVarbinary;
      return typed(id, ValueConversion::kBinaryToString, SortOrder::kUnsigned);
    }
  }
  return unsupported("unknown physical type " + std::to_string(static_cast<int32_t>(physical)));
}

namespace {

/// Walks the subtree at `index`, returning the index after it and adding its leaves to `leaves`.
size_t skip_subtree(const std::vector<SchemaElement>& schema, size_t index, size_t& leaves, int depth) {
  if (depth > 64) throw InvalidInput("malformed schema: nested deeper than 64 levels");
  if (index >= schema.size()) throw InvalidInput("malformed schema: children missing at element " + std::to_string(index));
  const SchemaElement& e = schema[index];
  if (e.num_children < 0) throw InvalidInput("malformed schema: negative child count for '" + e.name + "'");
  if (e.num_children == 0 && e.type) {
    ++leaves;
    return index + 1;
  }
  if (e.num_children == 0) throw InvalidInput("malformed schema: group '" + e.name + "' has no children");
  size_t next = index + 1;
  for (int32_t c = 0; c < e.num_children; ++c) next = skip_subtree(schema, next, leaves, depth + 1);
  return next;
}

}  // namespace

size_t physical_width(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return type_length > 0 ? static_cast<size_t>(type_length) : 0;
    case PhysicalType::kByteArray: return 0;
  }
  return 0;
}

SchemaMapping map_schema(const std::vector<SchemaElement>& schema) {
  if (schema.empty()) throw InvalidInput("malformed schema: no root element");
  const SchemaElement& root = schema[0];
  if (root.num_children < 0 || static_cast<size_t>(root.num_children) > schema.size() - 1) {
    throw InvalidInput("malformed schema: the root claims " + std::to_string(root.num_children) + " children");
  }
  SchemaMapping mapping;
  size_t index = 1;
  for (int32_t c = 0; c < root.num_children; ++c) {
    if (index >= schema.size()) throw InvalidInput("malformed schema: fewer elements than the root's children");
    const SchemaElement& e = schema[index];
    ColumnDescriptor column;
    column.name = e.name;
    size_t leaves_before = mapping.num_leaves;
    size_t next = skip_subtree(schema, index, mapping.num_leaves, 1);
    bool is_group = !e.type || e.num_children > 0;
    if (is_group || e.repetition == Repetition::kRepeated) {
      map_nested_column(schema, index, leaves_before, column);
    } else {
      Typing t = type_primitive(e);
      column.leaf_index = leaves_before;
      column.physical_type = *e.type;
      column.type_length = e.type_length;
      if (t.ok) {
        column.readable = true;
        column.type = t.type;
        column.conversion = t.conversion;
        column.sort_order = t.order;
        column.nullable = e.repetition != Repetition::kRequired;
        column.max_definition_level = column.nullable ? 1 : 0;
      } else {
        column.unsupported_reason = "column '" + e.name + "': " + t.reason;
      }
    }
    mapping.columns.push_back(std::move(column));
    index = next;
  }
  if (index != schema.size()) {
    throw InvalidInput("malformed schema: " + std::to_string(schema.size() - index) +
                       " elements beyond the root's children");
  }
  return mapping;
}

}  // namespace kestrel::io::parquet
