#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include "catalog/system_tables.hpp"
#include "common/datetime_ops.hpp"
#include "common/time_zone.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/functions/resolve_function.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

namespace {

/// The extract field a Presto date function names, or nullptr: year(d) is extract('year', d).
const char* extract_field_of(std::string_view name) {
  struct Entry {
    std::string_view name;
    const char* field;
  };
  static constexpr Entry kFields[] = {
      {"year", "year"},         {"quarter", "quarter"},        {"month", "month"},
      {"day", "day"},           {"day_of_month", "day"},       {"day_of_week", "isodow"},
      {"dow", "isodow"},        {"day_of_year", "doy"},        {"doy", "doy"},
      {"week", "week"},         {"week_of_year", "week"},      {"hour", "hour"},
      {"minute", "minute"},     {"second", "second"},          {"millisecond", "millisecond"},
  };
  for (const Entry& e : kFields) {
    if (e.name == name) return e.field;
  }
  return nullptr;
}

/// The name Presto's typeof gives `t`: lower case, `unknown` for an untyped NULL. (Presto writes varchar(n) for a
/// bounded VARCHAR; Kestrel's VARCHAR has no bound.)
std::string presto_type_name(const LogicalType& t) {
  if (t.id() == TypeId::kNull) return "unknown";
  if (t.id() == TypeId::kTimestampTz) return "timestamp(3) with time zone";
  std::string name = t.to_string();
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return name;
}

/// `HH:MM:SS.mmm` of the wall-clock time `local_micros`, followed by ` zone` when `zone` is not empty.
std::string time_of_day_text(int64_t local_micros, const std::string& zone) {
  const int64_t ms = datetime::floor_mod64(local_micros, kMicrosPerDay) / 1000;
  char text[16];
  std::snprintf(text, sizeof(text), "%02d:%02d:%02d.%03d", static_cast<int>(ms / 3600000),
                static_cast<int>(ms / 60000 % 60), static_cast<int>(ms / 1000 % 60), static_cast<int>(ms % 1000));
  return zone.empty() ? std::string(text) : std::string(text) + " " + zone;
}

[[noreturn]] void wrong_arity(const ast::FunctionCall& call) {
  throw BinderError("function " + call.name + " does not take " + std::to_string(call.args.size()) + " arguments",
                    call.position, "42883");
}

}  // namespace

ExprPtr ExprBinder::bind_presto_rewrite(const ast::FunctionCall& call, const ExprBindContext& ctx) {
  if (const char* field = extract_field_of(call.name)) {
    if (call.args.size() != 1) wrong_arity(call);
    ExprPtr value = bind(*call.args[0], ctx);
    if (value->type.id() == TypeId::kNull) return make_constant(Value::null(LogicalType(TypeId::kBigInt)));
    return make_scalar(ScalarFunction::kExtract, {make_constant(Value::varchar(field)), std::move(value)},
                       call.position);
  }
  if (call.name == "pi" || call.name == "e") {
    if (!call.args.empty()) wrong_arity(call);
    return make_constant(Value::double_value(call.name == "pi" ? M_PI : M_E));
  }
  if (call.name == "nan" || call.name == "infinity") {
    if (!call.args.empty()) wrong_arity(call);
    return make_constant(Value::double_value(call.name == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                                                : std::numeric_limits<double>::infinity()));
  }
  if (call.name == "degrees" || call.name == "radians") {
    // x * 180 / pi or x * pi / 180, in DOUBLE.
    if (call.args.size() != 1) wrong_arity(call);
    ExprPtr x = Binder::cast_to(bind(*call.args[0], ctx), LogicalType(TypeId::kDouble), call.position);
    const double factor = call.name == "degrees" ? 180.0 / M_PI : M_PI / 180.0;
    return make_scalar(ScalarFunction::kMultiply, {std::move(x), make_constant(Value::double_value(factor))},
                       call.position);
  }
  if (call.name == "log") {
    // log(b, x) = ln(x) / ln(b).
    if (call.args.size() != 2) wrong_arity(call);
    const LogicalType d(TypeId::kDouble);
    ExprPtr b = Binder::cast_to(bind(*call.args[0], ctx), d, call.args[0]->position);
    ExprPtr x = Binder::cast_to(bind(*call.args[1], ctx), d, call.args[1]->position);
    return make_scalar(ScalarFunction::kDivide,
                       {make_scalar(ScalarFunction::kLn, {std::move(x)}, call.position),
                        make_scalar(ScalarFunction::kLn, {std::move(b)}, call.position)},
                       call.position);
  }
  if (call.name == "current_date" || call.name == "current_timestamp" || call.name == "now" ||
      call.name == "localtimestamp") {
    if (!call.args.empty()) wrong_arity(call);
    // The statement's instant, in the session's time zone; localtimestamp and current_date are its wall clock.
    const int64_t micros = binder_.statement_time();
    const int32_t zone = Binder::SessionTimeZone::current();
    const int64_t local = tz::utc_to_local(zone, micros);
    if (call.name == "localtimestamp") return make_constant(Value::timestamp(local));
    if (call.name != "current_date") return make_constant(Value::timestamp_tz(micros, zone));
    return make_constant(Value::date(static_cast<int32_t>(datetime::floor_div64(local, kMicrosPerDay))));
  }
  if (call.name == "current_time" || call.name == "localtime") {
    // Kestrel has no TIME type: the statement's time of day in the session's zone as text, `HH:MM:SS.mmm`
    // (current_time adds the zone's name).
    if (!call.args.empty()) wrong_arity(call);
    const int32_t zone = Binder::SessionTimeZone::current();
    const int64_t local = tz::utc_to_local(zone, binder_.statement_time());
    const std::string zone_text = call.name == "current_time" ? tz::zone_name(zone) : "";
    return make_constant(Value::varchar(time_of_day_text(local, zone_text)));
  }
  if (call.name == "date") {
    // date(x) is CAST(x AS DATE).
    if (call.args.size() != 1) wrong_arity(call);
    return Binder::cast_to(bind(*call.args[0], ctx), LogicalType(TypeId::kDate), call.position);
  }
  if (call.name == "normalize" && call.args.size() == 2 && call.args[1]->is<ast::ColumnRef>()) {
    // normalize(s, NFD): the form is written as a keyword (a string constant works too).
    const ast::ColumnRef& ref = call.args[1]->as<ast::ColumnRef>();
    const std::string form = ref.names.size() == 1 ? ref.column() : "";
    if (form == "nfc" || form == "nfd" || form == "nfkc" || form == "nfkd") {
      std::string upper = form;
      for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
      return make_scalar(ScalarFunction::kNormalize,
                         {Binder::cast_to(bind(*call.args[0], ctx), LogicalType(TypeId::kVarchar), call.position),
                          make_constant(Value::varchar(upper))},
                         call.position);
    }
  }
  if (call.name == "pg_collation_is_visible") {
    // The argument is not bound: the answer does not depend on it (and a correlated sub-query's domain has only
    // the outer columns its result reads).
    if (call.args.size() != 1) wrong_arity(call);
    return make_constant(Value::boolean(true));
  }
  if (call.name == "pg_get_serial_sequence") {
    // Kestrel has no sequences (the arguments are not bound, as for pg_collation_is_visible).
    if (call.args.size() != 2) wrong_arity(call);
    return make_constant(Value::null(LogicalType(TypeId::kVarchar)));
  }
  if (call.name == "pg_get_expr") {
    // The text of a stored expression: Kestrel keeps it as text already.
    if (call.args.size() < 2 || call.args.size() > 3) wrong_arity(call);
    for (size_t i = 1; i < call.args.size(); ++i) bind(*call.args[i], ctx);
    return Binder::cast_to(bind(*call.args[0], ctx), LogicalType(TypeId::kVarchar), call.position);
  }
  if (call.name == "format_type") {
    // format_type(type OID, typmod): the type's name, numeric with its precision and scale.
    if (call.args.size() != 2) wrong_arity(call);
    const LogicalType integer(TypeId::kInteger), varchar(TypeId::kVarchar), boolean(TypeId::kBoolean);
    ExprPtr oid = Binder::cast_to(bind(*call.args[0], ctx), integer, call.position);
    ExprPtr mod = Binder::cast_to(bind(*call.args[1], ctx), integer, call.position);
    auto number = [](int32_t v) { return make_constant(Value::integer(v)); };
    auto text = [&](ExprPtr e) { return Binder::cast_to(std::move(e), varchar, call.position); };
    auto concat = [&](ExprPtr a, ExprPtr b) {
      return make_scalar(ScalarFunction::kConcat, {std::move(a), std::move(b)}, call.position);
    };
    ExprPtr packed = make_scalar(ScalarFunction::kSubtract, {mod, number(4)}, call.position);
    ExprPtr precision = make_scalar(ScalarFunction::kDivide, {packed, number(65536)}, call.position);
    ExprPtr scale = make_scalar(ScalarFunction::kModulo, {packed, number(65536)}, call.position);
    ExprPtr numeric = concat(concat(concat(concat(make_constant(Value::varchar("numeric(")), text(precision)),
                                           make_constant(Value::varchar(","))),
                                    text(scale)),
                             make_constant(Value::varchar(")")));
    ExprPtr is_numeric_with_mod = make_node(
        ExprKind::kAnd, boolean,
        {make_scalar(ScalarFunction::kEqual, {oid, number(1700)}, call.position),
         make_scalar(ScalarFunction::kGreaterEqual, {mod, number(4)}, call.position)});
    return make_node(ExprKind::kCase, varchar,
                     {std::move(is_numeric_with_mod), std::move(numeric), regtype_cast(oid, call.position)});
  }
  if (call.name == "json_build_object") {
    // '{"k1": v1, ...}' as JSON text: keys and VARCHAR values quoted and escaped, numbers and booleans as written,
    // NULL as null.
    if (call.args.size() % 2 != 0) {
      throw BinderError("json_build_object takes an even number of arguments (key, value, ...)", call.position,
                        "22023");
    }
    const LogicalType varchar(TypeId::kVarchar), boolean(TypeId::kBoolean);
    auto lit = [](const char* s) { return make_constant(Value::varchar(s)); };
    auto concat = [&](ExprPtr a, ExprPtr b) {
      return make_scalar(ScalarFunction::kConcat, {std::move(a), std::move(b)}, call.position);
    };
    auto quoted = [&](ExprPtr s) {
      // As PostgreSQL escapes JSON strings: \\, \", \b, \f, \n, \r, \t, and the other characters below 0x20 as
      // \u00xx. The backslash first: the later replacements add backslashes of their own.
      auto replace = [&](ExprPtr in, std::string from, std::string to) {
        return make_scalar(ScalarFunction::kReplace,
                           {std::move(in), make_constant(Value::varchar(std::move(from))),
                            make_constant(Value::varchar(std::move(to)))},
                           call.position);
      };
      ExprPtr escaped = replace(std::move(s), "\\", "\\\\");
      escaped = replace(std::move(escaped), "\"", "\\\"");
      static constexpr char kHex[] = "0123456789abcdef";
      for (int c = 0; c < 0x20; ++c) {
        std::string to;
        switch (c) {
          case '\b': to = "\\b"; break;
          case '\f': to = "\\f"; break;
          case '\n': to = "\\n"; break;
          case '\r': to = "\\r"; break;
          case '\t': to = "\\t"; break;
          default: to = std::string("\\u00") + kHex[c >> 4] + kHex[c & 15];
        }
        escaped = replace(std::move(escaped), std::string(1, static_cast<char>(c)), std::move(to));
      }
      return concat(concat(lit("\""), std::move(escaped)), lit("\""));
    };
    auto json_value = [&](ExprPtr v) -> ExprPtr {
      const TypeId id = v->type.id();
      ExprPtr shown;
      if (id == TypeId::kNull) return lit("null");
      if (id == TypeId::kBoolean) {
        shown = make_node(ExprKind::kCase, varchar, {v, lit("true"), lit("false")});
      } else if (v->type.is_numeric()) {
        shown = Binder::cast_to(v, varchar, call.position);
      } else {
        shown = quoted(Binder::cast_to(v, varchar, call.position));
      }
      return make_scalar(ScalarFunction::kCoalesce, {std::move(shown), lit("null")}, call.position);
    };
    ExprPtr out = lit("{");
    for (size_t i = 0; i < call.args.size(); i += 2) {
      if (i > 0) out = concat(std::move(out), lit(", "));
      ExprPtr key = bind(*call.args[i], ctx);
      out = concat(concat(std::move(out), quoted(Binder::cast_to(key, varchar, call.position))), lit(": "));
      out = concat(std::move(out), json_value(bind(*call.args[i + 1], ctx)));
    }
    return concat(std::move(out), lit("}"));
  }
  if (call.name == "pg_table_is_visible") {
    // Every relation is in the search path (public, pg_catalog): visible. The argument is not bound (as for
    // pg_collation_is_visible).
    if (call.args.size() != 1) wrong_arity(call);
    return make_constant(Value::boolean(true));
  }
  if (call.name == "current_timezone") {
    if (!call.args.empty()) wrong_arity(call);
    return make_constant(Value::varchar(tz::zone_name(Binder::SessionTimeZone::current())));
  }
  if (call.name == "to_regtype") {
    // to_regtype(name): the OID of the type, NULL for a name that is not one (clients look types up by name).
    if (call.args.size() != 1) wrong_arity(call);
    ExprPtr name = bind(*call.args[0], ctx);
    if (name->kind != ExprKind::kConstant || (!name->constant.is_null() && name->type.id() != TypeId::kVarchar)) {
      throw BinderError("to_regtype takes a constant type name", call.position, "0A000");
    }
    if (name->constant.is_null()) return make_constant(Value::null(LogicalType(TypeId::kInteger)));
    const auto oid = catalog::pg_type_oid_named(name->constant.as_string());
    return make_constant(oid ? Value::integer(*oid) : Value::null(LogicalType(TypeId::kInteger)));
  }
  if (call.name == "typeof") {
    // The argument is bound for its type only: it is never evaluated, so a failing cast in it does not matter.
    if (call.args.size() != 1) wrong_arity(call);
    Binder::DeferredCastErrors deferred;
    return make_constant(Value::varchar(presto_type_name(bind(*call.args[0], ctx)->type)));
  }
  if (call.name == "try") {
    // try(x): NULL on the rows where x raises a data error. A constant argument cannot fail any more.
    if (call.args.size() != 1) wrong_arity(call);
    Binder::DeferredCastErrors deferred;
    ExprPtr value = bind(*call.args[0], ctx);
    if (value->kind == ExprKind::kConstant) return value;
    return make_scalar(ScalarFunction::kTry, {std::move(value)}, call.position);
  }
  if (call.name == "if") {
    // if(c, a[, b]) is CASE WHEN c THEN a ELSE b END, so only the branch a row takes is evaluated.
    if (call.args.size() < 2 || call.args.size() > 3) wrong_arity(call);
    ExprPtr condition = bind_predicate(*call.args[0], ctx);
    ExprPtr then_result = bind(*call.args[1], ctx);
    ExprPtr else_result = call.args.size() == 3 ? bind(*call.args[2], ctx) : make_constant(Value());
    const auto common = common_super_type(std::vector<LogicalType>{then_result->type, else_result->type});
    if (!common) {
      throw BinderError("if: the results " + then_result->type.to_string() + " and " +
                            else_result->type.to_string() + " have no common type",
                        call.position, "42804");
    }
    const LogicalType type = common->id() == TypeId::kNull ? LogicalType(TypeId::kVarchar) : *common;
    return make_node(ExprKind::kCase, type,
                     {std::move(condition), Binder::cast_to(then_result, type, call.position),
                      Binder::cast_to(else_result, type, call.position)});
  }
  return nullptr;
}

ExprPtr ExprBinder::oid_cast(ExprPtr operand, bool regclass, SourcePosition position) {
  const LogicalType integer(TypeId::kInteger);
  if (regclass && operand->type.id() == TypeId::kVarchar) {
    if (operand->kind != ExprKind::kConstant) {
      throw BinderError("a cast of a column to regclass is not supported (only of a constant relation name)", position,
                        "0A000");
    }
    if (operand->constant.is_null()) return make_constant(Value::null(integer));
    std::string name = operand->constant.as_string();
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (const size_t dot = name.rfind('.'); dot != std::string::npos) name.erase(0, dot + 1);
    return make_constant(Value::integer(catalog::pg_relation_oid(name)));
  }
  if (operand->type.id() != TypeId::kNull && !operand->type.is_integral()) {
    throw BinderError("cannot cast " + operand->type.to_string() + (regclass ? " to regclass" : " to oid"), position,
                      "42846");
  }
  return Binder::cast_to(operand, integer, position);
}

ExprPtr ExprBinder::regtype_cast(ExprPtr operand, SourcePosition position) {
  // An untyped NULL is NULL as regtype too, as in PostgreSQL.
  if (operand->type.id() == TypeId::kNull) return make_constant(Value::null(LogicalType(TypeId::kVarchar)));
  if (operand->type.id() == TypeId::kVarchar && operand->kind == ExprKind::kConstant) {
    if (operand->constant.is_null()) return make_constant(Value::null(LogicalType(TypeId::kVarchar)));
    const std::string name = operand->constant.as_string();
    const auto oid = catalog::pg_type_oid_named(name);
    if (!oid) throw BinderError("type \"" + name + "\" does not exist", position, "42704");
    for (const auto& [o, regtype] : catalog::pg_regtype_names()) {
      if (o == *oid) return make_constant(Value::varchar(regtype));
    }
  }
  if (!operand->type.is_integral()) {
    throw BinderError("cannot cast " + operand->type.to_string() + " to regtype", position, "42846");
  }
  // CASE oid WHEN 16 THEN 'boolean' ... ELSE the OID as text END (PostgreSQL shows an unknown OID as its number).
  const LogicalType varchar(TypeId::kVarchar);
  const LogicalType integer(TypeId::kInteger);
  ExprPtr oid = Binder::cast_to(operand, integer, position);
  std::vector<ExprPtr> children;
  for (const auto& [o, regtype] : catalog::pg_regtype_names()) {
    children.push_back(make_scalar(ScalarFunction::kEqual, {oid, make_constant(Value::integer(o))}, position));
    children.push_back(make_constant(Value::varchar(regtype)));
  }
  children.push_back(Binder::cast_to(oid, varchar, position));
  return make_node(ExprKind::kCase, varchar, std::move(children));
}

void ExprBinder::check_date_add_unit(const ast::FunctionCall& call, const Expr& bound) {
  const Expr& unit = *bound.children[0];
  if (unit.kind != ExprKind::kConstant || unit.type.id() != TypeId::kVarchar || unit.constant.is_null()) {
    throw BinderError(call.name + " needs a constant text unit as its first argument", call.args[0]->position,
                      "42804");
  }
  resolve_date_add_unit(bound.function, unit.constant.as_string(), bound.children.back()->type,
                        call.args[0]->position);
}

}  // namespace kestrel::plan
