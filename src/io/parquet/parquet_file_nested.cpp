// ParquetFile's reading of nested columns: every leaf chunk of the column decoded, then assembled into one column.

#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/parquet/nested_levels.hpp"
#include "io/parquet/parquet_file.hpp"

namespace kestrel::io {

namespace {

/// The leaves of a nested field in file order.
void collect_leaves(const parquet::NestedField& f, std::vector<const parquet::NestedField*>& out) {
  if (f.kind == parquet::NestedField::Kind::kLeaf) out.push_back(&f);
  for (const parquet::NestedField& c : f.children) collect_leaves(c, out);
}

}  // namespace

ColumnPtr ParquetFile::read_nested_column(size_t row_group, size_t column, const ParquetReadOptions& options) const {
  if (row_group >= num_row_groups()) {
    throw InvalidInput(prefix() + "row group " + std::to_string(row_group) + " beyond the file's " +
                       std::to_string(num_row_groups()));
  }
  const parquet::ColumnDescriptor& d = descriptor(column);
  std::vector<const parquet::NestedField*> leaf_fields;
  collect_leaves(*d.tree, leaf_fields);
  const size_t rows = static_cast<size_t>(row_group_num_rows(row_group));
  parquet::ChunkDecodeOptions decode{options.verify_checksums, false, options.max_page_bytes};
  parquet::ChunkLocation location{&path_, row_group};
  gpu::MemoryResource& mr = options.memory ? *options.memory : gpu::host_memory_resource();
  std::vector<parquet::LeafLevels> leaves;
  leaves.reserve(leaf_fields.size());
  for (const parquet::NestedField* leaf : leaf_fields) {
    const std::string where = prefix() + "column '" + d.name + "' (leaf '" + leaf->path + "') of row group " +
                              std::to_string(row_group) + ": ";
    const ChunkRange range = leaf_range(row_group, leaf->leaf, where);
    const std::unique_ptr<uint8_t[]> bytes = read_chunk_bytes(range, where);
    leaves.push_back(parquet::decode_leaf_chunk(parquet::ByteSpan{bytes.get(), static_cast<size_t>(range.length)},
                                                *leaf, *range.meta, rows, decode, location, d.name, mr));
  }
  ColumnPtr assembled;
  try {
    assembled = parquet::assemble_nested_column(*d.tree, leaves, mr);
  } catch (const InvalidInput& e) {
    throw InvalidInput(chunk_prefix(row_group, d.name) + e.message());
  }
  if (assembled->length() != rows) {
    throw InvalidInput(chunk_prefix(row_group, d.name) + "assembled " + std::to_string(assembled->length()) +
                       " rows, the row group has " + std::to_string(rows));
  }
  return assembled;
}

}  // namespace kestrel::io
