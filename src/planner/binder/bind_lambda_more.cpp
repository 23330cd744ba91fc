// Binding of the lambda functions of issue 15 (all_match, find_first, array_max_by, zip_with, map_filter,
// transform_keys, map_zip_with, ...): the array or map argument first, then the lambda with its parameters typed
// from it.

#include "planner/binder/bind_nested_internal.hpp"

namespace kestrel::plan {

namespace {

using F = ScalarFunction;

/// `lambda` whose body gives `type`: a NULL body is cast to it (a lambda of an untyped NULL).
ExprPtr lambda_of_type(ExprPtr lambda, const LogicalType& type, SourcePosition pos) {
  if (lambda->type == type) return lambda;
  auto e = std::make_shared<Expr>(*lambda);
  e->children[0] = Binder::cast_to(lambda->children[0], type, pos);
  e->type = type;
  return e;
}

/// A lambda that must give BOOLEAN (a predicate).
ExprPtr predicate(ExprPtr lambda, const std::string& function, SourcePosition pos) {
  if (lambda->type.id() != TypeId::kBoolean && lambda->type.id() != TypeId::kNull) {
    throw BinderError(function + "'s lambda must give BOOLEAN, not " + lambda->type.to_string(), pos, "42804");
  }
  return lambda_of_type(std::move(lambda), TypeId::kBoolean, pos);
}

bool over_map(ScalarFunction f) {
  switch (f) {
    case F::kAllKeysMatch:
    case F::kAnyKeysMatch:
    case F::kNoKeysMatch:
    case F::kAnyValuesMatch:
    case F::kNoValuesMatch:
    case F::kMapFilter:
    case F::kMapZipWith:
    case F::kTransformKeys:
    case F::kTransformValues: return true;
    default: return false;
  }
}

}  // namespace

ExprPtr ExprBinder::bind_lambda_more(ScalarFunction f, const ast::FunctionCall& call, const ExprBindContext& ctx) {
  const std::string& name = call.name;
  const SourcePosition pos = call.position;
  auto arg_pos = [&](size_t i) { return call.args[i]->position; };
  const ast::Expr& lambda_ast = *call.args.back();
  const SourcePosition lambda_pos = lambda_ast.position;
  auto make = [&](LogicalType result, std::vector<ExprPtr> args) {
    return positioned(make_function(f, std::move(result), std::move(args)), pos);
  };
  ExprPtr first = bind(*call.args[0], ctx);
  first = over_map(f) ? require_map(first, name, arg_pos(0)) : require_array(first, name, arg_pos(0));
  const LogicalType type = first->type;
  switch (f) {
    case F::kAllMatch:
    case F::kAnyMatch:
    case F::kNoneMatch: {
      ExprPtr lambda = predicate(bind_lambda(lambda_ast, {type.element_type()}, ctx), name, lambda_pos);
      return make(TypeId::kBoolean, {std::move(first), std::move(lambda)});
    }
    case F::kAllKeysMatch:
    case F::kAnyKeysMatch:
    case F::kNoKeysMatch:
    case F::kAnyValuesMatch:
    case F::kNoValuesMatch: {
      const bool keys = f == F::kAllKeysMatch || f == F::kAnyKeysMatch || f == F::kNoKeysMatch;
      ExprPtr lambda =
          predicate(bind_lambda(lambda_ast, {keys ? type.key_type() : type.value_type()}, ctx), name, lambda_pos);
      return make(TypeId::kBoolean, {std::move(first), std::move(lambda)});
    }
    case F::kArrayMaxBy:
    case F::kArrayMinBy: {
      ExprPtr lambda = bind_lambda(lambda_ast, {type.element_type()}, ctx);
      lambda = lambda_of_type(lambda, storable_element(lambda->type), lambda_pos);
      require_orderable(lambda->type, name.c_str(), lambda_pos);
      return make(type.element_type(), {std::move(first), std::move(lambda)});
    }
    case F::kFindFirst:
    case F::kFindFirstIndex: {
      std::vector<ExprPtr> args{first};
      if (call.args.size() == 3) args.push_back(require_integer(bind(*call.args[1], ctx), name, "index", arg_pos(1)));
      args.push_back(predicate(bind_lambda(lambda_ast, {type.element_type()}, ctx), name, lambda_pos));
      const LogicalType result = f == F::kFindFirst ? type.element_type() : LogicalType(TypeId::kBigInt);
      return make(result, std::move(args));
    }
    case F::kZipWith: {
      ExprPtr second = require_array(bind(*call.args[1], ctx), name, arg_pos(1));
      ExprPtr lambda = bind_lambda(lambda_ast, {type.element_type(), second->type.element_type()}, ctx);
      const LogicalType element = storable_element(lambda->type);
      lambda = lambda_of_type(lambda, element, lambda_pos);
      return make(LogicalType::array(element), {std::move(first), std::move(second), std::move(lambda)});
    }
    case F::kMapFilter: {
      ExprPtr lambda = predicate(bind_lambda(lambda_ast, {type.key_type(), type.value_type()}, ctx), name, lambda_pos);
      return make(type, {std::move(first), std::move(lambda)});
    }
    case F::kTransformKeys:
    case F::kTransformValues: {
      ExprPtr lambda = bind_lambda(lambda_ast, {type.key_type(), type.value_type()}, ctx);
      const LogicalType result = storable_element(lambda->type);
      lambda = lambda_of_type(lambda, result, lambda_pos);
      if (f == F::kTransformKeys && !is_orderable(result) && result.id() != TypeId::kMap) {
        throw BinderError("map keys of type " + result.to_string() + " cannot be compared", lambda_pos, "42804");
      }
      const LogicalType map = f == F::kTransformKeys ? LogicalType::map(result, type.value_type())
                                                     : LogicalType::map(type.key_type(), result);
      return make(map, {std::move(first), std::move(lambda)});
    }
    case F::kMapZipWith: {
      ExprPtr second = require_map(bind(*call.args[1], ctx), name, arg_pos(1));
      auto key = common_super_type(type.key_type(), second->type.key_type());
      if (!key) {
        throw BinderError(name + ": the keys of " + type.to_string() + " and " + second->type.to_string() +
                              " have no common type",
                          pos, "42804");
      }
      first = Binder::cast_to(first, LogicalType::map(*key, type.value_type()), arg_pos(0));
      second = Binder::cast_to(second, LogicalType::map(*key, second->type.value_type()), arg_pos(1));
      ExprPtr lambda = bind_lambda(lambda_ast, {*key, type.value_type(), second->type.value_type()}, ctx);
      const LogicalType value = storable_element(lambda->type);
      lambda = lambda_of_type(lambda, value, lambda_pos);
      return make(LogicalType::map(*key, value), {std::move(first), std::move(second), std::move(lambda)});
    }
    default: break;
  }
  throw InternalError(std::string("unbound lambda function ") + scalar_function_name(f));
}

}  // namespace kestrel::plan
