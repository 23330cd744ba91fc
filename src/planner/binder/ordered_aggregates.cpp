#include "planner/binder/ordered_aggregates.hpp"

#include "planner/binder/binder.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/binder/presto_collect_aggregates.hpp"
#include "planner/expression_utils.hpp"

namespace kestrel::plan {

namespace {

[[noreturn]] void no_match(const ast::FunctionCall& call, const std::vector<ExprPtr>& args) {
  std::string types;
  for (size_t i = 0; i < args.size(); ++i) types += (i ? ", " : "") + args[i]->type.to_string();
  throw BinderError("no function matches " + call.name + "(" + types + ")", call.position, "42883");
}

/// The bound constant argument `arg` as a value of `type`; BinderError at the argument when it reads columns.
Value constant_argument(const ast::Expr& arg, const ExprPtr& bound, const LogicalType& type, const std::string& what) {
  if (!is_constant_expr(*bound)) throw BinderError(what + " must be a constant", arg.position, "22023");
  return evaluate_constant_expr(*Binder::cast_to(bound, type, arg.position));
}

/// The fraction of a percentile: a constant number in [0, 1].
Value fraction_argument(const std::string& name, const ast::Expr& arg, const ExprPtr& bound) {
  const std::string what = name + ": the percentile";
  if (!bound->type.is_numeric() && bound->type.id() != TypeId::kNull) {
    throw BinderError(what + " must be a number, not " + bound->type.to_string(), arg.position, "42804");
  }
  Value f = constant_argument(arg, bound, TypeId::kDouble, what);
  if (f.is_null() || !(f.as_double() >= 0.0 && f.as_double() <= 1.0)) {
    throw BinderError(what + " must be between 0 and 1, not " + f.to_string(), arg.position, "22003");
  }
  return f;
}

/// A NULL argument as `type` (min and max do the same), anything else unchanged.
ExprPtr typed(const ExprPtr& e, TypeId type, SourcePosition pos) {
  return e->type.id() == TypeId::kNull ? Binder::cast_to(e, type, pos) : e;
}

void expect_arguments(const ast::FunctionCall& call, size_t least, size_t most, const std::string& shape) {
  if (call.args.size() < least || call.args.size() > most) {
    throw BinderError("aggregate " + call.name + " takes " + shape, call.position, "42883");
  }
}

SortKey sort_key(const ast::OrderItem& item, ExprPtr expr) {
  SortKey key;
  key.expr = std::move(expr);
  key.descending = item.direction == ast::SortDirection::kDescending;
  key.nulls_first = item.nulls == ast::NullOrder::kDefault ? key.descending : item.nulls == ast::NullOrder::kNullsFirst;
  return key;
}

/// The one key of percentile_cont / percentile_disc: WITHIN GROUP (ORDER BY x).
const ast::OrderItem& percentile_key(const ast::FunctionCall& call) {
  if (!call.within_group || call.order_by.size() != 1) {
    throw BinderError(call.name + " needs WITHIN GROUP (ORDER BY x) with one key", call.position, "42883");
  }
  if (call.distinct) throw BinderError("DISTINCT is not allowed in " + call.name, call.position, "42809");
  return call.order_by[0];
}

/// FILTER folded into an expression: CASE WHEN filter THEN e END (the rows it rejects become NULL).
ExprPtr when_filter(const ExprPtr& filter, ExprPtr e) {
  if (!filter) return e;
  const LogicalType type = e->type;
  return make_node(ExprKind::kCase, type, {filter, std::move(e), make_constant(Value::null(type))});
}

void bind_max_by(const ast::FunctionCall& call, const std::vector<ExprPtr>& args, const ExprPtr& filter,
                 AggregateCall& a) {
  a.function = call.name == "max_by" ? AggregateFunction::kMaxBy : AggregateFunction::kMinBy;
  a.argument = typed(args[0], TypeId::kInteger, call.position);
  a.result_type = a.argument->type;
  // Rows FILTER rejects get a NULL y, which max_by skips (a NULL x is a value, so x cannot carry the filter).
  SortKey y;
  y.expr = when_filter(filter, typed(args[1], TypeId::kInteger, call.position));
  y.descending = a.function == AggregateFunction::kMaxBy;
  a.order.push_back(std::move(y));
  // DISTINCT pairs give the same row: ties are broken by x, so repeats never change the result.
  a.distinct = false;
}

/// The ORDER BY keys of string_agg and array_agg over the bound argument `x` (a.argument set already).
void add_order_keys(const ast::FunctionCall& call, const Expr& x,
                    const std::function<ExprPtr(const ast::Expr&)>& bind_input, AggregateCall& a) {
  for (const ast::OrderItem& item : call.order_by) {
    SortKey key = sort_key(item, bind_input(*item.expr));
    if (a.distinct && key.expr->to_string() != x.to_string()) {
      throw BinderError("in an aggregate with DISTINCT, ORDER BY expressions must appear in the argument list",
                        item.expr->position, "42P10");
    }
    // With DISTINCT the key is the argument itself (FILTER included), which the DISTINCT rows carry.
    if (a.distinct) key.expr = a.argument;
    a.order.push_back(std::move(key));
  }
}

void bind_string_agg(const ast::FunctionCall& call, const std::vector<ExprPtr>& args,
                     const std::function<ExprPtr(const ast::Expr&)>& bind_input, const ExprPtr& filter,
                     AggregateCall& a) {
  const LogicalType varchar = TypeId::kVarchar;
  for (const ExprPtr& e : args) {
    if (e->type.id() != TypeId::kVarchar && e->type.id() != TypeId::kNull) no_match(call, args);
  }
  a.function = AggregateFunction::kStringAgg;
  a.argument = when_filter(filter, typed(args[0], TypeId::kVarchar, call.position));
  a.result_type = varchar;
  a.parameter = args.size() > 1 ? constant_argument(*call.args[1], args[1], varchar, call.name + ": the separator")
                : call.name == "listagg" ? Value::varchar("")
                                         : Value::varchar(",");
  add_order_keys(call, *args[0], bind_input, a);
}

/// array_agg(x [ORDER BY ...]) and map_agg(k, v): every row's value (NULLs included), so FILTER is applied by the
/// aggregation; map_agg reads ROW(key, value) values.
void bind_collecting(const ast::FunctionCall& call, const std::vector<ExprPtr>& args,
                     const std::function<ExprPtr(const ast::Expr&)>& bind_input, const ExprPtr& filter,
                     AggregateCall& a) {
  a.filter = filter;
  if (call.name == "map_agg") {
    const ExprPtr key = typed(args[0], TypeId::kInteger, call.position);
    const ExprPtr value = typed(args[1], TypeId::kInteger, call.position);
    const LogicalType map = LogicalType::map(key->type, value->type);
    a.function = AggregateFunction::kMapAgg;
    a.argument = make_function(ScalarFunction::kRowConstructor, map.element_type(), {key, value});
    a.result_type = map;
    a.distinct = false;  // repeated keys keep one value anyway
    return;
  }
  a.function = AggregateFunction::kArrayAgg;
  a.argument = typed(args[0], TypeId::kInteger, call.position);
  a.result_type = LogicalType::array(a.argument->type);
  add_order_keys(call, *args[0], bind_input, a);
}

/// median, percentile_cont, percentile_disc and approx_percentile: the argument x, its direction and the fraction.
void bind_percentile(const ast::FunctionCall& call, const std::vector<ExprPtr>& args,
                     const std::function<ExprPtr(const ast::Expr&)>& bind_input, const ExprPtr& filter,
                     AggregateCall& a) {
  const bool continuous = call.name == "median" || call.name == "percentile_cont";
  a.function = continuous ? AggregateFunction::kPercentileCont : AggregateFunction::kPercentileDisc;
  ExprPtr x;
  bool descending = false;
  if (call.name == "median") {
    x = args[0];
    a.parameter = Value::double_value(0.5);
  } else if (call.name == "approx_percentile") {
    x = args[0];
    a.parameter = fraction_argument(call.name, *call.args[1], args[1]);
  } else {
    const ast::OrderItem& key = percentile_key(call);
    x = bind_input(*key.expr);
    descending = key.direction == ast::SortDirection::kDescending;
    a.parameter = fraction_argument(call.name, *call.args[0], args[0]);
  }
  const bool numeric = x->type.is_numeric() || x->type.id() == TypeId::kNull;
  // percentile_disc returns one of the values, so it takes any ordered type; the others need numbers.
  if (!numeric && call.name != "percentile_disc") {
    throw BinderError("no function matches " + call.name + "(" + x->type.to_string() + ")", call.position, "42883");
  }
  x = continuous ? Binder::cast_to(x, TypeId::kDouble, call.position) : typed(x, TypeId::kInteger, call.position);
  a.argument = when_filter(filter, x);
  a.result_type = a.argument->type;
  SortKey key;
  key.expr = a.argument;
  key.descending = descending;
  a.order.push_back(std::move(key));
}

}  // namespace

bool is_ordered_aggregate_name(const std::string& name) {
  return name == "max_by" || name == "min_by" || name == "string_agg" || name == "listagg" || name == "median" ||
         name == "percentile_cont" || name == "percentile_disc" || name == "approx_percentile" ||
         name == "checksum" || name == "array_agg" || name == "map_agg" || is_collecting_aggregate_name(name);
}

bool takes_within_group(const std::string& name) {
  return name == "percentile_cont" || name == "percentile_disc" || name == "listagg";
}

AggregateCall bind_ordered_aggregate(const ast::FunctionCall& call,
                                     const std::function<ExprPtr(const ast::Expr&)>& bind_input,
                                     const ExprPtr& filter) {
  const std::string& name = call.name;
  if (is_collecting_aggregate_name(name)) {
    if (call.within_group || !call.order_by.empty()) {
      throw BinderError(std::string(call.within_group ? "WITHIN GROUP" : "ORDER BY") + " is not allowed in " + name,
                        call.order_by[0].expr->position, "42601");
    }
    return bind_collecting_aggregate(call, bind_input, filter);
  }
  if (name == "max_by" || name == "min_by") {
    expect_arguments(call, 2, 2, "two arguments (x, y)");
  } else if (name == "string_agg" || name == "listagg") {
    expect_arguments(call, 1, 2, "one or two arguments (x[, separator])");
  } else if (name == "map_agg") {
    expect_arguments(call, 2, 2, "two arguments (key, value)");
  } else if (name == "approx_percentile") {
    if (call.args.size() == 3 || call.args.size() == 4) {
      throw NotImplemented("approx_percentile with weights or an accuracy is not supported", call.position);
    }
    expect_arguments(call, 2, 2, "two arguments (x, percentage)");
  } else if (name == "percentile_cont" || name == "percentile_disc") {
    expect_arguments(call, 1, 1, "one argument, the percentile, and WITHIN GROUP (ORDER BY x)");
  } else {
    expect_arguments(call, 1, 1, "one argument");
  }
  if (call.within_group && !takes_within_group(name)) {
    throw BinderError("WITHIN GROUP is not allowed in " + name, call.order_by[0].expr->position, "42601");
  }
  if (!call.order_by.empty() && name != "string_agg" && name != "array_agg" && !takes_within_group(name)) {
    throw BinderError("ORDER BY is not allowed in " + name, call.order_by[0].expr->position, "42601");
  }
  std::vector<ExprPtr> args;
  for (const auto& arg : call.args) args.push_back(bind_input(*arg));
  AggregateCall a;
  a.distinct = call.distinct;
  if (name == "max_by" || name == "min_by") {
    bind_max_by(call, args, filter, a);
  } else if (name == "string_agg" || name == "listagg") {
    bind_string_agg(call, args, bind_input, filter, a);
  } else if (name == "array_agg" || name == "map_agg") {
    bind_collecting(call, args, bind_input, filter, a);
  } else if (name == "checksum") {
    a.function = AggregateFunction::kChecksum;
    a.argument = typed(args[0], TypeId::kInteger, call.position);
    a.result_type = TypeId::kBigInt;
    a.filter = filter;  // NULL arguments count, so FILTER cannot turn rows into NULLs
  } else {
    bind_percentile(call, args, bind_input, filter, a);
  }
  return a;
}

}  // namespace kestrel::plan
