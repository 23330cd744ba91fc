#include <string_view>

#include "common/check.hpp"
#include "common/temporal.hpp"
#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

inline int128_t interval_order(const Interval& v) {
  return (static_cast<int128_t>(v.months) * 30 + v.days) * kMicrosPerDay + v.micros;
}

/// For each row, the argument holding the greatest (or least) non-NULL value; NULLs are skipped (PostgreSQL),
/// so the result is NULL only when every argument is.
template <typename Less>
void pick_extreme(const std::vector<Operand>& args, size_t rows, bool greatest, Less&& less,
                  std::vector<RowSource>& src) {
  for (size_t i = 0; i < rows; ++i) {
    uint32_t best = kNullPiece;
    for (uint32_t k = 0; k < args.size(); ++k) {
      if (!args[k].valid(i)) continue;
      if (best == kNullPiece || (greatest ? less(args[best], args[k], i) : less(args[k], args[best], i))) best = k;
    }
    src[i] = RowSource{best, static_cast<uint32_t>(i)};
  }
}

Operand greatest_least(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const bool greatest = e.function == ScalarFunction::kGreatest;
  std::vector<RowSource> src(rows);
  if (e.type.is_variable_width()) {
    pick_extreme(args, rows, greatest,
                 [](const Operand& a, const Operand& b, size_t i) { return a.string_at(i) < b.string_at(i); }, src);
  } else {
    dispatch_fixed(e.type, [&](auto tag) {
      using T = decltype(tag);
      auto less = [](const Operand& a, const Operand& b, size_t i) {
        const T& x = a.data<T>()[a.index(i)];
        const T& y = b.data<T>()[b.index(i)];
        if constexpr (std::is_same_v<T, Interval>) {
          return interval_order(x) < interval_order(y);
        } else if constexpr (std::is_same_v<T, TimestampTz>) {
          return x.micros < y.micros;
        } else {
          return x < y;
        }
      };
      pick_extreme(args, rows, greatest, less, src);
    });
  }
  return Operand{assemble_rows(e.type, args, src, ctx.memory()), shape_of(args, rows).constant};
}

Operand coalesce(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  // A first argument without NULLs is the answer as is.
  if (args[0].validity() == nullptr) return args[0];
  std::vector<RowSource> src(rows);
  for (size_t i = 0; i < rows; ++i) {
    src[i] = RowSource{kNullPiece, static_cast<uint32_t>(i)};
    for (uint32_t k = 0; k < args.size(); ++k) {
      if (args[k].valid(i)) {
        src[i].piece = k;
        break;
      }
    }
  }
  return Operand{assemble_rows(e.type, args, src, ctx.memory()), shape_of(args, rows).constant};
}

/// nullif(a, b): a, or NULL where a = b. Shares a's value buffers under a new validity bitmap.
Operand nullif(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  Operand eq = compare_operands(ScalarFunction::kEqual, args[0], args[1], rows, ctx);
  const Operand a = args[0].constant && rows > 1 ? Operand{materialize(args[0], rows, ctx.memory()), false} : args[0];
  std::vector<uint8_t> valid(rows);
  const uint8_t* eq_values = eq.data<uint8_t>();
  for (size_t i = 0; i < rows; ++i) {
    const bool equal = eq.valid(i) && eq_values[eq.index(i)] != 0;
    valid[i] = a.valid(i) && !equal;
  }
  Validity validity = validity_from_bytes(valid.data(), rows, ctx.memory());
  const Column& c = *a.column;
  ColumnPtr out = Column::from_buffers(c.type(), ColumnEncoding::kPlain, rows, validity.null_count,
                                       std::move(validity.bitmap), c.values(), c.offsets(), nullptr);
  return Operand{out, shape_of(args, rows).constant};
}

}  // namespace

Operand conditional_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  switch (e.function) {
    case ScalarFunction::kCoalesce: return coalesce(e, args, rows, ctx);
    case ScalarFunction::kNullIf: return nullif(e, args, rows, ctx);
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast: return greatest_least(e, args, rows, ctx);
    default: throw InternalError(std::string("conditional ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
