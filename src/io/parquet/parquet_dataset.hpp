#pragma once
/// Several Parquet files read as one table: a folder (Hive style, searched recursively), one file, or a glob. All
/// files must share the columns of the first (same names and Kestrel types; extra columns are ignored).
///
///   auto data = ParquetDataset::open("data/lineitem/");
///   size_t price = data->column_index("l_extendedprice");
///   ParquetScan scan(data, {price}, {ColumnPredicate::compare(price, PredicateOp::kGreater, Value::...)});
///   while (auto batch = scan.next()) { ... }   // one host batch per row group, in file order

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/parquet/parallel_decode.hpp"
#include "io/parquet/parquet_file.hpp"

namespace kestrel::io {

/// A row group of a dataset: file index and row group index within it.
struct RowGroupRef {
  size_t file = 0;
  size_t row_group = 0;
};

/// An immutable set of Parquet files with one schema.
class ParquetDataset {
 public:
  /// Opens every file of `location`: a file, a folder (every `*.parquet` below it in name order, skipping names
  /// that start with '.' or '_'), or a glob pattern (`dir/*.parquet`, the same names skipped). Throws InvalidInput when nothing matches or
  /// the files' schemas disagree, and the errors of ParquetFile::open.
  static std::shared_ptr<const ParquetDataset> open(const std::string& location);

  const std::string& location() const { return location_; }
  /// The readable columns (those of the first file); `column` arguments index this schema.
  const SchemaPtr& schema() const { return schema_; }
  /// Columns of the first file that cannot be read.
  const std::vector<UnreadableColumn>& unreadable_columns() const { return files_.front()->unreadable_columns(); }
  /// Schema index of `name`; NotImplemented for an unreadable column, InvalidInput for an unknown one.
  size_t column_index(const std::string& name) const { return files_.front()->column_index(name); }

  const std::vector<ParquetFilePtr>& files() const { return files_; }
  int64_t num_rows() const;
  /// The index in file `file`'s schema of dataset column `column`.
  size_t file_column(size_t file, size_t column) const { return column_maps_[file][column]; }

  /// Row groups that may satisfy all `predicates` (by their statistics), in dataset order.
  std::vector<RowGroupRef> row_groups(const std::vector<ColumnPredicate>& predicates = {}) const;
  /// Per-row-group statistics of a dataset column.
  ColumnStatistics statistics(const RowGroupRef& ref, size_t column) const;
  /// Decoding tasks for the selected columns of one row group.
  std::vector<ParquetDecodeTask> decode_tasks(const RowGroupRef& ref, const std::vector<size_t>& columns) const;
  /// Decodes the selected columns of one row group into a host batch with the dataset's column names and types.
  Batch read(const RowGroupRef& ref, const std::vector<size_t>& columns, const ParquetReadOptions& options = {}) const;
  SchemaPtr project_schema(const std::vector<size_t>& columns) const;

 private:
  ParquetDataset() = default;

  std::string location_;
  std::vector<ParquetFilePtr> files_;
  std::vector<std::vector<size_t>> column_maps_;  ///< per file: dataset column -> file column
  SchemaPtr schema_;
};

using ParquetDatasetPtr = std::shared_ptr<const ParquetDataset>;

/// A scan of selected columns of a dataset, skipping row groups the predicates rule out. Row groups are decoded
/// `num_threads` at a time (every column chunk of them in parallel) and returned in dataset order.
class ParquetScan {
 public:
  ParquetScan(ParquetDatasetPtr dataset, std::vector<size_t> columns, std::vector<ColumnPredicate> predicates = {},
              ParquetReadOptions options = {});

  const SchemaPtr& schema() const { return schema_; }
  /// The row groups this scan reads (after pruning).
  const std::vector<RowGroupRef>& row_groups() const { return row_groups_; }
  /// The next row group's batch, or nullopt when the scan is done.
  std::optional<Batch> next();

 private:
  void decode_window();

  ParquetDatasetPtr dataset_;
  std::vector<size_t> columns_;
  ParquetReadOptions options_;
  SchemaPtr schema_;
  std::vector<RowGroupRef> row_groups_;
  size_t next_row_group_ = 0;
  std::deque<Batch> ready_;
};

}  // namespace kestrel::io
