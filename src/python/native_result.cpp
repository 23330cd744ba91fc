#include "python/native_result.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "python/python_values.hpp"
#include "vector/arrow_export.hpp"

namespace nb = nanobind;

namespace kestrel::python {

namespace {

void release_stream_capsule(void* p) noexcept {
  auto* stream = static_cast<ArrowArrayStream*>(p);
  // A consumer that took the stream set its release to null (moved it); otherwise it is still ours.
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

void release_schema_capsule(void* p) noexcept {
  auto* schema = static_cast<ArrowSchema*>(p);
  if (schema->release != nullptr) schema->release(schema);
  delete schema;
}

/// The SQL type name without its parameters: "DECIMAL" for DECIMAL(15,2).
std::string base_type_name(const LogicalType& type) {
  std::string name = type.to_string();
  return name.substr(0, name.find('('));
}

SchemaPtr schema_of(const QueryResult& result) {
  if (!result.schema) return std::make_shared<Schema>();
  return result.schema;
}

}  // namespace

nb::list NativeResult::columns() const {
  nb::list out;
  if (!result_.schema) return out;
  for (const Field& f : result_.schema->fields()) {
    const bool decimal = f.type.id() == TypeId::kDecimal;
    out.append(nb::make_tuple(f.name, f.type.to_string(), base_type_name(f.type),
                              decimal ? nb::object(nb::int_(f.type.precision())) : nb::none(),
                              decimal ? nb::object(nb::int_(f.type.scale())) : nb::none(), f.nullable));
  }
  return out;
}

nb::list NativeResult::rows(size_t begin, size_t end) const {
  if (!result_.schema) return nb::list();
  return rows_to_python(*result_.schema, result_.batches, begin, std::min(end, row_count()));
}

nb::capsule NativeResult::arrow_c_stream(std::optional<nb::object> requested_schema) const {
  (void)requested_schema;
  auto stream = std::make_unique<ArrowArrayStream>();
  arrow::export_stream(schema_of(result_), result_.batches, stream.get());
  return nb::capsule(stream.release(), "arrow_array_stream", release_stream_capsule);
}

nb::capsule NativeResult::arrow_c_schema() const {
  auto schema = std::make_unique<ArrowSchema>();
  arrow::export_schema(*schema_of(result_), schema.get());
  return nb::capsule(schema.release(), "arrow_schema", release_schema_capsule);
}

nb::dict NativeResult::buffer_addresses(size_t batch, size_t column) const {
  if (batch >= result_.batches.size() || column >= result_.batches[batch].num_columns()) {
    throw nb::index_error("no such batch or column");
  }
  const Column& c = *result_.batches[batch].column(column);
  auto address = [](const BufferPtr& b) -> nb::object {
    return b ? nb::object(nb::int_(reinterpret_cast<uintptr_t>(b->data()))) : nb::none();
  };
  nb::dict out;
  out["validity"] = address(c.validity());
  out["values"] = address(c.values());
  out["offsets"] = address(c.offsets());
  out["dictionary"] = c.is_dictionary();
  out["memory"] = gpu::memory_kind_name(c.kind());
  return out;
}

}  // namespace kestrel::python
