#include "planner/binder/presto_collect_aggregates.hpp"

#include <algorithm>

#include "planner/binder/binder.hpp"

namespace kestrel::plan {

namespace {

const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kDouble(TypeId::kDouble);
const LogicalType kBoolean(TypeId::kBoolean);
const LogicalType kVarchar(TypeId::kVarchar);

struct Shape {
  std::string_view name;
  AggregateFunction function;
  size_t least, most;
};

constexpr Shape kShapes[] = {
    {"set_agg", AggregateFunction::kSetAgg, 1, 1},
    {"set_union", AggregateFunction::kSetUnion, 1, 1},
    {"histogram", AggregateFunction::kHistogram, 1, 1},
    {"map_union", AggregateFunction::kMapUnion, 1, 1},
    {"map_union_sum", AggregateFunction::kMapUnionSum, 1, 1},
    {"multimap_agg", AggregateFunction::kMultimapAgg, 2, 2},
    {"numeric_histogram", AggregateFunction::kNumericHistogram, 2, 3},
    {"classification_miss_rate", AggregateFunction::kClassificationMissRate, 3, 4},
    {"classification_fall_out", AggregateFunction::kClassificationFallOut, 3, 4},
    {"classification_precision", AggregateFunction::kClassificationPrecision, 3, 4},
    {"classification_recall", AggregateFunction::kClassificationRecall, 3, 4},
    {"classification_thresholds", AggregateFunction::kClassificationThresholds, 3, 3},
    {"differential_entropy", AggregateFunction::kDifferentialEntropy, 2, 6},
    {"approx_most_frequent", AggregateFunction::kApproxMostFrequent, 3, 3},
    {"reservoir_sample", AggregateFunction::kReservoirSample, 4, 4},
};

const Shape* shape_of(const std::string& name) {
  for (const Shape& s : kShapes) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

[[noreturn]] void no_match(const ast::FunctionCall& call, const std::vector<ExprPtr>& args) {
  std::string types;
  for (size_t i = 0; i < args.size(); ++i) types += (i ? ", " : "") + args[i]->type.to_string();
  throw BinderError("no function matches " + call.name + "(" + types + ")", call.position, "42883");
}

bool is_null(const ExprPtr& e) { return e->type.id() == TypeId::kNull; }

/// `e` as `type` when it is a number (or NULL) and `type` is numeric, BOOLEAN as BOOLEAN, and so on; else no match.
ExprPtr as(const ast::FunctionCall& call, const std::vector<ExprPtr>& args, const ExprPtr& e, const LogicalType& type) {
  const bool ok = is_null(e) || (type.is_numeric() ? e->type.is_numeric() : e->type.id() == type.id());
  if (!ok) no_match(call, args);
  return Binder::cast_to(e, type, call.position);
}

/// A NULL argument as INTEGER (as min and max type one), anything else unchanged.
ExprPtr typed(const ExprPtr& e, SourcePosition pos) {
  return is_null(e) ? Binder::cast_to(e, TypeId::kInteger, pos) : e;
}

ExprPtr row_of(std::vector<ExprPtr> fields) {
  std::vector<RowField> types;
  for (const ExprPtr& f : fields) types.push_back(RowField{"", f->type});
  return make_function(ScalarFunction::kRowConstructor, LogicalType::row(std::move(types)), std::move(fields));
}

/// The argument of `function` over the bound `args` (count checked).
ExprPtr argument_of(const ast::FunctionCall& call, AggregateFunction function, const std::vector<ExprPtr>& args) {
  const SourcePosition pos = call.position;
  const ExprPtr one = make_constant(Value::double_value(1.0));
  switch (function) {
    case AggregateFunction::kSetAgg:
    case AggregateFunction::kHistogram: return typed(args[0], pos);
    case AggregateFunction::kSetUnion:
      if (args[0]->type.id() != TypeId::kArray) no_match(call, args);
      return args[0];
    case AggregateFunction::kMapUnion:
      if (args[0]->type.id() != TypeId::kMap) no_match(call, args);
      return args[0];
    case AggregateFunction::kMapUnionSum: {
      if (args[0]->type.id() != TypeId::kMap) no_match(call, args);
      const LogicalType& v = args[0]->type.value_type();
      if (!v.is_integral() && v.id() != TypeId::kReal && v.id() != TypeId::kDouble) no_match(call, args);
      return args[0];
    }
    case AggregateFunction::kMultimapAgg: return row_of({typed(args[0], pos), typed(args[1], pos)});
    case AggregateFunction::kNumericHistogram:
      return row_of({as(call, args, args[0], kBigInt), as(call, args, args[1], kDouble),
                     args.size() > 2 ? as(call, args, args[2], kDouble) : one});
    case AggregateFunction::kDifferentialEntropy: {
      if (args.size() != 2 && args.size() != 3 && args.size() != 6) no_match(call, args);
      const bool histogram = args.size() == 6;
      return row_of({as(call, args, args[0], kBigInt), as(call, args, args[1], kDouble),
                     args.size() > 2 ? as(call, args, args[2], kDouble) : one,
                     histogram ? as(call, args, args[3], kVarchar) : make_constant(Value::null(kVarchar)),
                     histogram ? as(call, args, args[4], kDouble) : make_constant(Value::null(kDouble)),
                     histogram ? as(call, args, args[5], kDouble) : make_constant(Value::null(kDouble))});
    }
    case AggregateFunction::kApproxMostFrequent:
      return row_of({as(call, args, args[0], kBigInt), typed(args[1], pos), as(call, args, args[2], kBigInt)});
    case AggregateFunction::kReservoirSample: {
      const ExprPtr value = typed(args[2], pos);
      const LogicalType array = LogicalType::array(value->type);
      if (!is_null(args[0]) && args[0]->type != array) no_match(call, args);
      return row_of({Binder::cast_to(args[0], array, pos), as(call, args, args[1], kBigInt), value,
                     as(call, args, args[3], kBigInt)});
    }
    default:  // the classification metrics
      return row_of({as(call, args, args[0], kBigInt), as(call, args, args[1], kBoolean),
                     as(call, args, args[2], kDouble), args.size() > 3 ? as(call, args, args[3], kDouble) : one});
  }
}

/// The result type (as the aggregation's collected_result_type computes it).
LogicalType result_of(AggregateFunction function, const LogicalType& input) {
  switch (function) {
    case AggregateFunction::kSetAgg: return LogicalType::array(input);
    case AggregateFunction::kSetUnion:
    case AggregateFunction::kMapUnion:
    case AggregateFunction::kMapUnionSum: return input;
    case AggregateFunction::kHistogram: return LogicalType::map(input, kBigInt);
    case AggregateFunction::kMultimapAgg:
      return LogicalType::map(input.fields()[0].type, LogicalType::array(input.fields()[1].type));
    case AggregateFunction::kNumericHistogram: return LogicalType::map(kDouble, kDouble);
    case AggregateFunction::kDifferentialEntropy: return kDouble;
    case AggregateFunction::kApproxMostFrequent: return LogicalType::map(input.fields()[1].type, kBigInt);
    case AggregateFunction::kReservoirSample:
      return LogicalType::row({RowField{"processed_count", kBigInt},
                               RowField{"sample", LogicalType::array(input.fields()[2].type)}});
    default: return LogicalType::array(kDouble);
  }
}

}  // namespace

bool is_collecting_aggregate_name(const std::string& name) { return shape_of(name) != nullptr; }

AggregateCall bind_collecting_aggregate(const ast::FunctionCall& call,
                                        const std::function<ExprPtr(const ast::Expr&)>& bind_input,
                                        const ExprPtr& filter) {
  const Shape& shape = *shape_of(call.name);
  if (call.args.size() < shape.least || call.args.size() > shape.most) {
    const std::string count = shape.least == shape.most ? std::to_string(shape.least)
                                                         : std::to_string(shape.least) + " to " +
                                                               std::to_string(shape.most);
    throw BinderError("aggregate " + call.name + " takes " + count + " arguments", call.position, "42883");
  }
  std::vector<ExprPtr> args;
  for (const auto& arg : call.args) args.push_back(bind_input(*arg));
  AggregateCall a;
  a.function = shape.function;
  a.argument = argument_of(call, shape.function, args);
  a.result_type = result_of(shape.function, a.argument->type);
  a.distinct = call.distinct;
  a.filter = filter;
  return a;
}

}  // namespace kestrel::plan
