#pragma once
/// The result of one statement as the Python module holds it (kestrel.Result wraps it): the engine's host batches,
/// handed to Python as tuples of values or through the Arrow PyCapsule interface without copying their buffers.

#include <nanobind/nanobind.h>

#include <memory>
#include <optional>
#include <string>

#include "main/database.hpp"

namespace kestrel::python {

/// One statement's QueryResult, owned; immutable, so Arrow arrays exported from it may outlive it (they hold the
/// columns they point at).
class NativeResult {
 public:
  explicit NativeResult(QueryResult result) : result_(std::move(result)) {}

  /// Whether the statement returned rows (a query) rather than only a status message.
  bool has_rows() const { return result_.has_rows(); }
  /// "CREATE TABLE", "INSERT 0 3", ... (empty for queries).
  const std::string& message() const { return result_.message; }
  double elapsed_ms() const { return result_.elapsed_ms; }
  size_t row_count() const { return result_.row_count(); }
  size_t batch_count() const { return result_.batches.size(); }

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

 private:
  QueryResult result_;
};

}  // namespace kestrel::python
