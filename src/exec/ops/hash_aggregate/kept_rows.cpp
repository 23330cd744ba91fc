#include "exec/ops/hash_aggregate/kept_rows.hpp"

#include "common/check.hpp"

namespace kestrel::exec {

void KeptRows::add_chunk(std::vector<ColumnPtr> columns) {
  KESTREL_CHECK_EQ(columns.size(), types_.size());
  KESTREL_CHECK_LT(chunks_.size(), size_t{UINT32_MAX});
  Chunk chunk;
  chunk.views = make_views(columns);
  rows_ += columns.empty() ? 0 : columns[0]->length();
  chunk.columns = std::move(columns);
  chunks_.push_back(std::move(chunk));
}

uint32_t KeptRows::append(const std::vector<const Column*>& columns, const RowIndices& rows) {
  std::vector<ColumnPtr> copies;
  for (const Column* c : columns) copies.push_back(gather_column(*c, rows));
  add_chunk(std::move(copies));
  return static_cast<uint32_t>(chunks_.size() - 1);
}

uint32_t KeptRows::append_chunks(const KeptRows& other) {
  const auto first = static_cast<uint32_t>(chunks_.size());
  for (const Chunk& chunk : other.chunks_) add_chunk(chunk.columns);
  return first;
}

ColumnPtr KeptRows::gather(size_t c, const std::vector<RowRef>& refs) const {
  KESTREL_CHECK_LT(c, types_.size());
  // The rows each chunk contributes, gathered chunk by chunk and concatenated; then one gather puts them in the
  // order of `refs` (one gather when a single chunk holds them all).
  std::vector<RowIndices> rows(chunks_.size());
  for (RowRef r : refs) {
    if (r != kNoRow) rows[chunk_of(r)].push_back(row_of(r));
  }
  std::vector<uint32_t> base(chunks_.size(), 0);
  std::vector<Batch> pieces;
  size_t used = 0, single = 0;
  uint32_t next = 0;
  const auto schema = std::make_shared<const Schema>(std::vector<Field>{{"kept", types_[c], true}});
  for (size_t k = 0; k < chunks_.size(); ++k) {
    if (rows[k].empty()) continue;
    ++used;
    single = k;
    base[k] = next;
    next += static_cast<uint32_t>(rows[k].size());
    pieces.emplace_back(schema, std::vector<ColumnPtr>{gather_column(*chunks_[k].columns[c], rows[k])},
                        rows[k].size(), gpu::MemoryKind::kHost);
  }
  RowIndices order(refs.size(), kNullRow);
  if (used == 1) {
    for (size_t i = 0; i < refs.size(); ++i) {
      if (refs[i] != kNoRow) order[i] = row_of(refs[i]);
    }
    return gather_column(*chunks_[single].columns[c], order);
  }
  std::vector<uint32_t> seen(chunks_.size(), 0);
  for (size_t i = 0; i < refs.size(); ++i) {
    if (refs[i] == kNoRow) continue;
    const uint32_t k = chunk_of(refs[i]);
    order[i] = base[k] + seen[k]++;
  }
  // seen[k] counts in the order rows[k] was filled, so piece k's row j is the j-th reference into chunk k.
  const Batch all = concat_batches(pieces, schema);
  return gather_column(*all.column(0), order);
}

void KeptRows::compact(std::vector<RowRef>& refs) {
  std::vector<RowRef> live;
  for (RowRef r : refs) {
    if (r != kNoRow) live.push_back(r);
  }
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < types_.size(); ++c) columns.push_back(gather(c, live));
  chunks_.clear();
  rows_ = 0;
  add_chunk(std::move(columns));
  uint32_t next = 0;
  for (RowRef& r : refs) {
    if (r != kNoRow) r = ref(0, next++);
  }
}

}  // namespace kestrel::exec
