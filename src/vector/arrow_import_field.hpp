#pragma once
/// How one Arrow column is read into a Kestrel column (vector/arrow_import.hpp): its storage as Arrow lays it out and
/// the Kestrel type it becomes. Internal to the Arrow import.

#include <memory>
#include <string>

#include "common/types.hpp"
#include "vector/arrow_c_abi.hpp"

namespace kestrel::arrow {

/// Arrow storage layouts the import reads.
enum class ArrowStorage : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kDecimal32,
  kDecimal64,
  kDecimal128,
  kDecimal256,
  kDate32,
  kDate64,           ///< milliseconds
  kTimestamp,        ///< int64 in `unit`
  kDuration,         ///< int64 in `unit`
  kIntervalMonths,   ///< int32 months
  kIntervalDayTime,  ///< int32 days, int32 milliseconds
  kIntervalMonthDayNano,
  kUtf8,       ///< int32 offsets + bytes
  kLargeUtf8,  ///< int64 offsets + bytes
  kUtf8View,   ///< 16-byte views + variadic data buffers
};

/// Time units of timestamps and durations.
enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

/// One Arrow column as the import reads it.
struct ArrowColumnSource {
  std::string name;
  /// For a dictionary-encoded column: the storage of the indices; otherwise of the values.
  ArrowStorage storage = ArrowStorage::kNull;
  TimeUnit unit = TimeUnit::kMicro;
  /// The Kestrel type of the column.
  LogicalType type;
  bool nullable = true;
  /// The values of a dictionary-encoded column (null otherwise).
  std::unique_ptr<ArrowColumnSource> dictionary;
  /// The values are stored exactly as Kestrel stores `type`: they are copied with memcpy.
  bool same_layout = false;
};

/// How the column described by `schema` (a child of a stream's struct schema, the `index`-th) is read. Throws
/// NotImplemented, naming the column and the Arrow type, for a type Kestrel cannot hold.
ArrowColumnSource describe_arrow_column(const ArrowSchema& schema, size_t index);

/// The fewest buffers an array of `storage` has, its validity bitmap included: 0 for the null type, 2 for fixed-width
/// values, 3 for strings (a string view array has its data buffers and their sizes besides).
int64_t arrow_fixed_buffer_count(ArrowStorage storage);

}  // namespace kestrel::arrow
