// Nested columns written to Parquet: schema elements, and the shredding of rows into levels and values per leaf.

#include "io/parquet/writer/nested_writer.hpp"

#include <string>
#include <utility>

#include "common/error.hpp"

namespace kestrel::io::parquet {

namespace {

/// The Parquet name of field `i` of a ROW type.
std::string field_name(const LogicalType& row, size_t i) {
  const std::string& name = row.fields()[i].name;
  return name.empty() ? "field" + std::to_string(i) : name;
}

SchemaElement group_element(const std::string& name, Repetition repetition, int32_t children) {
  SchemaElement e;
  e.name = name;
  e.repetition = repetition;
  e.num_children = children;
  return e;
}

/// append_schema_elements below the top: `path` names the field in messages.
void append_elements(const std::string& name, const LogicalType& type, Repetition repetition,
                     const std::string& path, std::vector<SchemaElement>& out) {
  using Kind = LogicalTypeAnnotation::Kind;
  switch (type.id()) {
    case TypeId::kArray: {
      SchemaElement list = group_element(name, repetition, 1);
      list.converted_type = ConvertedType::kList;
      list.logical_type.kind = Kind::kList;
      out.push_back(list);
      out.push_back(group_element("list", Repetition::kRepeated, 1));
      append_elements("element", type.element_type(), Repetition::kOptional, path + ".list.element", out);
      return;
    }
    case TypeId::kMap: {
      SchemaElement map = group_element(name, repetition, 1);
      map.converted_type = ConvertedType::kMap;
      map.logical_type.kind = Kind::kMap;
      out.push_back(map);
      out.push_back(group_element("key_value", Repetition::kRepeated, 2));
      append_elements("key", type.key_type(), Repetition::kRequired, path + ".key_value.key", out);
      append_elements("value", type.value_type(), Repetition::kOptional, path + ".key_value.value", out);
      return;
    }
    case TypeId::kRow: {
      out.push_back(group_element(name, repetition, static_cast<int32_t>(type.fields().size())));
      for (size_t i = 0; i < type.fields().size(); ++i) {
        const std::string child = field_name(type, i);
        append_elements(child, type.fields()[i].type, Repetition::kOptional, path + "." + child, out);
      }
      return;
    }
    default: {
      SchemaElement leaf;
      try {
        leaf = schema_element_for(Field{name, type, repetition != Repetition::kRequired});
      } catch (const NotImplemented& e) {
        throw NotImplemented("field '" + path + "': " + e.message());
      }
      leaf.repetition = repetition;
      out.push_back(leaf);
    }
  }
}

/// How a leaf is reached from its top-level column: one step per nested level.
struct PathStep {
  TypeId kind = TypeId::kRow;  ///< kArray, kMap or kRow: the type of the column the step goes down from
  size_t child = 0;            ///< kRow: the field; kMap: 0 key, 1 value
  uint32_t list_rep = 0;       ///< kArray, kMap: the repetition level of the list's elements
};

/// One leaf of a nested column: where it is, its schema element and its maximum levels.
struct LeafPath {
  std::vector<std::string> names;  ///< path_in_schema
  std::vector<PathStep> steps;
  SchemaElement element;
  int max_def = 0;
  int max_rep = 0;
};

/// The leaves below a value of `type` reached by `steps` at levels (def, rep), in schema order.
void collect_leaves(const LogicalType& type, const std::vector<std::string>& names,
                    const std::vector<PathStep>& steps, int def, int rep, bool required,
                    std::vector<LeafPath>& out) {
  auto below = [&](const LogicalType& child, const std::string& a, const std::string& b, PathStep step, int d, int r,
                   bool req) {
    std::vector<std::string> child_names = names;
    child_names.push_back(a);
    if (!b.empty()) child_names.push_back(b);
    std::vector<PathStep> child_steps = steps;
    child_steps.push_back(step);
    collect_leaves(child, child_names, child_steps, d, r, req, out);
  };
  const uint32_t element_rep = static_cast<uint32_t>(rep + 1);
  switch (type.id()) {
    case TypeId::kArray:
      below(type.element_type(), "list", "element", PathStep{TypeId::kArray, 0, element_rep}, def + 2, rep + 1, false);
      return;
    case TypeId::kMap:
      below(type.key_type(), "key_value", "key", PathStep{TypeId::kMap, 0, element_rep}, def + 1, rep + 1, true);
      below(type.value_type(), "key_value", "value", PathStep{TypeId::kMap, 1, element_rep}, def + 2, rep + 1, false);
      return;
    case TypeId::kRow:
      for (size_t i = 0; i < type.fields().size(); ++i) {
        below(type.fields()[i].type, field_name(type, i), "", PathStep{TypeId::kRow, i, 0}, def + 1, rep, false);
      }
      return;
    default: {
      LeafPath leaf;
      leaf.names = names;
      leaf.steps = steps;
      leaf.element = schema_element_for(Field{names.back(), type, !required});
      leaf.element.repetition = required ? Repetition::kRequired : Repetition::kOptional;
      leaf.max_def = def;
      leaf.max_rep = rep;
      out.push_back(std::move(leaf));
    }
  }
}

/// The levels and values of one leaf, gathered row by row from the top-level column.
class LeafShredder {
 public:
  LeafShredder(const Field& field, const LeafPath& path) : field_(field), path_(path), values_(leaf_type(field, path)) {
    entries_.max_definition_level = path.max_def;
    entries_.max_repetition_level = path.max_rep;
  }

  void add_row(const Column& top, size_t row) { visit(top, row, 0, 0, 0, field_.nullable); }

  EncodedColumnChunk encode(const ParquetWriterOptions& options) const {
    return encode_leaf_chunk(path_.element, path_.names, entries_, values_, options, 0);
  }

 private:
  static LogicalType leaf_type(const Field& field, const LeafPath& path) {
    const LogicalType* t = &field.type;
    for (const PathStep& s : path.steps) {
      t = s.kind == TypeId::kArray ? &t->element_type()
          : s.kind == TypeId::kMap ? (s.child == 0 ? &t->key_type() : &t->value_type())
                                   : &t->fields()[s.child].type;
    }
    return *t;
  }

  void emit(uint32_t rep, uint32_t def) {
    if (path_.max_rep > 0) entries_.rep.push_back(rep);
    if (path_.max_def > 0) entries_.def.push_back(def);
    if (static_cast<int>(def) < path_.max_def) ++entries_.nulls;
    ++entries_.entries;
  }

  /// Row `i` of `column`, the value reached after `step` steps at definition level `def`, starting a repetition at
  /// level `rep`; `optional`: whether its schema element is OPTIONAL.
  void visit(const Column& column, size_t i, size_t step, uint32_t def, uint32_t rep, bool optional) {
    if (!column.is_valid(i)) {
      if (!optional) {
        throw InvalidInput(step == 0 ? "column '" + field_.name + "' is NOT NULL but holds a NULL"
                                     : "column '" + field_.name + "' holds a MAP with a NULL key");
      }
      emit(rep, def);
      return;
    }
    if (optional) ++def;
    if (step == path_.steps.size()) {
      emit(rep, def);
      values_.append(column, i);
      return;
    }
    const PathStep& s = path_.steps[step];
    if (s.kind == TypeId::kRow) {
      visit(*column.child(s.child), i, step + 1, def, rep, true);
      return;
    }
    const int64_t* offsets = column.list_offsets();
    const size_t begin = static_cast<size_t>(offsets[i]);
    const size_t end = static_cast<size_t>(offsets[i + 1]);
    if (begin == end) {  // an empty list or map: defined, without elements
      emit(rep, def);
      return;
    }
    const Column& elements = *column.child(0);
    for (size_t k = begin; k < end; ++k) {
      const uint32_t r = k == begin ? rep : s.list_rep;
      if (s.kind == TypeId::kArray) {
        visit(elements, k, step + 1, def + 1, r, true);
      } else {
        visit(*elements.child(s.child), k, step + 1, def + 1, r, s.child == 1);
      }
    }
  }

  const Field& field_;
  const LeafPath& path_;
  LeafEntries entries_;
  PhysicalValues values_;
};

}  // namespace

void append_schema_elements(const Field& field, std::vector<SchemaElement>& out) {
  if (!field.type.is_nested()) {
    out.push_back(schema_element_for(field));
    return;
  }
  try {
    append_elements(field.name, field.type, field.nullable ? Repetition::kOptional : Repetition::kRequired,
                    field.name, out);
  } catch (const NotImplemented& e) {
    throw NotImplemented("column '" + field.name + "' (" + field.type.to_string() + "), " + e.message());
  }
}

std::vector<EncodedColumnChunk> encode_nested_column_chunks(const Field& field, const std::vector<ColumnSlice>& slices,
                                                            const ParquetWriterOptions& options) {
  std::vector<LeafPath> leaves;
  collect_leaves(field.type, {field.name}, {}, field.nullable ? 1 : 0, 0, false, leaves);
  std::vector<EncodedColumnChunk> chunks;
  for (const LeafPath& leaf : leaves) {
    LeafShredder shredder(field, leaf);
    for (const ColumnSlice& slice : slices) {
      for (size_t r = slice.begin; r < slice.begin + slice.count; ++r) shredder.add_row(*slice.column, r);
    }
    chunks.push_back(shredder.encode(options));
  }
  return chunks;
}

size_t leaf_count(const LogicalType& type) {
  size_t n = 0;
  for (size_t i = 0; i < type.child_count(); ++i) n += leaf_count(type.child(i));
  return type.is_nested() ? n : 1;
}

}  // namespace kestrel::io::parquet
