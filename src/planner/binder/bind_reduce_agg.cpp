// reduce_agg, bound as the reduce of the group's array_agg (expr_binder.hpp).

#include "parser/ast/clone.hpp"
#include "parser/ast/column_ref.hpp"
#include "parser/ast/operator_expr.hpp"
#include "parser/ast/predicate.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/expression_utils.hpp"

namespace kestrel::plan {

ExprPtr ExprBinder::bind_reduce_agg(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  const SourcePosition pos = call.position;
  if (call.args.size() != 4 || call.star) {
    throw BinderError("aggregate reduce_agg takes four arguments (x, initial_state, input_function, "
                      "combine_function)",
                      pos, "42883");
  }
  if (call.distinct || !call.order_by.empty()) {
    throw NotImplemented(std::string(call.distinct ? "DISTINCT" : "ORDER BY") + " in reduce_agg is not supported", pos);
  }
  // Presto raises an error for a NULL initial state.
  {
    ExprBindContext input = ctx.aggregate->input("reduce_agg's initial state");
    const ExprPtr initial = bind(*call.args[1], input);
    if (initial->kind == ExprKind::kConstant && initial->constant.is_null()) {
      throw BinderError("reduce_agg: the initial state must not be NULL", call.args[1]->position, "22023");
    }
  }
  // array_agg(x) FILTER (WHERE x IS NOT NULL [AND filter]): the values the input function folds, in arrival order.
  auto values = std::make_unique<ast::FunctionCall>(pos);
  values->name = "array_agg";
  values->args.push_back(ast::clone(*call.args[0]));
  auto not_null = std::make_unique<ast::IsTest>(pos);
  not_null->operand = ast::clone(*call.args[0]);
  not_null->test = ast::IsTestKind::kNull;
  not_null->negated = true;
  if (call.filter) {
    auto both = std::make_unique<ast::Conjunction>(pos);
    both->operands.push_back(std::move(not_null));
    both->operands.push_back(ast::clone(*call.filter));
    values->filter = std::move(both);
  } else {
    values->filter = std::move(not_null);
  }
  // reduce(values, initial, input_function, state -> state)
  auto identity = std::make_unique<ast::FunctionCall>(pos);
  identity->name = ast::kLambdaName;
  for (int i = 0; i < 2; ++i) {
    auto param = std::make_unique<ast::ColumnRef>(pos);
    param->names = {"$state"};
    identity->args.push_back(std::move(param));
  }
  ast::FunctionCall reduce(pos);
  reduce.name = "reduce";
  reduce.args.push_back(std::move(values));
  reduce.args.push_back(ast::clone(*call.args[1]));
  reduce.args.push_back(ast::clone(*call.args[2]));
  reduce.args.push_back(std::move(identity));
  return bind(reduce, ctx);
}

}  // namespace kestrel::plan
