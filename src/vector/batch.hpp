#pragma once
/// A batch: schema + columns + row count + where it lives (+ the CUDA stream that orders a device batch).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vector/column.hpp"

namespace kestrel {

/// A named, typed column slot of a schema.
struct Field {
  std::string name;
  LogicalType type;
  bool nullable = true;
};

/// The ordered fields of a batch or a table.
class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields) : fields_(std::move(fields)) {}

  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(size_t i) const { return fields_[i]; }
  size_t size() const { return fields_.size(); }
  /// Index of the field named `name` (case-insensitive), or nullopt.
  std::optional<size_t> index_of(const std::string& name) const;
  std::string to_string() const;

 private:
  std::vector<Field> fields_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

/// Rows of several columns, all in the same memory (host or device). A device batch carries the stream its
/// buffers were produced on; consumers on another stream wait on an event first.
class Batch {
 public:
  Batch() = default;
  Batch(SchemaPtr schema, std::vector<ColumnPtr> columns, size_t rows, gpu::MemoryKind residency,
        gpu::Stream stream = gpu::Stream::host());

  const SchemaPtr& schema() const { return schema_; }
  const std::vector<ColumnPtr>& columns() const { return columns_; }
  const ColumnPtr& column(size_t i) const { return columns_[i]; }
  size_t num_columns() const { return columns_.size(); }
  size_t num_rows() const { return rows_; }
  gpu::MemoryKind residency() const { return residency_; }
  bool on_device() const { return residency_ == gpu::MemoryKind::kDevice; }
  gpu::Stream stream() const { return stream_; }

 private:
  SchemaPtr schema_;
  std::vector<ColumnPtr> columns_;
  size_t rows_ = 0;
  gpu::MemoryKind residency_ = gpu::MemoryKind::kHost;
  gpu::Stream stream_;
};

}  // namespace kestrel
