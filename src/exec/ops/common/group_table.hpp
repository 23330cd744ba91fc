#pragma once
/// A hash table from rows of key columns to dense group ids, with the distinct keys kept as columns. The shared
/// core of hash aggregation (groups and DISTINCT arguments) and of the set operations. NULL keys group together.

#include <cstdint>
#include <vector>

#include "exec/ops/common/column_view.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Maps key rows to group ids 0, 1, 2, ... in first-seen order. Each call that creates groups stores their keys
/// as one chunk of columns (a gather of the new rows), so a chunk holds a consecutive range of group ids. With no
/// key columns there is exactly one group, id 0, from the start (ungrouped aggregation).
class GroupTable {
 public:
  static constexpr uint32_t kNoGroup = UINT32_MAX;

  explicit GroupTable(std::vector<LogicalType> key_types);

  /// The group id of every row of `keys` (one column per key type, `rows` rows), creating missing groups.
  void find_or_insert(const std::vector<ColumnPtr>& keys, size_t rows, std::vector<uint32_t>& ids);
  /// The group id of every row of `keys`, kNoGroup for keys the table does not hold.
  void find(const std::vector<ColumnPtr>& keys, size_t rows, std::vector<uint32_t>& ids) const;

  size_t size() const { return key_types_.empty() ? 1 : group_hash_.size(); }
  const std::vector<LogicalType>& key_types() const { return key_types_; }

  /// Stored key chunks: chunk `c` holds the keys of groups [chunk_first(c), chunk_first(c) + chunk rows).
  size_t chunk_count() const { return chunks_.size(); }
  const std::vector<ColumnPtr>& chunk(size_t c) const { return chunks_[c]; }
  size_t chunk_rows(size_t c) const { return chunk_rows_[c]; }
  size_t chunk_first(size_t c) const { return chunk_first_[c]; }

  /// Every group's keys as one column per key, in group-id order.
  std::vector<ColumnPtr> key_columns() const;

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;

  /// The slot holding a group equal to row `row` (hash `hash`) of `views`, or the empty slot where it belongs.
  /// `pending_rows` are the input rows of groups created by the current call (their keys are not in a chunk yet).
  size_t probe(uint64_t hash, const std::vector<ColumnView>& views, size_t row,
               const std::vector<uint32_t>& pending_rows) const;
  void grow();

  std::vector<LogicalType> key_types_;
  std::vector<uint32_t> slots_;  ///< group id or kEmpty; power-of-two size
  std::vector<uint64_t> group_hash_;
  std::vector<uint32_t> group_chunk_;
  std::vector<uint32_t> group_row_;  ///< row inside its chunk
  std::vector<std::vector<ColumnPtr>> chunks_;
  std::vector<std::vector<ColumnView>> chunk_views_;
  std::vector<size_t> chunk_rows_;
  std::vector<size_t> chunk_first_;
};

}  // namespace kestrel::exec
