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
         name == "geometric_mean" || name == "approx_distinct";
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
  } else if (name == "approx_distinct") {
    // Computed exactly: count(DISTINCT x) is within any error bound Presto's HyperLogLog promises.
    a.function = AggregateFunction::kCount;
    a.distinct = true;
    a.argument = argument;
    a.result_type = TypeId::kBigInt;
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

bool is_pair_aggregate_name(const std::string& name) {
  return name == "corr" || name == "covar_pop" || name == "covar_samp" || name == "regr_slope" ||
         name == "regr_intercept" || name == "regr_count" || name == "regr_avgx" || name == "regr_avgy" ||
         name == "regr_sxx" || name == "regr_syy" || name == "regr_sxy" || name == "regr_r2";
}

ExprPtr bind_pair_aggregate(const std::string& name, const ExprPtr& y, const ExprPtr& x,
                            std::optional<SourcePosition> pos, const std::function<ExprPtr(AggregateCall)>& add) {
  const LogicalType dbl = TypeId::kDouble;
  const LogicalType boolean = TypeId::kBoolean;
  for (const ExprPtr& e : {y, x}) {
    if (e->type.id() != TypeId::kNull && !e->type.is_numeric()) {
      throw BinderError("no function matches " + name + "(" + y->type.to_string() + ", " + x->type.to_string() + ")",
                        pos, "42883");
    }
  }
  const ExprPtr yd = Binder::cast_to(y, dbl, pos);
  const ExprPtr xd = Binder::cast_to(x, dbl, pos);
  // Only pairs where both are present count: each sum reads CASE WHEN both THEN value END.
  const ExprPtr both = make_node(ExprKind::kAnd, boolean,
                                 {make_node(ExprKind::kIsNotNull, boolean, {yd}),
                                  make_node(ExprKind::kIsNotNull, boolean, {xd})});
  auto when_both = [&](ExprPtr v) {
    const LogicalType t = v->type;
    return make_node(ExprKind::kCase, t, {both, std::move(v), make_constant(Value::null(t))});
  };
  auto sum = [&](ExprPtr v) {
    AggregateCall a;
    a.function = AggregateFunction::kSum;
    a.argument = when_both(std::move(v));
    a.result_type = dbl;
    return add(std::move(a));
  };
  auto fn = [&](ScalarFunction f, ExprPtr l, ExprPtr r) { return make_function(f, dbl, {std::move(l), std::move(r)}); };
  auto mul = [&](ExprPtr l, ExprPtr r) { return fn(ScalarFunction::kMultiply, std::move(l), std::move(r)); };
  auto sub = [&](ExprPtr l, ExprPtr r) { return fn(ScalarFunction::kSubtract, std::move(l), std::move(r)); };
  auto div = [&](ExprPtr l, ExprPtr r) { return fn(ScalarFunction::kDivide, std::move(l), std::move(r)); };
  auto number = [](double v) { return make_constant(Value::double_value(v)); };

  AggregateCall count;
  count.function = AggregateFunction::kCount;
  count.argument = when_both(make_constant(Value::integer(1)));
  count.result_type = TypeId::kBigInt;
  const ExprPtr n_count = add(std::move(count));
  if (name == "regr_count") return n_count;
  const ExprPtr n = Binder::cast_to(n_count, dbl, pos);
  // value when n >= least, else NULL
  auto at_least = [&](double least, ExprPtr value) {
    const LogicalType t = value->type;
    return make_node(ExprKind::kCase, t,
                     {make_function(ScalarFunction::kGreaterEqual, boolean, {n, number(least)}), std::move(value),
                      make_constant(Value::null(t))});
  };
  const ExprPtr sx = sum(xd), sy = sum(yd);
  if (name == "regr_avgx") return at_least(1, div(sx, n));
  if (name == "regr_avgy") return at_least(1, div(sy, n));
  // Sxy - Sx*Sy/n and the like: n times the population (co)variance.
  auto centered = [&](const ExprPtr& a, const ExprPtr& b, const ExprPtr& sab) { return sub(sab, div(mul(a, b), n)); };
  if (name == "regr_sxx") return at_least(1, centered(sx, sx, sum(mul(xd, xd))));
  if (name == "regr_syy") return at_least(1, centered(sy, sy, sum(mul(yd, yd))));
  const ExprPtr cxy = centered(sx, sy, sum(mul(xd, yd)));
  if (name == "regr_sxy") return at_least(1, cxy);
  if (name == "covar_pop") return at_least(1, div(cxy, n));
  if (name == "covar_samp") return at_least(2, div(cxy, sub(n, number(1))));
  const ExprPtr cxx = centered(sx, sx, sum(mul(xd, xd)));
  // NULL for a constant x (no slope), as for fewer than two pairs.
  auto unless_constant_x = [&](ExprPtr value) {
    const LogicalType t = value->type;
    return make_node(ExprKind::kCase, t,
                     {make_function(ScalarFunction::kLess, boolean, {n, number(2)}), make_constant(Value::null(t)),
                      make_function(ScalarFunction::kEqual, boolean, {cxx, number(0)}), make_constant(Value::null(t)),
                      std::move(value)});
  };
  const ExprPtr slope = div(cxy, cxx);
  if (name == "regr_slope") return unless_constant_x(slope);
  if (name == "regr_intercept") return unless_constant_x(div(sub(sy, mul(slope, sx)), n));
  const ExprPtr cyy = centered(sy, sy, sum(mul(yd, yd)));
  if (name == "corr") {
    // NaN when x or y is constant (0 / 0), as the floating-point formula gives; never a division error.
    const ExprPtr spread = mul(cxx, cyy);
    return at_least(2, make_node(ExprKind::kCase, dbl,
                                 {make_function(ScalarFunction::kEqual, boolean, {spread, number(0)}),
                                  number(std::numeric_limits<double>::quiet_NaN()),
                                  div(cxy, make_function(ScalarFunction::kSqrt, dbl, {spread}))}));
  }
  // regr_r2: NULL for a constant x, 1 for a constant y, else corr squared.
  const ExprPtr r2 = div(mul(cxy, cxy), mul(cxx, cyy));
  return unless_constant_x(make_node(ExprKind::kCase, dbl,
                                     {make_function(ScalarFunction::kEqual, boolean, {cyy, number(0)}), number(1),
                                      r2}));
}

ExprPtr finish_presto_aggregate(const std::string& name, ExprPtr result) {
  if (name != "geometric_mean") return result;
  return make_function(ScalarFunction::kExp, TypeId::kDouble, {std::move(result)});
}

}  // namespace kestrel::plan
