#include "planner/binder/presto_aggregates.hpp"

#include <limits>

#include "planner/binder/binder.hpp"

namespace kestrel::plan {

namespace {

[[noreturn]] void no_match(const std::string& name, const LogicalType& t, std::optional<SourcePosition> pos) {
  throw BinderError("no function matches " + name + "(" + t.to_string() + ")", pos, "42883");
}

/// The BOOLEAN argument of count_if, bool_and, bool_or and every (an untyped NULL becomes a BOOLEAN NULL).
ExprPtr boolean_argument(const std::string& name, const ExprPtr& argument, std::optional<SourcePosition> pos) {
  const LogicalType t = argument->type;
  if (t.id() == TypeId::kNull) return Binder::cast_to(argument, TypeId::kBoolean, pos);
  if (t.id() != TypeId::kBoolean) no_match(name, t, pos);
  return argument;
}

/// ln(x) as Presto's geometric_mean takes it: -Infinity for 0, NaN for negative numbers, NULL for NULL. The CASE
/// evaluates ln only on rows where x > 0, so ln's errors for 0 and negative numbers cannot happen.
ExprPtr presto_ln(const ExprPtr& x) {
  const LogicalType boolean = TypeId::kBoolean;
  const LogicalType dbl = TypeId::kDouble;
  ExprPtr zero = make_constant(Value::double_value(0.0));
  return make_node(ExprKind::kCase, dbl,
                   {make_function(ScalarFunction::kGreater, boolean, {x, zero}),
                    make_function(ScalarFunction::kLn, dbl, {x}),
                    make_function(ScalarFunction::kEqual, boolean, {x, zero}),
                    make_constant(Value::double_value(-std::numeric_limits<double>::infinity())),
                    make_node(ExprKind::kIsNotNull, boolean, {x}),
                    make_constant(Value::double_value(std::numeric_limits<double>::quiet_NaN())),
                    make_constant(Value::null(dbl))});
}

}  // namespace

bool is_presto_aggregate_name(const std::string& name) {
  return name == "count_if" || name == "bool_and" || name == "bool_or" || name == "every" ||
         name == "geometric_mean";
}

bool resolve_presto_aggregate(const std::string& name, const ExprPtr& argument, std::optional<SourcePosition> pos,
                              AggregateCall& a) {
  if (name == "count_if") {
    // Counts the rows where the argument is TRUE: FALSE and NULL become NULL, which count skips.
    ExprPtr b = boolean_argument(name, argument, pos);
    a.function = AggregateFunction::kCount;
    a.argument = make_node(ExprKind::kCase, TypeId::kBoolean,
                           {std::move(b), make_constant(Value::boolean(true)),
                            make_constant(Value::null(TypeId::kBoolean))});
    a.result_type = TypeId::kBigInt;
  } else if (name == "bool_and" || name == "every" || name == "bool_or") {
    a.function = name == "bool_or" ? AggregateFunction::kMax : AggregateFunction::kMin;
    a.argument = boolean_argument(name, argument, pos);
    a.result_type = TypeId::kBoolean;
  } else if (name == "geometric_mean") {
    const LogicalType t = argument->type;
    if (t.id() != TypeId::kNull && !t.is_numeric()) no_match(name, t, pos);
    a.function = AggregateFunction::kAvg;
    a.argument = presto_ln(Binder::cast_to(argument, TypeId::kDouble, pos));
    a.result_type = TypeId::kDouble;
  } else {
    return false;
  }
  return true;
}

ExprPtr finish_presto_aggregate(const std::string& name, ExprPtr result) {
  if (name != "geometric_mean") return result;
  return make_function(ScalarFunction::kExp, TypeId::kDouble, {std::move(result)});
}

}  // namespace kestrel::plan
