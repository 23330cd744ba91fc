// Binding of the nested-value syntax: ARRAY[...], subscripts, field references, row(...) and lambda parameters.

#include "planner/binder/bind_nested_internal.hpp"

namespace kestrel::plan {

namespace {

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

LogicalType storable_element(const LogicalType& type) {
  return type.id() == TypeId::kNull ? LogicalType(TypeId::kInteger) : type;
}

ExprPtr positioned(ExprPtr e, std::optional<SourcePosition> pos) {
  const_cast<Expr&>(*e).position = pos;
  return e;
}

ExprPtr row_field(ExprPtr row, size_t index, std::optional<SourcePosition> pos) {
  const LogicalType type = row->type.child(index);
  return positioned(make_function(ScalarFunction::kRowField, type,
                                  {std::move(row), make_constant(Value::integer(static_cast<int32_t>(index)))}),
                    pos);
}

ExprPtr ExprBinder::lambda_param(const std::string& name, const ExprBindContext& ctx) {
  if (ctx.lambda == nullptr) return nullptr;
  for (auto it = ctx.lambda->rbegin(); it != ctx.lambda->rend(); ++it) {
    if (!iequals(it->name, name)) continue;
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kLambdaParam;
    e->type = it->type;
    e->column_index = it->slot;
    e->name = it->name;
    return e;
  }
  return nullptr;
}

ExprPtr ExprBinder::field_path(ExprPtr base, const std::vector<std::string>& names, size_t first, SourcePosition pos,
                               bool must) {
  for (size_t i = first; i < names.size(); ++i) {
    const int index = base->type.field_index(names[i]);
    if (index < 0) {
      if (!must) return nullptr;
      if (base->type.id() != TypeId::kRow) {
        throw BinderError("'" + names[i] + "' is not a field: the value is " + base->type.to_string() +
                              ", not a ROW",
                          pos, "42703");
      }
      throw BinderError("ROW type " + base->type.to_string() + " has no field '" + names[i] + "'", pos, "42703");
    }
    base = row_field(std::move(base), static_cast<size_t>(index), pos);
  }
  return base;
}

ExprPtr ExprBinder::bind_nested_call(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  const std::string& name = call.name;
  if (name == ast::kArrayConstructorName) {
    std::vector<ExprPtr> args;
    std::vector<LogicalType> types;
    for (const auto& a : call.args) {
      args.push_back(bind(*a, ctx));
      types.push_back(args.back()->type);
    }
    LogicalType element = TypeId::kInteger;  // ARRAY[] and ARRAY[NULL] hold INTEGERs
    if (!types.empty()) {
      auto common = common_super_type(types);
      if (!common) {
        std::string list;
        for (const auto& t : types) list += (list.empty() ? "" : ", ") + t.to_string();
        throw BinderError("ARRAY elements have no common type (" + list + ")", call.position, "42804");
      }
      element = storable_element(*common);
    }
    for (auto& a : args) a = Binder::cast_to(a, element, call.position);
    return positioned(make_function(ScalarFunction::kArrayConstructor, LogicalType::array(element), std::move(args)),
                      call.position);
  }
  if (name == ast::kSubscriptName) return bind_subscript(call, ctx, false);
  if (name == ast::kFieldName) {
    ExprPtr base = bind(*call.args[0], ctx);
    return field_path(std::move(base), {call.args[1]->as<ast::Literal>().text}, 0, call.operator_position, true);
  }
  if (name == ast::kLambdaName) {
    throw BinderError("a lambda expression is only allowed as the argument of a function that takes one "
                      "(transform, filter, reduce, all_match, map_filter, ...)",
                      call.operator_position, "42601");
  }
  if (name == "row" && !call.args.empty()) {
    std::vector<ExprPtr> args;
    std::vector<RowField> fields;
    for (const auto& a : call.args) {
      ExprPtr e = bind(*a, ctx);
      const LogicalType type = storable_element(e->type);
      args.push_back(Binder::cast_to(e, type, a->position));
      fields.push_back(RowField{"", type});
    }
    return positioned(make_function(ScalarFunction::kRowConstructor, LogicalType::row(std::move(fields)),
                                    std::move(args)),
                      call.position);
  }
  if (auto f = lookup_scalar_function(name, call.args.size()); f && is_nested_function(*f)) {
    return bind_nested_function(*f, call, ctx);
  }
  return nullptr;
}

ExprPtr ExprBinder::bind_subscript(const ast::FunctionCall& call, const ExprBindContext& ctx, bool element_at) {
  ExprPtr base = bind(*call.args[0], ctx);
  const SourcePosition pos = call.operator_position;
  const LogicalType type = base->type;
  const ScalarFunction f = element_at ? ScalarFunction::kElementAt : ScalarFunction::kSubscript;
  if (type.id() == TypeId::kRow && !element_at) {
    ExprPtr index = bind(*call.args[1], ctx);
    const bool constant = index->kind == ExprKind::kConstant && index->type.is_integral() && !index->constant.is_null();
    if (!constant) throw BinderError("a ROW subscript must be a constant integer", call.args[1]->position, "42804");
    const int64_t i = index->constant.as_int64();
    if (i < 1 || i > static_cast<int64_t>(type.fields().size())) {
      throw BinderError("ROW subscript " + std::to_string(i) + " is out of range (1 to " +
                            std::to_string(type.fields().size()) + ")",
                        call.args[1]->position, "22003");
    }
    return row_field(std::move(base), static_cast<size_t>(i - 1), pos);
  }
  if (type.id() == TypeId::kArray) {
    ExprPtr index = Binder::cast_to(bind(*call.args[1], ctx), TypeId::kBigInt, call.args[1]->position);
    return positioned(make_function(f, type.element_type(), {std::move(base), std::move(index)}), pos);
  }
  if (type.id() == TypeId::kMap) {
    ExprPtr key = bind(*call.args[1], ctx);
    if (!can_implicitly_cast(key->type, type.key_type())) {
      throw BinderError("a key of type " + key->type.to_string() + " does not match the keys of " + type.to_string(),
                        call.args[1]->position, "42804");
    }
    key = Binder::cast_to(key, type.key_type(), call.args[1]->position);
    return positioned(make_function(f, type.value_type(), {std::move(base), std::move(key)}), pos);
  }
  throw BinderError(std::string(element_at ? "element_at" : "a subscript") + " needs an ARRAY or MAP" +
                        (element_at ? "" : " (or a ROW)") + ", not " + type.to_string(),
                    pos, "42804");
}

ExprPtr ExprBinder::bind_row_path(const ast::ColumnRef& ref, const ExprBindContext& ctx) {
  // The longest prefix that names a column wins: t.r.f is column r of table t, then field f.
  for (size_t n = ref.names.size() - 1; n >= 1; --n) {
    ast::ColumnRef prefix(ref.position);
    prefix.names.assign(ref.names.begin(), ref.names.begin() + static_cast<ptrdiff_t>(n));
    ExprPtr base;
    try {
      base = bind_column(prefix, ctx);
    } catch (const BinderError&) {
      continue;
    }
    if (base->type.id() != TypeId::kRow) continue;
    return field_path(std::move(base), ref.names, n, ref.position, true);
  }
  return nullptr;
}

ExprPtr ExprBinder::array_concat(std::vector<ExprPtr> args, std::optional<SourcePosition> pos) {
  std::vector<LogicalType> elements;
  for (const ExprPtr& a : args) {
    elements.push_back(a->type.id() == TypeId::kArray ? a->type.element_type() : a->type);
  }
  auto common = common_super_type(elements);
  if (!common) throw BinderError("concatenated arrays and elements have no common type", pos, "42804");
  const LogicalType element = storable_element(*common);
  const LogicalType array = LogicalType::array(element);
  for (ExprPtr& a : args) {
    // An element (or NULL) becomes a one-element array; a NULL array stays NULL, which makes the result NULL.
    if (a->type.id() == TypeId::kArray) {
      a = Binder::cast_to(a, array, pos);
    } else {
      a = positioned(make_function(ScalarFunction::kArrayConstructor, array, {Binder::cast_to(a, element, pos)}), pos);
    }
  }
  return positioned(make_function(ScalarFunction::kArrayConcat, array, std::move(args)), pos);
}

ExprPtr ExprBinder::bind_lambda(const ast::Expr& lambda, const std::vector<LogicalType>& types,
                                const ExprBindContext& ctx) {
  const bool is_lambda = lambda.is<ast::FunctionCall>() && lambda.as<ast::FunctionCall>().name == ast::kLambdaName;
  if (!is_lambda) {
    throw BinderError("expected a lambda expression with " + std::to_string(types.size()) + " parameter" +
                          (types.size() == 1 ? "" : "s") + " here",
                      lambda.position, "42804");
  }
  const auto& call = lambda.as<ast::FunctionCall>();
  if (call.args.size() != types.size() + 1) {
    throw BinderError("this lambda takes " + std::to_string(call.args.size() - 1) + " parameter" +
                          (call.args.size() == 2 ? "" : "s") + ", the function gives it " +
                          std::to_string(types.size()),
                      call.position, "42804");
  }
  std::vector<LambdaParam> params = ctx.lambda != nullptr ? *ctx.lambda : std::vector<LambdaParam>{};
  std::string names;
  for (size_t i = 0; i < types.size(); ++i) {
    const auto& ref = call.args[i]->as<ast::ColumnRef>();
    params.push_back(LambdaParam{ref.column(), types[i], params.size()});
    names += (i > 0 ? ", " : "") + ref.column();
  }
  // Above an aggregation the body reads group columns as the rest of the expression does; aggregates and window
  // functions inside it are refused.
  ExprBindContext inner = ctx;
  inner.lambda = &params;
  inner.window = nullptr;
  if (contains_aggregate(*call.args.back())) {
    throw BinderError("aggregate functions are not allowed in a lambda expression", call.args.back()->position,
                      "42803");
  }
  ExprPtr body = bind(*call.args.back(), inner);
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLambda;
  e->type = body->type;
  e->children.push_back(std::move(body));
  e->column_index = types.size();
  e->name = names;
  e->position = call.operator_position;
  return e;
}

}  // namespace kestrel::plan
