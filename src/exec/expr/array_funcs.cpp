// CPU kernels of ARRAY[...], subscripts, element_at, cardinality, contains, array_position, array_join, slice and
// array concatenation, and the dispatch of the other nested-value kernels.

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

Operand array_constructor(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape,
                          EvalContext& ctx) {
  const size_t n = args.size();
  std::vector<RowSource> src;
  src.reserve(shape.rows * n);
  std::vector<int64_t> offsets{0};
  for (size_t r = 0; r < shape.rows; ++r) {
    for (size_t k = 0; k < n; ++k) src.push_back(RowSource{static_cast<uint32_t>(k), static_cast<uint32_t>(r)});
    offsets.push_back(static_cast<int64_t>(src.size()));
  }
  ColumnPtr child = n == 0 ? null_column(e.type.element_type(), 0, ctx.memory())
                           : assemble_rows(e.type.element_type(), args, src, ctx.memory());
  return as_operand(make_list_column(e.type, offsets, std::vector<uint8_t>(shape.rows, 1), child, ctx.memory()),
                    shape);
}

/// a[i], element_at(a, i), m[k] and element_at(m, k).
Operand subscript(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const bool lenient = e.function == F::kElementAt;
  const ListReader list(args[0]);
  RowIndices picked(shape.rows, kNullRow);
  if (args[0].column->type().id() == TypeId::kMap) {
    const Column& keys = *list.child().child(0);
    for (size_t r = 0; r < shape.rows; ++r) {
      if (!list.valid(r) || !args[1].valid(r)) continue;
      const std::string key = key_of(*args[1].column, args[1].index(r));
      for (int64_t i = list.begin(r); i < list.end(r) && picked[r] == kNullRow; ++i) {
        if (key_of(keys, static_cast<size_t>(i)) == key) picked[r] = static_cast<uint32_t>(i);
      }
      if (picked[r] == kNullRow && !lenient) {
        raise_nested(e, "key not present in map: " + value_text(args[1], r), "22023");
      }
    }
    return as_operand(gather_column(*list.child().child(1), picked, ctx.memory()), shape);
  }
  const int64_t* index = args[1].data<int64_t>();
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!list.valid(r) || !args[1].valid(r)) continue;
    int64_t i = index[args[1].index(r)];
    const int64_t size = list.size(r);
    if (i == 0) raise_nested(e, "array indices start at 1, not 0");
    if (i < 0 && !lenient) raise_nested(e, "array subscript " + std::to_string(i) + " is negative");
    if (i < 0) i = size + i + 1;
    if (i < 1 || i > size) {
      if (lenient) continue;
      raise_nested(e, "array subscript " + std::to_string(i) + " is out of bounds (the array has " +
                          std::to_string(size) + " element" + (size == 1 ? "" : "s") + ")");
    }
    picked[r] = static_cast<uint32_t>(list.begin(r) + i - 1);
  }
  return as_operand(gather_column(list.child(), picked, ctx.memory()), shape);
}

Operand cardinality(const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ColumnPtr out = make_output(TypeId::kBigInt, shape.rows, and_validity_all(args, shape.rows, ctx.memory()),
                              ctx.memory());
  for (size_t r = 0; r < shape.rows; ++r) out->mutable_data<int64_t>()[r] = list.valid(r) ? list.size(r) : 0;
  return as_operand(out, shape);
}

/// contains (BOOLEAN) and array_position (BIGINT, 0 when absent).
Operand find_element(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const bool contains = e.function == F::kContains;
  std::vector<uint8_t> valid(shape.rows, 0);
  std::vector<int64_t> found(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!list.valid(r) || !args[1].valid(r)) continue;
    valid[r] = 1;
    const std::string wanted = key_of(*args[1].column, args[1].index(r));
    bool saw_null = false;
    for (int64_t i = list.begin(r); i < list.end(r) && found[r] == 0; ++i) {
      if (!list.child().is_valid(static_cast<size_t>(i))) {
        saw_null = true;
      } else if (key_of(list.child(), static_cast<size_t>(i)) == wanted) {
        found[r] = i - list.begin(r) + 1;
      }
    }
    // contains is NULL when no element matched but one was NULL (it might have).
    if (contains && found[r] == 0 && saw_null) valid[r] = 0;
  }
  const LogicalType type = contains ? LogicalType(TypeId::kBoolean) : LogicalType(TypeId::kBigInt);
  ColumnPtr out = make_output(type, shape.rows, validity_from_bytes(valid.data(), shape.rows, ctx.memory()),
                              ctx.memory());
  for (size_t r = 0; r < shape.rows; ++r) {
    if (contains) {
      out->mutable_data<uint8_t>()[r] = found[r] != 0 ? 1 : 0;
    } else {
      out->mutable_data<int64_t>()[r] = found[r];
    }
  }
  return as_operand(out, shape);
}

Operand array_join(const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const Column& elements = list.child();
  Validity validity = and_validity_all(args, shape.rows, ctx.memory());
  StringColumnBuilder out(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r) && (args.size() < 3 || args[2].valid(r));
    if (!valid) {
      out.append_null();
      continue;
    }
    bool first = true;
    for (int64_t i = list.begin(r); i < list.end(r); ++i) {
      const bool present = elements.is_valid(static_cast<size_t>(i));
      if (!present && args.size() < 3) continue;
      if (!first) out.chars() += args[1].string_at(r);
      first = false;
      out.chars() += present ? elements.string_at(static_cast<size_t>(i)) : args[2].string_at(r);
    }
    out.finish_row();
  }
  return as_operand(out.finish(std::move(validity), ctx.memory()), shape);
}

Operand slice(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r) && args[2].valid(r);
    if (valid) {
      int64_t start = args[1].data<int64_t>()[args[1].index(r)];
      const int64_t length = args[2].data<int64_t>()[args[2].index(r)];
      if (start == 0) raise_nested(e, "slice: start must not be 0 (array indices start at 1)");
      if (length < 0) raise_nested(e, "slice: length must not be negative, got " + std::to_string(length));
      const int64_t size = list.size(r);
      if (start < 0) start = size + start + 1;
      for (int64_t i = start; i >= 1 && i <= size && i < start + length; ++i) {
        out.add(static_cast<uint32_t>(list.begin(r) + i - 1));
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

Operand array_concat(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  // The children of every argument one after the other; each row takes its ranges from them.
  std::vector<const Column*> parts;
  std::vector<uint32_t> base;
  uint32_t total = 0;
  for (const Operand& a : args) {
    parts.push_back(a.column->child(0).get());
    base.push_back(total);
    total += static_cast<uint32_t>(a.column->child(0)->length());
  }
  ColumnPtr children = concat_columns(parts, e.type.element_type(), ctx.memory());
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    bool valid = true;
    for (const Operand& a : args) valid = valid && a.valid(r);
    for (size_t k = 0; valid && k < args.size(); ++k) {
      const ListReader list(args[k]);
      for (int64_t i = list.begin(r); i < list.end(r); ++i) out.add(base[k] + static_cast<uint32_t>(i));
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *children, ctx.memory()), shape);
}

}  // namespace

ColumnPtr ListBuilder::finish(const LogicalType& type, const Column& child, gpu::MemoryResource& mr) {
  return make_list_column(type, offsets_, valid_, gather_column(child, child_rows_, mr), mr);
}

ColumnPtr make_list_column(const LogicalType& type, const std::vector<int64_t>& offsets,
                           const std::vector<uint8_t>& valid, ColumnPtr child, gpu::MemoryResource& mr) {
  const size_t rows = valid.size();
  Validity validity = validity_from_bytes(valid.data(), rows, mr);
  auto off = Buffer::allocate(offsets.size() * sizeof(int64_t), mr, gpu::Stream::host());
  std::memcpy(off->data(), offsets.data(), offsets.size() * sizeof(int64_t));
  return Column::make_list(type, rows, std::move(off), std::move(validity.bitmap), validity.null_count,
                           std::move(child));
}

void raise_nested(const plan::Expr& e, const std::string& message, const char* code) {
  throw InvalidInput(message, code, e.position);
}

Operand nested_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kArrayConstructor: return array_constructor(e, args, shape, ctx);
    case F::kSubscript:
    case F::kElementAt: return subscript(e, args, shape, ctx);
    case F::kCardinality: return cardinality(args, shape, ctx);
    case F::kContains:
    case F::kArrayPosition: return find_element(e, args, shape, ctx);
    case F::kArrayJoin: return array_join(args, shape, ctx);
    case F::kSlice: return slice(e, args, shape, ctx);
    case F::kArrayConcat: return array_concat(e, args, shape, ctx);
    case F::kArrayDistinct:
    case F::kArraySort:
    case F::kArrayMax:
    case F::kArrayMin: return array_set_kernel(e, args, rows, ctx);
    case F::kSequence:
    case F::kSplit: return sequence_kernel(e, args, rows, ctx);
    default: return map_row_kernel(e, args, rows, ctx);
  }
}

}  // namespace kestrel::exec
