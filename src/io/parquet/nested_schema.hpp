#pragma once
/// The mapping of a nested Parquet field (a group, or a repeated field) onto a Kestrel ARRAY, MAP or ROW column,
/// following the LIST and MAP rules of the Parquet format (LogicalTypes.md), their backward-compatibility rules
/// included:
///   - LIST: the 3-level form `<rep> group a (LIST) { repeated group list { <rep> T element; } }` is ARRAY(T); the
///     2-level forms (the repeated field is the element: a primitive, a group of several fields, a group whose one
///     field is repeated, a group named `array` or `<a>_tuple`) are ARRAY of required elements.
///   - MAP (and MAP_KEY_VALUE used in its place): `group m (MAP) { repeated group key_value { key; [value;] } }` is
///     MAP(K, V), key and value found by position; a key_value group without a value field is ARRAY(K), as other
///     readers give it. A key declared optional is read; a NULL key found in the data is an error.
///   - A group without annotation is ROW(field, ...); a repeated field outside a LIST is ARRAY of required elements.
///
/// Each node carries the definition and repetition levels that decide where it has a slot (a value or a NULL) and
/// where it is valid, which is what turns the levels of its leaves into offsets and validity (nested_levels.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/parquet/parquet_schema.hpp"

namespace kestrel::io::parquet {

/// One node of a nested column: a leaf (a primitive column chunk), a list (ARRAY or MAP: offsets into one child) or
/// a struct (ROW: one child per field).
struct NestedField {
  enum class Kind : uint8_t { kLeaf, kList, kStruct };

  Kind kind = Kind::kLeaf;
  /// The dotted path of the Parquet field ("a.list.element"), for messages.
  std::string path;
  /// Its Kestrel type: the leaf's type, ARRAY(T) / MAP(K, V) for lists, ROW(...) for structs.
  LogicalType type;
  /// Level entries of a leaf below this node with a repetition level up to `rep` and a definition level of at least
  /// `slot_def` start a slot of this node (one row of its column); the slot is valid (not NULL) when the definition
  /// level reaches `valid_def`. A list's elements are the entries at `valid_def + 1` and above.
  int16_t rep = 0;
  int16_t slot_def = 0;
  int16_t valid_def = 0;
  /// A MAP: its key (the first field of its entry row) must not be NULL.
  bool is_map = false;
  /// Lists: one child (the element; a MAP's is its ROW(key, value) entry); structs: one per field.
  std::vector<NestedField> children;
  /// The index, among the column's leaves, of the first leaf below this node (its levels shape the node).
  size_t first_leaf = 0;

  /// Leaves: the physical column (name = path; max levels; leaf_index among the file's leaves).
  ColumnDescriptor leaf;
  /// Leaves: the definition level of each repeated field on the path, outermost first: an entry with repetition
  /// level r > 0 needs a definition level of at least repeated_defs[r - 1] (it starts an element of that field).
  std::vector<int16_t> repeated_defs;
};

/// Maps the top-level field at `schema[index]` (a group or a repeated field, whose first leaf is the file's leaf
/// `first_leaf`) onto `column`: readable with `tree`, `type` and `leaf_count` set, or unreadable with the reason.
/// The schema tree is already checked for consistent child counts.
void map_nested_column(const std::vector<SchemaElement>& schema, size_t index, size_t first_leaf,
                       ColumnDescriptor& column);

}  // namespace kestrel::io::parquet
