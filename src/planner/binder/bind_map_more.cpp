// Binding of the map functions of issue 15 without lambdas: argument types checked and cast, result types computed.

#include "planner/binder/bind_nested_internal.hpp"

namespace kestrel::plan {

namespace {

using F = ScalarFunction;

/// `value` cast to the key type of `map` (map_key_exists), as a subscript's key is.
ExprPtr key_argument(const ExprPtr& map, ExprPtr value, const std::string& function, SourcePosition pos) {
  const LogicalType& key = map->type.key_type();
  if (!can_implicitly_cast(value->type, key)) {
    throw BinderError(function + ": a key of type " + value->type.to_string() + " does not match the keys of " +
                          map->type.to_string(),
                      pos, "42804");
  }
  return Binder::cast_to(std::move(value), key, pos);
}

/// `array` cast to ARRAY(K) of the map's keys (map_subset); ARRAY[] and NULL take any key type.
ExprPtr key_array_argument(const ExprPtr& map, ExprPtr array, const std::string& function, SourcePosition pos) {
  array = require_array(std::move(array), function, pos);
  const LogicalType& key = map->type.key_type();
  const bool empty = array->kind == ExprKind::kFunction && array->function == F::kArrayConstructor &&
                     array->children.empty();
  const bool null = array->kind == ExprKind::kConstant && array->constant.is_null();
  if (!empty && !null && !can_implicitly_cast(array->type.element_type(), key)) {
    throw BinderError(function + ": " + array->type.to_string() + " does not match the keys of " +
                          map->type.to_string(),
                      pos, "42804");
  }
  return Binder::cast_to(std::move(array), LogicalType::array(key), pos);
}

/// The common MAP type of map_concat's arguments (an untyped NULL takes it).
LogicalType common_map_type(const std::vector<ExprPtr>& args, const std::string& function, SourcePosition pos) {
  std::vector<LogicalType> types;
  for (const ExprPtr& a : args) {
    if (a->type.id() == TypeId::kNull) continue;
    if (a->type.id() != TypeId::kMap) wrong_argument(function, "MAP arguments", *a, pos);
    types.push_back(a->type);
  }
  if (types.empty()) return LogicalType::map(TypeId::kInteger, TypeId::kInteger);
  auto common = common_super_type(types);
  if (!common) throw BinderError(function + ": the maps have no common type", pos, "42804");
  return *common;
}

}  // namespace

bool is_map_more_function(ScalarFunction f) {
  switch (f) {
    case F::kAllKeysMatch:
    case F::kAnyKeysMatch:
    case F::kNoKeysMatch:
    case F::kAnyValuesMatch:
    case F::kNoValuesMatch:
    case F::kMultimapFromEntries:
    case F::kMapEntries:
    case F::kMapConcat:
    case F::kMapFilter:
    case F::kMapRemoveNullValues:
    case F::kMapSubset:
    case F::kMapKeyExists:
    case F::kMapTopNKeys:
    case F::kMapKeysByTopNValues:
    case F::kMapTopN:
    case F::kMapTopNValues:
    case F::kMapNormalize:
    case F::kMapZipWith:
    case F::kTransformKeys:
    case F::kTransformValues:
    case F::kMapIntKeysToArray:
    case F::kArrayToMapIntKeys: return true;
    default: return false;
  }
}

ExprPtr ExprBinder::bind_map_more(ScalarFunction f, const ast::FunctionCall& call, std::vector<ExprPtr> args) {
  const std::string& name = call.name;
  const SourcePosition pos = call.position;
  auto arg_pos = [&](size_t i) { return call.args[i]->position; };
  auto make = [&](LogicalType result, std::vector<ExprPtr> a) {
    return positioned(make_function(f, std::move(result), std::move(a)), pos);
  };
  switch (f) {
    case F::kMultimapFromEntries: {
      if (args[0]->type.id() == TypeId::kNull) {
        const LogicalType entries = LogicalType::map(TypeId::kInteger, TypeId::kInteger).element_type();
        args[0] = Binder::cast_to(args[0], LogicalType::array(entries), arg_pos(0));
      }
      args[0] = require_array(args[0], name, arg_pos(0));
      const LogicalType entry = args[0]->type.element_type();
      if (entry.id() != TypeId::kRow || entry.fields().size() != 2) {
        wrong_argument(name, "an ARRAY of two-field ROWs", *args[0], arg_pos(0));
      }
      if (!is_orderable(entry.child(0)) && entry.child(0).id() != TypeId::kMap) {
        throw BinderError("map keys of type " + entry.child(0).to_string() + " cannot be compared", arg_pos(0),
                          "42804");
      }
      // The entries as a map's ROW(key, value) type (field names aside, the same).
      const LogicalType entries = LogicalType::map(entry.child(0), entry.child(1)).element_type();
      args[0] = Binder::cast_to(args[0], LogicalType::array(entries), arg_pos(0));
      return make(LogicalType::map(entry.child(0), LogicalType::array(entry.child(1))), std::move(args));
    }
    case F::kArrayToMapIntKeys: {
      args[0] = require_array(args[0], name, arg_pos(0));
      const LogicalType value = args[0]->type.element_type();
      return make(LogicalType::map(TypeId::kInteger, value), std::move(args));
    }
    case F::kMapConcat: {
      const LogicalType map = common_map_type(args, name, pos);
      for (size_t i = 0; i < args.size(); ++i) args[i] = Binder::cast_to(args[i], map, arg_pos(i));
      return make(map, std::move(args));
    }
    default: break;
  }
  // The others take a map first.
  args[0] = require_map(args[0], name, arg_pos(0));
  const LogicalType map = args[0]->type;
  switch (f) {
    case F::kMapEntries:
      return make(LogicalType::array(LogicalType::row({RowField{"", map.key_type()}, RowField{"", map.value_type()}})),
                  std::move(args));
    case F::kMapRemoveNullValues: return make(map, std::move(args));
    case F::kMapNormalize: {
      if (!map.value_type().is_numeric()) wrong_argument(name, "a MAP with numeric values", *args[0], arg_pos(0));
      const LogicalType result = LogicalType::map(map.key_type(), TypeId::kDouble);
      args[0] = Binder::cast_to(args[0], result, arg_pos(0));
      return make(result, std::move(args));
    }
    case F::kMapSubset:
      args[1] = key_array_argument(args[0], args[1], name, arg_pos(1));
      return make(map, std::move(args));
    case F::kMapKeyExists:
      args[1] = key_argument(args[0], args[1], name, arg_pos(1));
      return make(TypeId::kBoolean, std::move(args));
    case F::kMapTopNKeys:
    case F::kMapTopNValues:
    case F::kMapKeysByTopNValues:
    case F::kMapTopN: {
      if (f != F::kMapTopNValues) require_orderable(map.key_type(), name.c_str(), arg_pos(0));
      if (f != F::kMapTopNKeys) require_orderable(map.value_type(), name.c_str(), arg_pos(0));
      args[1] = require_integer(args[1], name, "n", arg_pos(1));
      const LogicalType result = f == F::kMapTopN         ? map
                                 : f == F::kMapTopNValues ? LogicalType::array(map.value_type())
                                                          : LogicalType::array(map.key_type());
      return make(result, std::move(args));
    }
    case F::kMapIntKeysToArray:
      if (!map.key_type().is_integral()) wrong_argument(name, "a MAP with integer keys", *args[0], arg_pos(0));
      return make(LogicalType::array(map.value_type()), std::move(args));
    default: break;
  }
  throw InternalError(std::string("unbound map function ") + scalar_function_name(f));
}

}  // namespace kestrel::plan
