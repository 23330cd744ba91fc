#pragma once
/// One Parquet file: its footer, its Kestrel schema, row-group statistics and pruning, and decoding of column
/// chunks into host columns.
///
///   auto file = ParquetFile::open("lineitem.parquet");
///   const Schema& schema = file->schema();                      // readable (flat) columns
///   size_t tax = file->column_index("l_tax");
///   auto groups = file->prune_row_groups({ColumnPredicate::compare(tax, PredicateOp::kGreater, Value::...)});
///   Batch batch = file->read_row_group(groups[0], {tax});       // host batch

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/parquet/column_predicate.hpp"
#include "io/parquet/parquet_format.hpp"
#include "io/parquet/parquet_schema.hpp"
#include "vector/batch.hpp"

namespace kestrel::gpu {
class FileMapping;
}

namespace kestrel::io {

namespace parquet {
class RandomAccessFile;
}

/// Knobs of Parquet reading.
struct ParquetReadOptions {
  /// Check page CRCs where the writer stored them; a mismatch is an InvalidInput error.
  bool verify_checksums = false;
  /// Return dictionary-encoded string columns for chunks whose pages all use the dictionary.
  bool keep_dictionaries = true;
  /// Decoding threads for multi-chunk reads; 0 means one per core.
  size_t num_threads = 0;
  /// Pages claiming more uncompressed bytes are refused as corrupt; the default takes every size a page header can
  /// hold (the fuzzer lowers it to stay within its memory limit).
  size_t max_page_bytes = 0x7fffffff;
  /// Where column buffers are allocated (host memory); null means the process-wide host resource.
  gpu::MemoryResource* memory = nullptr;
};

/// Statistics of one data page (from the page index) and the first row it holds within its row group.
struct PageStatistics {
  int64_t first_row = 0;
  ColumnStatistics stats;
};

/// A column of the file that cannot be read, and why (selecting it throws NotImplemented with the reason).
struct UnreadableColumn {
  std::string name;
  std::string reason;
  bool nested = false;
};

/// An open Parquet file. Immutable after open and safe to use from several threads.
class ParquetFile {
 public:
  /// Opens `path` and decodes its footer. Throws IoError when it cannot be read, InvalidInput (naming the file)
  /// when it is not valid Parquet, NotImplemented for encrypted files.
  static std::shared_ptr<const ParquetFile> open(const std::string& path);
  /// The same over bytes in memory, reported as file `name` in messages (fuzzing, tests, fetched files).
  static std::shared_ptr<const ParquetFile> open_buffer(const std::string& name,
                                                        std::shared_ptr<const std::vector<uint8_t>> bytes);

  const std::string& path() const { return path_; }
  uint64_t file_size() const;

  /// The readable columns, in file order (nested ones as ARRAY, MAP and ROW). Every `column` argument below indexes
  /// this schema.
  const SchemaPtr& schema() const { return schema_; }
  /// Columns present in the file that cannot be read (of a type Kestrel lacks, or nested in a way it cannot map).
  const std::vector<UnreadableColumn>& unreadable_columns() const { return unreadable_; }
  /// All top-level columns in file order, readable or not (for SELECT * over a file with nested columns).
  const std::vector<parquet::ColumnDescriptor>& all_columns() const { return mapping_.columns; }
  /// The schema index of `name` (case-insensitive). Throws NotImplemented when the column exists but cannot be
  /// read, InvalidInput when there is no such column.
  size_t column_index(const std::string& name) const;
  /// Descriptor (physical type, conversion, leaf index; the tree of a nested column) of a readable column.
  const parquet::ColumnDescriptor& descriptor(size_t column) const { return mapping_.columns[readable_[column]]; }

  int64_t num_rows() const { return metadata_.num_rows; }
  size_t num_row_groups() const { return metadata_.row_groups.size(); }
  int64_t row_group_num_rows(size_t row_group) const { return metadata_.row_groups.at(row_group).num_rows; }
  /// Min/max/null count of `column` in `row_group` from the footer (fields absent when the writer did not store
  /// them or they are unusable, e.g. NaN bounds; always absent for nested columns, whose leaves' statistics count
  /// values, not rows).
  ColumnStatistics statistics(size_t row_group, size_t column) const;
  /// Per-page statistics of `column` in `row_group` from the page index (ColumnIndex + OffsetIndex), in page order;
  /// empty when the file has no page index for the chunk or it is unusable (a corrupt index is ignored). Read from
  /// the file once per chunk and kept (every query's scan planning prunes with them).
  std::vector<PageStatistics> page_statistics(size_t row_group, size_t column) const;
  /// Row groups that may hold rows satisfying every predicate (their conjunction), in order: decided by the row
  /// group's statistics, then by its pages' statistics where the page index is present.
  std::vector<size_t> prune_row_groups(const std::vector<ColumnPredicate>& predicates) const;

  /// Where the bytes of one column chunk lie in the file (from its first page to its end), checked against the file
  /// as read_column_chunk checks them (same errors). Flat columns only: a nested column has a chunk per leaf, and
  /// asking for its range is NotImplemented (the GPU scan reads flat columns only).
  struct ChunkRange {
    uint64_t offset = 0;
    uint64_t length = 0;
    const parquet::ColumnMetaData* meta = nullptr;
  };
  ChunkRange chunk_range(size_t row_group, size_t column) const;
  /// Reads `length` bytes at `offset` of the file into `out` (IoError on failure); thread-safe.
  void read_bytes(uint64_t offset, size_t length, uint8_t* out) const;
  /// The file mapped for DMA to the GPU (gpu/file_mapping.hpp), or null (a file in memory, mappings off).
  gpu::FileMapping* dma_mapping() const;

  /// Decodes one column chunk into a host column (one decoding task); a nested column's every leaf chunk.
  ColumnPtr read_column_chunk(size_t row_group, size_t column, const ParquetReadOptions& options = {}) const;
  /// Decodes the selected columns of one row group into a host batch, chunks in parallel when
  /// options.num_threads allows.
  Batch read_row_group(size_t row_group, const std::vector<size_t>& columns,
                       const ParquetReadOptions& options = {}) const;
  /// The schema of a selection of columns.
  SchemaPtr project_schema(const std::vector<size_t>& columns) const;

  /// The decoded footer.
  const parquet::FileMetaData& metadata() const { return metadata_; }

 private:
  ParquetFile() = default;
  static std::shared_ptr<const ParquetFile> open_source(const std::string& path,
                                                        std::shared_ptr<parquet::RandomAccessFile> source);
  /// "Parquet file 'path': " (every message about this file starts so).
  std::string prefix() const;
  /// "Parquet file 'path': column 'c' of row group g: ".
  std::string chunk_prefix(size_t row_group, const std::string& column) const;
  /// The checked metadata and byte range of the chunk of `leaf` (a flat column, or a leaf of a nested column) in
  /// `row_group`; messages start with `where`.
  const parquet::ColumnMetaData& leaf_metadata(size_t row_group, const parquet::ColumnDescriptor& leaf,
                                               const std::string& where) const;
  ChunkRange leaf_range(size_t row_group, const parquet::ColumnDescriptor& leaf, const std::string& where) const;
  /// The bytes of a chunk, read from the file.
  std::unique_ptr<uint8_t[]> read_chunk_bytes(const ChunkRange& range, const std::string& where) const;
  /// read_column_chunk of a nested column: its leaves decoded, then assembled (parquet_file_nested.cpp).
  ColumnPtr read_nested_column(size_t row_group, size_t column, const ParquetReadOptions& options) const;
  /// Reads `length` bytes at `offset` when they lie in the data part of the file (before the footer).
  bool read_index_bytes(int64_t offset, int64_t length, std::vector<uint8_t>& out) const;
  /// page_statistics, read from the file on the first call for the chunk, then from page_stats_.
  std::shared_ptr<const std::vector<PageStatistics>> shared_page_statistics(size_t row_group, size_t column) const;
  std::vector<PageStatistics> read_page_statistics(size_t row_group, size_t column) const;

  std::string path_;
  std::shared_ptr<parquet::RandomAccessFile> file_;
  uint64_t footer_start_ = 0;
  parquet::FileMetaData metadata_;
  parquet::SchemaMapping mapping_;
  std::vector<size_t> readable_;  ///< schema index -> index in mapping_.columns
  SchemaPtr schema_;
  std::vector<UnreadableColumn> unreadable_;
  mutable std::mutex page_stats_mutex_;
  mutable std::map<std::pair<size_t, size_t>, std::shared_ptr<const std::vector<PageStatistics>>> page_stats_;
};

using ParquetFilePtr = std::shared_ptr<const ParquetFile>;

}  // namespace kestrel::io
