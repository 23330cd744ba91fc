#pragma once
/// Logical types of Kestrel and their physical layout in a column (the same on the host and the device).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel {

/// 128-bit signed integer, the storage of DECIMAL with more than 18 digits.
using int128_t = __int128;

/// The logical type ids. The physical layout of each is given by `physical_width`.
enum class TypeId : uint8_t {
  kNull,       ///< the type of an untyped NULL literal; never stored in a column of a table
  kBoolean,    ///< 1 byte per value, 0 or 1 (byte-wide so kernels can address single values)
  kTinyInt,    ///< int8
  kSmallInt,   ///< int16
  kInteger,    ///< int32
  kBigInt,     ///< int64
  kReal,       ///< float
  kDouble,     ///< double
  kDecimal,    ///< int64 unscaled value up to 18 digits, int128 from 19 to 38
  kDate,       ///< int32 days since 1970-01-01
  kTimestamp,  ///< int64 microseconds since 1970-01-01 00:00:00 (no time zone)
  kInterval,   ///< Interval: months, days, microseconds (16 bytes)
  kVarchar,    ///< int64 offsets (n + 1) and UTF-8 bytes
  kVarbinary,  ///< int64 offsets (n + 1) and bytes (any bytes, not UTF-8); compared bytewise unsigned
  kJson,       ///< int64 offsets (n + 1) and canonical JSON text in UTF-8; equal values have equal bytes
  kTimestampTz,  ///< TimestampTz: UTC microseconds and a time zone key (16 bytes)
  kArray,      ///< ARRAY(T): int64 offsets (n + 1) into one child column of T (Arrow's large list)
  kMap,        ///< MAP(K, V): int64 offsets (n + 1) into one child ROW(key K, value V) column (Arrow's map)
  kRow,        ///< ROW(name T, ...): one child column per field, no values buffer (Arrow's struct)
};

class LogicalType;

/// A field of a ROW type: its name (empty for the anonymous fields of `ROW(1, 'a')`) and type.
struct RowField;

/// A span of time with the three independent parts SQL intervals need; 16 bytes, like Arrow's month-day-nano.
struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;

  friend bool operator==(const Interval&, const Interval&) = default;
};
static_assert(sizeof(Interval) == 16);

/// TIMESTAMP WITH TIME ZONE: an instant and the zone it is shown in; each value keeps its own zone.
///
/// Why 16 bytes and not one packed int64: a zone key needs about 12 bits, and an int64 of microseconds that gives
/// up 12 bits spans only +-71 years around 1970; packing milliseconds instead would lose the microseconds a
/// TIMESTAMP has. So the instant keeps a whole int64 (the same microseconds as TIMESTAMP, read in UTC) and the zone
/// key its own field. Equality, hashing and ordering (GROUP BY, joins, ORDER BY, DISTINCT) look at `micros` only:
/// the same instant in two zones is one value for them. `operator==` here compares both fields (value identity,
/// for tests and constant folding), not SQL equality.
struct TimestampTz {
  int64_t micros = 0;    ///< microseconds since 1970-01-01 00:00:00 UTC
  int32_t zone = 0;      ///< the zone key of common/time_zone.hpp (0 = UTC, a fixed offset or a named zone)
  int32_t reserved = 0;  ///< always 0, so equal values have equal bytes

  friend bool operator==(const TimestampTz&, const TimestampTz&) = default;
};
static_assert(sizeof(TimestampTz) == 16);

/// The largest decimal precision Kestrel supports, and the largest that fits in int64.
inline constexpr int kMaxDecimalPrecision = 38;
inline constexpr int kMaxInt64DecimalPrecision = 18;

/// A logical type: an id plus precision and scale for DECIMAL, and the child types of ARRAY, MAP and ROW (shared,
/// immutable; flat types carry none, so copying them copies no reference count).
class LogicalType {
 public:
  LogicalType() = default;
  LogicalType(TypeId id) : id_(id) {}  // NOLINT: implicit on purpose, types read like ids

  /// DECIMAL(precision, scale); throws InvalidInput when out of range.
  static LogicalType decimal(int precision, int scale);
  /// ARRAY(element).
  static LogicalType array(LogicalType element);
  /// MAP(key, value); its child column is ROW(key K, value V).
  static LogicalType map(LogicalType key, LogicalType value);
  /// ROW(fields...); throws InvalidInput for no fields or two fields of one (non-empty) name.
  static LogicalType row(std::vector<RowField> fields);

  constexpr TypeId id() const { return id_; }
  constexpr int precision() const { return precision_; }
  constexpr int scale() const { return scale_; }

  /// Bytes per value in the values buffer (VARCHAR, VARBINARY and JSON: 0, their layout is offsets + bytes; nested
  /// types: 0, their values live in child columns).
  size_t physical_width() const;
  bool is_integral() const;
  bool is_numeric() const;
  bool is_fixed_width() const { return !is_variable_width() && !is_nested() && id_ != TypeId::kNull; }
  /// ARRAY, MAP and ROW: values in child columns. CPU only for now; GPU placement refuses them.
  constexpr bool is_nested() const { return id_ == TypeId::kArray || id_ == TypeId::kMap || id_ == TypeId::kRow; }
  /// Whether this type or one of its children is `id`.
  bool contains(TypeId id) const;

  /// ARRAY: the element type. MAP: ROW(key K, value V), the type of its child column.
  const LogicalType& element_type() const;
  /// MAP: the key and value types.
  const LogicalType& key_type() const;
  const LogicalType& value_type() const;
  /// ROW: the fields; MAP: the two fields of its entry row; empty for other types.
  const std::vector<RowField>& fields() const;
  /// The child column types of the layout: ARRAY and MAP one (element_type()), ROW one per field, none otherwise.
  size_t child_count() const;
  const LogicalType& child(size_t i) const;
  /// ROW: the index of field `name` (ASCII case-insensitive), or -1.
  int field_index(std::string_view name) const;
  /// VARCHAR, VARBINARY and JSON: offsets + bytes. Code that moves, compares or hashes values by their bytes treats
  /// them alike (JSON holds canonical text, so equal documents have equal bytes); code that reads the bytes as text
  /// must check for VARCHAR.
  constexpr bool is_variable_width() const {
    return id_ == TypeId::kVarchar || id_ == TypeId::kVarbinary || id_ == TypeId::kJson;
  }
  /// DECIMAL stored as int128 (precision above 18).
  bool is_wide_decimal() const { return id_ == TypeId::kDecimal && precision_ > kMaxInt64DecimalPrecision; }

  /// SQL spelling: `DECIMAL(15,2)`, `VARCHAR`, `BIGINT`, `ARRAY(INTEGER)`, `MAP(VARCHAR, BIGINT)`,
  /// `ROW(a INTEGER, b VARCHAR)`.
  std::string to_string() const;

  /// Equal ids, decimal parameters and children (ROW field names included).
  friend bool operator==(const LogicalType& a, const LogicalType& b);

 private:
  struct Children;
  std::string nested_to_string() const;

  TypeId id_ = TypeId::kNull;
  uint8_t precision_ = 0;
  uint8_t scale_ = 0;
  std::shared_ptr<const Children> children_;  ///< nested types only
};

struct RowField {
  std::string name;
  LogicalType type;
  friend bool operator==(const RowField&, const RowField&) = default;
};

/// Every storable type once, DECIMAL in both widths; tests iterate over it. VARBINARY and JSON are left out: they run
/// on the CPU only, and the GPU differential tests iterate over these types too.
const LogicalType* all_storable_types(size_t* count);

}  // namespace kestrel
