// Values of ARRAY, MAP and ROW: construction, children and the text the CLI prints.

#include "common/check.hpp"
#include "common/value.hpp"

namespace kestrel {

namespace {

/// The text of a value inside a nested value: as at the top level (strings unquoted, NULL as NULL).
std::string child_text(const Value& v) { return v.to_string(); }

}  // namespace

Value Value::array(LogicalType type, std::vector<Value> elements) {
  KESTREL_CHECK(type.id() == TypeId::kArray);
  Value v;
  v.type_ = std::move(type);
  v.null_ = false;
  v.data_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

Value Value::map(LogicalType type, const std::vector<Value>& keys, const std::vector<Value>& values) {
  KESTREL_CHECK(type.id() == TypeId::kMap);
  KESTREL_CHECK_EQ(keys.size(), values.size());
  std::vector<Value> entries;
  entries.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) entries.push_back(row(type.element_type(), {keys[i], values[i]}));
  Value v;
  v.type_ = std::move(type);
  v.null_ = false;
  v.data_ = std::make_shared<const std::vector<Value>>(std::move(entries));
  return v;
}

Value Value::row(LogicalType type, std::vector<Value> fields) {
  KESTREL_CHECK(type.id() == TypeId::kRow);
  KESTREL_CHECK_EQ(fields.size(), type.fields().size());
  Value v;
  v.type_ = std::move(type);
  v.null_ = false;
  v.data_ = std::make_shared<const std::vector<Value>>(std::move(fields));
  return v;
}

const std::vector<Value>& Value::children() const {
  return *std::get<std::shared_ptr<const std::vector<Value>>>(data_);
}

std::string Value::nested_to_string() const {
  const std::vector<Value>& items = children();
  std::string out;
  switch (type_.id()) {
    case TypeId::kArray:
      out = "[";
      for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + child_text(items[i]);
      return out + "]";
    case TypeId::kMap:
      out = "{";
      for (size_t i = 0; i < items.size(); ++i) {
        const std::vector<Value>& kv = items[i].children();
        out += (i > 0 ? ", " : "") + child_text(kv[0]) + "=" + child_text(kv[1]);
      }
      return out + "}";
    default: break;
  }
  // ROW: {name=value, ...}; an anonymous field is named field<i> (0-based), as the Presto clients name it.
  out = "{";
  const std::vector<RowField>& fields = type_.fields();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string name = fields[i].name.empty() ? "field" + std::to_string(i) : fields[i].name;
    out += (i > 0 ? ", " : "") + name + "=" + child_text(items[i]);
  }
  return out + "}";
}

}  // namespace kestrel
