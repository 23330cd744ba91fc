// CAST to and from JSON on the CPU, with Presto's rules: text becomes a JSON string (CAST('abc' AS JSON) is "abc"),
// booleans and numbers their JSON literals, dates and timestamps strings of their text; a JSON string casts to
// VARCHAR as its value, a number or boolean as its text, and to BOOLEAN or a number through that text (true is 1,
// a non-zero number is true, a fraction rounds to an integer); JSON null is NULL; an array or an object does not
// cast to a scalar.

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "exec/expr/cast_internal.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using Json = nlohmann::json;

Operand cast_to_json(const Operand& in, size_t rows, EvalContext& ctx) {
  const LogicalType& source = in.column->type();
  const bool literal = source.id() == TypeId::kBoolean || source.is_numeric();
  const Operand text = source.id() == TypeId::kVarchar ? in : cast_to_string(in, rows, ctx);
  const std::vector<Operand> args{text};
  return map_rows_to_string(
      args, rows, ctx,
      [&](size_t i, std::string& out) {
        const std::string_view s = text.string_at(i);
        std::optional<std::string> number;
        if (literal) number = canonical_json(s);
        if (number) {
          out += *number;
        } else {  // text, dates and times; NaN and infinities, which JSON has no literal for
          append_json_string(out, s);
        }
        return true;
      },
      TypeId::kJson);
}

[[noreturn]] void raise_json_cast_error(std::string_view text, const LogicalType& target) {
  throw InvalidInput("cannot cast JSON '" + std::string(text.substr(0, 100)) + "' to " + target.to_string(), "22018");
}

/// The text each row's JSON scalar gives `target` (VARCHAR: the value; BOOLEAN and numbers: text their VARCHAR
/// cast reads), NULL for JSON null. Arrays and objects raise an error, or are NULL under try_cast.
Operand json_scalar_text(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  const std::vector<Operand> args{in};
  const TypeId t = target.id();
  return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
    const std::string_view text = in.string_at(i);
    const Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || doc.is_structured()) {
      if (ctx.cast_failures_to_null) return false;
      raise_json_cast_error(text, target);
    }
    if (doc.is_null()) return false;
    if (doc.is_string()) {
      out += doc.get_ref<const std::string&>();
    } else if (doc.is_boolean() && t != TypeId::kVarchar && t != TypeId::kBoolean) {
      out += doc.get<bool>() ? "1" : "0";
    } else if (doc.is_number_float() && target.is_integral()) {  // rounded half away from zero
      const double rounded = std::round(doc.get<double>());
      if (!(std::fabs(rounded) < 9.3e18)) {
        if (ctx.cast_failures_to_null) return false;
        raise_json_cast_error(text, target);
      }
      out += std::to_string(static_cast<int64_t>(rounded));
    } else if (doc.is_number() && t == TypeId::kBoolean) {
      out += doc.get<double>() != 0 ? "true" : "false";
    } else {
      out += doc.dump();
    }
    return true;
  });
}

}  // namespace

Operand json_cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  if (target.id() == TypeId::kJson) return cast_to_json(in, rows, ctx);
  const Operand text = json_scalar_text(in, target, rows, ctx);
  if (target.id() == TypeId::kVarchar) return text;
  return cast_from_string(text, target, rows, ctx);
}

}  // namespace kestrel::exec
