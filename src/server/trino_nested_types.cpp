// ARRAY, MAP and ROW as the Trino protocol describes and sends them.

#include "server/trino_types.hpp"

namespace kestrel::server::trino {

namespace {

/// A flat type inside a nested one: as a column of that type (intervals as text).
TrinoColumn child_column(const LogicalType& type) {
  TrinoColumn column{"", type};
  column.interval_form = IntervalForm::kText;
  return column;
}

nlohmann::json type_argument(const LogicalType& type) {
  return {{"kind", "TYPE"}, {"value", trino_nested_signature(type)}};
}

}  // namespace

std::string trino_nested_type_name(const LogicalType& type) {
  auto name = [](const LogicalType& t) { return trino_type_name(child_column(t)); };
  switch (type.id()) {
    case TypeId::kArray: return "array(" + name(type.element_type()) + ")";
    case TypeId::kMap: return "map(" + name(type.key_type()) + ", " + name(type.value_type()) + ")";
    default: break;
  }
  std::string out = "row(";
  for (size_t i = 0; i < type.fields().size(); ++i) {
    const RowField& f = type.fields()[i];
    out += (i > 0 ? ", " : "") + (f.name.empty() ? "" : f.name + " ") + name(f.type);
  }
  return out + ")";
}

nlohmann::json trino_nested_signature(const LogicalType& type) {
  if (!type.is_nested()) {
    // A flat child: its column signature without the name.
    nlohmann::json column = trino_column_json(child_column(type));
    return column["typeSignature"];
  }
  nlohmann::json arguments = nlohmann::json::array();
  std::string raw = "row";
  if (type.id() == TypeId::kArray) {
    raw = "array";
    arguments.push_back(type_argument(type.element_type()));
  } else if (type.id() == TypeId::kMap) {
    raw = "map";
    arguments.push_back(type_argument(type.key_type()));
    arguments.push_back(type_argument(type.value_type()));
  } else {
    for (const RowField& f : type.fields()) {
      nlohmann::json field = {{"typeSignature", trino_nested_signature(f.type)}};
      field["fieldName"] = f.name.empty() ? nlohmann::json(nullptr) : nlohmann::json{{"name", f.name}};
      arguments.push_back({{"kind", "NAMED_TYPE"}, {"value", std::move(field)}});
    }
  }
  return {{"rawType", raw}, {"arguments", std::move(arguments)}};
}

nlohmann::json trino_nested_value(const Value& value) {
  auto child = [](const Value& v) -> nlohmann::json {
    if (v.is_null()) return nullptr;
    return trino_value(v, child_column(v.type()));
  };
  const std::vector<Value>& items = value.children();
  if (value.type().id() == TypeId::kMap) {
    nlohmann::json out = nlohmann::json::object();
    for (const Value& entry : items) out[entry.children()[0].to_string()] = child(entry.children()[1]);
    return out;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const Value& v : items) out.push_back(child(v));
  return out;
}

}  // namespace kestrel::server::trino
