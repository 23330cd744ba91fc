// ARRAY, MAP and ROW host columns: values in and out, gathers, concatenation and NULL columns.

#include "vector/nested_column.hpp"

#include <cstring>

#include "common/bit_util.hpp"
#include "common/check.hpp"

namespace kestrel {

namespace {

BufferPtr int64_buffer(const std::vector<int64_t>& values, gpu::MemoryResource& mr) {
  auto out = Buffer::allocate(values.size() * sizeof(int64_t), mr, gpu::Stream::host());
  if (!values.empty()) std::memcpy(out->data(), values.data(), values.size() * sizeof(int64_t));
  return out;
}

/// A validity bitmap from per-row flags; null when every row is valid.
BufferPtr validity_from(const std::vector<bool>& valid, gpu::MemoryResource& mr, size_t* nulls) {
  *nulls = 0;
  for (bool v : valid) *nulls += v ? 0 : 1;
  if (*nulls == 0) return nullptr;
  auto out = Buffer::allocate(bits::bytes_for(valid.size()), mr, gpu::Stream::host());
  std::memset(out->data(), 0, out->size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) bits::set(out->as<uint8_t>(), i);
  }
  return out;
}

ColumnPtr single(const std::vector<ColumnPtr>& columns) { return columns.front(); }

}  // namespace

Value nested_value_at(const Column& column, size_t row) {
  const LogicalType& type = column.type();
  if (type.id() == TypeId::kRow) {
    std::vector<Value> fields;
    for (const ColumnPtr& c : column.children()) fields.push_back(c->value_at(row));
    return Value::row(type, std::move(fields));
  }
  const int64_t* off = column.list_offsets();
  std::vector<Value> items;
  for (int64_t i = off[row]; i < off[row + 1]; ++i) items.push_back(column.child(0)->value_at(static_cast<size_t>(i)));
  if (type.id() == TypeId::kArray) return Value::array(type, std::move(items));
  std::vector<Value> keys, values;
  for (const Value& entry : items) {
    keys.push_back(entry.children()[0]);
    values.push_back(entry.children()[1]);
  }
  return Value::map(type, keys, values);
}

ColumnPtr nested_from_values(const LogicalType& type, const std::vector<Value>& values, gpu::MemoryResource& mr) {
  std::vector<bool> valid(values.size());
  for (size_t i = 0; i < values.size(); ++i) valid[i] = !values[i].is_null();
  size_t nulls = 0;
  BufferPtr validity = validity_from(valid, mr, &nulls);
  if (type.id() == TypeId::kRow) {
    std::vector<ColumnPtr> children;
    for (size_t f = 0; f < type.fields().size(); ++f) {
      std::vector<Value> field;
      field.reserve(values.size());
      for (const Value& v : values) field.push_back(v.is_null() ? Value::null(type.child(f)) : v.children()[f]);
      children.push_back(Column::from_values(type.child(f), field, mr));
    }
    return Column::make_row(type, values.size(), std::move(validity), nulls, std::move(children));
  }
  std::vector<int64_t> offsets{0};
  std::vector<Value> items;
  for (const Value& v : values) {
    if (!v.is_null()) items.insert(items.end(), v.children().begin(), v.children().end());
    offsets.push_back(static_cast<int64_t>(items.size()));
  }
  ColumnPtr child = Column::from_values(type.element_type(), items, mr);
  return Column::make_list(type, values.size(), int64_buffer(offsets, mr), std::move(validity), nulls,
                           std::move(child));
}

ColumnPtr gather_nested(const Column& column, const RowIndices& indices, BufferPtr validity, size_t nulls,
                        gpu::MemoryResource& mr) {
  const LogicalType& type = column.type();
  if (type.id() == TypeId::kRow) {
    std::vector<ColumnPtr> children;
    for (const ColumnPtr& c : column.children()) children.push_back(gather_column(*c, indices, mr));
    return Column::make_row(type, indices.size(), std::move(validity), nulls, std::move(children));
  }
  const int64_t* off = column.list_offsets();
  std::vector<int64_t> offsets{0};
  offsets.reserve(indices.size() + 1);
  RowIndices child_rows;
  for (uint32_t i : indices) {
    if (i != kNullRow) {
      for (int64_t k = off[i]; k < off[i + 1]; ++k) child_rows.push_back(static_cast<uint32_t>(k));
    }
    offsets.push_back(static_cast<int64_t>(child_rows.size()));
  }
  ColumnPtr child = gather_column(*column.child(0), child_rows, mr);
  return Column::make_list(type, indices.size(), int64_buffer(offsets, mr), std::move(validity), nulls,
                           std::move(child));
}

ColumnPtr concat_columns(const std::vector<const Column*>& columns, const LogicalType& type,
                         gpu::MemoryResource& mr) {
  if (type.is_nested()) return concat_nested(columns, type, mr);
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field{"c", type, true}});
  std::vector<Batch> batches;
  for (const Column* c : columns) {
    batches.emplace_back(schema, std::vector<ColumnPtr>{ColumnPtr(ColumnPtr{}, const_cast<Column*>(c))}, c->length(),
                         gpu::MemoryKind::kHost);
  }
  if (batches.size() == 1) {
    // concat_batches hands back a single batch as it is; gather a copy that owns its buffers instead.
    RowIndices all(columns[0]->length());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
    return gather_column(*columns[0], all, mr);
  }
  return single(concat_batches(batches, schema, mr).columns());
}

ColumnPtr concat_nested(const std::vector<const Column*>& columns, const LogicalType& type, gpu::MemoryResource& mr) {
  size_t rows = 0;
  std::vector<bool> valid;
  for (const Column* c : columns) {
    rows += c->length();
    for (size_t i = 0; i < c->length(); ++i) valid.push_back(c->is_valid(i));
  }
  size_t nulls = 0;
  BufferPtr validity = validity_from(valid, mr, &nulls);
  if (type.id() == TypeId::kRow) {
    std::vector<ColumnPtr> children;
    for (size_t f = 0; f < type.fields().size(); ++f) {
      std::vector<const Column*> parts;
      for (const Column* c : columns) parts.push_back(c->child(f).get());
      children.push_back(concat_columns(parts, type.child(f), mr));
    }
    return Column::make_row(type, rows, std::move(validity), nulls, std::move(children));
  }
  // Lists: each part's child rows in use, made compact, then one after the other.
  std::vector<int64_t> offsets{0};
  std::vector<ColumnPtr> compact;
  std::vector<const Column*> parts;
  for (const Column* c : columns) {
    const int64_t* off = c->list_offsets();
    RowIndices used;
    for (size_t i = 0; i < c->length(); ++i) {
      for (int64_t k = off[i]; k < off[i + 1]; ++k) used.push_back(static_cast<uint32_t>(k));
      offsets.push_back(offsets.back() + (off[i + 1] - off[i]));
    }
    compact.push_back(gather_column(*c->child(0), used, mr));
    parts.push_back(compact.back().get());
  }
  ColumnPtr child = concat_columns(parts, type.element_type(), mr);
  return Column::make_list(type, rows, int64_buffer(offsets, mr), std::move(validity), nulls, std::move(child));
}

ColumnPtr null_nested(const LogicalType& type, size_t rows, gpu::MemoryResource& mr) {
  std::vector<bool> valid(rows, false);
  size_t nulls = 0;
  BufferPtr validity = validity_from(valid, mr, &nulls);
  if (rows == 0) validity = nullptr;
  if (type.id() == TypeId::kRow) {
    std::vector<ColumnPtr> children;
    for (size_t f = 0; f < type.fields().size(); ++f) children.push_back(null_column(type.child(f), rows, mr));
    return Column::make_row(type, rows, std::move(validity), nulls, std::move(children));
  }
  return Column::make_list(type, rows, int64_buffer(std::vector<int64_t>(rows + 1, 0), mr), std::move(validity),
                           nulls, null_column(type.element_type(), 0, mr));
}

}  // namespace kestrel
