#pragma once
/// A file-backed table whose rows are loaded into host memory on first scan (CSV files, which have no row groups or
/// statistics to scan piecewise). The loaded columns are the table's input cache: they are input data, kept between
/// queries, never query results.

#include <functional>
#include <mutex>

#include "catalog/table.hpp"

namespace kestrel::catalog {

class LoadedTable final : public Table {
 public:
  /// `load` reads every batch of the table; it runs once, at the first scan.
  using Loader = std::function<std::vector<Batch>()>;
  LoadedTable(std::string name, SchemaPtr schema, TableKind kind, std::string description, Loader load);

  TableKind kind() const override { return kind_; }
  std::string source_description() const override { return description_; }
  std::vector<size_t> plan_scan(const ScanSpec& spec) const override;
  Batch read_morsel(size_t morsel, const ScanSpec& spec) const override;
  TableStatistics statistics() const override;

 private:
  const std::vector<Batch>& batches() const;

  TableKind kind_;
  std::string description_;
  Loader load_;
  mutable std::once_flag loaded_;
  mutable std::vector<Batch> batches_;
};

/// Opens the data at `path` (a file, or a folder of files of one format) as a table named `name`, choosing the
/// reader by extension: .csv/.tsv/.txt (header, sniffed types), .tbl (TPC-H: '|', no header), .parquet. Returns
/// nullptr for anything else (the catalog skips it when attaching a folder).
TablePtr open_file_table(const std::string& name, const std::string& path);

/// A table for a table function call in FROM: read_csv(path, option => value ...) or read_parquet(path).
/// `options` are the named arguments as text. Throws BinderError/InvalidInput with the reason.
TablePtr open_table_function(const std::string& function, const std::string& path,
                             const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace kestrel::catalog
