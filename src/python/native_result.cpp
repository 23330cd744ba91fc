#include "python/native_result.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "gpu/copy.hpp"
#include "gpu/stream_pool.hpp"
#include "main/database_state.hpp"
#include "python/python_values.hpp"
#include "vector/arrow_export.hpp"
#include "vector/buffer.hpp"
#include "vector/transfer.hpp"

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
  return rows_to_python(*result_.schema, host_batches(), begin, std::min(end, row_count()));
}

std::string NativeResult::memory() const {
  for (const Batch& b : result_.batches) {
    if (b.residency() == gpu::MemoryKind::kDevice) return "device";
  }
  return "host";
}

const std::vector<Batch>& NativeResult::host_batches() const {
  if (memory() == "host") return result_.batches;
  // The GIL goes before the lock is taken: a thread holding the GIL must never wait for a thread that waits for it.
  nb::gil_scoped_release release;
  std::lock_guard lock(host_mutex_);
  if (!host_copies_) {
    std::vector<Batch> copies;
    const gpu::Stream stream = gpu::driver_stream();
    for (const Batch& b : result_.batches) {
      copies.push_back(b.residency() == gpu::MemoryKind::kDevice
                           ? copy_batch(b, gpu::host_memory_resource(), stream)
                           : b);
    }
    host_copies_ = std::move(copies);
  }
  return *host_copies_;
}

namespace {

/// What an exported array keeps alive: the column (or the concatenated buffer) and the result's database.
struct ArrayOwner {
  std::shared_ptr<void> keep_alive;  // first: destroyed after the column and buffer, whose memory it keeps
  ColumnPtr column;
  BufferPtr buffer;
};

/// The DLPack type of a column type; nullopt for a type DLPack cannot carry as it is.
std::optional<nb::dlpack::dtype> dlpack_type(const LogicalType& type) {
  using nb::dlpack::dtype_code;
  auto make = [](dtype_code code, size_t bytes) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code), static_cast<uint8_t>(bytes * 8), 1};
  };
  switch (type.id()) {
    case TypeId::kBoolean: return make(dtype_code::Bool, 1);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp: return make(dtype_code::Int, type.physical_width());
    case TypeId::kReal:
    case TypeId::kDouble: return make(dtype_code::Float, type.physical_width());
    default: return std::nullopt;
  }
}

}  // namespace

nb::tuple NativeResult::column_array(size_t column) const {
  if (!result_.schema || column >= result_.schema->size()) throw nb::index_error("no such column");
  const Field& field = result_.schema->field(column);
  const auto dtype = dlpack_type(field.type);
  if (!dtype) {
    throw nb::type_error(("column '" + field.name + "' is " + field.type.to_string() +
                          ", which DLPack cannot carry; cast it in SQL (DECIMAL to DOUBLE, say) or use .arrow()")
                             .c_str());
  }
  const bool device = memory() == "device";
  const std::vector<Batch>& batches = device ? result_.batches : host_batches();
  size_t rows = 0;
  for (const Batch& b : batches) {
    const Column& c = *b.column(column);
    if (c.null_count() > 0) {
      throw nb::type_error(("column '" + field.name + "' has NULLs, which DLPack cannot carry; replace them in SQL "
                            "(coalesce) or use .arrow()").c_str());
    }
    if (c.is_dictionary()) throw nb::type_error(("column '" + field.name + "' is dictionary-encoded").c_str());
    if (device && c.kind() != gpu::MemoryKind::kDevice) {
      throw nb::type_error(("column '" + field.name + "' has rows both on the GPU and on the host; run the query "
                            "without device rows").c_str());
    }
    rows += c.length();
  }
  const size_t width = field.type.physical_width();
  auto owner = std::make_unique<ArrayOwner>();
  owner->keep_alive = keep_alive_;
  const void* data = nullptr;
  if (batches.size() == 1) {
    owner->column = batches[0].column(column);
    data = owner->column->values() ? owner->column->values()->data() : nullptr;
  } else if (rows > 0) {
    // One array over several batches: their values concatenated once, in the memory they are in.
    nb::gil_scoped_release release;
    const gpu::MemoryKind kind = device ? gpu::MemoryKind::kDevice : gpu::MemoryKind::kHost;
    gpu::MemoryResource* mr = device ? device_mr_ : &gpu::host_memory_resource();
    if (mr == nullptr) throw InternalError("a device result without its device memory resource");
    const gpu::Stream stream = device ? gpu::driver_stream() : gpu::Stream::host();
    owner->buffer = Buffer::allocate(rows * width, *mr, stream);
    size_t offset = 0;
    for (const Batch& b : batches) {
      const Column& c = *b.column(column);
      const size_t bytes = c.length() * width;
      if (bytes > 0) {
        gpu::copy_bytes(owner->buffer->as<uint8_t>() + offset, kind, c.values()->data(), kind, bytes, stream);
      }
      offset += bytes;
    }
    stream.synchronize();
    data = owner->buffer->data();
  }
  const int device_type = device ? nb::device::cuda::value : nb::device::cpu::value;
  const size_t shape[1] = {rows};
  nb::capsule holder(owner.release(), [](void* p) noexcept { delete static_cast<ArrayOwner*>(p); });
  nb::ndarray<nb::ro, nb::array_api> array(data, 1, shape, holder, nullptr, *dtype, device_type, 0);
  // The array interfaces' type string: '|b1', '<i4', '<f8', ...
  const char kind = dtype->code == static_cast<uint8_t>(nb::dlpack::dtype_code::Bool)    ? 'b'
                    : dtype->code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float) ? 'f'
                                                                                         : 'i';
  const std::string typestr = std::string(width == 1 ? "|" : "<") + kind + std::to_string(width);
  return nb::make_tuple(nb::cast(array), reinterpret_cast<uintptr_t>(data), rows, typestr);
}

nb::capsule NativeResult::arrow_c_stream(std::optional<nb::object> requested_schema) const {
  (void)requested_schema;
  auto stream = std::make_unique<ArrowArrayStream>();
  arrow::export_stream(schema_of(result_), host_batches(), stream.get());
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
