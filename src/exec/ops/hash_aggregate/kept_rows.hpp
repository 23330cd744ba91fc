#pragma once
/// Rows copied out of input batches for aggregates that read whole rows after the batch is gone (max_by's best
/// row, string_agg's values with their ORDER BY keys, the percentiles' values): chunks of columns of fixed types,
/// one chunk per copy, each row addressed by a RowRef. Chunks are immutable once added, so another accumulator's
/// chunks can be shared instead of copied when accumulators merge.

#include <cstdint>
#include <vector>

#include "exec/ops/common/column_view.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

/// The rows one accumulator keeps, with the column types it was made for. Not shared between threads while it
/// changes; const methods may be called concurrently.
class KeptRows {
 public:
  /// A kept row: its chunk in the high 32 bits, its row in the chunk in the low 32 bits.
  using RowRef = uint64_t;
  static constexpr RowRef kNoRow = UINT64_MAX;
  static RowRef ref(uint32_t chunk, uint32_t row) { return (static_cast<RowRef>(chunk) << 32) | row; }
  static uint32_t chunk_of(RowRef r) { return static_cast<uint32_t>(r >> 32); }
  static uint32_t row_of(RowRef r) { return static_cast<uint32_t>(r); }

  explicit KeptRows(std::vector<LogicalType> types) : types_(std::move(types)) {}

  /// Copies rows `rows` of `columns` (one per type, host columns) as a new chunk; returns the chunk's index.
  uint32_t append(const std::vector<const Column*>& columns, const RowIndices& rows);
  /// Shares every chunk of `other` (same types); returns the index its first chunk has here.
  uint32_t append_chunks(const KeptRows& other);
  /// Views of chunk `chunk`'s columns, in type order; valid while this object lives.
  const ColumnView* views(uint32_t chunk) const { return chunks_[chunk].views.data(); }
  /// Rows held in all chunks.
  size_t rows() const { return rows_; }
  /// Column `c` of the rows `refs` in that order, NULL for kNoRow.
  ColumnPtr gather(size_t c, const std::vector<RowRef>& refs) const;
  /// Drops every row but `refs` (kNoRow entries stay), which are rewritten to where their rows are now.
  void compact(std::vector<RowRef>& refs);

 private:
  struct Chunk {
    std::vector<ColumnPtr> columns;
    std::vector<ColumnView> views;
  };
  void add_chunk(std::vector<ColumnPtr> columns);

  std::vector<LogicalType> types_;
  std::vector<Chunk> chunks_;
  size_t rows_ = 0;
};

}  // namespace kestrel::exec
