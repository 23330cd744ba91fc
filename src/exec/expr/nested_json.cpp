// CAST of ARRAY, MAP and ROW values to JSON, as Presto casts them: arrays and rows become JSON arrays, maps JSON
// objects keyed by their keys' text, NULLs JSON null, numbers and booleans their literals, other values strings.

#include "common/json_text.hpp"
#include "exec/expr/nested_util.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

void append_json(const Value& v, std::string& out) {
  if (v.is_null()) {
    out += "null";
    return;
  }
  const LogicalType& type = v.type();
  if (type.id() == TypeId::kMap) {
    out += '{';
    for (size_t i = 0; i < v.children().size(); ++i) {
      const std::vector<Value>& entry = v.children()[i].children();
      if (i > 0) out += ',';
      append_json_string(out, entry[0].to_string());
      out += ':';
      append_json(entry[1], out);
    }
    out += '}';
    return;
  }
  if (type.is_nested()) {
    out += '[';
    for (size_t i = 0; i < v.children().size(); ++i) {
      if (i > 0) out += ',';
      append_json(v.children()[i], out);
    }
    out += ']';
    return;
  }
  if (type.id() == TypeId::kJson) {
    out += v.as_string();
    return;
  }
  const std::string text = v.to_string();
  // Numbers and booleans as literals where JSON has one (not NaN or the infinities).
  const bool literal = type.id() == TypeId::kBoolean || type.is_numeric();
  if (literal && canonical_json(text)) {
    out += text;
  } else {
    append_json_string(out, text);
  }
}

}  // namespace

Operand nested_to_json(const Operand& in, size_t rows, EvalContext& ctx) {
  const std::vector<Operand> args{in};
  return map_rows_to_string(
      args, in.constant ? 1 : rows, ctx,
      [&](size_t i, std::string& out) {
        std::string text;
        append_json(in.column->value_at(in.index(i)), text);
        // Canonical form (a map's keys sorted, the last of repeated keys kept), as every JSON value has.
        out += canonical_json(text).value_or(text);
        return true;
      },
      TypeId::kJson);
}

}  // namespace kestrel::exec
