// CPU evaluation of transform, filter and reduce, and the evaluation of a lambda's body that the other lambda
// functions share: the body runs once over all the elements of a batch, on a batch whose rows are the elements (the
// input's columns and the outer lambdas' parameters repeated for each element of their row).

#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

void mark_columns(const plan::Expr& e, std::vector<uint8_t>& used) {
  if (e.kind == plan::ExprKind::kColumnRef && e.column_index < used.size()) used[e.column_index] = 1;
  for (const plan::ExprPtr& c : e.children) mark_columns(*c, used);
}

/// `input` with one row per entry of `rows` (row rows[i] of input), and the lambda parameters of `ctx` likewise.
/// Only the columns `lambda` reads are gathered; the others are placeholders without buffers.
Batch expand(const plan::Expr& lambda, const Batch& input, const RowIndices& rows, EvalContext& ctx) {
  for (ColumnPtr& arg : ctx.lambda_args) arg = gather_column(*arg, rows, ctx.memory());
  std::vector<uint8_t> used(input.num_columns(), 0);
  mark_columns(lambda, used);
  std::vector<ColumnPtr> columns(input.num_columns());
  for (size_t c = 0; c < columns.size(); ++c) {
    columns[c] = used[c] ? gather_column(*input.column(c), rows, ctx.memory())
                         : Column::from_buffers(input.column(c)->type(), ColumnEncoding::kPlain, rows.size(), 0,
                                                nullptr, nullptr, nullptr, nullptr);
  }
  return Batch(input.schema(), std::move(columns), rows.size(), gpu::MemoryKind::kHost);
}

/// Evaluates `lambda`'s body over `batch` with `params` as its parameters; a column of batch.num_rows() rows.
ColumnPtr apply(const plan::Expr& lambda, const Batch& batch, std::vector<ColumnPtr> params, EvalContext& ctx) {
  for (ColumnPtr& p : params) ctx.lambda_args.push_back(std::move(p));
  return materialize(eval_operand(*lambda.children[0], batch, ctx), batch.num_rows(), ctx.memory());
}

/// Restores the lambda parameters of a context when a lambda's evaluation ends.
struct SavedArgs {
  explicit SavedArgs(EvalContext& c) : ctx(c), args(c.lambda_args) {}
  ~SavedArgs() { ctx.lambda_args = std::move(args); }
  EvalContext& ctx;
  std::vector<ColumnPtr> args;
};

}  // namespace

ColumnPtr eval_lambda_body(const plan::Expr& lambda, const Batch& input, const RowIndices& row_of,
                           std::vector<ColumnPtr> params, EvalContext& ctx) {
  SavedArgs saved(ctx);
  const Batch batch = expand(lambda, input, row_of, ctx);
  return apply(lambda, batch, std::move(params), ctx);
}

namespace {

Operand transform_or_filter(const plan::Expr& e, const Operand& array, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const ListReader list(array);
  RowIndices row_of, element;
  for (size_t r = 0; r < rows; ++r) {
    if (!list.valid(r)) continue;
    for (int64_t i = list.begin(r); i < list.end(r); ++i) {
      row_of.push_back(static_cast<uint32_t>(r));
      element.push_back(static_cast<uint32_t>(i));
    }
  }
  ColumnPtr values = gather_column(list.child(), element, ctx.memory());
  const ColumnPtr result = eval_lambda_body(*e.children[1], input, row_of, {values}, ctx);
  ListBuilder out(rows);
  size_t k = 0;
  for (size_t r = 0; r < rows; ++r) {
    const bool valid = list.valid(r);
    for (int64_t i = valid ? list.begin(r) : 0; valid && i < list.end(r); ++i, ++k) {
      const bool keep = e.function == F::kTransform ||
                        (result->is_valid(k) && result->data<uint8_t>()[k] != 0);
      if (keep) out.add(static_cast<uint32_t>(k));
    }
    out.finish_row(r, valid);
  }
  return Operand{out.finish(e.type, e.function == F::kTransform ? *result : *values, ctx.memory()), false};
}

Operand reduce(const plan::Expr& e, const Operand& array, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const ListReader list(array);
  ColumnPtr state = materialize(eval_operand(*e.children[1], input, ctx), rows, ctx.memory());
  int64_t longest = 0;
  for (size_t r = 0; r < rows; ++r) longest = std::max(longest, list.valid(r) ? list.size(r) : 0);
  // Step k folds element k of every row that has one into that row's state.
  for (int64_t k = 0; k < longest; ++k) {
    RowIndices active, element;
    for (size_t r = 0; r < rows; ++r) {
      if (list.valid(r) && list.size(r) > k) {
        active.push_back(static_cast<uint32_t>(r));
        element.push_back(static_cast<uint32_t>(list.begin(r) + k));
      }
    }
    const ColumnPtr next = eval_lambda_body(
        *e.children[2], input, active,
        {gather_column(*state, active, ctx.memory()), gather_column(list.child(), element, ctx.memory())}, ctx);
    std::vector<RowSource> src(rows);
    for (size_t r = 0; r < rows; ++r) src[r] = RowSource{0, static_cast<uint32_t>(r)};
    for (size_t i = 0; i < active.size(); ++i) src[active[i]] = RowSource{1, static_cast<uint32_t>(i)};
    state = assemble_rows(state->type(), {Operand{state, false}, Operand{next, false}}, src, ctx.memory());
  }
  ColumnPtr result;
  {
    SavedArgs saved(ctx);
    result = apply(*e.children[3], input, {state}, ctx);
  }
  // A NULL array gives NULL.
  RowIndices keep(rows);
  for (size_t r = 0; r < rows; ++r) keep[r] = list.valid(r) ? static_cast<uint32_t>(r) : kNullRow;
  return Operand{gather_column(*result, keep, ctx.memory()), false};
}

}  // namespace

Operand eval_list_argument(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const Operand value = plain(eval_operand(e, input, ctx), ctx);
  return Operand{materialize(value, input.num_rows(), ctx.memory()), false};
}

LambdaArgsScope::LambdaArgsScope(EvalContext& ctx, const std::vector<uint32_t>& rows)
    : ctx_(ctx), saved_(ctx.lambda_args) {
  const RowIndices indices(rows.begin(), rows.end());
  for (ColumnPtr& arg : ctx.lambda_args) arg = gather_column(*arg, indices, ctx.memory());
}

Operand eval_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  if (e.function != F::kTransform && e.function != F::kFilter && e.function != F::kReduce) {
    return more_lambda_function(e, input, ctx);
  }
  const Operand array = eval_list_argument(*e.children[0], input, ctx);
  if (e.function == F::kReduce) return reduce(e, array, input, ctx);
  return transform_or_filter(e, array, input, ctx);
}

}  // namespace kestrel::exec
