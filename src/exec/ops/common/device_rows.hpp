#pragma once
/// Rows of device batches as keys, shared by the GPU join, aggregation and sort: a device-side view of up to
/// kMaxDeviceKeys key columns of any type (fixed width, INTERVAL, VARCHAR plain or dictionary), row hashing,
/// and the whole-batch helpers those operators need (concatenation, dictionary decoding, slicing, sorting row
/// ids). Device functions over DeviceKeys (hash, equality, order) are in device_rows_gpu.cuh.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exec/ops/sort/sort.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// A device buffer of `bytes` in `mr` ordered on `stream`, at least 8 bytes so that an empty column or scratch
/// array still has an address kernels may be handed.
inline BufferPtr device_buffer(size_t bytes, gpu::Stream stream, gpu::MemoryResource& mr) {
  return Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream);
}

/// The validity bitmap kernels should read: null when the column has no NULLs (even if it carries a bitmap).
inline const uint8_t* validity_of(const Column& c) {
  return c.validity() && c.null_count() > 0 ? c.validity()->as<uint8_t>() : nullptr;
}

inline constexpr int kMaxDeviceKeys = 32;

/// How a key column's values are stored and compared.
enum class DeviceKeyKind : uint8_t {
  kInt8,        ///< BOOLEAN, TINYINT
  kInt16,       ///< SMALLINT
  kInt32,       ///< INTEGER, DATE
  kInt64,       ///< BIGINT, TIMESTAMP, DECIMAL up to 18 digits
  kInt128,      ///< DECIMAL of 19 to 38 digits
  kFloat,       ///< REAL (-0.0 equals 0.0, NaN equals NaN and sorts last)
  kDouble,      ///< DOUBLE (same rules)
  kInterval,    ///< INTERVAL (months, days, micros), compared field by field
  kString,      ///< plain VARCHAR: offsets + chars, compared bytewise
  kDictString,  ///< dictionary VARCHAR: int32 indices into a plain dictionary (offsets + chars)
};

/// One key column of a device batch (device pointers; `validity` null when the column has no NULLs).
struct DeviceKeyColumn {
  DeviceKeyKind kind = DeviceKeyKind::kInt64;
  const void* values = nullptr;   ///< fixed-width values, string chars (kString) or dictionary chars
  const uint8_t* validity = nullptr;
  const int64_t* offsets = nullptr;  ///< string offsets (kString: the column's; kDictString: the dictionary's)
  const int32_t* indices = nullptr;  ///< kDictString: the column's dictionary indices
};

/// Key columns of one device batch, passed to kernels by value.
struct DeviceKeys {
  DeviceKeyColumn columns[kMaxDeviceKeys];
  int count = 0;
};

/// Per-key ORDER BY directions, passed to kernels by value.
struct DeviceSortOrder {
  bool descending[kMaxDeviceKeys] = {};
  bool nulls_first[kMaxDeviceKeys] = {};
};

/// Whether `type` can be a device key (every type but the NULL type).
bool device_key_supported(const LogicalType& type);

/// The device view of the columns `columns` of the device batch `batch`. Throws NotImplemented for more than
/// kMaxDeviceKeys columns or an unsupported type. The view borrows the batch's buffers: keep the batch alive.
DeviceKeys device_keys(const Batch& batch, const std::vector<size_t>& columns);

/// hashes[i] = a 64-bit hash of row i's keys (equal keys, including equal strings in different dictionaries or
/// one plain and one dictionary column, hash equally; NULL hashes as a fixed value). When `any_null` is not null,
/// any_null[i] = 1 where some key of row i is NULL, else 0. Queued on `stream`.
void hash_device_rows(const DeviceKeys& keys, size_t rows, uint64_t* hashes, uint8_t* any_null, gpu::Stream stream);

/// A plain VARCHAR device column with the values of the dictionary column `column` (NULL rows stay NULL and
/// empty). A plain column is returned as is.
ColumnPtr decode_dictionary_gpu(const ColumnPtr& column, gpu::Stream stream, gpu::MemoryResource& mr);

/// The rows of the device batches `batches` (all of `schema`, on any streams already synchronized with `stream`)
/// one after the other in one device batch. Dictionary columns are decoded unless every batch shares one
/// dictionary. Zero batches give an empty batch. Synchronizes `stream` once (NULL counts).
Batch concat_batches_gpu(const std::vector<Batch>& batches, const SchemaPtr& schema, gpu::Stream stream,
                         gpu::MemoryResource& mr);

/// Rows [first, first + count) of the device batch `batch`, copied into new buffers (dictionary columns keep
/// their dictionary). Synchronizes `stream` once when a column has NULLs or strings.
Batch slice_batch_gpu(const Batch& batch, size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr);

/// Writes into `perm` (device, `rows` entries) the row ids 0..rows-1 stably sorted by `keys` under `order`
/// (NULLs placed per key by nulls_first; strings bytewise; stable: equal keys keep ascending row id). Scratch
/// from `mr`, queued on `stream`.
void sort_rows_gpu(const DeviceKeys& keys, const DeviceSortOrder& order, size_t rows, uint32_t* perm,
                   gpu::Stream stream, gpu::MemoryResource& mr);

/// The DeviceSortOrder of sort keys (their columns are passed to device_keys in key order).
DeviceSortOrder device_sort_order(const std::vector<SortKeySpec>& keys);

}  // namespace kestrel::exec
