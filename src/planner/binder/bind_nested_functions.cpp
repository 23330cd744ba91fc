// Binding of the array, map and lambda functions: argument types checked and cast, result types computed.

#include "planner/binder/bind_nested_internal.hpp"

namespace kestrel::plan {

using F = ScalarFunction;

[[noreturn]] void wrong_argument(const std::string& function, const std::string& wanted, const Expr& got,
                                 SourcePosition pos) {
  throw BinderError(function + " needs " + wanted + ", not " + got.type.to_string(), pos, "42804");
}

/// Checks that `e` is an ARRAY (or NULL, made an ARRAY(INTEGER)).
ExprPtr require_array(ExprPtr e, const std::string& function, SourcePosition pos) {
  if (e->type.id() == TypeId::kNull) return Binder::cast_to(e, LogicalType::array(TypeId::kInteger), pos);
  if (e->type.id() != TypeId::kArray) wrong_argument(function, "an ARRAY", *e, pos);
  return e;
}

ExprPtr require_map(ExprPtr e, const std::string& function, SourcePosition pos) {
  // An untyped NULL is a NULL map, as ARRAY(INTEGER) is a NULL array.
  if (e->type.id() == TypeId::kNull) {
    return Binder::cast_to(e, LogicalType::map(TypeId::kInteger, TypeId::kInteger), pos);
  }
  if (e->type.id() != TypeId::kMap) wrong_argument(function, "a MAP", *e, pos);
  return e;
}

/// An array and a value meet at their common element type (contains, array_position).
void unify_element(ExprPtr& array, ExprPtr& value, const std::string& function, SourcePosition pos) {
  auto common = common_super_type(array->type.element_type(), value->type);
  if (!common) {
    throw BinderError(function + ": " + value->type.to_string() + " does not match the elements of " +
                          array->type.to_string(),
                      pos, "42804");
  }
  array = Binder::cast_to(array, LogicalType::array(storable_element(*common)), pos);
  value = Binder::cast_to(value, storable_element(*common), pos);
}

bool is_nested_function(ScalarFunction f) {
  switch (f) {
    case F::kMapFromArrays:
    case F::kElementAt:
    case F::kCardinality:
    case F::kContains:
    case F::kArrayJoin:
    case F::kArrayDistinct:
    case F::kArraySort:
    case F::kArrayPosition:
    case F::kArrayMax:
    case F::kArrayMin:
    case F::kSlice:
    case F::kSequence:
    case F::kMapKeys:
    case F::kMapValues:
    case F::kMapFromEntries:
    case F::kSplit:
    case F::kTransform:
    case F::kFilter:
    case F::kReduce: return true;
    default: return is_more_nested_function(f);
  }
}

ExprPtr ExprBinder::bind_nested_function(ScalarFunction f, const ast::FunctionCall& call,
                                         const ExprBindContext& ctx) {
  const std::string& name = call.name;
  const SourcePosition pos = call.position;
  auto arg_pos = [&](size_t i) { return call.args[i]->position; };
  auto make = [&](LogicalType result, std::vector<ExprPtr> args) {
    return positioned(make_function(f, std::move(result), std::move(args)), pos);
  };
  if (f == F::kElementAt) return bind_subscript(call, ctx, true);
  if (is_more_nested_function(f)) return bind_more_nested_function(f, call, ctx);
  if (f == F::kTransform || f == F::kFilter || f == F::kReduce) return bind_lambda_function(f, call, ctx);
  std::vector<ExprPtr> args;
  for (const auto& a : call.args) args.push_back(bind(*a, ctx));
  switch (f) {
    case F::kMapFromArrays: {
      if (args.empty()) return make(LogicalType::map(TypeId::kInteger, TypeId::kInteger), {});
      for (size_t i = 0; i < 2; ++i) args[i] = require_array(args[i], name, arg_pos(i));
      const LogicalType key = args[0]->type.element_type();
      const LogicalType value = args[1]->type.element_type();
      if (!is_orderable(key) && key.id() != TypeId::kMap) {
        throw BinderError("map keys of type " + key.to_string() + " cannot be compared", arg_pos(0), "42804");
      }
      return make(LogicalType::map(key, value), std::move(args));
    }
    case F::kCardinality:
      if (args[0]->type.id() != TypeId::kMap) args[0] = require_array(args[0], name, arg_pos(0));
      return make(TypeId::kBigInt, std::move(args));
    case F::kContains:
    case F::kArrayPosition:
      args[0] = require_array(args[0], name, arg_pos(0));
      unify_element(args[0], args[1], name, arg_pos(1));
      return make(f == F::kContains ? LogicalType(TypeId::kBoolean) : LogicalType(TypeId::kBigInt), std::move(args));
    case F::kArrayJoin: {
      args[0] = require_array(args[0], name, arg_pos(0));
      if (args[0]->type.element_type().is_nested()) wrong_argument(name, "an ARRAY of flat values", *args[0], pos);
      args[0] = Binder::cast_to(args[0], LogicalType::array(TypeId::kVarchar), arg_pos(0));
      for (size_t i = 1; i < args.size(); ++i) args[i] = Binder::cast_to(args[i], TypeId::kVarchar, arg_pos(i));
      return make(TypeId::kVarchar, std::move(args));
    }
    case F::kArrayDistinct:
    case F::kArraySort:
    case F::kArrayMax:
    case F::kArrayMin: {
      args[0] = require_array(args[0], name, arg_pos(0));
      const LogicalType element = args[0]->type.element_type();
      if (f != F::kArrayDistinct) require_orderable(element, name.c_str(), arg_pos(0));
      const LogicalType result = f == F::kArrayMax || f == F::kArrayMin ? element : args[0]->type;
      return make(result, std::move(args));
    }
    case F::kSlice: {
      args[0] = require_array(args[0], name, arg_pos(0));
      for (size_t i = 1; i < 3; ++i) args[i] = Binder::cast_to(args[i], TypeId::kBigInt, arg_pos(i));
      const LogicalType result = args[0]->type;
      return make(result, std::move(args));
    }
    case F::kSequence: return bind_sequence(call, std::move(args));
    case F::kMapKeys:
    case F::kMapValues: {
      args[0] = require_map(args[0], name, arg_pos(0));
      const LogicalType& m = args[0]->type;
      return make(LogicalType::array(f == F::kMapKeys ? m.key_type() : m.value_type()), std::move(args));
    }
    case F::kMapFromEntries: {
      args[0] = require_array(args[0], name, arg_pos(0));
      const LogicalType entry = args[0]->type.element_type();
      if (entry.id() != TypeId::kRow || entry.fields().size() != 2) {
        wrong_argument(name, "an ARRAY of two-field ROWs", *args[0], arg_pos(0));
      }
      const LogicalType map = LogicalType::map(entry.child(0), entry.child(1));
      // The entries as the map's own ROW(key, value) type (the field names differ).
      args[0] = Binder::cast_to(args[0], LogicalType::array(map.element_type()), arg_pos(0));
      return make(map, std::move(args));
    }
    case F::kSplit:
      args[0] = Binder::cast_to(args[0], TypeId::kVarchar, arg_pos(0));
      args[1] = Binder::cast_to(args[1], TypeId::kVarchar, arg_pos(1));
      if (args.size() > 2) args[2] = Binder::cast_to(args[2], TypeId::kBigInt, arg_pos(2));
      return make(LogicalType::array(TypeId::kVarchar), std::move(args));
    default: break;
  }
  throw InternalError(std::string("unbound nested function ") + scalar_function_name(f));
}

ExprPtr ExprBinder::bind_sequence(const ast::FunctionCall& call, std::vector<ExprPtr> args) {
  const SourcePosition pos = call.position;
  const TypeId start = args[0]->type.id();
  auto make = [&](LogicalType element) {
    return positioned(make_function(F::kSequence, LogicalType::array(std::move(element)), std::move(args)), pos);
  };
  if (start == TypeId::kDate || start == TypeId::kTimestamp) {
    const LogicalType t = start;
    args[1] = Binder::cast_to(args[1], t, call.args[1]->position);
    if (args.size() == 3) {
      if (args[2]->type.id() != TypeId::kInterval) wrong_argument("sequence", "an INTERVAL step", *args[2], pos);
    } else if (start == TypeId::kDate) {
      args.push_back(make_constant(Value::interval(Interval{0, 1, 0})));
    } else {
      throw BinderError("sequence of TIMESTAMPs needs an INTERVAL step", pos, "42804");
    }
    return make(t);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type.is_integral() && args[i]->type.id() != TypeId::kNull) {
      wrong_argument("sequence", "BIGINT, DATE or TIMESTAMP bounds", *args[i], call.args[i]->position);
    }
    args[i] = Binder::cast_to(args[i], TypeId::kBigInt, call.args[i]->position);
  }
  return make(TypeId::kBigInt);
}

ExprPtr ExprBinder::bind_lambda_function(ScalarFunction f, const ast::FunctionCall& call,
                                         const ExprBindContext& ctx) {
  const SourcePosition pos = call.position;
  ExprPtr array = require_array(bind(*call.args[0], ctx), call.name, call.args[0]->position);
  const LogicalType element = array->type.element_type();
  if (f == F::kTransform || f == F::kFilter) {
    ExprPtr lambda = bind_lambda(*call.args[1], {element}, ctx);
    if (f == F::kFilter && lambda->type.id() != TypeId::kBoolean && lambda->type.id() != TypeId::kNull) {
      throw BinderError("filter's lambda must give BOOLEAN, not " + lambda->type.to_string(),
                        call.args[1]->position, "42804");
    }
    const LogicalType result = f == F::kFilter ? array->type : LogicalType::array(storable_element(lambda->type));
    if (f == F::kTransform && lambda->type.id() == TypeId::kNull) {
      auto e = std::make_shared<Expr>(*lambda);
      e->children[0] = Binder::cast_to(lambda->children[0], result.element_type(), pos);
      e->type = result.element_type();
      lambda = e;
    }
    return positioned(make_function(f, result, {std::move(array), std::move(lambda)}), pos);
  }
  // reduce(array, initial, (s, x) -> s', s -> result): the state's type is the initial value's, widened to what
  // the input function gives when the two differ (0 and a BIGINT sum).
  ExprPtr initial = bind(*call.args[1], ctx);
  LogicalType state = storable_element(initial->type);
  ExprPtr step = bind_lambda(*call.args[2], {state, element}, ctx);
  if (!(step->type == state)) {
    auto common = common_super_type(state, step->type);
    if (!common) {
      throw BinderError("reduce: the input function gives " + step->type.to_string() + ", the state is " +
                            state.to_string(),
                        call.args[2]->position, "42804");
    }
    state = storable_element(*common);
    step = bind_lambda(*call.args[2], {state, element}, ctx);
  }
  initial = Binder::cast_to(initial, state, call.args[1]->position);
  if (!(step->type == state)) {
    auto e = std::make_shared<Expr>(*step);
    e->children[0] = Binder::cast_to(step->children[0], state, call.args[2]->position);
    e->type = state;
    step = e;
  }
  ExprPtr output = bind_lambda(*call.args[3], {state}, ctx);
  const LogicalType result = storable_element(output->type);
  return positioned(
      make_function(f, result, {std::move(array), std::move(initial), std::move(step), std::move(output)}), pos);
}

}  // namespace kestrel::plan
