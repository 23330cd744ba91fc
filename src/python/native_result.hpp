#pragma once
/// The result of one statement as the Python module holds it (kestrel.Result wraps it): the engine's host batches,
/// handed to Python as tuples of values or through the Arrow PyCapsule interface without copying their buffers.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "main/database.hpp"

namespace kestrel::python {

/// One statement's QueryResult, owned; immutable, so Arrow arrays exported from it may outlive it (they hold the
/// columns they point at). Its batches may be in device memory (a GPU query run with device rows): `keep_alive`
/// then holds the database whose device pool they came from, and the row and Arrow views copy them to the host once.
class NativeResult {
 public:
  explicit NativeResult(QueryResult result, std::shared_ptr<void> keep_alive = nullptr,
                        gpu::MemoryResource* device_mr = nullptr)
      : keep_alive_(std::move(keep_alive)), result_(std::move(result)), device_mr_(device_mr) {}

  /// Whether the statement returned rows (a query) rather than only a status message.
  bool has_rows() const { return result_.has_rows(); }
  /// "CREATE TABLE", "INSERT 0 3", ... (empty for queries).
  const std::string& message() const { return result_.message; }
  double elapsed_ms() const { return result_.elapsed_ms; }
  size_t row_count() const { return result_.row_count(); }
  size_t batch_count() const { return result_.batches.size(); }
  /// "device" when the rows are in GPU memory, else "host".
  std::string memory() const;

  /// (name, SQL type, type name without parameters, precision, scale, nullable) of each column.
  nanobind::list columns() const;
  /// Rows [begin, end) (clamped to the result) as a list of tuples.
  nanobind::list rows(size_t begin, size_t end) const;

  /// The Arrow PyCapsule interface: a capsule "arrow_array_stream" over the result's batches, and one
  /// "arrow_schema" with its schema. A requested schema is not honoured (the protocol lets a producer ignore it).
  nanobind::capsule arrow_c_stream(std::optional<nanobind::object> requested_schema) const;
  nanobind::capsule arrow_c_schema() const;

  /// Addresses of the buffers of column `column` of batch `batch` (tests check that Arrow exports share them):
  /// a dict of validity, values, offsets (None where absent), dictionary (bool) and memory ("host", ...).
  nanobind::dict buffer_addresses(size_t batch, size_t column) const;

  /// Column `column` as one array for DLPack (`__dlpack__`, `__dlpack_device__`): host memory (kDLCPU) or device
  /// memory (kDLCUDA), without a copy when the result is one batch, else concatenated once in the same memory.
  /// Numbers, BOOLEAN, DATE (int32 days) and TIMESTAMP (int64 microseconds) without NULLs; anything else raises
  /// TypeError (DLPack has neither validity nor these types). Returns (array, data address, rows, typestr), the
  /// last three for __cuda_array_interface__ and __array_interface__.
  nanobind::tuple column_array(size_t column) const;

 private:
  /// The batches in host memory (the result's own, or copies of device batches made on first use).
  const std::vector<Batch>& host_batches() const;

  std::shared_ptr<void> keep_alive_;  // first: destroyed after the batches, whose memory it keeps
  QueryResult result_;
  gpu::MemoryResource* device_mr_;  ///< the device pool of keep_alive_'s database (device results)
  mutable std::mutex host_mutex_;
  mutable std::optional<std::vector<Batch>> host_copies_;
};

}  // namespace kestrel::python
