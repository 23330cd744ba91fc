#include "planner/functions/type_rules.hpp"

#include <algorithm>

namespace kestrel::plan {

namespace {

bool is_float(TypeId id) { return id == TypeId::kReal || id == TypeId::kDouble; }

LogicalType decimal_super_type(const LogicalType& a, const LogicalType& b) {
  const int scale = std::max(a.scale(), b.scale());
  const int digits = std::max(a.precision() - a.scale(), b.precision() - b.scale());
  return LogicalType::decimal(std::min(kMaxDecimalPrecision, digits + scale), scale);
}

std::optional<LogicalType> numeric_super_type(const LogicalType& a, const LogicalType& b) {
  const TypeId x = a.id();
  const TypeId y = b.id();
  if (x == TypeId::kDouble || y == TypeId::kDouble) return LogicalType(TypeId::kDouble);
  if (is_float(x) || is_float(y)) {
    // One side is REAL; REAL meeting DECIMAL is DOUBLE, meeting an integer or REAL stays REAL.
    if (x == TypeId::kDecimal || y == TypeId::kDecimal) return LogicalType(TypeId::kDouble);
    return LogicalType(TypeId::kReal);
  }
  if (x == TypeId::kDecimal || y == TypeId::kDecimal) {
    return decimal_super_type(integer_as_decimal(a), integer_as_decimal(b));
  }
  return integer_rank(x) >= integer_rank(y) ? a : b;
}

/// ARRAY, MAP and ROW of one kind meet child by child (a ROW keeps the first side's field names).
std::optional<LogicalType> nested_super_type(const LogicalType& a, const LogicalType& b) {
  if (a.id() == TypeId::kArray) {
    auto element = common_super_type(a.element_type(), b.element_type());
    return element ? std::optional(LogicalType::array(*element)) : std::nullopt;
  }
  if (a.id() == TypeId::kMap) {
    auto key = common_super_type(a.key_type(), b.key_type());
    auto value = common_super_type(a.value_type(), b.value_type());
    return key && value ? std::optional(LogicalType::map(*key, *value)) : std::nullopt;
  }
  if (a.fields().size() != b.fields().size()) return std::nullopt;
  std::vector<RowField> fields;
  for (size_t i = 0; i < a.fields().size(); ++i) {
    auto t = common_super_type(a.child(i), b.child(i));
    if (!t) return std::nullopt;
    fields.push_back(RowField{a.fields()[i].name.empty() ? b.fields()[i].name : a.fields()[i].name, *t});
  }
  return LogicalType::row(std::move(fields));
}

/// Casts between nested types of one kind where every child casts (ROW fields by position).
bool can_cast_nested(const LogicalType& from, const LogicalType& to) {
  if (from.id() != to.id() || from.child_count() != to.child_count()) return false;
  for (size_t i = 0; i < from.child_count(); ++i) {
    if (!can_cast_explicitly(from.child(i), to.child(i))) return false;
  }
  return true;
}

}  // namespace

int integer_rank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInteger: return 3;
    case TypeId::kBigInt: return 4;
    default: return 0;
  }
}

LogicalType integer_as_decimal(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kTinyInt: return LogicalType::decimal(3, 0);
    case TypeId::kSmallInt: return LogicalType::decimal(5, 0);
    case TypeId::kInteger: return LogicalType::decimal(10, 0);
    case TypeId::kBigInt: return LogicalType::decimal(19, 0);
    default: return type;
  }
}

std::optional<LogicalType> common_super_type(const LogicalType& a, const LogicalType& b) {
  if (a == b) return a;
  if (a.id() == TypeId::kNull) return b;
  if (b.id() == TypeId::kNull) return a;
  if (a.is_numeric() && b.is_numeric()) return numeric_super_type(a, b);
  const TypeId x = a.id();
  const TypeId y = b.id();
  if ((x == TypeId::kDate && y == TypeId::kTimestamp) || (x == TypeId::kTimestamp && y == TypeId::kDate)) {
    return LogicalType(TypeId::kTimestamp);
  }
  // DATE and TIMESTAMP meet TIMESTAMP WITH TIME ZONE as wall-clock times in the session's zone (Presto's coercion).
  const auto is_local = [](TypeId t) { return t == TypeId::kDate || t == TypeId::kTimestamp; };
  if ((x == TypeId::kTimestampTz && is_local(y)) || (is_local(x) && y == TypeId::kTimestampTz)) {
    return LogicalType(TypeId::kTimestampTz);
  }
  if (x == y && a.is_nested()) return nested_super_type(a, b);
  return std::nullopt;
}

std::optional<LogicalType> common_super_type(const std::vector<LogicalType>& types) {
  if (types.empty()) return std::nullopt;
  std::optional<LogicalType> result = types[0];
  for (size_t i = 1; i < types.size() && result; ++i) result = common_super_type(*result, types[i]);
  return result;
}

bool is_orderable(const LogicalType& type) {
  // Maps have no order (Presto); arrays and rows order by their elements and fields.
  return !type.contains(TypeId::kJson) && !type.contains(TypeId::kMap);
}

void require_orderable(const LogicalType& type, const char* what, std::optional<SourcePosition> pos) {
  if (!is_orderable(type)) {
    throw BinderError(std::string(what) + " on a " + type.to_string() + " value: " + type.to_string() +
                          " is not orderable",
                      pos, "42883");
  }
}

bool can_implicitly_cast(const LogicalType& from, const LogicalType& to) {
  if (from == to || from.id() == TypeId::kNull) return true;
  if (from.is_nested() || to.is_nested()) {
    if (from.id() != to.id() || from.child_count() != to.child_count()) return false;
    for (size_t i = 0; i < from.child_count(); ++i) {
      if (!can_implicitly_cast(from.child(i), to.child(i))) return false;
    }
    return true;
  }
  if (from.is_numeric() && to.is_numeric()) {
    if (to.id() == TypeId::kDouble) return true;
    if (to.id() == TypeId::kReal) return from.id() != TypeId::kDouble && from.id() != TypeId::kDecimal;
    if (from.id() == TypeId::kReal || from.id() == TypeId::kDouble) return false;
    if (to.id() == TypeId::kDecimal) {
      const LogicalType d = integer_as_decimal(from);
      return to.scale() >= d.scale() && to.precision() - to.scale() >= d.precision() - d.scale();
    }
    return from.is_integral() && integer_rank(from.id()) <= integer_rank(to.id());
  }
  if (to.id() == TypeId::kTimestampTz) return from.id() == TypeId::kDate || from.id() == TypeId::kTimestamp;
  return from.id() == TypeId::kDate && to.id() == TypeId::kTimestamp;
}

bool can_cast_explicitly(const LogicalType& from, const LogicalType& to) {
  if (from == to || from.id() == TypeId::kNull) return true;
  // Nested types cast to their own kind where the children cast, and to JSON; JSON to ARRAY, MAP or ROW is not
  // supported yet, and neither is any other cast of them.
  if (from.is_nested() && to.id() == TypeId::kJson) return true;
  if (from.is_nested() || to.is_nested()) return can_cast_nested(from, to);
  // VARCHAR casts to VARBINARY (its UTF-8 bytes); nothing else, VARCHAR included, casts from or to VARBINARY
  // (Presto: bytes become text through from_utf8).
  if (from.id() == TypeId::kVarbinary || to.id() == TypeId::kVarbinary) {
    return from.id() == TypeId::kVarchar && to.id() == TypeId::kVarbinary;
  }
  // JSON: from VARCHAR (a JSON string), BOOLEAN, numbers, DATE and TIMESTAMP; to VARCHAR, BOOLEAN and numbers.
  if (to.id() == TypeId::kJson) {
    return from.id() == TypeId::kVarchar || from.id() == TypeId::kBoolean || from.is_numeric() ||
           from.id() == TypeId::kDate || from.id() == TypeId::kTimestamp;
  }
  if (from.id() == TypeId::kJson) {
    return to.id() == TypeId::kVarchar || to.id() == TypeId::kBoolean || to.is_numeric();
  }
  if (from.id() == TypeId::kVarchar || to.id() == TypeId::kVarchar) return true;
  if (from.is_numeric() && to.is_numeric()) return true;
  const TypeId x = from.id();
  const TypeId y = to.id();
  if ((x == TypeId::kBoolean && to.is_integral()) || (from.is_integral() && y == TypeId::kBoolean)) return true;
  if ((x == TypeId::kDate && y == TypeId::kTimestamp) || (x == TypeId::kTimestamp && y == TypeId::kDate)) return true;
  // TIMESTAMP WITH TIME ZONE from and to DATE and TIMESTAMP (VARCHAR is above).
  if (x == TypeId::kTimestampTz || y == TypeId::kTimestampTz) {
    return x == TypeId::kDate || x == TypeId::kTimestamp || y == TypeId::kDate || y == TypeId::kTimestamp;
  }
  return false;
}

LogicalType decimal_add_type(const LogicalType& a, const LogicalType& b) {
  const int s = std::max(a.scale(), b.scale());
  const int p = std::min(kMaxDecimalPrecision, std::max(a.precision() - a.scale(), b.precision() - b.scale()) + s + 1);
  return LogicalType::decimal(p, s);
}

LogicalType decimal_multiply_type(const LogicalType& a, const LogicalType& b) {
  const int s = a.scale() + b.scale();
  const int p = std::min(kMaxDecimalPrecision, a.precision() + b.precision());
  return LogicalType::decimal(p, std::min(s, p));
}

LogicalType decimal_divide_type(const LogicalType& a, const LogicalType& b) {
  constexpr int kMinDivideScale = 6;
  const int s = std::min(kMaxDecimalPrecision, std::max({a.scale(), b.scale(), kMinDivideScale}));
  const int p = std::min(kMaxDecimalPrecision, a.precision() - a.scale() + b.scale() + s);
  return LogicalType::decimal(std::max(p, s), s);
}

LogicalType decimal_modulo_type(const LogicalType& a, const LogicalType& b) {
  const int s = std::max(a.scale(), b.scale());
  const int p = std::min(a.precision() - a.scale(), b.precision() - b.scale()) + s;
  return LogicalType::decimal(std::clamp(p, 1, kMaxDecimalPrecision), s);
}

}  // namespace kestrel::plan
