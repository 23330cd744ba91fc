// try(x): x, or NULL on the rows where evaluating x raises a data error (InvalidInput). The whole batch is
// evaluated first; only when that raises are the rows split in halves, recursively, so that the rows that evaluate
// cleanly keep their values and each failing row becomes NULL. A batch with few failing rows costs a few more
// evaluations; one where most rows fail costs about one evaluation per row. try(CAST(...)) (and try_cast) casts
// in one pass instead, with failed conversions made NULL by the cast kernel.

#include <numeric>
#include <vector>

#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

/// Below this many rows a failing set is evaluated row by row rather than halved again.
constexpr size_t kRowByRow = 16;

/// Evaluates `e` on `rows` (a strict subset of `input`'s rows), recording in `src` where each row's value is: a
/// piece of `pieces`, or NULL where the evaluation raised.
void eval_isolating_errors(const plan::Expr& e, const Batch& input, const std::vector<uint32_t>& rows,
                           EvalContext& ctx, std::vector<Operand>& pieces, std::vector<RowSource>& src) {
  try {
    pieces.push_back(plain(eval_on_rows(e, input, rows, ctx), ctx));
    const auto piece = static_cast<uint32_t>(pieces.size() - 1);
    for (size_t k = 0; k < rows.size(); ++k) src[rows[k]] = RowSource{piece, static_cast<uint32_t>(k)};
    return;
  } catch (const InvalidInput&) {
    if (rows.size() == 1) return;  // stays NULL
  }
  if (rows.size() <= kRowByRow) {
    for (uint32_t row : rows) eval_isolating_errors(e, input, {row}, ctx, pieces, src);
    return;
  }
  const auto middle = rows.begin() + static_cast<std::ptrdiff_t>(rows.size() / 2);
  eval_isolating_errors(e, input, std::vector<uint32_t>(rows.begin(), middle), ctx, pieces, src);
  eval_isolating_errors(e, input, std::vector<uint32_t>(middle, rows.end()), ctx, pieces, src);
}

/// `inner` on every row of `input`, NULL on the rows where it raises.
Operand eval_or_null(const plan::Expr& inner, const Batch& input, EvalContext& ctx) {
  try {
    return eval_operand(inner, input, ctx);
  } catch (const InvalidInput&) {
  }
  const size_t rows = input.num_rows();
  std::vector<RowSource> src(rows, RowSource{kNullPiece, 0});
  std::vector<Operand> pieces;
  if (rows > 1) {
    std::vector<uint32_t> all(rows);
    std::iota(all.begin(), all.end(), 0u);
    const auto middle = all.begin() + static_cast<std::ptrdiff_t>(rows / 2);
    eval_isolating_errors(inner, input, std::vector<uint32_t>(all.begin(), middle), ctx, pieces, src);
    eval_isolating_errors(inner, input, std::vector<uint32_t>(middle, all.end()), ctx, pieces, src);
  }
  return Operand{assemble_rows(inner.type, pieces, src, ctx.memory()), false};
}

}  // namespace

Operand eval_try(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const plan::Expr& inner = *e.children[0];
  if (inner.kind == plan::ExprKind::kCast) {
    // try(CAST(x AS T)), try_cast: x under try, then a cast that makes the values that do not convert NULL, in
    // one pass however many rows fail.
    const Operand x = plain(eval_or_null(*inner.children[0], input, ctx), ctx);
    EvalContext lenient = ctx;
    lenient.cast_failures_to_null = true;
    return cast_kernel(x, inner.type, x.constant ? 1 : input.num_rows(), lenient);
  }
  return eval_or_null(inner, input, ctx);
}

}  // namespace kestrel::exec
