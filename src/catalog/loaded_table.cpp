#include "catalog/loaded_table.hpp"

#include <algorithm>
#include <filesystem>

#include "common/check.hpp"
#include "catalog/kcol_table.hpp"
#include "catalog/parquet_table.hpp"
#include "io/csv/csv_reader.hpp"

namespace kestrel::catalog {

namespace fs = std::filesystem;

LoadedTable::LoadedTable(std::string name, SchemaPtr schema, TableKind kind, std::string description, Loader load)
    : Table(std::move(name), std::move(schema)), kind_(kind), description_(std::move(description)),
      load_(std::move(load)) {}

const std::vector<Batch>& LoadedTable::batches() const {
  std::call_once(loaded_, [this] { batches_ = load_(); });
  return batches_;
}

std::vector<size_t> LoadedTable::plan_scan(const ScanSpec&) const {
  std::vector<size_t> morsels(batches().size());
  for (size_t i = 0; i < morsels.size(); ++i) morsels[i] = i;
  return morsels;
}

Batch LoadedTable::read_morsel(size_t morsel, const ScanSpec& spec) const {
  const Batch& batch = batches().at(morsel);
  std::vector<ColumnPtr> columns;
  for (size_t c : spec.columns) columns.push_back(batch.column(c));
  return Batch(projected_schema(spec.columns), std::move(columns), batch.num_rows(), batch.residency());
}

TableStatistics LoadedTable::statistics() const {
  TableStatistics stats;
  size_t rows = 0;
  for (const auto& b : batches()) rows += b.num_rows();
  stats.row_count = rows;
  return stats;
}

namespace {

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  return ext;
}

/// The extension of the data files of `path` (the first regular file for a folder).
std::string data_extension(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return lower_extension(path);
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(path, ec)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files.empty() ? "" : lower_extension(files.front());
}

TablePtr csv_table(const std::string& name, const std::string& path, const CsvOptions& options) {
  auto reader = CsvReader::open(path, options);
  SchemaPtr schema = reader->schema();
  size_t files = reader->files().size();
  // The load runs once, at the first scan; if it fails (a bad row, memory that other queries held), the next scan
  // tries again from the start with a reader of its own, never from where the failed one stopped.
  auto first = std::make_shared<std::unique_ptr<CsvReader>>(std::move(reader));
  auto load = [first, path, options, schema]() {
    std::unique_ptr<CsvReader> r = std::move(*first);
    if (!r) {
      r = CsvReader::open(path, options);
      const auto& fields = r->schema()->fields();
      const auto& expected = schema->fields();
      bool same = fields.size() == expected.size();
      for (size_t i = 0; same && i < fields.size(); ++i) {
        same = fields[i].name == expected[i].name && fields[i].type == expected[i].type;
      }
      if (!same) throw InvalidInput("csv table '" + path + "' changed its columns since it was attached");
    }
    std::vector<Batch> batches;
    while (auto batch = r->next_batch()) batches.push_back(std::move(*batch));
    return batches;
  };
  return std::make_shared<LoadedTable>(name, schema, TableKind::kCsv,
                                       "csv: " + std::to_string(files) + (files == 1 ? " file" : " files"), load);
}

}  // namespace

TablePtr open_file_table(const std::string& name, const std::string& path) {
  std::string ext = data_extension(path);
  CsvOptions options;
  if (ext == ".csv" || ext == ".txt") return csv_table(name, path, options);
  if (ext == ".tsv") {
    options.delimiter = '\t';
    return csv_table(name, path, options);
  }
  if (ext == ".tbl") {
    options.delimiter = '|';
    options.header = false;
    return csv_table(name, path, options);
  }
  if (ext == ".parquet") return std::make_shared<ParquetTable>(name, io::ParquetDataset::open(path));
  if (ext == ".kcol") return std::make_shared<KcolTable>(name, io::KcolDataset::open(path));
  return nullptr;
}

TablePtr open_table_function(const std::string& function, const std::string& path,
                             const std::vector<std::pair<std::string, std::string>>& options) {
  if (function == "read_csv" || function == "read_csv_auto") {
    CsvOptions csv;
    for (const auto& [k, v] : options) csv.set(k, v);
    return csv_table(fs::path(path).stem().string(), path, csv);
  }
  if (function == "read_parquet") {
    if (!options.empty()) {
      throw BinderError("read_parquet has no option '" + options.front().first + "'", std::nullopt, "42883");
    }
    std::string name = fs::path(path).stem().string();
    return std::make_shared<ParquetTable>(name.empty() ? "read_parquet" : name, io::ParquetDataset::open(path));
  }
  if (function == "read_kcol") {
    if (!options.empty()) {
      throw BinderError("read_kcol has no option '" + options.front().first + "'", std::nullopt, "42883");
    }
    std::string name = fs::path(path).stem().string();
    return std::make_shared<KcolTable>(name.empty() ? "read_kcol" : name, io::KcolDataset::open(path));
  }
  throw BinderError("table function " + function + " does not exist", std::nullopt, "42883");
}

}  // namespace kestrel::catalog
