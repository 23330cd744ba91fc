#pragma once
/// Kestrel's logical types as PostgreSQL sees them: type OIDs, sizes and modifiers for RowDescription, and the
/// PostgreSQL text format of values for DataRow.

#include <cstdint>
#include <string>

#include "common/value.hpp"

namespace kestrel::server::pg {

/// PostgreSQL type OIDs used by the server.
enum class TypeOid : int32_t {
  kUnspecified = 0,
  kBool = 16,
  kBytea = 17,
  kChar = 18,
  kName = 19,
  kInt8 = 20,
  kInt2 = 21,
  kInt4 = 23,
  kText = 25,
  kOid = 26,
  kJson = 114,
  kFloat4 = 700,
  kFloat8 = 701,
  kUnknown = 705,
  kBpchar = 1042,
  kVarchar = 1043,
  kDate = 1082,
  kTimestamp = 1114,
  kTimestampTz = 1184,
  kInterval = 1186,
  kNumeric = 1700,
};

/// The column description PostgreSQL clients expect for a Kestrel type.
struct PgColumnType {
  TypeOid oid = TypeOid::kText;
  int16_t size = -1;      ///< typlen: bytes of a fixed-size type, -1 for variable length
  int32_t modifier = -1;  ///< atttypmod: ((precision << 16) | scale) + 4 for numeric, -1 otherwise
};

PgColumnType pg_column_type(const LogicalType& type);

/// A non-NULL value in PostgreSQL's text output format (booleans t/f, ISO dates, shortest round-trip floats).
std::string pg_text(const Value& value, int32_t session_zone = 0);

}  // namespace kestrel::server::pg
