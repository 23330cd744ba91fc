#pragma once
/// The mapping of a Parquet schema tree onto Kestrel columns: each top-level field becomes one column, readable
/// when it is a primitive of a type Kestrel holds or a nested field (LIST, MAP, STRUCT, repeated fields) built of
/// such primitives (nested_schema.hpp maps those), unreadable (with the reason) otherwise.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.hpp"
#include "io/parquet/parquet_format.hpp"

namespace kestrel::io::parquet {

/// How a column's physical values become Kestrel values of its logical type.
enum class ValueConversion : uint8_t {
  kIdentity,          ///< same bits: INT32->INTEGER/DATE, INT64->BIGINT/TIMESTAMP/DECIMAL(<=18), FLOAT, DOUBLE
  kBoolean,           ///< BOOLEAN (decoded to one byte 0/1)
  kInt32ToInt8,       ///< INT(8, signed)
  kInt32ToInt16,      ///< INT(16, signed)
  kUint8ToInt16,      ///< INT(8, unsigned) widened to SMALLINT
  kUint16ToInt32,     ///< INT(16, unsigned) widened to INTEGER
  kUint32ToInt64,     ///< INT(32, unsigned) widened to BIGINT
  kInt32ToInt64,      ///< DECIMAL on INT32
  kInt32ToInt128,     ///< DECIMAL on INT32 declared wider than 18 digits
  kInt64ToInt128,     ///< DECIMAL on INT64 declared wider than 18 digits
  kUint64ToInt128,    ///< INT(64, unsigned) -> DECIMAL(20,0)
  kMillisToMicros,    ///< TIMESTAMP(MILLIS)
  kNanosToMicros,     ///< TIMESTAMP(NANOS), rounded down
  kInt96ToMicros,     ///< INT96 timestamps (Julian day + nanoseconds of the day)
  kFloat16ToFloat,    ///< FLOAT16 on FIXED_LEN_BYTE_ARRAY(2)
  kBigEndianToInt64,  ///< DECIMAL(<=18) on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY
  kBigEndianToInt128, ///< DECIMAL(19..38) on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY
  kBinaryToString,    ///< BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY -> VARCHAR or VARBINARY (bytes as they are)
};

/// How min/max statistics of a column are ordered, which decides whether the deprecated min/max fields are usable.
enum class SortOrder : uint8_t { kSigned, kUnsigned, kUnknown };

struct NestedField;

/// One top-level field of a Parquet file as Kestrel sees it, or (inside a NestedField) one leaf of a nested field.
struct ColumnDescriptor {
  std::string name;
  /// False for unsupported fields; `unsupported_reason` says why.
  bool readable = false;
  std::string unsupported_reason;
  /// A group or repeated field (ARRAY, MAP or ROW in Kestrel); `tree` describes it when it is readable.
  bool nested = false;

  /// The rest is set for readable columns.
  LogicalType type;
  bool nullable = true;
  size_t leaf_index = 0;  ///< index of its (first) column chunk in each row group
  size_t leaf_count = 1;  ///< column chunks of the field: leaves [leaf_index, leaf_index + leaf_count)
  /// Flat columns and nested leaves: the physical column.
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;             ///< FIXED_LEN_BYTE_ARRAY width
  int16_t max_definition_level = 0;    ///< flat columns: 0 (required) or 1 (optional); nested leaves: the path's
  int16_t max_repetition_level = 0;    ///< 0 for flat columns
  ValueConversion conversion = ValueConversion::kIdentity;
  SortOrder sort_order = SortOrder::kUnknown;
  /// Nested columns: the shape of the field and its leaves (nested_schema.hpp).
  std::shared_ptr<const NestedField> tree;
};

/// The Kestrel view of a file's schema: the top-level columns and the number of leaf column chunks per row group.
struct SchemaMapping {
  std::vector<ColumnDescriptor> columns;
  size_t num_leaves = 0;
};

/// The Kestrel type of a primitive field, and how its values convert; `ok` false with the reason when Kestrel has
/// no type for it.
struct PrimitiveTyping {
  bool ok = false;
  std::string reason;
  LogicalType type;
  ValueConversion conversion = ValueConversion::kIdentity;
  SortOrder order = SortOrder::kSigned;
};
PrimitiveTyping type_primitive(const SchemaElement& element);

/// Maps the depth-first schema tree of a footer; throws InvalidInput when the tree itself is malformed (child
/// counts that do not add up, a missing root).
SchemaMapping map_schema(const std::vector<SchemaElement>& schema);

/// Bytes of one decoded physical value (0 for BYTE_ARRAY).
size_t physical_width(PhysicalType type, int32_t type_length);

}  // namespace kestrel::io::parquet
