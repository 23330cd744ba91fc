#include "server/pg_types.hpp"

#include <cstdio>
#include <optional>

#include "common/binary_encoding.hpp"
#include "common/time_zone.hpp"

namespace kestrel::server::pg {

namespace {

/// The OID of PostgreSQL's array of a flat element type; nullopt where PostgreSQL has none (such arrays go as
/// text).
std::optional<int32_t> array_oid(const LogicalType& element) {
  switch (element.id()) {
    case TypeId::kBoolean: return 1000;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt: return 1005;
    case TypeId::kInteger: return 1007;
    case TypeId::kBigInt: return 1016;
    case TypeId::kReal: return 1021;
    case TypeId::kDouble: return 1022;
    case TypeId::kDecimal: return 1231;
    case TypeId::kDate: return 1182;
    case TypeId::kTimestamp: return 1115;
    case TypeId::kVarchar: return 1015;
    default: return std::nullopt;
  }
}

/// An array element in PostgreSQL's array text: NULL bare, other text double-quoted where it would not read back.
std::string array_element_text(const Value& v) {
  if (v.is_null()) return "NULL";
  std::string text = pg_text(v);
  bool quote = text.empty() || text == "NULL" || text == "null";
  for (char c : text) quote = quote || c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' ';
  if (!quote) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

PgColumnType pg_column_type(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kArray:
      // Arrays of flat values as PostgreSQL arrays (clients decode them into lists); other nested values as text.
      if (auto oid = array_oid(type.element_type())) return {static_cast<TypeOid>(*oid), -1, -1};
      return {TypeOid::kText, -1, -1};
    case TypeId::kMap:
    case TypeId::kRow: return {TypeOid::kText, -1, -1};
    case TypeId::kBoolean: return {TypeOid::kBool, 1, -1};
    case TypeId::kTinyInt:  // PostgreSQL has no one-byte integer; int2 holds every value
    case TypeId::kSmallInt: return {TypeOid::kInt2, 2, -1};
    case TypeId::kInteger: return {TypeOid::kInt4, 4, -1};
    case TypeId::kBigInt: return {TypeOid::kInt8, 8, -1};
    case TypeId::kReal: return {TypeOid::kFloat4, 4, -1};
    case TypeId::kDouble: return {TypeOid::kFloat8, 8, -1};
    case TypeId::kDecimal: return {TypeOid::kNumeric, -1, ((type.precision() << 16) | type.scale()) + 4};
    case TypeId::kDate: return {TypeOid::kDate, 4, -1};
    case TypeId::kTimestamp: return {TypeOid::kTimestamp, 8, -1};
    case TypeId::kTimestampTz: return {TypeOid::kTimestampTz, 8, -1};
    case TypeId::kInterval: return {TypeOid::kInterval, 16, -1};
    case TypeId::kVarchar: return {TypeOid::kVarchar, -1, -1};
    case TypeId::kVarbinary: return {TypeOid::kBytea, -1, -1};
    case TypeId::kJson: return {TypeOid::kJson, -1, -1};
    case TypeId::kNull: return {TypeOid::kText, -1, -1};  // an untyped NULL column reads as text, as in PostgreSQL
  }
  return {};
}

std::string pg_text(const Value& value, int32_t session_zone) {
  switch (value.type().id()) {
    case TypeId::kTimestampTz: {
      // timestamptz text is the wall clock of the session's zone and its offset: 2020-03-08 01:30:00-08.
      const int64_t utc = value.as_timestamp_tz().micros;
      const int32_t offset = tz::offset_seconds(session_zone, utc);
      std::string text = format_timestamp(utc + int64_t{offset} * 1'000'000);
      const int32_t minutes = (offset < 0 ? -offset : offset) / 60;
      char buf[16];
      std::snprintf(buf, sizeof(buf), "%c%02d", offset < 0 ? '-' : '+', minutes / 60);
      text += buf;
      if (minutes % 60 != 0) {
        std::snprintf(buf, sizeof(buf), ":%02d", minutes % 60);
        text += buf;
      }
      return text;
    }
    case TypeId::kBoolean: return value.as_bool() ? "t" : "f";
    case TypeId::kReal:
    case TypeId::kDouble: {
      std::string text = value.to_string();
      // PostgreSQL prints integral floats without a fraction ("3", not "3.0").
      if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
      return text;
    }
    case TypeId::kVarbinary: {
      // bytea's hex text form: \x and two lower-case digits a byte.
      std::string text = "\\x";
      append_hex(text, value.as_string(), false);
      return text;
    }
    case TypeId::kArray: {
      if (!array_oid(value.type().element_type())) return value.to_string();
      std::string text = "{";
      for (size_t i = 0; i < value.children().size(); ++i) {
        if (i > 0) text += ',';
        text += array_element_text(value.children()[i]);
      }
      return text + "}";
    }
    default: return value.to_string();
  }
}

}  // namespace kestrel::server::pg
