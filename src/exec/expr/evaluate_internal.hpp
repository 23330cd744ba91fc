#pragma once
/// The recursive core of the CPU evaluator, shared by evaluate.cpp and the node kinds that evaluate their
/// children selectively (CASE).

#include <cstdint>
#include <vector>

#include "exec/expr/kernel_util.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

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

/// transform, filter and reduce: the array argument evaluated, then the lambda's body over its elements
/// (lambda_funcs.cpp).
Operand eval_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx);

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
