#pragma once
/// A table over kcol files (docs/kcol.md): a file, a folder of files or a glob; one morsel per row group.

#include "catalog/table.hpp"
#include "io/kcol/kcol_file.hpp"

namespace kestrel::catalog {

class KcolTable final : public Table {
 public:
  KcolTable(std::string name, io::KcolDatasetPtr dataset);

  TableKind kind() const override { return TableKind::kKcol; }
  std::string source_description() const override;
  std::vector<size_t> plan_scan(const ScanSpec& spec) const override;
  Batch read_morsel(size_t morsel, const ScanSpec& spec) const override;
  TableStatistics statistics() const override { return statistics_; }
  double scan_bytes_per_row(const std::vector<size_t>& columns) const override;
  double read_ahead_bytes_per_row(const std::vector<size_t>& columns) const override;
  const io::KcolDatasetPtr& dataset() const { return dataset_; }
  /// The row group of each morsel.
  const std::vector<io::KcolRowGroup>& row_group_refs() const { return row_groups_; }

 private:
  io::KcolDatasetPtr dataset_;
  std::vector<io::KcolRowGroup> row_groups_;
  TableStatistics statistics_;
};

}  // namespace kestrel::catalog
