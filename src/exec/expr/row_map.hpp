#pragma once
/// Row-at-a-time kernel loops for functions whose result may be NULL on a row whose arguments are not (a regular
/// expression without a match, a URL without a host): `fn` is called on the rows where every argument is valid
/// and says whether the row has a value. Arguments are plain operands; the result is constant when they all are.

#include <string>
#include <vector>

#include "exec/expr/kernel_util.hpp"

namespace kestrel::exec {

/// A VARCHAR (or `type`: VARBINARY) result: `fn(row, out) -> bool` appends the row's string to `out` and returns
/// true, or returns false for NULL (what it appended is dropped).
template <typename Fn>
Operand map_rows_to_string(const std::vector<Operand>& args, size_t rows, EvalContext& ctx, Fn&& fn,
                           const LogicalType& type = TypeId::kVarchar) {
  const Validity in = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = in.bitmap ? in.bitmap->as<uint8_t>() : nullptr;
  StringColumnBuilder builder(rows, 0);
  std::vector<uint8_t> out_valid(rows, 0);
  for (size_t i = 0; i < rows; ++i) {
    if (valid == nullptr || bits::get(valid, i)) {
      const size_t mark = builder.chars().size();
      out_valid[i] = fn(i, builder.chars()) ? 1 : 0;
      if (!out_valid[i]) builder.chars().resize(mark);
    }
    builder.finish_row();
  }
  Validity validity = validity_from_bytes(out_valid.data(), rows, ctx.memory());
  return Operand{builder.finish(std::move(validity), ctx.memory(), type), shape_of(args, rows).constant};
}

/// A fixed-width result of physical type T: `fn(row, value) -> bool` sets the row's value and returns true, or
/// returns false for NULL.
template <typename T, typename Fn>
Operand map_rows_to_fixed(const LogicalType& type, const std::vector<Operand>& args, size_t rows, EvalContext& ctx,
                          Fn&& fn) {
  const Validity in = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = in.bitmap ? in.bitmap->as<uint8_t>() : nullptr;
  std::vector<uint8_t> out_valid(rows, 0);
  std::vector<T> values(rows, T{});
  for (size_t i = 0; i < rows; ++i) {
    if (valid == nullptr || bits::get(valid, i)) out_valid[i] = fn(i, values[i]) ? 1 : 0;
  }
  ColumnPtr out = make_output(type, rows, validity_from_bytes(out_valid.data(), rows, ctx.memory()), ctx.memory());
  T* dst = out->mutable_data<T>();
  for (size_t i = 0; i < rows; ++i) dst[i] = values[i];
  return Operand{out, shape_of(args, rows).constant};
}

/// A NULL result of `e`'s type for every row (an argument is a NULL constant).
inline Operand null_result(const LogicalType& type, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  return Operand{materialize(null_operand(type, ctx.memory()), rows, ctx.memory()), shape_of(args, rows).constant};
}

/// True when some argument is a NULL constant.
inline bool any_null_constant(const std::vector<Operand>& args) {
  for (const Operand& a : args) {
    if (a.is_null_constant()) return true;
  }
  return false;
}

}  // namespace kestrel::exec
