// CPU kernels of map(keys, values), map_keys, map_values, map_from_entries, row(...) and ROW field access.

#include <unordered_set>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

Operand map_from_arrays(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape,
                        EvalContext& ctx) {
  if (args.empty()) {
    const LogicalType& entry = e.type.element_type();
    std::vector<ColumnPtr> fields{null_column(entry.child(0), 0, ctx.memory()),
                                  null_column(entry.child(1), 0, ctx.memory())};
    ColumnPtr entries = Column::make_row(entry, 0, nullptr, 0, std::move(fields));
    return as_operand(make_list_column(e.type, {0, 0}, {1}, entries, ctx.memory()), Shape{1, true});
  }
  const ListReader keys(args[0]);
  const ListReader values(args[1]);
  RowIndices key_rows, value_rows;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (keys.valid(r) && values.valid(r)) {
      valid[r] = 1;
      if (keys.size(r) != values.size(r)) {
        raise_nested(e, "map: the key and value arrays differ in length (" + std::to_string(keys.size(r)) + " and " +
                            std::to_string(values.size(r)) + ")",
                     "22023");
      }
      check_map_keys(e, keys.child(), keys.begin(r), keys.end(r));
      for (int64_t i = 0; i < keys.size(r); ++i) {
        key_rows.push_back(static_cast<uint32_t>(keys.begin(r) + i));
        value_rows.push_back(static_cast<uint32_t>(values.begin(r) + i));
      }
    }
    offsets.push_back(static_cast<int64_t>(key_rows.size()));
  }
  std::vector<ColumnPtr> fields{gather_column(keys.child(), key_rows, ctx.memory()),
                                gather_column(values.child(), value_rows, ctx.memory())};
  ColumnPtr entries = Column::make_row(e.type.element_type(), key_rows.size(), nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, offsets, valid, entries, ctx.memory()), shape);
}

/// map_keys, map_values and map_from_entries share the offsets and validity of their argument.
Operand relabel_list(const plan::Expr& e, const Operand& in, ColumnPtr child) {
  const Column& c = *in.column;
  return Operand{Column::make_list(e.type, c.length(), c.offsets(), c.validity(), c.null_count(), std::move(child)),
                 in.constant};
}

Operand map_from_entries(const plan::Expr& e, const Operand& in, const Shape& shape) {
  const ListReader list(in);
  const Column& entries = list.child();
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!list.valid(r)) continue;
    for (int64_t i = list.begin(r); i < list.end(r); ++i) {
      if (!entries.is_valid(static_cast<size_t>(i))) raise_nested(e, "map_from_entries: a map entry is NULL", "22004");
    }
    check_map_keys(e, *entries.child(0), list.begin(r), list.end(r));
  }
  // NULL entries were refused, so the entries' own validity can go.
  ColumnPtr child = Column::make_row(entries.type(), entries.length(), nullptr, 0, entries.children());
  return relabel_list(e, in, std::move(child));
}

Operand row_field(const std::vector<Operand>& args, EvalContext& ctx) {
  const Column& row = *args[0].column;
  const auto index = static_cast<size_t>(args[1].data<int32_t>()[0]);
  const ColumnPtr& field = row.child(index);
  if (row.null_count() == 0) return Operand{field, args[0].constant};
  // A NULL row's fields are NULL.
  RowIndices rows(row.length());
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = row.is_valid(r) ? static_cast<uint32_t>(r) : kNullRow;
  return Operand{gather_column(*field, rows, ctx.memory()), args[0].constant};
}

}  // namespace

void check_map_keys(const plan::Expr& e, const Column& keys, int64_t begin, int64_t end) {
  std::unordered_set<std::string> seen;
  for (int64_t i = begin; i < end; ++i) {
    const auto k = static_cast<size_t>(i);
    if (!keys.is_valid(k)) {
      raise_nested(e, std::string(plan::scalar_function_name(e.function)) + ": map key is NULL", "22004");
    }
    if (!seen.insert(key_of(keys, k)).second) {
      raise_nested(e, std::string(plan::scalar_function_name(e.function)) + ": duplicate map key: " +
                          keys.value_at(k).to_string(),
                   "22023");
    }
  }
}

Operand map_row_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kMapFromArrays: return map_from_arrays(e, args, shape, ctx);
    case F::kMapKeys:
    case F::kMapValues: {
      const ColumnPtr& entries = args[0].column->child(0);
      return relabel_list(e, args[0], entries->child(e.function == F::kMapKeys ? 0 : 1));
    }
    case F::kMapFromEntries: return map_from_entries(e, args[0], shape);
    case F::kRowConstructor: {
      std::vector<ColumnPtr> fields;
      for (const Operand& a : args) fields.push_back(materialize(a, shape.rows, ctx.memory()));
      return as_operand(Column::make_row(e.type, shape.rows, nullptr, 0, std::move(fields)), shape);
    }
    case F::kRowField: return row_field(args, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
