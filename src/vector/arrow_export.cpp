#include "vector/arrow_export.hpp"

#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "vector/gather.hpp"

namespace kestrel::arrow {

namespace {

/// Where a buffer of no bytes points: Arrow consumers may read an offsets buffer's first entry or expect a non-null
/// pointer even for empty arrays.
alignas(64) const int64_t kEmptyBuffer[8] = {};

const void* or_empty(const void* p) { return p != nullptr ? p : kEmptyBuffer; }

// ---------------------------------------------------------------------------------------------------------------
// Schemas

struct SchemaData {
  std::string format;
  std::string name;
  std::vector<ArrowSchema*> children;
};

void release_schema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* data = static_cast<SchemaData*>(schema->private_data);
  for (ArrowSchema* child : data->children) {
    // A consumer may have moved a child out (its release is then null); it owns that one now.
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  delete data;
  schema->release = nullptr;
}

void fill_schema(ArrowSchema* out, std::string format, std::string name, bool nullable,
                 std::vector<ArrowSchema*> children) {
  auto* data = new SchemaData{std::move(format), std::move(name), std::move(children)};
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->metadata = nullptr;
  out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = static_cast<int64_t>(data->children.size());
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->dictionary = nullptr;
  out->release = release_schema;
  out->private_data = data;
}

// ---------------------------------------------------------------------------------------------------------------
// Arrays

/// What an exported array holds: the columns whose buffers it points at (shared, not copied), the buffers made for
/// it (converted values), the buffer pointers and the children.
struct ArrayData {
  std::vector<ColumnPtr> columns;
  std::vector<BufferPtr> made;
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
};

void release_array(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* data = static_cast<ArrayData*>(array->private_data);
  for (ArrowArray* child : data->children) {
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  delete data;
  array->release = nullptr;
}

void fill_array(ArrowArray* out, ArrayData* data, int64_t length, int64_t null_count) {
  out->length = length;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(data->buffers.size());
  out->buffers = data->buffers.empty() ? nullptr : data->buffers.data();
  out->n_children = static_cast<int64_t>(data->children.size());
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->dictionary = nullptr;
  out->release = release_array;
  out->private_data = data;
}

BufferPtr host_buffer(size_t bytes) {
  return Buffer::allocate(bytes, gpu::host_memory_resource(), gpu::Stream::host());
}

/// A plain VARCHAR column with the values of a dictionary-encoded one (NULL rows stay NULL).
ColumnPtr decode_dictionary(const Column& column) {
  const int32_t* codes = column.data<int32_t>();
  RowIndices indices(column.length());
  for (size_t i = 0; i < column.length(); ++i) {
    indices[i] = column.is_valid(i) ? static_cast<uint32_t>(codes[i]) : kNullRow;
  }
  return gather_column(*column.dictionary(), indices);
}

/// BOOLEAN values as Arrow's bits (Kestrel keeps a byte per value).
BufferPtr boolean_bits(const Column& column) {
  auto bits_out = host_buffer(bits::bytes_for(column.length()));
  auto* out = bits_out->as<uint8_t>();
  std::memset(out, 0, bits_out->size());
  const uint8_t* in = column.data<uint8_t>();
  for (size_t i = 0; i < column.length(); ++i) {
    if (in[i] != 0) bits::set(out, i);
  }
  return bits_out;
}

/// INTERVAL values as Arrow's month-day-nanosecond intervals.
BufferPtr month_day_nano(const Column& column) {
  auto buffer = host_buffer(column.length() * sizeof(Interval));
  auto* out = buffer->as<Interval>();
  const Interval* in = column.data<Interval>();
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 1000;
  for (size_t i = 0; i < column.length(); ++i) {
    out[i] = in[i];
    if (!column.is_valid(i)) continue;
    if (in[i].micros > kLimit || in[i].micros < -kLimit) {
      throw InvalidInput("INTERVAL value with " + std::to_string(in[i].micros) +
                         " microseconds does not fit Arrow's 64-bit nanoseconds");
    }
    out[i].micros = in[i].micros * 1000;
  }
  return buffer;
}

/// The UTC microseconds of a TIMESTAMP WITH TIME ZONE column (Arrow's timestamp[us, UTC]).
BufferPtr instants(const Column& column) {
  auto buffer = host_buffer(column.length() * sizeof(int64_t));
  auto* out = buffer->as<int64_t>();
  const TimestampTz* in = column.data<TimestampTz>();
  for (size_t i = 0; i < column.length(); ++i) out[i] = in[i].micros;
  return buffer;
}

void export_column(const Field& field, ColumnPtr column, ArrowArray* out);

/// The fields of a nested type's children as Arrow names them: `item` of a list, `entries` of a map (a struct of
/// `key`, never NULL, and `value`), a struct's field names (`f<i>` for an anonymous field).
std::vector<Field> child_fields(const LogicalType& type) {
  std::vector<Field> out;
  if (type.id() == TypeId::kArray) {
    out.push_back(Field{"item", type.element_type(), true});
  } else if (type.id() == TypeId::kMap) {
    out.push_back(Field{"entries", type.element_type(), false});
  } else if (type.id() == TypeId::kRow) {
    for (size_t i = 0; i < type.fields().size(); ++i) {
      const RowField& f = type.fields()[i];
      out.push_back(Field{f.name.empty() ? "f" + std::to_string(i) : f.name, f.type, true});
    }
  }
  return out;
}

/// ARRAY (large list: int64 offsets), MAP (int32 offsets, as Arrow's map has) and ROW (struct) columns.
void export_nested(const Field& field, const ColumnPtr& column, ArrayData* data) {
  const LogicalType& type = field.type;
  if (type.id() == TypeId::kMap) {
    const int64_t* in = column->list_offsets();
    if (in[column->length()] > std::numeric_limits<int32_t>::max()) {
      throw InvalidInput("a MAP column with more than 2^31 entries does not fit Arrow's map offsets");
    }
    auto offsets = host_buffer((column->length() + 1) * sizeof(int32_t));
    for (size_t i = 0; i <= column->length(); ++i) offsets->as<int32_t>()[i] = static_cast<int32_t>(in[i]);
    data->made.push_back(offsets);
    data->buffers.push_back(offsets->data());
  } else if (type.id() == TypeId::kArray) {
    data->buffers.push_back(column->offsets()->data());
  }
  const std::vector<Field> fields = child_fields(type);
  for (size_t i = 0; i < fields.size(); ++i) {
    auto* child = new ArrowArray();
    child->release = nullptr;
    data->children.push_back(child);
    export_column(fields[i], column->child(i), child);
  }
}

void export_column(const Field& field, ColumnPtr column, ArrowArray* out) {
  KESTREL_CHECK_MSG(!column->on_device(), "Arrow export of a device column");
  auto data = std::make_unique<ArrayData>();
  const auto length = static_cast<int64_t>(column->length());
  if (field.type.id() == TypeId::kNull) {
    // Arrow's null type has no buffers at all.
    fill_array(out, data.release(), length, length);
    return;
  }
  if (column->is_dictionary()) column = decode_dictionary(*column);
  // Kestrel's null_count is exact, but a consumer that computes it from the bitmap (-1) cannot be misled.
  const int64_t null_count = column->validity() ? -1 : 0;
  data->buffers.push_back(column->validity() ? column->validity()->data() : nullptr);
  if (field.type.is_nested()) {
    export_nested(field, column, data.get());
    data->columns.push_back(std::move(column));
    fill_array(out, data.release(), length, null_count);
    return;
  }
  switch (field.type.id()) {
    case TypeId::kBoolean: data->made.push_back(boolean_bits(*column)); break;
    case TypeId::kInterval: data->made.push_back(month_day_nano(*column)); break;
    case TypeId::kTimestampTz: data->made.push_back(instants(*column)); break;
    default: break;
  }
  if (!data->made.empty()) {
    data->buffers.push_back(data->made.back()->data());
  } else if (field.type.is_variable_width()) {
    data->buffers.push_back(or_empty(column->offsets()->data()));
    data->buffers.push_back(or_empty(column->values() ? column->values()->data() : nullptr));
  } else {
    data->buffers.push_back(or_empty(column->values() ? column->values()->data() : nullptr));
  }
  data->columns.push_back(std::move(column));
  fill_array(out, data.release(), length, null_count);
}

// ---------------------------------------------------------------------------------------------------------------
// Streams

struct StreamData {
  SchemaPtr schema;
  std::vector<Batch> batches;
  size_t next = 0;
  std::string last_error;
};

int stream_get_schema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    export_schema(*data->schema, out);
    return 0;
  } catch (const std::exception& e) {
    data->last_error = e.what();
    return EIO;
  }
}

int stream_get_next(ArrowArrayStream* stream, ArrowArray* out) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    if (data->next == data->batches.size()) {
      out->release = nullptr;  // the end of the stream
      return 0;
    }
    export_batch(data->batches[data->next], out);
    // The stream no longer needs the batch: the array holds its columns.
    data->batches[data->next++] = Batch();
    return 0;
  } catch (const std::exception& e) {
    data->last_error = e.what();
    return EIO;
  }
}

const char* stream_last_error(ArrowArrayStream* stream) {
  auto* data = static_cast<StreamData*>(stream->private_data);
  return data->last_error.empty() ? nullptr : data->last_error.c_str();
}

void stream_release(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<StreamData*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

std::string export_format(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kNull: return "n";
    case TypeId::kBoolean: return "b";
    case TypeId::kTinyInt: return "c";
    case TypeId::kSmallInt: return "s";
    case TypeId::kInteger: return "i";
    case TypeId::kBigInt: return "l";
    case TypeId::kReal: return "f";
    case TypeId::kDouble: return "g";
    case TypeId::kDecimal:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) +
             (type.is_wide_decimal() ? "" : ",64");
    case TypeId::kDate: return "tdD";
    case TypeId::kTimestamp: return "tsu:";
    case TypeId::kTimestampTz: return "tsu:UTC";  // one zone per Arrow column: the instants, in UTC
    case TypeId::kInterval: return "tin";
    case TypeId::kVarchar:
    case TypeId::kJson: return "U";  // JSON text goes out as a string
    case TypeId::kVarbinary: return "Z";
    case TypeId::kArray: return "+L";
    case TypeId::kMap: return "+m";
    case TypeId::kRow: return "+s";
  }
  throw InternalError("Arrow export of type " + type.to_string());
}

namespace {

/// The schema of `field`, its children's schemas included.
ArrowSchema* field_schema(const Field& field) {
  std::vector<ArrowSchema*> children;
  for (const Field& child : child_fields(field.type)) children.push_back(field_schema(child));
  if (field.type.id() == TypeId::kMap) {
    // Arrow's map entries: a struct of a key that is never NULL and a value.
    ArrowSchema* key = children[0]->children[0];
    key->flags &= ~ARROW_FLAG_NULLABLE;
  }
  auto* schema = new ArrowSchema();
  fill_schema(schema, export_format(field.type), field.name, field.nullable, std::move(children));
  return schema;
}

}  // namespace

bool exported_without_copy(const LogicalType& type) {
  if (type.is_nested()) {
    if (type.id() == TypeId::kMap) return false;  // its offsets are narrowed to int32
    for (size_t i = 0; i < type.child_count(); ++i) {
      if (!exported_without_copy(type.child(i))) return false;
    }
    return true;
  }
  return type.id() != TypeId::kBoolean && type.id() != TypeId::kInterval && type.id() != TypeId::kTimestampTz;
}

void export_schema(const Schema& schema, ArrowSchema* out) {
  std::vector<ArrowSchema*> children;
  children.reserve(schema.size());
  try {
    for (const Field& field : schema.fields()) children.push_back(field_schema(field));
  } catch (...) {
    for (ArrowSchema* child : children) {
      release_schema(child);
      delete child;
    }
    throw;
  }
  fill_schema(out, "+s", "", false, std::move(children));
}

void export_batch(const Batch& batch, ArrowArray* out) {
  KESTREL_CHECK_MSG(!batch.on_device(), "Arrow export of a device batch");
  auto data = std::make_unique<ArrayData>();
  data->buffers.push_back(nullptr);  // the struct has no validity bitmap
  try {
    for (size_t c = 0; c < batch.num_columns(); ++c) {
      auto* child = new ArrowArray();
      child->release = nullptr;
      data->children.push_back(child);
      export_column(batch.schema()->field(c), batch.column(c), child);
    }
  } catch (...) {
    for (ArrowArray* child : data->children) {
      release_array(child);
      delete child;
    }
    throw;
  }
  fill_array(out, data.release(), static_cast<int64_t>(batch.num_rows()), 0);
}

void export_stream(SchemaPtr schema, std::vector<Batch> batches, ArrowArrayStream* out) {
  auto* data = new StreamData{std::move(schema), std::move(batches), 0, {}};
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_last_error;
  out->release = stream_release;
  out->private_data = data;
}

}  // namespace kestrel::arrow
