#include "io/parquet/nested_schema.hpp"

#include <memory>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace kestrel::io::parquet {

namespace {

using Kind = LogicalTypeAnnotation::Kind;

/// Why a nested field cannot be read; caught at the top of the column.
struct Unmappable {
  std::string reason;
};

/// A schema element with its children (the footer lists them depth first).
struct SchemaNode {
  const SchemaElement* element = nullptr;
  std::vector<SchemaNode> children;

  const std::string& name() const { return element->name; }
  bool is_leaf() const { return children.empty(); }
  /// A missing repetition reads as OPTIONAL, as for flat columns.
  Repetition repetition() const { return element->repetition.value_or(Repetition::kOptional); }
  bool is_list() const {
    return element->logical_type.kind == Kind::kList || element->converted_type == ConvertedType::kList;
  }
  bool is_map() const {
    return element->logical_type.kind == Kind::kMap || element->converted_type == ConvertedType::kMap ||
           element->converted_type == ConvertedType::kMapKeyValue;
  }
};

SchemaNode build_tree(const std::vector<SchemaElement>& schema, size_t& index) {
  SchemaNode node;
  node.element = &schema[index++];
  for (int32_t c = 0; c < node.element->num_children; ++c) node.children.push_back(build_tree(schema, index));
  return node;
}

/// The levels reached where a node's parent is valid.
struct Levels {
  int16_t def = 0;       ///< definition level of the parent's valid state
  int16_t rep = 0;       ///< repetition level of the parent's slots
  int16_t slot_def = 0;  ///< definition level from which the parent (and so the node) has a slot
  std::vector<int16_t> repeated_defs;

  /// The levels inside a repeated field entered at definition level `def`: one more of each.
  Levels repeated(int16_t def_of_parent) const {
    Levels in;
    in.def = static_cast<int16_t>(def_of_parent + 1);
    in.rep = static_cast<int16_t>(rep + 1);
    in.slot_def = in.def;
    in.repeated_defs = repeated_defs;
    in.repeated_defs.push_back(in.def);
    return in;
  }
};

std::string join(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

/// Walks one top-level field, numbering its leaves in file order.
class NestedMapper {
 public:
  explicit NestedMapper(size_t first_leaf) : first_leaf_(first_leaf) {}

  /// The node of field `n` under a parent at `at`, by the field's own repetition.
  NestedField map_value(const SchemaNode& n, const Levels& at, const std::string& parent) {
    const std::string path = join(parent, n.name());
    if (n.repetition() == Repetition::kRepeated) {
      // A repeated field outside a LIST: a required list of required elements.
      NestedField list = start(NestedField::Kind::kList, path, at, at.def);
      NestedField element = map_inner(n, at.repeated(at.def), static_cast<int16_t>(at.def + 1), path);
      list.type = LogicalType::array(element.type);
      list.children.push_back(std::move(element));
      return list;
    }
    const int16_t valid = static_cast<int16_t>(at.def + (n.repetition() == Repetition::kOptional ? 1 : 0));
    return map_inner(n, at, valid, path);
  }

  size_t leaves() const { return leaves_; }

 private:
  NestedField start(NestedField::Kind kind, const std::string& path, const Levels& at, int16_t valid) const {
    NestedField f;
    f.kind = kind;
    f.path = path;
    f.rep = at.rep;
    f.slot_def = at.slot_def;
    f.valid_def = valid;
    f.first_leaf = leaves_;
    return f;
  }

  /// The node of field `n` valid at definition level `valid` (its repetition already accounted for).
  NestedField map_inner(const SchemaNode& n, const Levels& at, int16_t valid, const std::string& path) {
    if (n.is_leaf()) return map_leaf(n, at, valid, path);
    if (n.is_list()) return map_list(n, at, valid, path);
    if (n.is_map()) return map_map(n, at, valid, path);
    return map_struct(n, at, valid, path);
  }

  NestedField map_leaf(const SchemaNode& n, const Levels& at, int16_t valid, const std::string& path) {
    PrimitiveTyping t = type_primitive(*n.element);
    if (!t.ok) throw Unmappable{"field '" + path + "': " + t.reason};
    NestedField f = start(NestedField::Kind::kLeaf, path, at, valid);
    ColumnDescriptor& d = f.leaf;
    d.name = path;
    d.readable = true;
    d.type = t.type;
    d.nullable = true;
    d.leaf_index = first_leaf_ + leaves_++;
    d.physical_type = *n.element->type;
    d.type_length = n.element->type_length;
    d.max_definition_level = valid;
    d.max_repetition_level = at.rep;
    d.conversion = t.conversion;
    d.sort_order = t.order;
    f.type = t.type;
    f.repeated_defs = at.repeated_defs;
    return f;
  }

  NestedField map_list(const SchemaNode& n, const Levels& at, int16_t valid, const std::string& path) {
    if (n.children.size() != 1) {
      throw Unmappable{"LIST group '" + path + "' has " + std::to_string(n.children.size()) +
                       " fields (one repeated field expected)"};
    }
    const SchemaNode& r = n.children[0];
    if (r.repetition() != Repetition::kRepeated) {
      throw Unmappable{"LIST group '" + path + "': its field '" + r.name() + "' is not repeated"};
    }
    NestedField list = start(NestedField::Kind::kList, path, at, valid);
    const Levels inner = at.repeated(valid);
    // The backward-compatibility rules: when the repeated field is itself the element (2-level lists), elements are
    // required; otherwise its one field is the element, with that field's repetition (3-level lists).
    const bool two_level = r.is_leaf() || r.children.size() > 1 ||
                           r.children[0].repetition() == Repetition::kRepeated || r.name() == "array" ||
                           r.name() == n.name() + "_tuple";
    NestedField element = two_level ? map_inner(r, inner, inner.def, join(path, r.name()))
                                    : map_value(r.children[0], inner, join(path, r.name()));
    list.type = LogicalType::array(element.type);
    list.children.push_back(std::move(element));
    return list;
  }

  NestedField map_map(const SchemaNode& n, const Levels& at, int16_t valid, const std::string& path) {
    if (n.children.size() != 1) {
      throw Unmappable{"MAP group '" + path + "' has " + std::to_string(n.children.size()) +
                       " fields (one repeated key_value group expected)"};
    }
    const SchemaNode& kv = n.children[0];
    const std::string kv_path = join(path, kv.name());
    if (kv.repetition() != Repetition::kRepeated || kv.is_leaf()) {
      throw Unmappable{"MAP group '" + path + "': its field '" + kv.name() + "' is not a repeated group"};
    }
    if (kv.children.size() > 2) {
      throw Unmappable{"MAP key_value group '" + kv_path + "' has " + std::to_string(kv.children.size()) +
                       " fields (a key and a value expected)"};
    }
    NestedField map = start(NestedField::Kind::kList, path, at, valid);
    const Levels inner = at.repeated(valid);
    NestedField key = map_value(kv.children[0], inner, kv_path);
    if (kv.children.size() == 1) {
      // Keys without values: a list of the keys, as other readers give it.
      map.type = LogicalType::array(key.type);
      map.children.push_back(std::move(key));
      return map;
    }
    NestedField value = map_value(kv.children[1], inner, kv_path);
    map.type = LogicalType::map(key.type, value.type);
    map.is_map = true;
    NestedField entry;
    entry.kind = NestedField::Kind::kStruct;
    entry.path = kv_path;
    entry.rep = inner.rep;
    entry.slot_def = inner.slot_def;
    entry.valid_def = inner.def;
    entry.first_leaf = key.first_leaf;
    entry.type = map.type.element_type();
    entry.children.push_back(std::move(key));
    entry.children.push_back(std::move(value));
    map.children.push_back(std::move(entry));
    return map;
  }

  NestedField map_struct(const SchemaNode& n, const Levels& at, int16_t valid, const std::string& path) {
    NestedField row = start(NestedField::Kind::kStruct, path, at, valid);
    Levels inside = at;
    inside.def = valid;
    std::vector<RowField> fields;
    for (const SchemaNode& c : n.children) {
      NestedField child = map_value(c, inside, path);
      fields.push_back(RowField{c.name(), child.type});
      row.children.push_back(std::move(child));
    }
    try {
      row.type = LogicalType::row(std::move(fields));
    } catch (const InvalidInput& e) {
      throw Unmappable{"group '" + path + "': " + e.message()};
    }
    return row;
  }

  size_t first_leaf_;
  size_t leaves_ = 0;
};

}  // namespace

void map_nested_column(const std::vector<SchemaElement>& schema, size_t index, size_t first_leaf,
                       ColumnDescriptor& column) {
  column.nested = true;
  size_t end = index;
  const SchemaNode root = build_tree(schema, end);
  NestedMapper mapper(first_leaf);
  try {
    NestedField field = mapper.map_value(root, Levels{}, "");
    column.readable = true;
    column.type = field.type;
    column.nullable = field.valid_def > field.slot_def;
    column.leaf_index = first_leaf;
    column.leaf_count = mapper.leaves();
    column.tree = std::make_shared<const NestedField>(std::move(field));
  } catch (const Unmappable& u) {
    column.readable = false;
    column.unsupported_reason = "column '" + root.name() + "': " + u.reason;
  }
}

}  // namespace kestrel::io::parquet
