#include "exec/expr/kernel_util.hpp"

#include "common/check.hpp"
#include "vector/nested_column.hpp"

namespace kestrel::exec {

namespace {

BufferPtr allocate_bitmap(size_t rows, gpu::MemoryResource& mr) {
  return Buffer::allocate(bits::bytes_for(rows), mr, gpu::Stream::host());
}

}  // namespace

Shape shape_of(const std::vector<Operand>& args, size_t batch_rows) {
  for (const Operand& a : args) {
    if (!a.constant) return Shape{batch_rows, false};
  }
  return Shape{1, true};
}

Validity and_validity(const std::vector<const Operand*>& args, size_t rows, gpu::MemoryResource& mr) {
  std::vector<const Operand*> nullable;
  bool all_null = false;
  for (const Operand* a : args) {
    if (a->constant) {
      all_null |= !a->valid(0);
    } else if (a->validity() != nullptr) {
      nullable.push_back(a);
    }
  }
  if (all_null) {
    Validity out{allocate_bitmap(rows, mr), rows};
    std::memset(out.bitmap->data(), 0, out.bitmap->size());
    return out;
  }
  if (nullable.empty()) return Validity{};
  // One nullable operand: share its bitmap (buffers are immutable once built).
  if (nullable.size() == 1) return Validity{nullable[0]->column->validity(), nullable[0]->column->null_count()};
  Validity out{allocate_bitmap(rows, mr), 0};
  uint8_t* dst = out.bitmap->as<uint8_t>();
  const size_t bytes = bits::bytes_for(rows);
  std::memcpy(dst, nullable[0]->validity(), bytes);
  for (size_t m = 1; m < nullable.size(); ++m) {
    const uint8_t* src = nullable[m]->validity();
    for (size_t i = 0; i < bytes; ++i) dst[i] &= src[i];
  }
  out.null_count = rows - bits::count_set(dst, rows);
  if (out.null_count == 0) out.bitmap = nullptr;
  return out;
}

Validity and_validity_all(const std::vector<Operand>& args, size_t rows, gpu::MemoryResource& mr) {
  std::vector<const Operand*> ptrs;
  ptrs.reserve(args.size());
  for (const Operand& a : args) ptrs.push_back(&a);
  return and_validity(ptrs, rows, mr);
}

Validity validity_from_bytes(const uint8_t* valid, size_t rows, gpu::MemoryResource& mr) {
  size_t nulls = 0;
  for (size_t i = 0; i < rows; ++i) nulls += valid[i] == 0;
  if (nulls == 0) return Validity{};
  Validity out{allocate_bitmap(rows, mr), nulls};
  uint8_t* dst = out.bitmap->as<uint8_t>();
  std::memset(dst, 0, out.bitmap->size());
  for (size_t i = 0; i < rows; ++i) {
    if (valid[i]) bits::set(dst, i);
  }
  return out;
}

ColumnPtr make_output(const LogicalType& type, size_t rows, Validity validity, gpu::MemoryResource& mr) {
  BufferPtr values = Buffer::allocate(rows * type.physical_width(), mr, gpu::Stream::host());
  return Column::from_buffers(type, ColumnEncoding::kPlain, rows, validity.null_count, std::move(validity.bitmap),
                              std::move(values), nullptr, nullptr);
}

ColumnPtr constant_column(const Value& value, const LogicalType& type, gpu::MemoryResource& mr) {
  // An untyped NULL has no layout of its own: it is stored as a NULL BOOLEAN.
  const LogicalType storage = type.id() == TypeId::kNull ? LogicalType(TypeId::kBoolean) : type;
  if (value.is_null()) return Column::from_values(storage, {Value::null(storage)}, mr);
  return Column::from_values(storage, {value}, mr);
}

Operand null_operand(const LogicalType& type, gpu::MemoryResource& mr) {
  return Operand{constant_column(Value(), type, mr), true};
}

ColumnPtr materialize(const Operand& operand, size_t rows, gpu::MemoryResource& mr) {
  if (!operand.constant) return operand.column;
  const Column& c = *operand.column;
  if (c.type().is_nested()) return gather_column(c, RowIndices(rows, 0), mr);
  const bool valid = c.is_valid(0);
  Validity validity;
  if (!valid) {
    validity.bitmap = allocate_bitmap(rows, mr);
    std::memset(validity.bitmap->data(), 0, validity.bitmap->size());
    validity.null_count = rows;
  }
  if (c.type().is_variable_width()) {
    const std::string_view s = valid ? c.string_at(0) : std::string_view();
    StringColumnBuilder builder(rows, s.size() * rows);
    for (size_t i = 0; i < rows; ++i) builder.append(s);
    return builder.finish(std::move(validity), mr, c.type());
  }
  ColumnPtr out = make_output(c.type(), rows, std::move(validity), mr);
  const size_t width = c.type().physical_width();
  const auto* src = static_cast<const uint8_t*>(c.values()->data());
  auto* dst = static_cast<uint8_t*>(out->values()->data());
  if (!valid) {
    std::memset(dst, 0, rows * width);
  } else {
    for (size_t i = 0; i < rows; ++i) std::memcpy(dst + i * width, src, width);
  }
  return out;
}

StringColumnBuilder::StringColumnBuilder(size_t rows, size_t reserve_bytes) : rows_(rows) {
  offsets_.reserve(rows + 1);
  offsets_.push_back(0);
  chars_.reserve(reserve_bytes);
}

ColumnPtr StringColumnBuilder::finish(Validity validity, gpu::MemoryResource& mr, const LogicalType& type) {
  KESTREL_CHECK(type.is_variable_width());
  KESTREL_CHECK_EQ(offsets_.size(), rows_ + 1);
  BufferPtr offsets = Buffer::allocate(offsets_.size() * sizeof(int64_t), mr, gpu::Stream::host());
  std::memcpy(offsets->data(), offsets_.data(), offsets_.size() * sizeof(int64_t));
  BufferPtr chars = Buffer::allocate(chars_.size(), mr, gpu::Stream::host());
  if (!chars_.empty()) std::memcpy(chars->data(), chars_.data(), chars_.size());
  return Column::from_buffers(type, ColumnEncoding::kPlain, rows_, validity.null_count,
                              std::move(validity.bitmap), std::move(chars), std::move(offsets), nullptr);
}

ColumnPtr assemble_rows(const LogicalType& type, const std::vector<Operand>& pieces, const std::vector<RowSource>& src,
                        gpu::MemoryResource& mr) {
  const size_t n = src.size();
  if (type.is_nested()) {
    // The pieces one after the other, then row i gathered from its piece's part.
    std::vector<const Column*> parts;
    std::vector<uint32_t> base;
    uint32_t total = 0;
    for (const Operand& p : pieces) {
      parts.push_back(p.column.get());
      base.push_back(total);
      total += static_cast<uint32_t>(p.column->length());
    }
    RowIndices rows(n);
    for (size_t i = 0; i < n; ++i) {
      rows[i] = src[i].piece == kNullPiece ? kNullRow : base[src[i].piece] + static_cast<uint32_t>(
                                                              pieces[src[i].piece].index(src[i].pos));
    }
    if (parts.empty()) return null_column(type, n, mr);
    return gather_column(*concat_columns(parts, type, mr), rows, mr);
  }
  std::vector<uint8_t> valid(n);
  for (size_t i = 0; i < n; ++i) valid[i] = src[i].piece != kNullPiece && pieces[src[i].piece].valid(src[i].pos);
  Validity validity = validity_from_bytes(valid.data(), n, mr);
  if (type.is_variable_width()) {
    StringColumnBuilder builder(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (valid[i]) {
        builder.append(pieces[src[i].piece].string_at(src[i].pos));
      } else {
        builder.append_null();
      }
    }
    return builder.finish(std::move(validity), mr, type);
  }
  ColumnPtr out = make_output(type, n, std::move(validity), mr);
  dispatch_fixed(type, [&](auto tag) {
    using T = decltype(tag);
    T* dst = out->mutable_data<T>();
    for (size_t i = 0; i < n; ++i) {
      if (!valid[i]) {
        dst[i] = T{};
        continue;
      }
      const Operand& p = pieces[src[i].piece];
      dst[i] = p.data<T>()[p.index(src[i].pos)];
    }
  });
  return out;
}

std::string value_text(const Operand& operand, size_t row) {
  return operand.column->value_at(operand.index(row)).to_string();
}

}  // namespace kestrel::exec
