#include "planner/binder/expr_binder.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/decimal.hpp"
#include "common/json_text.hpp"
#include "common/temporal.hpp"
#include "common/time_zone.hpp"
#include "planner/binder/ordered_aggregates.hpp"
#include "planner/binder/presto_aggregates.hpp"
#include "planner/functions/function_registry.hpp"
#include "planner/functions/resolve_function.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

namespace {

ConstantEvaluator& constant_evaluator() {
  static ConstantEvaluator evaluator;
  return evaluator;
}

bool is_string_literal(const ast::Expr* e) {
  return e != nullptr && e->is<ast::Literal>() && e->as<ast::Literal>().literal_kind == ast::LiteralKind::kString;
}

/// Whether `f` prints as an operator (`||`, `%`) although a call by name (concat, mod) can reach it too.
bool prints_as_operator(ScalarFunction f) {
  const std::string name = scalar_function_name(f);
  return !name.empty() && !(name[0] >= 'a' && name[0] <= 'z');
}

/// The error for a call of `name` whose argument types no signature takes: `no function matches concat(VARBINARY,
/// VARCHAR)`. (Resolution names the operator the function prints as, which the query did not write.)
BinderError no_function_matches(const std::string& name, const std::vector<LogicalType>& types,
                                std::optional<SourcePosition> pos) {
  std::string message = "no function matches " + name + "(";
  for (size_t i = 0; i < types.size(); ++i) message += (i ? ", " : "") + types[i].to_string();
  return BinderError(message + ")", pos, "42883");
}

ScalarFunction comparison_function(ast::BinaryOperator op) {
  switch (op) {
    case ast::BinaryOperator::kEqual: return ScalarFunction::kEqual;
    case ast::BinaryOperator::kNotEqual: return ScalarFunction::kNotEqual;
    case ast::BinaryOperator::kLess: return ScalarFunction::kLess;
    case ast::BinaryOperator::kLessEqual: return ScalarFunction::kLessEqual;
    case ast::BinaryOperator::kGreater: return ScalarFunction::kGreater;
    case ast::BinaryOperator::kGreaterEqual: return ScalarFunction::kGreaterEqual;
    default: break;
  }
  throw InternalError("not a comparison operator");
}

ScalarFunction arithmetic_function(ast::BinaryOperator op) {
  switch (op) {
    case ast::BinaryOperator::kAdd: return ScalarFunction::kAdd;
    case ast::BinaryOperator::kSubtract: return ScalarFunction::kSubtract;
    case ast::BinaryOperator::kMultiply: return ScalarFunction::kMultiply;
    case ast::BinaryOperator::kDivide: return ScalarFunction::kDivide;
    case ast::BinaryOperator::kModulo: return ScalarFunction::kModulo;
    case ast::BinaryOperator::kConcat: return ScalarFunction::kConcat;
    default: break;
  }
  throw InternalError("not an arithmetic operator");
}

/// Converts the text of an interval literal with a unit into an Interval.
Interval interval_from(int64_t n, ast::IntervalField field) {
  Interval iv;
  switch (field) {
    case ast::IntervalField::kYear: iv.months = static_cast<int32_t>(n * 12); break;
    case ast::IntervalField::kMonth: iv.months = static_cast<int32_t>(n); break;
    case ast::IntervalField::kDay: iv.days = static_cast<int32_t>(n); break;
    case ast::IntervalField::kHour: iv.micros = n * 3600 * kMicrosPerSecond; break;
    case ast::IntervalField::kMinute: iv.micros = n * 60 * kMicrosPerSecond; break;
    case ast::IntervalField::kSecond: iv.micros = n * kMicrosPerSecond; break;
  }
  return iv;
}

std::optional<ast::IntervalField> interval_unit(std::string word) {
  std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!word.empty() && word.back() == 's') word.pop_back();
  if (word == "year") return ast::IntervalField::kYear;
  if (word == "month" || word == "mon") return ast::IntervalField::kMonth;
  if (word == "day") return ast::IntervalField::kDay;
  if (word == "hour") return ast::IntervalField::kHour;
  if (word == "minute" || word == "min") return ast::IntervalField::kMinute;
  if (word == "second" || word == "sec") return ast::IntervalField::kSecond;
  return std::nullopt;
}

}  // namespace

void set_constant_evaluator(ConstantEvaluator evaluator) { constant_evaluator() = std::move(evaluator); }

Value evaluate_constant_expr(const Expr& expr) {
  if (expr.kind == ExprKind::kConstant) return expr.constant;
  if (!constant_evaluator()) throw InternalError("no constant evaluator registered");
  return constant_evaluator()(expr);
}

ExprPtr AggregateBinding::group_ref(size_t i) const {
  return make_column_ref(i, groups[i]->type, groups[i]->kind == ExprKind::kColumnRef ? groups[i]->name : "");
}

ExprPtr AggregateBinding::call_ref(size_t j) const {
  return make_column_ref(groups.size() + j, calls[j].result_type, calls[j].to_string());
}

ExprBindContext AggregateBinding::input(const char* clause) const {
  ExprBindContext ctx{input_scope, clause, nullptr, outer};
  ctx.outer_to_local = outer_to_local;
  return ctx;
}

std::optional<size_t> AggregateBinding::find_group(const Expr& bound) const {
  const std::string key = bound.to_string();
  for (size_t i = 0; i < groups.size(); ++i) {
    if (group_keys[i] == key) return i;
  }
  if (bound.kind != ExprKind::kColumnRef || bound.outer_depth != 0) return std::nullopt;
  for (size_t i = 0; i < groups.size(); ++i) {
    const Expr& g = *groups[i];
    if (g.kind == ExprKind::kColumnRef && g.outer_depth == 0 && g.column_index == bound.column_index) return i;
  }
  return std::nullopt;
}

namespace {

/// The aggregate of stddev / variance names.
std::optional<AggregateFunction> dispersion_of(const std::string& name) {
  if (name == "stddev" || name == "stddev_samp") return AggregateFunction::kStddevSamp;
  if (name == "stddev_pop") return AggregateFunction::kStddevPop;
  if (name == "variance" || name == "var_samp") return AggregateFunction::kVarSamp;
  if (name == "var_pop") return AggregateFunction::kVarPop;
  return std::nullopt;
}

/// skewness, kurtosis, entropy and the bitwise aggregates by name.
std::optional<AggregateFunction> statistic_of(const std::string& name) {
  if (name == "skewness") return AggregateFunction::kSkewness;
  if (name == "kurtosis") return AggregateFunction::kKurtosis;
  if (name == "entropy") return AggregateFunction::kEntropy;
  if (name == "bitwise_and_agg") return AggregateFunction::kBitwiseAndAgg;
  if (name == "bitwise_or_agg") return AggregateFunction::kBitwiseOrAgg;
  if (name == "bitwise_xor_agg") return AggregateFunction::kBitwiseXorAgg;
  return std::nullopt;
}

/// Sets the function, the argument (cast where the function needs it) and the result type of aggregate `name` over
/// the bound `argument` (not count(*)).
void resolve_aggregate(const std::string& name, ExprPtr argument, std::optional<SourcePosition> pos, AggregateCall& a) {
  if (resolve_presto_aggregate(name, argument, pos, a)) return;
  a.argument = std::move(argument);
  const LogicalType t = a.argument->type;
  if (name == "count") {
    a.function = AggregateFunction::kCount;
    a.result_type = TypeId::kBigInt;
  } else if (std::optional<AggregateFunction> f = dispersion_of(name)) {
    // Computed in DOUBLE from any numeric input.
    if (t.id() != TypeId::kNull && !t.is_numeric()) {
      throw BinderError("no function matches " + name + "(" + t.to_string() + ")", pos, "42883");
    }
    a.function = *f;
    a.argument = Binder::cast_to(a.argument, TypeId::kDouble, pos);
    a.result_type = TypeId::kDouble;
  } else if (std::optional<AggregateFunction> statistic = statistic_of(name)) {
    // skewness and kurtosis in DOUBLE from any number; entropy and the bitwise aggregates of integers as BIGINT.
    const bool moments = *statistic == AggregateFunction::kSkewness || *statistic == AggregateFunction::kKurtosis;
    if (t.id() != TypeId::kNull && !(moments ? t.is_numeric() : t.is_integral())) {
      throw BinderError("no function matches " + name + "(" + t.to_string() + ")", pos, "42883");
    }
    a.function = *statistic;
    a.argument = Binder::cast_to(a.argument, moments ? TypeId::kDouble : TypeId::kBigInt, pos);
    a.result_type = moments || name == "entropy" ? TypeId::kDouble : TypeId::kBigInt;
  } else if (name == "min" || name == "max" || name == "any_value" || name == "arbitrary") {
    a.function = name == "min"   ? AggregateFunction::kMin
                 : name == "max" ? AggregateFunction::kMax
                                 : AggregateFunction::kAnyValue;
    if (a.function != AggregateFunction::kAnyValue) require_orderable(t, name.c_str(), pos);
    a.result_type = t.id() == TypeId::kNull ? LogicalType(TypeId::kInteger) : t;
    if (t.id() == TypeId::kNull) a.argument = Binder::cast_to(a.argument, TypeId::kInteger, pos);
  } else {
    a.function = name == "sum" ? AggregateFunction::kSum : AggregateFunction::kAvg;
    LogicalType in = t.id() == TypeId::kNull ? LogicalType(TypeId::kInteger) : t;
    if (!in.is_numeric()) throw BinderError("no function matches " + name + "(" + t.to_string() + ")", pos, "42883");
    if (!(in == t)) a.argument = Binder::cast_to(a.argument, in, pos);
    if (in.id() == TypeId::kDecimal) {
      a.result_type = a.function == AggregateFunction::kSum ? LogicalType::decimal(38, in.scale())
                                                            : LogicalType::decimal(38, std::max(in.scale(), 6));
    } else if (in.id() == TypeId::kReal || in.id() == TypeId::kDouble || a.function == AggregateFunction::kAvg) {
      a.result_type = TypeId::kDouble;
    } else if (in.id() == TypeId::kBigInt) {
      a.result_type = LogicalType::decimal(38, 0);
    } else {
      a.result_type = TypeId::kBigInt;
    }
  }
}

/// The output column of aggregate `a`, registered once per distinct call.
ExprPtr register_call(AggregateBinding& agg, AggregateCall a) {
  std::string key = a.to_string();
  for (size_t j = 0; j < agg.calls.size(); ++j) {
    if (agg.call_keys[j] == key) return agg.call_ref(j);
  }
  agg.calls.push_back(std::move(a));
  agg.call_keys.push_back(std::move(key));
  return agg.call_ref(agg.calls.size() - 1);
}

}  // namespace

bool ExprBinder::is_aggregate_name(const std::string& name) {
  return name == "count" || name == "sum" || name == "avg" || name == "min" || name == "max" || name == "reduce_agg" ||
         name == "any_value" || name == "arbitrary" || dispersion_of(name).has_value() || statistic_of(name) ||
         is_presto_aggregate_name(name) || is_pair_aggregate_name(name) || is_ordered_aggregate_name(name);
}

bool ExprBinder::contains_aggregate(const ast::Expr& expr) {
  bool found = false;
  std::function<void(const ast::Expr&)> visit = [&](const ast::Expr& e) {
    if (found) return;
    // GROUPING() reads the grouping set, so it counts as an aggregate: it is bound above the aggregation. A window
    // call is not an aggregate, but its arguments and window may hold some.
    if (e.is<ast::FunctionCall>() && !e.as<ast::FunctionCall>().over &&
        (is_aggregate_name(e.as<ast::FunctionCall>().name) || e.as<ast::FunctionCall>().name == "grouping")) {
      found = true;
      return;
    }
    ast::for_each_child(e, visit);
  };
  visit(expr);
  return found;
}

bool ExprBinder::contains_window(const ast::Expr& expr) {
  return ast::any_of(expr, [](const ast::Expr& e) { return e.is<ast::FunctionCall>() && e.as<ast::FunctionCall>().over; });
}

ExprPtr ExprBinder::bind_predicate(const ast::Expr& expr, const ExprBindContext& ctx) {
  ExprPtr e = bind(expr, ctx);
  if (e->type.id() == TypeId::kNull) return Binder::cast_to(e, TypeId::kBoolean, expr.position);
  if (e->type.id() != TypeId::kBoolean) {
    throw BinderError(std::string(ctx.clause) + " condition must be BOOLEAN, not " + e->type.to_string(),
                      expr.position, "42804");
  }
  return e;
}

ExprPtr ExprBinder::bind(const ast::Expr& expr, const ExprBindContext& ctx) {
  // (A literal reads a group column only under grouping sets, where a constant key is NULL in the rows of the
  // sets without it.)
  if (ctx.aggregate != nullptr && (!expr.is<ast::Literal>() || ctx.aggregate->grouping_id)) {
    AggregateBinding& agg = *ctx.aggregate;
    if (!contains_aggregate(expr) && !contains_window(expr)) {
      // Above an aggregation: an expression equal to a GROUP BY expression reads the group column.
      ExprBindContext input = agg.input(ctx.clause);
      input.lambda = ctx.lambda;  // a lambda's parameters stay visible (they are never groups)
      ExprPtr bound = bind_node(expr, input);
      if (std::optional<size_t> group = agg.find_group(*bound)) return agg.group_ref(*group);
      // An outer reference (first binding of a correlated sub-query) is one value for the whole sub-query. In
      // domain form it reads a domain column, which is a group (found above).
      if (bound->kind == ExprKind::kColumnRef && bound->outer_depth > 0) return bound;
      if (bound->kind == ExprKind::kLambdaParam) return bound;
      if (expr.is<ast::ColumnRef>()) {
        throw BinderError("column '" + expr.as<ast::ColumnRef>().column() +
                              "' must appear in the GROUP BY clause or be used in an aggregate function",
                          expr.position, "42803");
      }
    }
  }
  return bind_node(expr, ctx);
}

ExprPtr ExprBinder::make_scalar(ScalarFunction f, std::vector<ExprPtr> args, std::optional<SourcePosition> pos) {
  if (ExprPtr rewritten = rewrite_timestamp_tz(f, args, pos)) return rewritten;
  if (f == ScalarFunction::kConcat &&
      std::any_of(args.begin(), args.end(), [](const ExprPtr& a) { return a->type.id() == TypeId::kArray; })) {
    return array_concat(std::move(args), pos);
  }
  std::vector<LogicalType> types;
  for (const auto& a : args) types.push_back(a->type);
  ResolvedFunction r = resolve_scalar_function(f, types, pos);
  for (size_t i = 0; i < args.size() && i < r.arg_types.size(); ++i) {
    if (!(args[i]->type == r.arg_types[i])) args[i] = Binder::cast_to(args[i], r.arg_types[i], pos);
  }
  auto e = make_function(r.function, r.result, std::move(args));
  const_cast<Expr&>(*e).position = pos;
  return e;
}

void ExprBinder::unify_for_comparison(ExprPtr& a, ExprPtr& b, std::optional<SourcePosition> pos,
                                      const ast::Expr* a_ast, const ast::Expr* b_ast) {
  // A string literal compared with a non-string takes the other side's type (PostgreSQL's unknown literals).
  if (is_string_literal(a_ast) && b->type.id() != TypeId::kVarchar && b->type.id() != TypeId::kNull) {
    a = Binder::cast_to(a, b->type, a_ast->position);
  } else if (is_string_literal(b_ast) && a->type.id() != TypeId::kVarchar && a->type.id() != TypeId::kNull) {
    b = Binder::cast_to(b, a->type, b_ast->position);
  }
  if (a->type == b->type) return;
  auto common = common_super_type(a->type, b->type);
  if (!common) {
    throw BinderError("cannot compare " + a->type.to_string() + " with " + b->type.to_string(), pos, "42883");
  }
  if (!(a->type == *common)) a = Binder::cast_to(a, *common, pos);
  if (!(b->type == *common)) b = Binder::cast_to(b, *common, pos);
}

ExprPtr ExprBinder::bind_comparison(ScalarFunction f, const ast::Expr& left, const ast::Expr& right,
                                    const ExprBindContext& ctx, SourcePosition pos) {
  ExprPtr l = bind(left, ctx);
  ExprPtr r = bind(right, ctx);
  unify_for_comparison(l, r, pos, &left, &right);
  const bool ordering = f == ScalarFunction::kLess || f == ScalarFunction::kLessEqual ||
                        f == ScalarFunction::kGreater || f == ScalarFunction::kGreaterEqual;
  if (ordering) require_orderable(l->type, "a comparison", pos);
  auto e = make_function(f, TypeId::kBoolean, {l, r});
  const_cast<Expr&>(*e).position = pos;
  return e;
}

ExprPtr ExprBinder::bind_node(const ast::Expr& expr, const ExprBindContext& ctx) {
  switch (expr.kind) {
    case ast::ExprKind::kColumnRef: return bind_column(expr.as<ast::ColumnRef>(), ctx);
    case ast::ExprKind::kStar:
      throw BinderError("'*' is only allowed in a select list or count(*)", expr.position, "42601");
    case ast::ExprKind::kLiteral: return bind_literal(expr.as<ast::Literal>());
    case ast::ExprKind::kTypedLiteral: return bind_typed_literal(expr.as<ast::TypedLiteral>());
    case ast::ExprKind::kIntervalLiteral: return bind_interval(expr.as<ast::IntervalLiteral>());
    case ast::ExprKind::kParameter: throw NotImplemented("query parameters are not supported yet", expr.position);
    case ast::ExprKind::kUnaryOp: {
      const auto& u = expr.as<ast::UnaryOp>();
      ExprPtr operand = bind(*u.operand, ctx);
      switch (u.op) {
        case ast::UnaryOperator::kPlus: return operand;
        case ast::UnaryOperator::kNegate: return make_scalar(ScalarFunction::kNegate, {operand}, expr.position);
        case ast::UnaryOperator::kNot: {
          if (operand->type.id() == TypeId::kNull) operand = Binder::cast_to(operand, TypeId::kBoolean, expr.position);
          if (operand->type.id() != TypeId::kBoolean) {
            throw BinderError("NOT needs a BOOLEAN operand, not " + operand->type.to_string(), expr.position, "42804");
          }
          return make_node(ExprKind::kNot, TypeId::kBoolean, {operand});
        }
      }
      break;
    }
    case ast::ExprKind::kBinaryOp: {
      const auto& b = expr.as<ast::BinaryOp>();
      if (ast::is_comparison(b.op)) {
        return bind_comparison(comparison_function(b.op), *b.left, *b.right, ctx, b.operator_position);
      }
      return make_scalar(arithmetic_function(b.op), {bind(*b.left, ctx), bind(*b.right, ctx)}, b.operator_position);
    }
    case ast::ExprKind::kConjunction: {
      const auto& c = expr.as<ast::Conjunction>();
      std::vector<ExprPtr> operands;
      for (const auto& op : c.operands) operands.push_back(bind_predicate(*op, ctx));
      return make_node(c.conjunction == ast::ConjunctionKind::kAnd ? ExprKind::kAnd : ExprKind::kOr,
                       TypeId::kBoolean, std::move(operands));
    }
    case ast::ExprKind::kIsTest: {
      const auto& t = expr.as<ast::IsTest>();
      ExprPtr operand = bind(*t.operand, ctx);
      if (t.test == ast::IsTestKind::kNull) {
        return make_node(t.negated ? ExprKind::kIsNotNull : ExprKind::kIsNull, TypeId::kBoolean, {operand});
      }
      if (operand->type.id() != TypeId::kBoolean) operand = Binder::cast_to(operand, TypeId::kBoolean, t.position);
      if (t.test == ast::IsTestKind::kUnknown) {
        return make_node(t.negated ? ExprKind::kIsNotNull : ExprKind::kIsNull, TypeId::kBoolean, {operand});
      }
      // x IS TRUE = x IS NOT DISTINCT FROM TRUE.
      ExprPtr value = make_constant(Value::boolean(t.test == ast::IsTestKind::kTrue));
      return make_function(t.negated ? ScalarFunction::kIsDistinctFrom : ScalarFunction::kIsNotDistinctFrom,
                           TypeId::kBoolean, {operand, value});
    }
    case ast::ExprKind::kIsDistinctFrom: {
      const auto& d = expr.as<ast::IsDistinctFrom>();
      return bind_comparison(d.negated ? ScalarFunction::kIsNotDistinctFrom : ScalarFunction::kIsDistinctFrom, *d.left,
                             *d.right, ctx, d.operator_position);
    }
    case ast::ExprKind::kBetween: {
      const auto& b = expr.as<ast::Between>();
      ExprPtr low = bind_comparison(ScalarFunction::kGreaterEqual, *b.operand, *b.low, ctx, b.operator_position);
      ExprPtr high = bind_comparison(ScalarFunction::kLessEqual, *b.operand, *b.high, ctx, b.operator_position);
      ExprPtr both = make_node(ExprKind::kAnd, TypeId::kBoolean, {low, high});
      if (b.symmetric) {
        ExprPtr low2 = bind_comparison(ScalarFunction::kGreaterEqual, *b.operand, *b.high, ctx, b.operator_position);
        ExprPtr high2 = bind_comparison(ScalarFunction::kLessEqual, *b.operand, *b.low, ctx, b.operator_position);
        both = make_node(ExprKind::kOr, TypeId::kBoolean,
                         {both, make_node(ExprKind::kAnd, TypeId::kBoolean, {low2, high2})});
      }
      return b.negated ? make_node(ExprKind::kNot, TypeId::kBoolean, {both}) : both;
    }
    case ast::ExprKind::kInList: {
      const auto& in = expr.as<ast::InList>();
      ExprPtr operand = bind(*in.operand, ctx);
      std::vector<ExprPtr> values;
      std::vector<LogicalType> types{operand->type};
      for (const auto& v : in.values) {
        ExprPtr bv = bind(*v, ctx);
        if (is_string_literal(v.get()) && operand->type.id() != TypeId::kVarchar &&
            operand->type.id() != TypeId::kNull) {
          bv = Binder::cast_to(bv, operand->type, v->position);
        }
        types.push_back(bv->type);
        values.push_back(bv);
      }
      auto common = common_super_type(types);
      if (!common) throw BinderError("IN list values do not match the operand's type", in.operator_position, "42883");
      std::vector<ExprPtr> children{Binder::cast_to(operand, *common, in.operator_position)};
      for (auto& v : values) children.push_back(Binder::cast_to(v, *common, in.operator_position));
      ExprPtr result = make_node(ExprKind::kInList, TypeId::kBoolean, std::move(children));
      return in.negated ? make_node(ExprKind::kNot, TypeId::kBoolean, {result}) : result;
    }
    case ast::ExprKind::kLike: {
      const auto& l = expr.as<ast::Like>();
      std::vector<ExprPtr> args{bind(*l.operand, ctx), bind(*l.pattern, ctx)};
      if (l.escape) args.push_back(bind(*l.escape, ctx));
      if (l.case_insensitive) {
        args[0] = make_scalar(ScalarFunction::kLower, {args[0]}, l.operator_position);
        args[1] = make_scalar(ScalarFunction::kLower, {args[1]}, l.operator_position);
      }
      return make_scalar(l.negated ? ScalarFunction::kNotLike : ScalarFunction::kLike, std::move(args),
                         l.operator_position);
    }
    case ast::ExprKind::kScalarSubquery:
    case ast::ExprKind::kExists:
    case ast::ExprKind::kInSubquery:
    case ast::ExprKind::kQuantifiedComparison: return bind_subquery(expr, ctx);
    case ast::ExprKind::kCase: return bind_case(expr.as<ast::Case>(), ctx);
    case ast::ExprKind::kCast: {
      const auto& c = expr.as<ast::Cast>();
      if (!c.type.type && c.type.name == "REGTYPE" && !c.try_cast) {
        return regtype_cast(bind(*c.operand, ctx), c.operator_position);
      }
      if (!c.type.type && (c.type.name == "REGCLASS" || c.type.name == "OID") && !c.try_cast) {
        return oid_cast(bind(*c.operand, ctx), c.type.name == "REGCLASS", c.operator_position);
      }
      if (!c.type.type) throw BinderError("unknown type " + c.type.to_string(), c.type.position, "42704");
      if (c.try_cast) {
        // try_cast(x AS T) is try(CAST(x AS T)): a value that does not convert gives NULL.
        Binder::DeferredCastErrors deferred;
        ExprPtr cast = Binder::cast_to(bind(*c.operand, ctx), *c.type.type, c.operator_position);
        if (cast->kind == ExprKind::kConstant) return cast;
        return make_scalar(ScalarFunction::kTry, {std::move(cast)}, c.position);
      }
      ExprPtr operand = bind(*c.operand, ctx);
      return Binder::cast_to(operand, *c.type.type, c.operator_position);
    }
    case ast::ExprKind::kExtract: {
      const auto& x = expr.as<ast::Extract>();
      ExprPtr operand = bind(*x.operand, ctx);
      if (is_zone_field(x.field)) {
        operand = Binder::cast_to(std::move(operand), LogicalType(TypeId::kTimestampTz), x.operator_position);
      } else {
        resolve_date_part(ScalarFunction::kExtract, x.field, x.operator_position);
      }
      return make_scalar(ScalarFunction::kExtract, {make_constant(Value::varchar(x.field)), std::move(operand)},
                         x.operator_position);
    }
    case ast::ExprKind::kFunctionCall: return bind_function(expr.as<ast::FunctionCall>(), ctx);
  }
  throw InternalError("unhandled expression kind " + std::string(ast::expr_kind_name(expr.kind)));
}

ExprPtr ExprBinder::bind_column(const ast::ColumnRef& ref, const ExprBindContext& ctx) {
  // A lambda's parameters hide columns of the same name (and are bound wherever the lambda is, above an
  // aggregation too).
  if (ExprPtr param = lambda_param(ref.names[0], ctx)) {
    return field_path(std::move(param), ref.names, 1, ref.position, true);
  }
  // current_catalog and current_schema are written without parentheses in PostgreSQL.
  const bool session_word =
      ref.names.size() == 1 && (ref.column() == "current_catalog" || ref.column() == "current_schema");
  if (ctx.scope == nullptr && session_word) return make_constant(*session_constant(ref.column()));
  // localtimestamp, written without parentheses: the statement's time (a column of that name comes first).
  const bool local_timestamp = ref.names.size() == 1 && ref.column() == "localtimestamp";
  if (ctx.scope == nullptr && local_timestamp) return make_constant(Value::timestamp(local_statement_time()));
  // localtime, written without parentheses as well.
  const bool local_time = ref.names.size() == 1 && ref.column() == "localtime";
  ast::FunctionCall localtime_call(ref.position);
  localtime_call.name = "localtime";
  if (ctx.scope == nullptr && local_time) return bind_presto_rewrite(localtime_call, ctx);
  if (ctx.scope == nullptr) {
    throw BinderError("column '" + ref.column() + "' cannot be used here (no FROM clause)", ref.position, "42703");
  }
  std::string table = ref.names.size() >= 2 ? ref.names[ref.names.size() - 2] : "";
  const ScopeColumn* found = nullptr;
  for (const auto& c : ctx.scope->columns) {
    if (c.name != ref.column() || (!table.empty() && c.table != table)) continue;
    if (!c.unreadable.empty()) throw NotImplemented(c.unreadable, ref.position);
    if (table.empty() && c.hidden) continue;
    if (found != nullptr) {
      throw BinderError("column reference '" + ref.column() + "' is ambiguous", ref.position, "42702");
    }
    found = &c;
  }
  if (found == nullptr && ref.names.size() >= 2) {
    // r.f, t.r.f: a prefix that names a ROW column, then its fields.
    if (ExprPtr field = bind_row_path(ref, ctx)) return field;
  }
  if (found == nullptr && session_word) return make_constant(*session_constant(ref.column()));
  if (found == nullptr && local_timestamp) return make_constant(Value::timestamp(local_statement_time()));
  if (found == nullptr && local_time) return bind_presto_rewrite(localtime_call, ctx);
  if (found == nullptr && ctx.outer != nullptr) {
    // A correlated reference to the enclosing query.
    ExprBindContext outer{ctx.outer, ctx.clause, nullptr};
    ExprPtr e = bind_column(ref, outer);
    auto copy = std::make_shared<Expr>(*e);
    if (ctx.outer_to_local != nullptr && !ctx.outer_to_local->empty()) {
      const auto local = ctx.outer_to_local->find(e->column_index);
      if (local == ctx.outer_to_local->end()) {
        throw NotImplemented("the outer column '" + ref.column() + "' in this place of a correlated sub-query",
                             ref.position);
      }
      copy->column_index = local->second;
      return copy;
    }
    copy->outer_depth = 1;
    return copy;
  }
  if (found == nullptr) {
    std::string what = table.empty() ? ref.column() : table + "." + ref.column();
    throw BinderError("column '" + what + "' does not exist", ref.position, "42703");
  }
  return make_column_ref(found->index, found->type, found->name);
}

ExprPtr ExprBinder::bind_literal(const ast::Literal& lit) {
  switch (lit.literal_kind) {
    case ast::LiteralKind::kNull: return make_constant(Value());
    case ast::LiteralKind::kBoolean: return make_constant(Value::boolean(lit.boolean_value()));
    case ast::LiteralKind::kString: return make_constant(Value::varchar(lit.text));
    case ast::LiteralKind::kBinary: return make_constant(Value::varbinary(lit.text));
    case ast::LiteralKind::kFloat: return make_constant(Value::double_value(std::strtod(lit.text.c_str(), nullptr)));
    case ast::LiteralKind::kInteger: {
      std::string digits = lit.text[0] == '-' || lit.text[0] == '+' ? lit.text.substr(1) : lit.text;
      digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
      if (digits.size() <= 18) {
        int64_t v = std::stoll(lit.text);
        if (v >= INT32_MIN && v <= INT32_MAX) return make_constant(Value::integer(static_cast<int32_t>(v)));
        return make_constant(Value::bigint(v));
      }
      if (digits.size() > 38) throw BinderError("integer literal too large", lit.position, "22003");
      auto v = parse_decimal(lit.text, 38, 0);
      if (!v) throw BinderError("integer literal too large", lit.position, "22003");
      if (*v >= INT64_MIN && *v <= INT64_MAX) return make_constant(Value::bigint(static_cast<int64_t>(*v)));
      return make_constant(Value::decimal(*v, static_cast<int>(digits.size()), 0));
    }
    case ast::LiteralKind::kDecimal: {
      std::string t = lit.text;
      size_t point = t.find('.');
      int scale = point == std::string::npos ? 0 : static_cast<int>(t.size() - point - 1);
      int digits = 0;
      bool leading = true;
      for (char c : t) {
        if (c < '0' || c > '9') continue;
        if (leading && c == '0') continue;
        leading = false;
        ++digits;
      }
      int int_digits = std::max(0, digits - scale);
      (void)int_digits;
      int precision = std::max(scale, 1);
      // Precision counts the integer digits (without leading zeros) plus the scale.
      size_t start = (t[0] == '-' || t[0] == '+') ? 1 : 0;
      std::string int_part = t.substr(start, point == std::string::npos ? std::string::npos : point - start);
      int_part.erase(0, std::min(int_part.find_first_not_of('0'), int_part.size()));
      precision = std::max(1, static_cast<int>(int_part.size()) + scale);
      if (precision > 38) return make_constant(Value::double_value(std::strtod(t.c_str(), nullptr)));
      auto v = parse_decimal(t, precision, scale);
      if (!v) throw BinderError("invalid decimal literal '" + t + "'", lit.position, "22P02");
      return make_constant(Value::decimal(*v, precision, scale));
    }
  }
  throw InternalError("unhandled literal kind");
}

ExprPtr ExprBinder::bind_typed_literal(const ast::TypedLiteral& lit) {
  if (!lit.type.type) throw BinderError("unknown type " + lit.type.to_string(), lit.type.position, "42704");
  if (lit.type.type->id() == TypeId::kJson) {  // JSON '...' parses the text (json_parse), it is not a cast
    JsonSyntaxError error;
    std::optional<std::string> text = canonical_json(lit.value, &error);
    if (!text) {
      throw InvalidInput("invalid JSON literal: " + error.describe() + " of the JSON text", "22P02", lit.position);
    }
    return make_constant(Value::json(std::move(*text)));
  }
  // TIMESTAMP 'text' with a zone in its text is a TIMESTAMP WITH TIME ZONE literal (Presto).
  LogicalType type = *lit.type.type;
  if (type.id() == TypeId::kTimestamp && tz::has_zone_suffix(lit.value)) type = TypeId::kTimestampTz;
  return Binder::cast_to(make_constant(Value::varchar(lit.value)), type, lit.position);
}

int64_t ExprBinder::local_statement_time() {
  return tz::utc_to_local(Binder::SessionTimeZone::current(), binder_.statement_time());
}

ExprPtr ExprBinder::bind_interval(const ast::IntervalLiteral& lit) {
  auto bad = [&] { return BinderError("invalid interval literal '" + lit.value + "'", lit.position, "22007"); };
  // What the integer forms below do not read ('4.5 seconds', '3 us', '1 day 02:00:00') is read as CAST(text AS
  // INTERVAL) reads it.
  auto as_cast = [&](const std::string& text) {
    ExprPtr cast;
    try {
      cast = Binder::cast_to(make_constant(Value::varchar(text)), TypeId::kInterval, lit.position);
    } catch (const Error&) {
      throw bad();
    }
    if (cast->kind != ExprKind::kConstant) throw bad();
    return cast;
  };
  Interval total;
  if (lit.leading) {
    if (lit.trailing) throw NotImplemented("interval ranges (YEAR TO MONTH) are not supported yet", lit.position);
    char* end = nullptr;
    long long n = std::strtoll(lit.value.c_str(), &end, 10);
    if (end == lit.value.c_str() || *end != '\0') {
      // A fraction of a second: INTERVAL '4.5' SECOND.
      if (*lit.leading == ast::IntervalField::kSecond) return as_cast(lit.value + " seconds");
      throw bad();
    }
    total = interval_from(n, *lit.leading);
  } else {
    // "2 days 3 hours": number/unit pairs.
    std::istringstream in(lit.value);
    long long n;
    std::string unit;
    bool any = false;
    while (in >> n) {
      if (!(in >> unit)) throw bad();
      auto field = interval_unit(unit);
      if (!field) return as_cast(lit.value);
      Interval part = interval_from(n, *field);
      total.months += part.months;
      total.days += part.days;
      total.micros += part.micros;
      any = true;
    }
    if (!any || !in.eof()) return as_cast(lit.value);
  }
  return make_constant(Value::interval(total));
}

ExprPtr ExprBinder::bind_case(const ast::Case& c, const ExprBindContext& ctx) {
  std::vector<ExprPtr> conditions;
  std::vector<ExprPtr> results;
  std::vector<LogicalType> result_types;
  for (const auto& when : c.whens) {
    if (c.operand) {
      conditions.push_back(bind_comparison(ScalarFunction::kEqual, *c.operand, *when.condition, ctx,
                                           when.condition->position));
    } else {
      conditions.push_back(bind_predicate(*when.condition, ctx));
    }
    results.push_back(bind(*when.result, ctx));
    result_types.push_back(results.back()->type);
  }
  ExprPtr else_result = c.else_result ? bind(*c.else_result, ctx) : make_constant(Value());
  result_types.push_back(else_result->type);
  auto common = common_super_type(result_types);
  if (!common) throw BinderError("CASE results have types that do not match", c.position, "42804");
  LogicalType type = common->id() == TypeId::kNull ? LogicalType(TypeId::kVarchar) : *common;
  std::vector<ExprPtr> children;
  for (size_t i = 0; i < conditions.size(); ++i) {
    children.push_back(conditions[i]);
    children.push_back(Binder::cast_to(results[i], type, c.position));
  }
  children.push_back(Binder::cast_to(else_result, type, c.position));
  return make_node(ExprKind::kCase, type, std::move(children));
}

ExprPtr ExprBinder::bind_function(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  // (A Presto aggregate computed with another aggregate gets its final step here: see presto_aggregates.hpp.)
  if (call.over) return finish_presto_aggregate(call.name, bind_window(call, ctx));
  if (is_aggregate_name(call.name)) return finish_presto_aggregate(call.name, bind_aggregate(call, ctx));
  if (call.name == "row_number" || call.name == "rank" || call.name == "dense_rank" || call.name == "percent_rank" ||
      call.name == "cume_dist" || call.name == "ntile" || call.name == "lag" || call.name == "lead" ||
      call.name == "first_value" || call.name == "last_value" || call.name == "nth_value") {
    throw BinderError("window function " + call.name + " requires an OVER clause", call.position, "42809");
  }
  if (call.filter) {
    throw BinderError("FILTER specified, but " + call.name + " is not an aggregate function", call.position, "42809");
  }
  if (!call.order_by.empty()) {
    throw BinderError(std::string(call.within_group ? "WITHIN GROUP" : "ORDER BY") + " specified, but " + call.name +
                          " is not an aggregate function",
                      call.position, "42809");
  }
  if (call.name == "grouping") return bind_grouping(call, ctx);
  if (!call.star && !call.distinct) {
    if (ExprPtr nested = bind_nested_call(call, ctx)) return nested;
  }
  if (call.star || call.distinct) {
    throw BinderError(std::string(call.star ? "*" : "DISTINCT") + " is only allowed in aggregate functions",
                      call.position, "42809");
  }
  if (ExprPtr rewritten = bind_presto_rewrite(call, ctx)) return rewritten;
  if (call.args.empty()) {
    if (auto value = session_constant(call.name)) return make_constant(*value);
  }
  auto f = lookup_scalar_function(call.name, call.args.size());
  if (!f) {
    if (is_scalar_function_name(call.name)) {
      throw BinderError("function " + call.name + " does not take " + std::to_string(call.args.size()) +
                            " arguments",
                        call.position, "42883");
    }
    throw BinderError("function " + call.name + " does not exist", call.position, "42883");
  }
  std::vector<ExprPtr> args;
  for (const auto& a : call.args) args.push_back(bind(*a, ctx));
  if (function_swaps_arguments(call.name) && args.size() >= 2) std::swap(args[0], args[1]);
  if (*f == ScalarFunction::kExtract || *f == ScalarFunction::kDateTrunc) {
    if (args[0]->kind != ExprKind::kConstant || args[0]->type.id() != TypeId::kVarchar) {
      throw BinderError(call.name + " needs a constant text first argument", call.args[0]->position, "42804");
    }
    if (*f == ScalarFunction::kExtract && args.size() == 2 && is_zone_field(args[0]->constant.as_string())) {
      args[1] = Binder::cast_to(std::move(args[1]), LogicalType(TypeId::kTimestampTz), call.args[1]->position);
    } else {
      resolve_date_part(*f, args[0]->constant.as_string(), call.args[0]->position);
    }
  }
  std::vector<LogicalType> types;
  for (const auto& a : args) types.push_back(a->type);
  ExprPtr bound;
  try {
    bound = make_scalar(*f, std::move(args), call.position);
  } catch (const BinderError& e) {
    // concat and mod share their function with `||` and `%`: their no-match error names what the query called.
    const std::string prefix = "no function matches " + std::string(scalar_function_name(*f)) + "(";
    bool generic = e.message().rfind("no operator matches ", 0) == 0 || e.message().rfind(prefix, 0) == 0;
    if (!prints_as_operator(*f) || !generic) throw;
    throw no_function_matches(call.name, types, call.position);
  }
  if (*f == ScalarFunction::kDateAdd || *f == ScalarFunction::kDateDiff) {
    check_date_add_unit(call, unwrap_timestamp_tz_rewrite(*bound));
  }
  return bound;
}

ExprPtr ExprBinder::bind_aggregate(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  if (ctx.aggregate == nullptr) {
    throw BinderError("aggregate function " + call.name + " is not allowed in " + ctx.clause, call.position, "42803");
  }
  if (call.name == "reduce_agg") return bind_reduce_agg(call, ctx);
  AggregateBinding& agg = *ctx.aggregate;
  const ExprBindContext input = agg.input("an aggregate function argument");
  // FILTER (WHERE p): the aggregate reads CASE WHEN p THEN argument END (count(*) counts CASE WHEN p THEN 1 END),
  // so rows failing p count as NULL, which every aggregate skips.
  ExprPtr filter;
  if (call.filter) {
    if (contains_aggregate(*call.filter)) {
      throw BinderError("aggregate functions are not allowed in FILTER", call.filter->position, "42803");
    }
    filter = bind_predicate(*call.filter, agg.input("FILTER"));
  }
  auto filtered = [&](ExprPtr argument) {
    if (!filter) return argument;
    const LogicalType type = argument->type;
    return make_node(ExprKind::kCase, type, {filter, std::move(argument), make_constant(Value::null(type))});
  };
  AggregateCall a;
  a.distinct = call.distinct;
  if (call.star) {
    if (call.name != "count") throw BinderError(call.name + "(*) is not a function", call.position, "42883");
    a.function = AggregateFunction::kCountStar;
    a.result_type = TypeId::kBigInt;
    if (filter) {
      a.function = AggregateFunction::kCount;
      a.argument = filtered(make_constant(Value::integer(1)));
    }
  } else {
    if (!call.order_by.empty() && !is_ordered_aggregate_name(call.name)) {
      throw BinderError(std::string(call.within_group ? "WITHIN GROUP" : "ORDER BY") + " is not allowed in " +
                            call.name,
                        call.position, "42601");
    }
    if (is_ordered_aggregate_name(call.name)) {
      for (const auto& arg : call.args) {
        if (contains_aggregate(*arg)) {
          throw BinderError("aggregate function calls cannot be nested", arg->position, "42803");
        }
      }
      for (const auto& item : call.order_by) {
        if (contains_aggregate(*item.expr)) {
          throw BinderError("aggregate function calls cannot be nested", item.expr->position, "42803");
        }
      }
      auto bind_input = [&](const ast::Expr& e) { return bind(e, input); };
      return register_call(agg, bind_ordered_aggregate(call, bind_input, filter));
    }
    if (is_pair_aggregate_name(call.name)) {
      if (call.args.size() != 2) {
        throw BinderError("aggregate " + call.name + " takes two arguments (y, x)", call.position, "42883");
      }
      if (call.distinct) throw NotImplemented("DISTINCT in " + call.name + " is not supported", call.position);
      for (const auto& arg : call.args) {
        if (contains_aggregate(*arg)) {
          throw BinderError("aggregate function calls cannot be nested", arg->position, "42803");
        }
      }
      return bind_pair_aggregate(call.name, bind(*call.args[0], input), bind(*call.args[1], input), call.position,
                                 [&](AggregateCall part) {
                                   part.argument = filtered(part.argument);
                                   return register_call(agg, std::move(part));
                                 });
    }
    if (call.name == "approx_distinct" && call.args.size() == 2) {
      // The maximum standard error, as Presto checks it; the count is exact, so it only has to be valid.
      ExprPtr e = bind(*call.args[1], input);
      const bool constant = e->kind == ExprKind::kConstant && !e->constant.is_null() && e->type.is_numeric();
      const double bound = constant ? std::strtod(e->constant.to_string().c_str(), nullptr) : 0;
      if (!constant || bound < 0.0040625 || bound > 0.26) {
        throw BinderError("approx_distinct: the maximum standard error must be a constant in [0.0040625, 0.26]",
                          call.args[1]->position, "22023");
      }
    } else if (call.args.size() != 1) {
      throw BinderError("aggregate " + call.name + " takes one argument", call.position, "42883");
    }
    if (contains_aggregate(*call.args[0])) {
      throw BinderError("aggregate function calls cannot be nested", call.args[0]->position, "42803");
    }
    resolve_aggregate(call.name, bind(*call.args[0], input), call.position, a);
  }
  if (!call.star) a.argument = filtered(a.argument);
  if (a.result_type.id() == TypeId::kVarbinary) {
    // min, max and any_value of VARBINARY keep their values in the VARCHAR states (the same layout, compared
    // bytewise): the bytes go in as VARCHAR and the result is read back as VARBINARY. These casts only relabel the
    // bytes; the binder refuses the same casts written in SQL.
    a.argument = make_cast(a.argument, TypeId::kVarchar);
    a.result_type = TypeId::kVarchar;
    return make_cast(register_call(agg, std::move(a)), TypeId::kVarbinary);
  }
  return register_call(agg, std::move(a));
}


int64_t ExprBinder::constant_count(const ast::Expr& expr, const ExprBindContext& ctx, const std::string& what,
                                   int64_t least) {
  ExprPtr bound = bind(expr, ctx);
  if (bound->kind != ExprKind::kConstant || !bound->type.is_integral() || bound->constant.is_null() ||
      bound->constant.as_int64() < least) {
    throw BinderError(what + " must be a constant integer" + (least > 0 ? " greater than 0" : std::string()),
                      expr.position, "22023");
  }
  return bound->constant.as_int64();
}

ExprPtr ExprBinder::bind_window(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  if (ctx.window == nullptr) {
    throw BinderError(std::string("window functions are not allowed in ") + ctx.clause, call.position, "42P20");
  }
  if (is_pair_aggregate_name(call.name) || is_ordered_aggregate_name(call.name) || call.name == "reduce_agg") {
    throw NotImplemented(call.name + " as a window function is not supported", call.position);
  }
  if (!call.order_by.empty()) {
    throw NotImplemented(
        std::string(call.within_group ? "WITHIN GROUP" : "ORDER BY") + " in window functions is not supported",
        call.position);
  }
  if (call.filter) throw NotImplemented("FILTER on window functions is not supported", call.position);
  if (call.distinct) throw NotImplemented("DISTINCT in window functions is not supported", call.position);
  const ast::WindowSpec& spec = *call.over;
  ExprBindContext inner = ctx;  // the window's input: the FROM scope, or the groups and aggregates
  inner.window = nullptr;
  inner.clause = "a window function (they cannot be nested)";
  WindowCall w;
  bool bytes = false;  // a VARBINARY aggregate computed as VARCHAR, its result read back as VARBINARY
  if (call.name == "row_number" || call.name == "rank" || call.name == "dense_rank") {
    if (!call.args.empty() || call.star) {
      throw BinderError("window function " + call.name + " takes no arguments", call.position, "42883");
    }
    w.kind = call.name == "row_number" ? WindowCall::Kind::kRowNumber
             : call.name == "rank"     ? WindowCall::Kind::kRank
                                       : WindowCall::Kind::kDenseRank;
    w.result_type = TypeId::kBigInt;
  } else if (call.name == "percent_rank" || call.name == "cume_dist") {
    if (!call.args.empty() || call.star) {
      throw BinderError("window function " + call.name + " takes no arguments", call.position, "42883");
    }
    w.kind = call.name == "percent_rank" ? WindowCall::Kind::kPercentRank : WindowCall::Kind::kCumeDist;
    w.result_type = TypeId::kDouble;
  } else if (call.name == "ntile") {
    if (call.args.size() != 1 || call.star) {
      throw BinderError("window function ntile takes one argument", call.position, "42883");
    }
    w.kind = WindowCall::Kind::kNtile;
    w.offset = constant_count(*call.args[0], inner, "ntile's number of buckets", 1);
    w.result_type = TypeId::kBigInt;
  } else if (call.name == "lag" || call.name == "lead" || call.name == "first_value" || call.name == "last_value") {
    const bool shifts = call.name == "lag" || call.name == "lead";
    if (call.star || call.args.empty() || call.args.size() > (shifts ? 3u : 1u)) {
      throw BinderError("window function " + call.name + " takes " + (shifts ? "one to three arguments" : "one argument"),
                        call.position, "42883");
    }
    w.kind = call.name == "lag"           ? WindowCall::Kind::kLag
             : call.name == "lead"        ? WindowCall::Kind::kLead
             : call.name == "first_value" ? WindowCall::Kind::kFirstValue
                                          : WindowCall::Kind::kLastValue;
    w.value = bind(*call.args[0], inner);
    if (w.value->type.id() == TypeId::kNull) w.value = Binder::cast_to(w.value, TypeId::kInteger, call.position);
    if (call.args.size() > 1) w.offset = constant_count(*call.args[1], inner, call.name + "'s offset", INT64_MIN);
    if (call.args.size() > 2) {
      // lag(x, n, default) is of the common type of x and the default (lag(DECIMAL(5,2), 1, 1000.00) is a
      // DECIMAL(6,2)), as for CASE and COALESCE: the default then fits without a cast that could fail.
      ExprPtr fallback = bind(*call.args[2], inner);
      if (fallback->type.id() != TypeId::kNull && fallback->type != w.value->type) {
        if (auto common = common_super_type(w.value->type, fallback->type)) {
          w.value = Binder::cast_to(w.value, *common, call.position);
        }
      }
      w.fallback = Binder::cast_to(fallback, w.value->type, call.position);
    }
    w.result_type = w.value->type;
  } else if (call.name == "nth_value") {
    if (call.star || call.args.size() != 2) {
      throw BinderError("window function nth_value takes two arguments (x, offset)", call.position, "42883");
    }
    w.kind = WindowCall::Kind::kNthValue;
    w.value = bind(*call.args[0], inner);
    if (w.value->type.id() == TypeId::kNull) w.value = Binder::cast_to(w.value, TypeId::kInteger, call.position);
    w.offset = constant_count(*call.args[1], inner, "nth_value's offset", 1);
    w.result_type = w.value->type;
  } else if (is_aggregate_name(call.name)) {
    w.kind = WindowCall::Kind::kAggregate;
    if (call.star) {
      if (call.name != "count") throw BinderError(call.name + "(*) is not a function", call.position, "42883");
      w.aggregate.function = AggregateFunction::kCountStar;
      w.aggregate.result_type = TypeId::kBigInt;
    } else {
      if (call.args.size() != 1) {
        throw BinderError("aggregate " + call.name + " takes one argument", call.position, "42883");
      }
      resolve_aggregate(call.name, bind(*call.args[0], inner), call.position, w.aggregate);
    }
    if (w.aggregate.result_type.id() == TypeId::kVarbinary) {
      // As for the aggregates (bind_aggregate): VARBINARY values through the VARCHAR states, read back as bytes.
      w.aggregate.argument = make_cast(w.aggregate.argument, TypeId::kVarchar);
      w.aggregate.result_type = TypeId::kVarchar;
      bytes = true;
    }
    w.result_type = w.aggregate.result_type;
  } else {
    throw BinderError("OVER specified, but " + call.name + " is not a window function nor an aggregate function",
                      call.position, "42809");
  }
  for (const auto& p : spec.partition_by) w.partition.push_back(bind(*p, inner));
  for (const auto& o : spec.order_by) {
    SortKey key;
    key.descending = o.direction == ast::SortDirection::kDescending;
    key.nulls_first = o.nulls == ast::NullOrder::kDefault ? key.descending : o.nulls == ast::NullOrder::kNullsFirst;
    key.expr = bind(*o.expr, inner);
    require_orderable(key.expr->type, "ORDER BY", o.expr->position);
    w.order.push_back(std::move(key));
  }
  // Frames: from the partition's start to the current row (ROWS), to its last peer (RANGE, the default with ORDER
  // BY; without ORDER BY every row is a peer), or the whole partition.
  using Frame = WindowCall::Frame;
  const bool framed = w.kind == WindowCall::Kind::kAggregate || w.kind == WindowCall::Kind::kLastValue ||
                      w.kind == WindowCall::Kind::kNthValue;
  if (framed && !w.order.empty()) {
    w.frame = Frame::kToLastPeer;
    if (spec.frame && spec.frame->end == ast::FrameEnd::kUnboundedFollowing) w.frame = Frame::kPartition;
    if (spec.frame && spec.frame->end == ast::FrameEnd::kCurrentRow && spec.frame->unit == ast::FrameUnit::kRows) {
      w.frame = Frame::kToCurrentRow;
    }
  } else if (framed && spec.frame && spec.frame->unit == ast::FrameUnit::kRows &&
             spec.frame->end == ast::FrameEnd::kCurrentRow) {
    w.frame = Frame::kToCurrentRow;  // running over the partition's rows in no particular order
  }
  WindowBinding& win = *ctx.window;
  const std::string key = w.to_string();
  auto result = [&](ExprPtr ref) { return bytes ? make_cast(std::move(ref), TypeId::kVarbinary) : ref; };
  for (size_t k = 0; k < win.keys.size(); ++k) {
    if (win.keys[k] == key) return result(win.ref(k));
  }
  win.calls.push_back(std::move(w));
  win.keys.push_back(key);
  return result(win.ref(win.calls.size() - 1));
}

ExprPtr ExprBinder::bind_grouping(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  if (ctx.aggregate == nullptr) {
    throw BinderError(std::string("GROUPING is not allowed in ") + ctx.clause + " (it needs GROUP BY)", call.position, "42803");
  }
  if (call.star || call.distinct || call.filter || call.args.empty()) {
    throw BinderError("GROUPING takes one or more grouping expressions", call.position, "42601");
  }
  if (call.args.size() > 31) throw BinderError("GROUPING of more than 31 arguments", call.position, "54023");
  const AggregateBinding& agg = *ctx.aggregate;
  const LogicalType integer = TypeId::kInteger;
  ExprPtr result = make_constant(Value::integer(0));
  for (const auto& arg : call.args) {
    ExprPtr bound = bind(*arg, agg.input("GROUPING"));
    std::optional<size_t> group = agg.find_group(*bound);
    if (!group || group == agg.grouping_id) {
      throw BinderError("arguments to GROUPING must be grouping expressions of the associated query level",
                        arg->position, "42803");
    }
    if (!agg.grouping_id) continue;  // a plain GROUP BY groups by every key: every bit is 0
    // bit = (mask / 2^group) % 2; result = result * 2 + bit.
    ExprPtr shifted = make_function(ScalarFunction::kDivide, integer,
                                    {agg.group_ref(*agg.grouping_id), make_constant(Value::integer(1 << *group))});
    ExprPtr bit = make_function(ScalarFunction::kModulo, integer, {shifted, make_constant(Value::integer(2))});
    result = make_function(ScalarFunction::kAdd, integer,
                           {make_function(ScalarFunction::kMultiply, integer, {result, make_constant(Value::integer(2))}),
                            bit});
  }
  return result;
}

}  // namespace kestrel::plan
