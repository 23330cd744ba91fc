#pragma once
/// Host batches out through the Arrow C Data Interface and C Stream Interface (vector/arrow_c_abi.hpp), for the
/// Python module and any other consumer of Arrow. Kestrel's layout is Arrow's, so most columns leave without a copy:
/// the exported arrays point at the columns' own buffers and keep the columns alive until the consumer releases
/// them.
///
/// Types as Arrow sees them:
///   BOOLEAN b (copied: a byte per value in Kestrel, a bit in Arrow)   TINYINT c   SMALLINT s   INTEGER i
///   BIGINT l   REAL f   DOUBLE g   DECIMAL(p,s) d:p,s,64 up to 18 digits (Arrow's decimal64), d:p,s above
///   DATE tdD   TIMESTAMP tsu: (no time zone)   INTERVAL tin (copied: Arrow counts nanoseconds, Kestrel micro-)
///   VARCHAR U (large_utf8: int64 offsets; a dictionary-encoded column is decoded, copied)   untyped NULL n

#include <string>
#include <vector>

#include "vector/arrow_c_abi.hpp"
#include "vector/batch.hpp"

namespace kestrel::arrow {

/// The Arrow format string of `type` as the export writes it ("l", "d:15,2,64", "U", ...).
std::string export_format(const LogicalType& type);

/// Whether a plain column of `type` is exported without copying its buffers.
bool exported_without_copy(const LogicalType& type);

/// Fills `out` with `schema` as an Arrow struct schema, one child per field. The caller owns `out` and releases it.
void export_schema(const Schema& schema, ArrowSchema* out);

/// Fills `out` with `batch` (host memory) as an Arrow struct array, one child per column. Throws InvalidInput for a
/// value Arrow cannot hold (an INTERVAL whose microseconds overflow Arrow's nanoseconds).
void export_batch(const Batch& batch, ArrowArray* out);

/// Makes `out` a stream over `batches` (host memory, each of `schema`); the stream holds them until released.
void export_stream(SchemaPtr schema, std::vector<Batch> batches, ArrowArrayStream* out);

}  // namespace kestrel::arrow
