#pragma once
/// A table over a Parquet dataset (a file, a folder of files or a glob): one morsel per row group that survives
/// min/max pruning; statistics from the files' footers.

#include "catalog/table.hpp"
#include "io/parquet/parquet_dataset.hpp"

namespace kestrel::catalog {

class ParquetTable final : public Table {
 public:
  ParquetTable(std::string name, io::ParquetDatasetPtr dataset);

  TableKind kind() const override { return TableKind::kParquet; }
  std::string source_description() const override;
  std::vector<size_t> plan_scan(const ScanSpec& spec) const override;
  Batch read_morsel(size_t morsel, const ScanSpec& spec) const override;
  TableStatistics statistics() const override;
  std::vector<std::pair<std::string, std::string>> unreadable_columns() const override;

  const io::ParquetDatasetPtr& dataset() const { return dataset_; }
  /// Bytes a scan of `columns` holds per row while it decodes a batch: the chunks as stored and decompressed (from
  /// the footers), plus the decoded values.
  double scan_bytes_per_row(const std::vector<size_t>& columns) const override;
  double read_ahead_bytes_per_row(const std::vector<size_t>& columns) const override;
  /// The row group of each morsel (morsels index this list).
  const std::vector<io::RowGroupRef>& row_group_refs() const { return row_groups_; }

 private:
  io::ParquetDatasetPtr dataset_;
  std::vector<io::RowGroupRef> row_groups_;  ///< every row group, in dataset order; morsels index it
  /// Row groups decoded one per driver when there are enough of them; otherwise a row group's columns decode in
  /// parallel.
  size_t decode_threads_ = 1;
  TableStatistics statistics_;
};

}  // namespace kestrel::catalog
