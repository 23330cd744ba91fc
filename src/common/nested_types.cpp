// The nested logical types ARRAY(T), MAP(K, V) and ROW(name T, ...): their children, spelling and equality.

#include <algorithm>

#include "common/error.hpp"
#include "common/types.hpp"

namespace kestrel {

/// The children of a nested type: ARRAY one field (the element, unnamed), MAP one field of type
/// ROW(key K, value V), ROW its fields.
struct LogicalType::Children {
  std::vector<RowField> fields;
};

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

const std::vector<RowField>& no_fields() {
  static const std::vector<RowField> kNone;
  return kNone;
}

}  // namespace

LogicalType LogicalType::array(LogicalType element) {
  LogicalType type(TypeId::kArray);
  type.children_ = std::make_shared<const Children>(Children{{RowField{"", std::move(element)}}});
  return type;
}

LogicalType LogicalType::map(LogicalType key, LogicalType value) {
  LogicalType type(TypeId::kMap);
  LogicalType entry = row({RowField{"key", std::move(key)}, RowField{"value", std::move(value)}});
  type.children_ = std::make_shared<const Children>(Children{{RowField{"", std::move(entry)}}});
  return type;
}

LogicalType LogicalType::row(std::vector<RowField> fields) {
  if (fields.empty()) throw InvalidInput("a ROW type needs at least one field");
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name.empty()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (iequals(fields[i].name, fields[j].name)) {
        throw InvalidInput("ROW field name '" + fields[i].name + "' is given twice");
      }
    }
  }
  LogicalType type(TypeId::kRow);
  type.children_ = std::make_shared<const Children>(Children{std::move(fields)});
  return type;
}

bool LogicalType::contains(TypeId id) const {
  if (id_ == id) return true;
  for (size_t i = 0; i < child_count(); ++i) {
    if (child(i).contains(id)) return true;
  }
  return false;
}

const LogicalType& LogicalType::element_type() const { return children_->fields[0].type; }
const LogicalType& LogicalType::key_type() const { return element_type().children_->fields[0].type; }
const LogicalType& LogicalType::value_type() const { return element_type().children_->fields[1].type; }

const std::vector<RowField>& LogicalType::fields() const {
  if (id_ == TypeId::kRow) return children_->fields;
  if (id_ == TypeId::kMap) return element_type().children_->fields;
  return no_fields();
}

size_t LogicalType::child_count() const { return children_ ? children_->fields.size() : 0; }

const LogicalType& LogicalType::child(size_t i) const { return children_->fields[i].type; }

int LogicalType::field_index(std::string_view name) const {
  if (id_ != TypeId::kRow) return -1;
  for (size_t i = 0; i < children_->fields.size(); ++i) {
    if (iequals(children_->fields[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

std::string LogicalType::nested_to_string() const {
  if (id_ == TypeId::kArray) return "ARRAY(" + element_type().to_string() + ")";
  if (id_ == TypeId::kMap) return "MAP(" + key_type().to_string() + ", " + value_type().to_string() + ")";
  std::string out = "ROW(";
  for (size_t i = 0; i < children_->fields.size(); ++i) {
    const RowField& f = children_->fields[i];
    if (i > 0) out += ", ";
    if (!f.name.empty()) out += f.name + " ";
    out += f.type.to_string();
  }
  return out + ")";
}

bool operator==(const LogicalType& a, const LogicalType& b) {
  if (a.id_ != b.id_ || a.precision_ != b.precision_ || a.scale_ != b.scale_) return false;
  if (a.children_ == b.children_) return true;
  if (!a.children_ || !b.children_) return false;
  return a.children_->fields == b.children_->fields;
}

}  // namespace kestrel
