#include "exec/ops/common/group_table.hpp"

#include "common/check.hpp"
#include "exec/ops/common/row_compare.hpp"
#include "exec/ops/common/row_hash.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

GroupTable::GroupTable(std::vector<LogicalType> key_types) : key_types_(std::move(key_types)) {
  slots_.assign(1024, kEmpty);
}

size_t GroupTable::probe(uint64_t hash, const std::vector<ColumnView>& views, size_t row,
                         const std::vector<uint32_t>& pending_rows) const {
  size_t mask = slots_.size() - 1;
  size_t slot = static_cast<size_t>(hash) & mask;
  const uint32_t pending_chunk = static_cast<uint32_t>(chunks_.size());
  while (true) {
    uint32_t g = slots_[slot];
    if (g == kEmpty) return slot;
    if (group_hash_[g] == hash) {
      uint32_t c = group_chunk_[g];
      bool equal = c == pending_chunk
                       ? rows_equal(views.data(), row, views.data(), pending_rows[group_row_[g]], views.size())
                       : rows_equal(views.data(), row, chunk_views_[c].data(), group_row_[g], views.size());
      if (equal) return slot;
    }
    slot = (slot + 1) & mask;
  }
}

void GroupTable::grow() {
  slots_.assign(slots_.size() * 2, kEmpty);
  size_t mask = slots_.size() - 1;
  for (uint32_t g = 0; g < group_hash_.size(); ++g) {
    size_t slot = static_cast<size_t>(group_hash_[g]) & mask;
    while (slots_[slot] != kEmpty) slot = (slot + 1) & mask;
    slots_[slot] = g;
  }
}

void GroupTable::find_or_insert(const std::vector<ColumnPtr>& keys, size_t rows, std::vector<uint32_t>& ids) {
  ids.assign(rows, 0);
  if (key_types_.empty() || rows == 0) return;
  KESTREL_CHECK_EQ(keys.size(), key_types_.size());
  std::vector<ColumnView> views = make_views(keys);
  std::vector<uint64_t> hashes(rows);
  hash_rows(views, rows, hashes.data());
  std::vector<uint32_t> new_rows;
  const auto pending_chunk = static_cast<uint32_t>(chunks_.size());
  for (size_t r = 0; r < rows; ++r) {
    size_t slot = probe(hashes[r], views, r, new_rows);
    uint32_t g = slots_[slot];
    if (g == kEmpty) {
      g = static_cast<uint32_t>(group_hash_.size());
      KESTREL_CHECK_LT(g, kNoGroup - 1);
      slots_[slot] = g;
      group_hash_.push_back(hashes[r]);
      group_chunk_.push_back(pending_chunk);
      group_row_.push_back(static_cast<uint32_t>(new_rows.size()));
      new_rows.push_back(static_cast<uint32_t>(r));
      if (group_hash_.size() * 2 > slots_.size()) grow();
    }
    ids[r] = g;
  }
  if (new_rows.empty()) return;
  std::vector<ColumnPtr> chunk;
  chunk.reserve(keys.size());
  for (const auto& k : keys) chunk.push_back(gather_column(*k, new_rows));
  chunk_first_.push_back(group_hash_.size() - new_rows.size());
  chunk_rows_.push_back(new_rows.size());
  chunk_views_.push_back(make_views(chunk));
  chunks_.push_back(std::move(chunk));
}

void GroupTable::find(const std::vector<ColumnPtr>& keys, size_t rows, std::vector<uint32_t>& ids) const {
  ids.assign(rows, 0);
  if (key_types_.empty() || rows == 0) return;
  KESTREL_CHECK_EQ(keys.size(), key_types_.size());
  std::vector<ColumnView> views = make_views(keys);
  std::vector<uint64_t> hashes(rows);
  hash_rows(views, rows, hashes.data());
  const std::vector<uint32_t> no_pending;
  for (size_t r = 0; r < rows; ++r) {
    uint32_t g = slots_[probe(hashes[r], views, r, no_pending)];
    ids[r] = g == kEmpty ? kNoGroup : g;
  }
}

std::vector<ColumnPtr> GroupTable::key_columns() const {
  std::vector<Field> fields;
  for (size_t k = 0; k < key_types_.size(); ++k) fields.push_back({"k" + std::to_string(k), key_types_[k], true});
  auto schema = std::make_shared<const Schema>(std::move(fields));
  std::vector<Batch> batches;
  batches.reserve(chunks_.size());
  for (size_t c = 0; c < chunks_.size(); ++c) {
    batches.emplace_back(schema, chunks_[c], chunk_rows_[c], gpu::MemoryKind::kHost);
  }
  return concat_batches(batches, schema).columns();
}

}  // namespace kestrel::exec
