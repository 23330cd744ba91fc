// Record assembly of nested columns: the levels of each node's first leaf give its slots, validity and (for lists)
// offsets; its children are assembled from their own leaves and must agree with it.

#include <cstring>
#include <string>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "io/parquet/nested_levels.hpp"

namespace kestrel::io::parquet {

namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

/// A validity bitmap of `valid` (one byte per row), or null when every row is valid; counts the NULLs.
BufferPtr validity_of(const std::vector<uint8_t>& valid, size_t& nulls, gpu::MemoryResource& mr) {
  nulls = 0;
  for (uint8_t v : valid) nulls += v == 0;
  if (nulls == 0) return nullptr;
  BufferPtr bitmap = Buffer::allocate(bits::bytes_for(valid.size()), mr, gpu::Stream::host());
  uint8_t* out = bitmap->as<uint8_t>();
  std::memset(out, 0, bitmap->size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i] != 0) bits::set(out, i);
  }
  return bitmap;
}

class Assembler {
 public:
  Assembler(const NestedField& root, const std::vector<LeafLevels>& leaves, gpu::MemoryResource& mr)
      : leaves_(leaves), mr_(mr) {
    collect_leaves(root);
    if (leaf_fields_.size() != leaves_.size()) {
      throw InternalError("nested column '" + root.path + "' has " + std::to_string(leaf_fields_.size()) +
                          " leaves, " + std::to_string(leaves_.size()) + " were decoded");
    }
  }

  ColumnPtr build(const NestedField& f) {
    switch (f.kind) {
      case NestedField::Kind::kLeaf: return leaves_[f.first_leaf].values;
      case NestedField::Kind::kList: return build_list(f);
      case NestedField::Kind::kStruct: return build_struct(f);
    }
    throw InternalError("unknown nested field kind");
  }

 private:
  void collect_leaves(const NestedField& f) {
    if (f.kind == NestedField::Kind::kLeaf) leaf_fields_.push_back(&f);
    for (const NestedField& c : f.children) collect_leaves(c);
  }

  /// The leaf at `index`, named for messages.
  const std::string& leaf_name(size_t index) const { return leaf_fields_[index]->path; }

  /// Checks that `child` (a column of `child_field`) has the `expected` rows that `parent`'s first leaf gives.
  void check_child(const NestedField& parent, const NestedField& child_field, const Column& child,
                   size_t expected) const {
    if (child.length() == expected) return;
    fail("the leaves of '" + parent.path + "' disagree: leaf '" + leaf_name(parent.first_leaf) + "' gives it " +
         std::to_string(expected) + " values of '" + child_field.path + "', leaf '" +
         leaf_name(child_field.first_leaf) + "' holds " + std::to_string(child.length()));
  }

  ColumnPtr build_list(const NestedField& f) {
    const LeafLevels& l = leaves_[f.first_leaf];
    const int element_def = f.valid_def + 1;
    const int element_rep = f.rep + 1;
    std::vector<int64_t> starts;
    std::vector<uint8_t> valid;
    int64_t elements = 0;
    for (size_t i = 0; i < l.rep.size(); ++i) {
      const int r = l.rep[i];
      const int d = l.def[i];
      if (r <= f.rep) {
        if (d < f.slot_def) continue;  // an ancestor is NULL or empty here
        starts.push_back(elements);
        valid.push_back(d >= f.valid_def ? 1 : 0);
        if (d >= element_def) ++elements;
      } else if (r == element_rep) {
        ++elements;
      }
    }
    const size_t slots = valid.size();
    BufferPtr offsets = Buffer::allocate((slots + 1) * sizeof(int64_t), mr_, gpu::Stream::host());
    int64_t* o = offsets->as<int64_t>();
    if (slots > 0) std::memcpy(o, starts.data(), slots * sizeof(int64_t));
    o[slots] = elements;
    size_t nulls = 0;
    BufferPtr validity = validity_of(valid, nulls, mr_);
    const NestedField& element_field = f.children[0];
    ColumnPtr element = build(element_field);
    check_child(f, element_field, *element, static_cast<size_t>(elements));
    if (f.is_map && element->child(0)->null_count() > 0) fail("MAP '" + f.path + "' holds a NULL key");
    return Column::make_list(f.type, slots, std::move(offsets), std::move(validity), nulls, std::move(element));
  }

  ColumnPtr build_struct(const NestedField& f) {
    const LeafLevels& l = leaves_[f.first_leaf];
    std::vector<uint8_t> valid;
    for (size_t i = 0; i < l.rep.size(); ++i) {
      if (l.rep[i] <= f.rep && l.def[i] >= f.slot_def) valid.push_back(l.def[i] >= f.valid_def ? 1 : 0);
    }
    std::vector<ColumnPtr> children;
    for (const NestedField& c : f.children) {
      ColumnPtr child = build(c);
      check_child(f, c, *child, valid.size());
      children.push_back(std::move(child));
    }
    size_t nulls = 0;
    BufferPtr validity = validity_of(valid, nulls, mr_);
    return Column::make_row(f.type, valid.size(), std::move(validity), nulls, std::move(children));
  }

  const std::vector<LeafLevels>& leaves_;
  gpu::MemoryResource& mr_;
  std::vector<const NestedField*> leaf_fields_;
};

}  // namespace

ColumnPtr assemble_nested_column(const NestedField& field, const std::vector<LeafLevels>& leaves,
                                 gpu::MemoryResource& mr) {
  Assembler assembler(field, leaves, mr);
  return assembler.build(field);
}

}  // namespace kestrel::io::parquet
