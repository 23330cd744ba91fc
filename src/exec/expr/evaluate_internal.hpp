#pragma once
/// The recursive core of the CPU evaluator, shared by evaluate.cpp and the node kinds that evaluate their
/// children selectively (CASE).

#include <cstdint>
#include <vector>

#include "exec/expr/kernel_util.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

/// Evaluates `e` on `input`; a constant result is a one-row operand.
Operand eval_operand(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// Evaluates `e` on the rows `rows` of `input` only (so that rows not selected cannot raise errors); the result
/// has rows.size() rows (or is constant).
Operand eval_on_rows(const plan::Expr& e, const Batch& input, const std::vector<uint32_t>& rows, EvalContext& ctx);

/// True when evaluating `e` may throw on some data (overflow, division by zero, failed casts, domain errors); false
/// under try(), which turns those errors into NULL.
bool can_raise(const plan::Expr& e);

/// try(x): x, or NULL on the rows where evaluating x raises InvalidInput (try_eval.cpp).
Operand eval_try(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// CASE WHEN ... THEN ... ELSE ... END, evaluating every THEN/ELSE only on the rows that take it.
Operand eval_case(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// AND / OR with SQL NULL semantics, left to right: an operand that may raise is evaluated only on the rows
/// whose result it can still change (PostgreSQL's `x <> 0 AND 10 / x > 1` raises nothing).
Operand eval_logic(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// x IN (a, b, ...) as x = a OR x = b ... when an item after the first may raise (so that, evaluated as that OR, it
/// runs only on the rows not matched yet); null otherwise.
plan::ExprPtr lazy_in_list(const plan::Expr& e);

/// x IN (a, b, ...) with SQL NULL semantics; an item that may raise is evaluated only on rows not matched yet.
Operand eval_in_list(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// The functions with lambda arguments (plan::is_lambda_function): the array or map argument evaluated, then the
/// lambda's body over its elements (lambda_funcs.cpp for transform, filter and reduce).
Operand eval_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// The other lambda functions (all_match, find_first, array_max_by, zip_with, map_filter, transform_keys, ...):
/// lambda_more_funcs.cpp and map_lambda_funcs.cpp.
Operand more_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx);
/// map_filter, transform_keys, transform_values and map_zip_with (map_lambda_funcs.cpp).
Operand map_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// The body of `lambda` evaluated once per element: element i belongs to row row_of[i] of `input` (whose columns the
/// body may read) and `params` hold the lambda's parameters, one row per element. A column of row_of.size() rows.
ColumnPtr eval_lambda_body(const plan::Expr& lambda, const Batch& input, const RowIndices& row_of,
                           std::vector<ColumnPtr> params, EvalContext& ctx);

/// The ARRAY or MAP argument `e` of a lambda function, evaluated and made a plain column of input.num_rows() rows.
Operand eval_list_argument(const plan::Expr& e, const Batch& input, EvalContext& ctx);

/// While alive, the lambda parameters of `ctx` hold only `rows` of their values (then they are restored).
class LambdaArgsScope {
 public:
  LambdaArgsScope(EvalContext& ctx, const std::vector<uint32_t>& rows);
  ~LambdaArgsScope() { ctx_.lambda_args = std::move(saved_); }
  LambdaArgsScope(const LambdaArgsScope&) = delete;
  LambdaArgsScope& operator=(const LambdaArgsScope&) = delete;

 private:
  EvalContext& ctx_;
  std::vector<ColumnPtr> saved_;
};

}  // namespace kestrel::exec
