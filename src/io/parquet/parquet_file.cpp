#include "io/parquet/parquet_file.hpp"

#include <strings.h>

#include <cstdio>
#include <cstring>
#include <tuple>
#include <memory>
#include <new>

#include "common/error.hpp"
#include "io/parquet/column_chunk_reader.hpp"
#include "io/parquet/file_source.hpp"
#include "io/parquet/parallel_decode.hpp"
#include "io/parquet/value_conversion.hpp"

namespace kestrel::io {

using parquet::ColumnDescriptor;
using parquet::ColumnMetaData;
using parquet::PhysicalType;

namespace {

constexpr size_t kMagicSize = 4;
constexpr size_t kTailSize = 8;  // footer length + magic

uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// Old parquet-mr writers (before 1.2.9) left the dictionary page header out of total_compressed_size; chunks they
/// wrote are read with this much slack (bounded by the footer), like other readers do.
constexpr int64_t kOldWriterChunkSlack = 100;

bool chunk_sizes_undercounted(const std::optional<std::string>& created_by) {
  if (!created_by) return false;
  const std::string& s = *created_by;
  if (s == "parquet-mr") return true;
  const std::string prefix = "parquet-mr version ";
  if (s.rfind(prefix, 0) != 0) return false;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(s.c_str() + prefix.size(), "%d.%d.%d", &major, &minor, &patch) < 2) return true;
  return std::make_tuple(major, minor, patch) < std::make_tuple(1, 2, 9);
}

}  // namespace

std::string ParquetFile::prefix() const { return "Parquet file '" + path_ + "': "; }

uint64_t ParquetFile::file_size() const { return file_->size(); }

std::shared_ptr<const ParquetFile> ParquetFile::open(const std::string& path) {
  return open_source(path, parquet::RandomAccessFile::open(path));
}

std::shared_ptr<const ParquetFile> ParquetFile::open_buffer(const std::string& name,
                                                            std::shared_ptr<const std::vector<uint8_t>> bytes) {
  return open_source(name, parquet::RandomAccessFile::from_memory(name, std::move(bytes)));
}

std::shared_ptr<const ParquetFile> ParquetFile::open_source(const std::string& path,
                                                            std::shared_ptr<parquet::RandomAccessFile> source) {
  std::shared_ptr<ParquetFile> f(new ParquetFile());
  f->path_ = path;
  f->file_ = std::move(source);
  uint64_t size = f->file_->size();
  if (size < kMagicSize + kTailSize) {
    throw InvalidInput(f->prefix() + "too small to be a Parquet file (" + std::to_string(size) + " bytes)");
  }
  uint8_t tail[kTailSize];
  f->file_->read(size - kTailSize, kTailSize, tail);
  if (std::memcmp(tail + 4, "PARE", 4) == 0) throw NotImplemented(f->prefix() + "encryption is not supported");
  if (std::memcmp(tail + 4, "PAR1", 4) != 0) throw InvalidInput(f->prefix() + "not a Parquet file (no PAR1 magic at its end)");
  uint8_t head[kMagicSize];
  f->file_->read(0, kMagicSize, head);
  if (std::memcmp(head, "PAR1", 4) != 0) throw InvalidInput(f->prefix() + "not a Parquet file (no PAR1 magic at its start)");
  uint64_t footer_size = load_le32(tail);
  if (footer_size > size - kMagicSize - kTailSize) {
    throw InvalidInput(f->prefix() + "footer of " + std::to_string(footer_size) + " bytes is larger than the file");
  }
  f->footer_start_ = size - kTailSize - footer_size;
  std::vector<uint8_t> footer(footer_size);
  f->file_->read(f->footer_start_, footer_size, footer.data());
  try {
    f->metadata_ = parquet::decode_file_metadata(footer.data(), footer.size());
  } catch (const InvalidInput& e) {
    throw InvalidInput(f->prefix() + "footer: " + e.message());
  }
  if (f->metadata_.encrypted) throw NotImplemented(f->prefix() + "encryption is not supported");
  try {
    f->mapping_ = parquet::map_schema(f->metadata_.schema);
  } catch (const InvalidInput& e) {
    throw InvalidInput(f->prefix() + e.message());
  }
  for (size_t g = 0; g < f->metadata_.row_groups.size(); ++g) {
    const parquet::RowGroup& rg = f->metadata_.row_groups[g];
    if (rg.columns.size() != f->mapping_.num_leaves) {
      throw InvalidInput(f->prefix() + "row group " + std::to_string(g) + " has " + std::to_string(rg.columns.size()) +
                         " column chunks, the schema has " + std::to_string(f->mapping_.num_leaves) + " columns");
    }
    if (rg.num_rows < 0) throw InvalidInput(f->prefix() + "row group " + std::to_string(g) + " has a negative row count");
  }
  // Column chunks of a valid file are disjoint pieces of it: claims beyond its size are corrupt, and refusing them
  // keeps a crafted footer from making every chunk re-read the whole file.
  uint64_t claimed = 0;
  for (const parquet::RowGroup& rg : f->metadata_.row_groups) {
    for (const parquet::ColumnChunk& chunk : rg.columns) {
      if (!chunk.meta_data) continue;
      int64_t n = chunk.meta_data->total_compressed_size;
      if (n < 0 || static_cast<uint64_t>(n) > size) {
        throw InvalidInput(f->prefix() + "a column chunk claims " + std::to_string(n) + " bytes");
      }
      claimed += static_cast<uint64_t>(n);
    }
  }
  if (claimed > size) {
    throw InvalidInput(f->prefix() + "its column chunks claim " + std::to_string(claimed) + " bytes, more than the " +
                       std::to_string(size) + " of the file");
  }
  std::vector<Field> fields;
  for (size_t i = 0; i < f->mapping_.columns.size(); ++i) {
    const ColumnDescriptor& c = f->mapping_.columns[i];
    if (c.readable) {
      f->readable_.push_back(i);
      fields.push_back(Field{c.name, c.type, c.nullable});
    } else {
      f->unreadable_.push_back(UnreadableColumn{c.name, c.unsupported_reason, c.nested});
    }
  }
  f->schema_ = std::make_shared<const Schema>(std::move(fields));
  return f;
}

size_t ParquetFile::column_index(const std::string& name) const {
  if (auto i = schema_->index_of(name)) return *i;
  for (const UnreadableColumn& u : unreadable_) {
    if (strcasecmp(u.name.c_str(), name.c_str()) == 0) throw NotImplemented(prefix() + u.reason);
  }
  throw InvalidInput(prefix() + "no column named '" + name + "'");
}

std::string ParquetFile::chunk_prefix(size_t row_group, const std::string& column) const {
  return prefix() + "column '" + column + "' of row group " + std::to_string(row_group) + ": ";
}

const ColumnMetaData& ParquetFile::leaf_metadata(size_t row_group, const ColumnDescriptor& d,
                                                 const std::string& where) const {
  const parquet::ColumnChunk& chunk = metadata_.row_groups.at(row_group).columns.at(d.leaf_index);
  if (chunk.encrypted) throw NotImplemented(where + "encryption is not supported");
  if (chunk.file_path) throw NotImplemented(where + "column chunks in other files ('" + *chunk.file_path + "') are not supported");
  if (!chunk.meta_data) throw InvalidInput(where + "no column metadata");
  if (chunk.meta_data->type != d.physical_type) {
    throw InvalidInput(where + "chunk type " + parquet::physical_type_name(chunk.meta_data->type) +
                       " differs from the schema's " + parquet::physical_type_name(d.physical_type));
  }
  return *chunk.meta_data;
}

ColumnStatistics ParquetFile::statistics(size_t row_group, size_t column) const {
  ColumnStatistics stats;
  stats.num_rows = row_group_num_rows(row_group);
  const ColumnDescriptor& d = descriptor(column);
  if (d.nested) return stats;
  const parquet::ColumnChunk& chunk = metadata_.row_groups.at(row_group).columns.at(d.leaf_index);
  if (!chunk.meta_data || chunk.meta_data->type != d.physical_type || !chunk.meta_data->statistics) return stats;
  const parquet::Statistics& s = *chunk.meta_data->statistics;
  if (s.null_count && *s.null_count >= 0 && *s.null_count <= stats.num_rows) stats.null_count = s.null_count;
  const std::optional<std::string>* min = nullptr;
  const std::optional<std::string>* max = nullptr;
  if (s.min_value || s.max_value) {
    min = &s.min_value;
    max = &s.max_value;
  } else if (d.sort_order == parquet::SortOrder::kSigned &&
             (d.physical_type == PhysicalType::kInt32 || d.physical_type == PhysicalType::kInt64 ||
              d.physical_type == PhysicalType::kFloat || d.physical_type == PhysicalType::kDouble ||
              d.physical_type == PhysicalType::kBoolean)) {
    min = &s.min;  // the deprecated fields, ordered signed: right for these types only
    max = &s.max;
  }
  if (min && max && *min && *max) {
    auto lo = parquet::decode_statistic(d, **min);
    auto hi = parquet::decode_statistic(d, **max);
    if (lo && hi) {
      auto order = compare_values(*lo, *hi);
      if (!order || *order <= 0) {  // bounds in the wrong order are corrupt: ignore them
        stats.min = std::move(lo);
        stats.max = std::move(hi);
      }
    }
  }
  return stats;
}

bool ParquetFile::read_index_bytes(int64_t offset, int64_t length, std::vector<uint8_t>& out) const {
  if (offset < static_cast<int64_t>(kMagicSize) || length <= 0 || static_cast<uint64_t>(offset) > footer_start_ ||
      static_cast<uint64_t>(length) > footer_start_ - static_cast<uint64_t>(offset)) {
    return false;
  }
  out.resize(static_cast<size_t>(length));
  file_->read(static_cast<uint64_t>(offset), out.size(), out.data());
  return true;
}

std::vector<PageStatistics> ParquetFile::page_statistics(size_t row_group, size_t column) const {
  return *shared_page_statistics(row_group, column);
}

std::shared_ptr<const std::vector<PageStatistics>> ParquetFile::shared_page_statistics(size_t row_group,
                                                                                       size_t column) const {
  const auto key = std::make_pair(row_group, column);
  {
    std::lock_guard lock(page_stats_mutex_);
    auto it = page_stats_.find(key);
    if (it != page_stats_.end()) return it->second;
  }
  // Read outside the lock; two threads reading the same chunk at once both store the same statistics.
  auto stats = std::make_shared<const std::vector<PageStatistics>>(read_page_statistics(row_group, column));
  std::lock_guard lock(page_stats_mutex_);
  return page_stats_.emplace(key, std::move(stats)).first->second;
}

std::vector<PageStatistics> ParquetFile::read_page_statistics(size_t row_group, size_t column) const {
  const ColumnDescriptor& d = descriptor(column);
  if (d.nested) return {};
  const parquet::ColumnChunk& chunk = metadata_.row_groups.at(row_group).columns.at(d.leaf_index);
  if (!chunk.column_index_offset || !chunk.column_index_length || !chunk.offset_index_offset ||
      !chunk.offset_index_length) {
    return {};
  }
  std::vector<uint8_t> bytes;
  parquet::ColumnIndex index;
  parquet::OffsetIndex offsets;
  try {
    if (!read_index_bytes(*chunk.column_index_offset, *chunk.column_index_length, bytes)) return {};
    index = parquet::decode_column_index(bytes.data(), bytes.size());
    if (!read_index_bytes(*chunk.offset_index_offset, *chunk.offset_index_length, bytes)) return {};
    offsets = parquet::decode_offset_index(bytes.data(), bytes.size());
  } catch (const InvalidInput&) {
    return {};  // an unusable index only costs pruning
  }
  size_t pages = index.null_pages.size();
  int64_t rows = row_group_num_rows(row_group);
  if (offsets.page_locations.size() != pages || pages == 0 || offsets.page_locations[0].first_row_index != 0) return {};
  std::vector<PageStatistics> out(pages);
  for (size_t i = 0; i < pages; ++i) {
    int64_t first = offsets.page_locations[i].first_row_index;
    int64_t end = i + 1 < pages ? offsets.page_locations[i + 1].first_row_index : rows;
    if (end < first || end > rows) return {};
    PageStatistics& p = out[i];
    p.first_row = first;
    p.stats.num_rows = end - first;
    if (!index.null_counts.empty() && index.null_counts[i] >= 0 && index.null_counts[i] <= p.stats.num_rows) {
      p.stats.null_count = index.null_counts[i];
    }
    if (index.null_pages[i]) {
      p.stats.null_count = p.stats.num_rows;
      continue;
    }
    auto lo = parquet::decode_statistic(d, index.min_values[i]);
    auto hi = parquet::decode_statistic(d, index.max_values[i]);
    if (lo && hi) {
      auto order = compare_values(*lo, *hi);
      if (!order || *order <= 0) {
        p.stats.min = std::move(lo);
        p.stats.max = std::move(hi);
      }
    }
  }
  return out;
}

namespace {

/// Comparisons against one bound.
bool one_sided(PredicateOp op) {
  return op == PredicateOp::kLess || op == PredicateOp::kLessEqual || op == PredicateOp::kGreater ||
         op == PredicateOp::kGreaterEqual;
}

/// Types whose statistics are the exact minimum and maximum (no truncated strings, no NaN rules).
bool exact_statistics(TypeId type) {
  switch (type) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kDecimal: return true;
    default: return false;
  }
}

}  // namespace

std::vector<size_t> ParquetFile::prune_row_groups(const std::vector<ColumnPredicate>& predicates) const {
  for (const ColumnPredicate& p : predicates) {
    if (p.column >= schema_->size()) {
      throw InvalidInput(prefix() + "predicate on column " + std::to_string(p.column) + " beyond the schema's " +
                         std::to_string(schema_->size()));
    }
  }
  std::vector<size_t> kept;
  std::vector<uint8_t> exact_bounds(predicates.size());
  for (size_t g = 0; g < num_row_groups(); ++g) {
    bool may = row_group_num_rows(g) > 0;
    for (size_t p = 0; may && p < predicates.size(); ++p) {
      const ColumnStatistics stats = statistics(g, predicates[p].column);
      may = statistics_may_match(stats, predicates[p]);
      exact_bounds[p] = stats.min && stats.max && exact_statistics(stats.min->type().id()) ? 1 : 0;
    }
    // The page index can still rule the group out: when no page of some predicate's column may match.
    for (size_t p = 0; may && p < predicates.size(); ++p) {
      // With exact row group bounds a one-sided comparison that the group passes is passed by the page holding the
      // group's minimum (or maximum) too: only two-sided predicates and NULL tests can prune further. Skipping the
      // others saves comparing every page of every group (tens of thousands of pages in a big table).
      if (exact_bounds[p] != 0 && one_sided(predicates[p].op)) continue;
      std::shared_ptr<const std::vector<PageStatistics>> pages = shared_page_statistics(g, predicates[p].column);
      if (pages->empty()) continue;
      bool any = false;
      for (const PageStatistics& page : *pages) any = any || statistics_may_match(page.stats, predicates[p]);
      may = any;
    }
    if (may) kept.push_back(g);
  }
  return kept;
}

ParquetFile::ChunkRange ParquetFile::chunk_range(size_t row_group, size_t column) const {
  if (column >= schema_->size()) {
    throw InvalidInput(prefix() + "column " + std::to_string(column) + " beyond the schema's " +
                       std::to_string(schema_->size()));
  }
  if (row_group >= num_row_groups()) {
    throw InvalidInput(prefix() + "row group " + std::to_string(row_group) + " beyond the file's " +
                       std::to_string(num_row_groups()));
  }
  const ColumnDescriptor& d = descriptor(column);
  if (d.nested) {
    throw NotImplemented(prefix() + "column '" + d.name + "' is " + d.type.to_string() +
                         ": nested columns are read by the CPU reader only");
  }
  return leaf_range(row_group, d, chunk_prefix(row_group, d.name));
}

ParquetFile::ChunkRange ParquetFile::leaf_range(size_t row_group, const ColumnDescriptor& d,
                                                const std::string& where) const {
  const ColumnMetaData& meta = leaf_metadata(row_group, d, where);
  int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 && *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  int64_t length = meta.total_compressed_size;
  if (chunk_sizes_undercounted(metadata_.created_by) && start >= 0 && length >= 0 &&
      static_cast<uint64_t>(start) + static_cast<uint64_t>(length) < footer_start_) {
    length += std::min<int64_t>(kOldWriterChunkSlack, static_cast<int64_t>(footer_start_) - start - length);
  }
  if (start < static_cast<int64_t>(kMagicSize) || length < 0 || static_cast<uint64_t>(start) > footer_start_ ||
      static_cast<uint64_t>(length) > footer_start_ - static_cast<uint64_t>(start)) {
    throw InvalidInput(where + "chunk of " + std::to_string(length) + " bytes at offset " + std::to_string(start) +
                       " lies outside the data of the file");
  }
  return ChunkRange{static_cast<uint64_t>(start), static_cast<uint64_t>(length), &meta};
}

void ParquetFile::read_bytes(uint64_t offset, size_t length, uint8_t* out) const { file_->read(offset, length, out); }

gpu::FileMapping* ParquetFile::dma_mapping() const { return file_->dma_mapping(); }

std::unique_ptr<uint8_t[]> ParquetFile::read_chunk_bytes(const ChunkRange& range, const std::string& where) const {
  std::unique_ptr<uint8_t[]> bytes;
  try {
    bytes.reset(new uint8_t[range.length]);
  } catch (const std::bad_alloc&) {
    throw ResourceExhausted(where + "cannot allocate " + std::to_string(range.length) + " bytes");
  }
  file_->read(range.offset, static_cast<size_t>(range.length), bytes.get());
  return bytes;
}

ColumnPtr ParquetFile::read_column_chunk(size_t row_group, size_t column, const ParquetReadOptions& options) const {
  if (column < schema_->size() && descriptor(column).nested) return read_nested_column(row_group, column, options);
  const ChunkRange range = chunk_range(row_group, column);
  const ColumnDescriptor& d = descriptor(column);
  const std::unique_ptr<uint8_t[]> bytes = read_chunk_bytes(range, chunk_prefix(row_group, d.name));
  parquet::ChunkDecodeOptions decode{options.verify_checksums, options.keep_dictionaries, options.max_page_bytes};
  parquet::ChunkLocation location{&path_, row_group};
  gpu::MemoryResource& mr = options.memory ? *options.memory : gpu::host_memory_resource();
  return parquet::decode_column_chunk(parquet::ByteSpan{bytes.get(), static_cast<size_t>(range.length)}, d,
                                      *range.meta, static_cast<size_t>(row_group_num_rows(row_group)), decode,
                                      location, mr);
}

SchemaPtr ParquetFile::project_schema(const std::vector<size_t>& columns) const {
  std::vector<Field> fields;
  for (size_t c : columns) {
    if (c >= schema_->size()) {
      throw InvalidInput(prefix() + "column " + std::to_string(c) + " beyond the schema's " +
                         std::to_string(schema_->size()));
    }
    fields.push_back(schema_->field(c));
  }
  return std::make_shared<const Schema>(std::move(fields));
}

Batch ParquetFile::read_row_group(size_t row_group, const std::vector<size_t>& columns,
                                  const ParquetReadOptions& options) const {
  SchemaPtr schema = project_schema(columns);
  std::vector<ParquetDecodeTask> tasks;
  for (size_t c : columns) tasks.push_back(ParquetDecodeTask{this, row_group, c});
  std::vector<ColumnPtr> decoded = run_decode_tasks(tasks, options);
  return Batch(schema, std::move(decoded), static_cast<size_t>(row_group_num_rows(row_group)), gpu::MemoryKind::kHost);
}

}  // namespace kestrel::io
