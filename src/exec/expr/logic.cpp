#include <algorithm>
#include <cstring>
#include <vector>

#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

/// AND / OR of operands without NULLs: a plain byte loop per operand.
Operand logic_without_nulls(bool is_and, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, Validity{}, ctx.memory());
  uint8_t* r = out->mutable_data<uint8_t>();
  std::memset(r, is_and ? 1 : 0, rows);
  for (const Operand& a : args) {
    const uint8_t* v = a.data<uint8_t>();
    if (a.constant) {
      const uint8_t c = v[0] != 0;
      for (size_t i = 0; i < rows; ++i) r[i] = is_and ? (r[i] & c) : (r[i] | c);
    } else if (is_and) {
      for (size_t i = 0; i < rows; ++i) r[i] &= static_cast<uint8_t>(v[i] != 0);
    } else {
      for (size_t i = 0; i < rows; ++i) r[i] |= static_cast<uint8_t>(v[i] != 0);
    }
  }
  return Operand{out, shape_of(args, rows).constant};
}

}  // namespace

Operand logic_kernel(bool is_and, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const bool any_null = std::any_of(args.begin(), args.end(), [](const Operand& a) {
    return a.constant ? !a.valid(0) : a.validity() != nullptr;
  });
  if (!any_null) return logic_without_nulls(is_and, args, rows, ctx);
  // AND: false wins over NULL, NULL over true. OR: true wins over NULL, NULL over false. `decided` marks rows
  // where some argument is the winning value; `unknown` rows where some argument is NULL.
  std::vector<uint8_t> decided(rows, 0);
  std::vector<uint8_t> unknown(rows, 0);
  const uint8_t winner = is_and ? 0 : 1;
  for (const Operand& a : args) {
    const uint8_t* v = a.data<uint8_t>();
    const uint8_t* valid = a.validity();
    if (a.constant) {
      const bool ok = a.valid(0);
      const bool wins = ok && (v[0] != 0) == (winner != 0);
      for (size_t i = 0; i < rows; ++i) {
        decided[i] |= wins;
        unknown[i] |= !ok;
      }
    } else if (valid == nullptr) {
      for (size_t i = 0; i < rows; ++i) decided[i] |= (v[i] != 0) == (winner != 0);
    } else {
      for (size_t i = 0; i < rows; ++i) {
        const bool ok = bits::get(valid, i);
        decided[i] |= ok && (v[i] != 0) == (winner != 0);
        unknown[i] |= !ok;
      }
    }
  }
  std::vector<uint8_t> valid(rows);
  for (size_t i = 0; i < rows; ++i) valid[i] = decided[i] | !unknown[i];
  Validity validity = validity_from_bytes(valid.data(), rows, ctx.memory());
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, std::move(validity), ctx.memory());
  uint8_t* r = out->mutable_data<uint8_t>();
  // Decided rows take the winning value, all others the losing one (their NULL rows are masked by validity).
  for (size_t i = 0; i < rows; ++i) r[i] = decided[i] ? winner : static_cast<uint8_t>(1 - winner);
  return Operand{out, shape_of(args, rows).constant};
}

Operand not_kernel(const Operand& arg, size_t rows, EvalContext& ctx) {
  Validity validity = and_validity({&arg}, rows, ctx.memory());
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, std::move(validity), ctx.memory());
  const uint8_t* v = arg.data<uint8_t>();
  uint8_t* r = out->mutable_data<uint8_t>();
  for (size_t i = 0; i < rows; ++i) r[i] = v[i] == 0;
  return Operand{out, arg.constant};
}

Operand is_null_kernel(const Operand& arg, bool want_null, size_t rows, EvalContext& ctx) {
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, Validity{}, ctx.memory());
  uint8_t* r = out->mutable_data<uint8_t>();
  for (size_t i = 0; i < rows; ++i) r[i] = arg.valid(i) != want_null;
  return Operand{out, arg.constant};
}

}  // namespace kestrel::exec
