#pragma once
/// Arrow data into Kestrel host batches through the C Stream Interface (vector/arrow_c_abi.hpp): how a pyarrow table,
/// a polars or pandas frame or any other Arrow stream becomes an in-memory table. The values are copied into
/// Kestrel's own buffers, regrouped into batches of a chosen size, so the source may change or go away afterwards.
///
/// Arrow types and the Kestrel types they become:
///   bool -> BOOLEAN   int8/16/32/64 -> TINYINT/SMALLINT/INTEGER/BIGINT   uint8/16/32 -> SMALLINT/INTEGER/BIGINT
///   uint64 -> DECIMAL(20,0)   float16/float32 -> REAL   float64 -> DOUBLE
///   decimal32/64/128/256(p,s) -> DECIMAL(p,s) (p up to 38)   date32/date64 -> DATE
///   timestamp(any unit, any time zone) -> TIMESTAMP in microseconds (a zoned timestamp's UTC time)
///   duration, interval(months), interval(day_time), interval(month_day_nano) -> INTERVAL (nanoseconds truncated)
///   utf8, large_utf8, utf8_view -> VARCHAR   dictionary(any index, any of these) -> the value type, decoded
///   null -> INTEGER, every row NULL
/// Other types (binary, time of day, lists, structs, maps, unions, ...) are refused with NotImplemented naming the
/// column.

#include <vector>

#include "vector/arrow_c_abi.hpp"
#include "vector/batch.hpp"

namespace kestrel::arrow {

/// The schema and host batches read from an Arrow stream.
struct ImportedBatches {
  SchemaPtr schema;
  std::vector<Batch> batches;
};

/// The Kestrel schema of an Arrow struct schema (the schema of a stream or a record batch). Throws NotImplemented
/// naming the first column whose type Kestrel has no counterpart for.
SchemaPtr import_schema(const ArrowSchema& schema);

/// Reads `stream` to its end, then releases it (also on error). Rows are regrouped into batches of `batch_rows`
/// rows (the last may be shorter); a stream without rows gives no batches. Throws InvalidInput for a stream that
/// reports an error or arrays that do not match their schema.
ImportedBatches import_stream(ArrowArrayStream* stream, size_t batch_rows);

}  // namespace kestrel::arrow
