#include "vector/gather.hpp"

#include <cstring>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "vector/nested_column.hpp"

namespace kestrel {

namespace {

/// Validity for gathered rows; null when every gathered row is valid.
BufferPtr gather_validity(const Column& column, const RowIndices& indices, gpu::MemoryResource& mr, size_t* nulls) {
  const uint8_t* in = column.validity() ? column.validity()->as<uint8_t>() : nullptr;
  bool any_padding = false;
  for (uint32_t i : indices) any_padding |= i == kNullRow;
  *nulls = 0;
  if (in == nullptr && !any_padding) return nullptr;
  auto out = Buffer::allocate(bits::bytes_for(indices.size()), mr, gpu::Stream::host());
  auto* bits_out = out->as<uint8_t>();
  std::memset(bits_out, 0, out->size());
  for (size_t r = 0; r < indices.size(); ++r) {
    uint32_t i = indices[r];
    bool valid = i != kNullRow && (in == nullptr || bits::get(in, i));
    if (valid) {
      bits::set(bits_out, r);
    } else {
      ++*nulls;
    }
  }
  if (*nulls == 0) return nullptr;
  return out;
}

template <size_t W>
void gather_fixed(const uint8_t* in, uint8_t* out, const RowIndices& indices) {
  for (size_t r = 0; r < indices.size(); ++r) {
    uint32_t i = indices[r];
    if (i == kNullRow) {
      std::memset(out + r * W, 0, W);
    } else {
      std::memcpy(out + r * W, in + static_cast<size_t>(i) * W, W);
    }
  }
}

BufferPtr gather_values(const Buffer& values, size_t width, const RowIndices& indices, gpu::MemoryResource& mr) {
  auto out = Buffer::allocate(indices.size() * width, mr, gpu::Stream::host());
  const auto* in = values.as<uint8_t>();
  auto* o = out->as<uint8_t>();
  switch (width) {
    case 1: gather_fixed<1>(in, o, indices); break;
    case 2: gather_fixed<2>(in, o, indices); break;
    case 4: gather_fixed<4>(in, o, indices); break;
    case 8: gather_fixed<8>(in, o, indices); break;
    case 16: gather_fixed<16>(in, o, indices); break;
    default: throw InternalError("gather of width " + std::to_string(width));
  }
  return out;
}

ColumnPtr gather_strings(const Column& column, const RowIndices& indices, gpu::MemoryResource& mr, BufferPtr validity,
                         size_t nulls) {
  const int64_t* off = column.offsets()->as<int64_t>();
  const char* chars = column.values()->as<char>();
  size_t bytes = 0;
  for (uint32_t i : indices) bytes += i == kNullRow ? 0 : static_cast<size_t>(off[i + 1] - off[i]);
  auto offsets = Buffer::allocate((indices.size() + 1) * sizeof(int64_t), mr, gpu::Stream::host());
  auto out_chars = Buffer::allocate(bytes, mr, gpu::Stream::host());
  int64_t* o = offsets->as<int64_t>();
  char* c = out_chars->as<char>();
  o[0] = 0;
  for (size_t r = 0; r < indices.size(); ++r) {
    uint32_t i = indices[r];
    int64_t n = i == kNullRow ? 0 : off[i + 1] - off[i];
    if (n > 0) std::memcpy(c + o[r], chars + off[i], static_cast<size_t>(n));
    o[r + 1] = o[r] + n;
  }
  return Column::from_buffers(column.type(), ColumnEncoding::kPlain, indices.size(), nulls, std::move(validity),
                              std::move(out_chars), std::move(offsets), nullptr);
}

}  // namespace

ColumnPtr gather_column(const Column& column, const RowIndices& indices, gpu::MemoryResource& mr) {
  KESTREL_CHECK(!column.on_device());
  size_t nulls = 0;
  BufferPtr validity = gather_validity(column, indices, mr, &nulls);
  if (column.is_dictionary()) {
    return Column::make_dictionary(column.type(), indices.size(), gather_values(*column.values(), 4, indices, mr),
                                   std::move(validity), nulls, column.dictionary());
  }
  if (column.type().is_nested()) return gather_nested(column, indices, std::move(validity), nulls, mr);
  if (column.type().is_variable_width()) return gather_strings(column, indices, mr, std::move(validity), nulls);
  return Column::from_buffers(column.type(), ColumnEncoding::kPlain, indices.size(), nulls, std::move(validity),
                              gather_values(*column.values(), column.type().physical_width(), indices, mr), nullptr,
                              nullptr);
}

Batch gather_batch(const Batch& batch, const RowIndices& indices, gpu::MemoryResource& mr) {
  std::vector<ColumnPtr> columns;
  columns.reserve(batch.num_columns());
  for (const auto& column : batch.columns()) columns.push_back(gather_column(*column, indices, mr));
  return Batch(batch.schema(), std::move(columns), indices.size(), gpu::MemoryKind::kHost);
}

RowIndices true_rows(const Column& predicate) {
  KESTREL_CHECK_EQ(predicate.type().id(), TypeId::kBoolean);
  RowIndices out;
  const uint8_t* v = predicate.data<uint8_t>();
  const uint8_t* valid = predicate.validity() ? predicate.validity()->as<uint8_t>() : nullptr;
  for (size_t i = 0; i < predicate.length(); ++i) {
    if (v[i] && (valid == nullptr || bits::get(valid, i))) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

Batch concat_batches(const std::vector<Batch>& batches, const SchemaPtr& schema, gpu::MemoryResource& mr) {
  if (batches.size() == 1) return batches[0];
  if (batches.empty()) return empty_batch(schema);
  size_t rows = 0;
  for (const auto& b : batches) rows += b.num_rows();
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < schema->size(); ++c) {
    // Gathering from each batch into one output would need multi-source gathers; decode through values instead
    // for dictionary columns with different dictionaries, and copy buffers otherwise.
    const LogicalType& type = schema->field(c).type;
    if (type.id() == TypeId::kNull) {
      // An untyped NULL column is all NULL whatever its batches store.
      columns.push_back(null_column(type, rows, mr));
      continue;
    }
    if (type.is_nested()) {
      std::vector<const Column*> parts;
      for (const auto& b : batches) parts.push_back(b.column(c).get());
      columns.push_back(concat_nested(parts, type, mr));
      continue;
    }
    bool any_nulls = false;
    for (const auto& b : batches) any_nulls |= b.column(c)->null_count() > 0;
    if (type.is_variable_width()) {
      // NULL rows hold no string: their values are not read (a dictionary column's code of a NULL row need not
      // name an entry, and an all-NULL column's dictionary can be empty).
      size_t bytes = 0;
      for (const auto& b : batches) {
        const Column& col = *b.column(c);
        for (size_t i = 0; i < col.length(); ++i) bytes += col.is_valid(i) ? col.string_at(i).size() : 0;
      }
      auto out = Column::retyped(Column::make_string(rows, bytes, any_nulls, mr, gpu::Stream::host()), type);
      int64_t* o = out->mutable_offsets();
      char* chars = out->values()->as<char>();
      uint8_t* valid = out->mutable_validity();
      size_t r = 0;
      o[0] = 0;
      for (const auto& b : batches) {
        const Column& col = *b.column(c);
        for (size_t i = 0; i < col.length(); ++i, ++r) {
          const bool is_valid = col.is_valid(i);
          std::string_view s = is_valid ? col.string_at(i) : std::string_view();
          if (!s.empty()) std::memcpy(chars + o[r], s.data(), s.size());
          o[r + 1] = o[r] + static_cast<int64_t>(s.size());
          if (valid != nullptr && !is_valid) bits::clear(valid, r);
        }
      }
      out->recount_nulls();
      columns.push_back(out);
      continue;
    }
    size_t width = type.physical_width();
    auto out = Column::make_fixed(type, rows, any_nulls, mr, gpu::Stream::host());
    auto* dst = out->mutable_data<uint8_t>();
    uint8_t* valid = out->mutable_validity();
    size_t r = 0;
    for (const auto& b : batches) {
      const Column& col = *b.column(c);
      if (col.length() > 0) std::memcpy(dst + r * width, col.data<uint8_t>(), col.length() * width);
      if (valid != nullptr && col.validity() != nullptr) {
        for (size_t i = 0; i < col.length(); ++i) {
          if (!col.is_valid(i)) bits::clear(valid, r + i);
        }
      }
      r += col.length();
    }
    out->recount_nulls();
    columns.push_back(out);
  }
  return Batch(schema, std::move(columns), rows, gpu::MemoryKind::kHost);
}

Batch slice_batch(const Batch& batch, size_t offset, size_t count) {
  RowIndices indices(count);
  for (size_t i = 0; i < count; ++i) indices[i] = static_cast<uint32_t>(offset + i);
  return gather_batch(batch, indices);
}

ColumnPtr null_column(const LogicalType& type, size_t rows, gpu::MemoryResource& mr) {
  if (type.is_nested()) return null_nested(type, rows, mr);
  ColumnPtr column;
  if (type.is_variable_width()) {
    column = Column::retyped(Column::make_string(rows, 0, true, mr, gpu::Stream::host()), type);
    std::memset(column->mutable_offsets(), 0, (rows + 1) * sizeof(int64_t));
  } else {
    LogicalType t = type.id() == TypeId::kNull ? LogicalType(TypeId::kInteger) : type;
    column = Column::make_fixed(t, rows, true, mr, gpu::Stream::host());
    std::memset(column->mutable_data<uint8_t>(), 0, rows * t.physical_width());
  }
  if (rows > 0) std::memset(column->mutable_validity(), 0, bits::bytes_for(rows));
  column->set_null_count(rows);
  return column;
}

Batch empty_batch(const SchemaPtr& schema) {
  std::vector<ColumnPtr> columns;
  for (const auto& f : schema->fields()) columns.push_back(null_column(f.type, 0));
  return Batch(schema, std::move(columns), 0, gpu::MemoryKind::kHost);
}

}  // namespace kestrel
