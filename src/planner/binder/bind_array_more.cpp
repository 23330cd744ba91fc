// Binding of the array and map functions of issue 15: which functions they are, and the array functions without
// lambdas (argument types checked and cast, result types computed). The map functions are in bind_map_more.cpp,
// the lambda functions in bind_lambda_more.cpp.

#include "planner/binder/bind_nested_internal.hpp"

namespace kestrel::plan {

namespace {

using F = ScalarFunction;

/// The element type of an ARRAY of numbers; throws naming `function` otherwise.
const LogicalType& numeric_element(const ExprPtr& array, const std::string& function, SourcePosition pos) {
  const LogicalType& element = array->type.element_type();
  if (!element.is_numeric()) wrong_argument(function, "an ARRAY of numbers", *array, pos);
  return element;
}

/// Keys of a map or set built from `type` must compare (as map() checks its keys).
void require_key_type(const LogicalType& type, const std::string& function, SourcePosition pos) {
  if (!is_orderable(type) && type.id() != TypeId::kMap) {
    throw BinderError(function + ": values of type " + type.to_string() + " cannot be compared", pos, "42804");
  }
}

/// Whether `e` is ARRAY[] (typed ARRAY(INTEGER), though it holds no integer) or an untyped NULL made an array.
bool is_empty_array(const Expr& e) {
  const bool empty = e.kind == ExprKind::kFunction && e.function == F::kArrayConstructor && e.children.empty();
  return empty || (e.kind == ExprKind::kConstant && e.constant.is_null());
}

/// An ARRAY(ARRAY(T)) argument (flatten, array_transpose, array_intersect of one array); ARRAY[] and NULL are
/// taken as ARRAY(ARRAY(INTEGER)).
ExprPtr require_array_of_arrays(ExprPtr e, const std::string& function, SourcePosition pos) {
  e = require_array(std::move(e), function, pos);
  if (is_empty_array(*e)) return Binder::cast_to(e, LogicalType::array(LogicalType::array(TypeId::kInteger)), pos);
  if (e->type.element_type().id() != TypeId::kArray) wrong_argument(function, "an ARRAY of ARRAYs", *e, pos);
  return e;
}

}  // namespace

ExprPtr require_integer(ExprPtr e, const std::string& function, const char* what, SourcePosition pos) {
  if (!e->type.is_integral() && e->type.id() != TypeId::kNull) {
    wrong_argument(function, std::string("an integer ") + what, *e, pos);
  }
  return Binder::cast_to(std::move(e), TypeId::kBigInt, pos);
}

void unify_arrays(ExprPtr& a, ExprPtr& b, const std::string& function, SourcePosition pos) {
  // ARRAY[] and NULL take the other array's type.
  if (is_empty_array(*a) && !is_empty_array(*b)) a = Binder::cast_to(a, b->type, pos);
  if (is_empty_array(*b) && !is_empty_array(*a)) b = Binder::cast_to(b, a->type, pos);
  auto common = common_super_type(a->type.element_type(), b->type.element_type());
  if (!common) {
    throw BinderError(function + ": the elements of " + a->type.to_string() + " and " + b->type.to_string() +
                          " have no common type",
                      pos, "42804");
  }
  const LogicalType array = LogicalType::array(storable_element(*common));
  a = Binder::cast_to(a, array, pos);
  b = Binder::cast_to(b, array, pos);
}

bool is_more_nested_function(ScalarFunction f) {
  switch (f) {
    case F::kAllMatch:
    case F::kAnyMatch:
    case F::kNoneMatch:
    case F::kArrayAverage:
    case F::kArrayCumSum:
    case F::kArrayDuplicates:
    case F::kArrayExcept:
    case F::kArrayIntersect:
    case F::kArrayUnion:
    case F::kArrayFrequency:
    case F::kArrayHasDuplicates:
    case F::kArrayLeastFrequent:
    case F::kArrayMostFrequent:
    case F::kArrayMaxBy:
    case F::kArrayMinBy:
    case F::kArrayNormalize:
    case F::kArrayRemove:
    case F::kArraySortDesc:
    case F::kArraySum:
    case F::kArrayTopN:
    case F::kArraysOverlap:
    case F::kCombinations:
    case F::kFlatten:
    case F::kFindFirst:
    case F::kFindFirstIndex:
    case F::kNgrams:
    case F::kRemoveNulls:
    case F::kRepeat:
    case F::kShuffle:
    case F::kTrimArray:
    case F::kZip:
    case F::kZipWith:
    case F::kArraySplitIntoChunks:
    case F::kArrayTranspose: return true;
    default: return is_map_more_function(f);
  }
}

ExprPtr ExprBinder::bind_more_nested_function(ScalarFunction f, const ast::FunctionCall& call,
                                              const ExprBindContext& ctx) {
  if (is_lambda_function(f)) return bind_lambda_more(f, call, ctx);
  std::vector<ExprPtr> args;
  for (const auto& a : call.args) args.push_back(bind(*a, ctx));
  if (is_map_more_function(f)) return bind_map_more(f, call, std::move(args));
  return bind_array_more(f, call, std::move(args));
}

ExprPtr ExprBinder::bind_array_more(ScalarFunction f, const ast::FunctionCall& call, std::vector<ExprPtr> args) {
  const std::string& name = call.name;
  const SourcePosition pos = call.position;
  auto arg_pos = [&](size_t i) { return call.args[i]->position; };
  auto make = [&](LogicalType result, std::vector<ExprPtr> a) {
    return positioned(make_function(f, std::move(result), std::move(a)), pos);
  };
  // Every function here takes an array first, except repeat.
  if (f != F::kRepeat) args[0] = require_array(args[0], name, arg_pos(0));
  const LogicalType array = args[0]->type;
  switch (f) {
    case F::kArrayAverage:
      numeric_element(args[0], name, arg_pos(0));
      args[0] = Binder::cast_to(args[0], LogicalType::array(TypeId::kDouble), arg_pos(0));
      return make(TypeId::kDouble, std::move(args));
    case F::kArraySum: {
      // Presto: BIGINT when the elements are integers, else DOUBLE.
      const LogicalType sum = numeric_element(args[0], name, arg_pos(0)).is_integral() ? TypeId::kBigInt
                                                                                       : TypeId::kDouble;
      args[0] = Binder::cast_to(args[0], LogicalType::array(sum), arg_pos(0));
      return make(sum, std::move(args));
    }
    case F::kArrayCumSum: {
      // DECIMAL(p, s) sums run in DECIMAL(38, s), as Presto's sum does (Presto's array_cum_sum keeps DECIMAL(p, s)
      // and lets its sums exceed p digits); other types keep their type and an overflow is an error.
      const LogicalType& element = numeric_element(args[0], name, arg_pos(0));
      if (element.id() == TypeId::kDecimal) {
        args[0] = Binder::cast_to(args[0], LogicalType::array(LogicalType::decimal(38, element.scale())), arg_pos(0));
      }
      const LogicalType result = args[0]->type;
      return make(result, std::move(args));
    }
    case F::kArrayNormalize: {
      if (is_empty_array(*args[0])) args[0] = Binder::cast_to(args[0], LogicalType::array(TypeId::kDouble), pos);
      const LogicalType& element = args[0]->type.element_type();
      if (element.id() != TypeId::kReal && element.id() != TypeId::kDouble) {
        wrong_argument(name, "an ARRAY of REAL or DOUBLE", *args[0], arg_pos(0));
      }
      if (!args[1]->type.is_numeric() && args[1]->type.id() != TypeId::kNull) {
        wrong_argument(name, "a number p", *args[1], arg_pos(1));
      }
      args[1] = Binder::cast_to(args[1], element, arg_pos(1));
      const LogicalType result = args[0]->type;
      return make(result, std::move(args));
    }
    case F::kArrayDuplicates:
    case F::kRemoveNulls:
    case F::kShuffle: return make(array, std::move(args));
    case F::kArrayHasDuplicates: return make(TypeId::kBoolean, std::move(args));
    case F::kArraySortDesc:
    case F::kArrayTopN:
      require_orderable(array.element_type(), name.c_str(), arg_pos(0));
      if (f == F::kArrayTopN) args[1] = require_integer(args[1], name, "n", arg_pos(1));
      return make(array, std::move(args));
    case F::kArrayFrequency:
      require_key_type(array.element_type(), name, arg_pos(0));
      return make(LogicalType::map(array.element_type(), TypeId::kInteger), std::move(args));
    case F::kArrayLeastFrequent:
    case F::kArrayMostFrequent:
      require_orderable(array.element_type(), name.c_str(), arg_pos(0));
      if (args.size() > 1) args[1] = require_integer(args[1], name, "n", arg_pos(1));
      return make(array, std::move(args));
    case F::kArrayIntersect:
      if (args.size() == 1) {
        args[0] = require_array_of_arrays(args[0], name, arg_pos(0));
        const LogicalType result = args[0]->type.element_type();
        return make(result, std::move(args));
      }
      [[fallthrough]];
    case F::kArrayExcept:
    case F::kArrayUnion:
    case F::kArraysOverlap: {
      args[1] = require_array(args[1], name, arg_pos(1));
      unify_arrays(args[0], args[1], name, pos);
      const LogicalType result = f == F::kArraysOverlap ? LogicalType(TypeId::kBoolean) : args[0]->type;
      return make(result, std::move(args));
    }
    case F::kArrayRemove: {
      unify_element(args[0], args[1], name, arg_pos(1));
      const LogicalType result = args[0]->type;
      return make(result, std::move(args));
    }
    case F::kCombinations:
    case F::kNgrams:
    case F::kArraySplitIntoChunks:
      args[1] = require_integer(args[1], name, "size", arg_pos(1));
      return make(LogicalType::array(array), std::move(args));
    case F::kTrimArray:
      args[1] = require_integer(args[1], name, "n", arg_pos(1));
      return make(array, std::move(args));
    case F::kFlatten:
    case F::kArrayTranspose: {
      args[0] = require_array_of_arrays(args[0], name, arg_pos(0));
      const LogicalType result = f == F::kFlatten ? args[0]->type.element_type() : args[0]->type;
      return make(result, std::move(args));
    }
    case F::kRepeat: {
      const LogicalType element = storable_element(args[0]->type);
      args[0] = Binder::cast_to(args[0], element, arg_pos(0));
      args[1] = require_integer(args[1], name, "count", arg_pos(1));
      return make(LogicalType::array(element), std::move(args));
    }
    case F::kZip: {
      std::vector<RowField> fields;
      for (size_t i = 0; i < args.size(); ++i) {
        args[i] = require_array(args[i], name, arg_pos(i));
        fields.push_back(RowField{"", args[i]->type.element_type()});
      }
      return make(LogicalType::array(LogicalType::row(std::move(fields))), std::move(args));
    }
    default: break;
  }
  throw InternalError(std::string("unbound array function ") + scalar_function_name(f));
}

}  // namespace kestrel::plan
