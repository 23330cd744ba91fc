#include "catalog/kcol_table.hpp"

namespace kestrel::catalog {

KcolTable::KcolTable(std::string name, io::KcolDatasetPtr dataset)
    : Table(std::move(name), dataset->schema()), dataset_(std::move(dataset)), row_groups_(dataset_->row_groups()) {
  statistics_.row_count = dataset_->num_rows();
}

std::string KcolTable::source_description() const {
  const size_t files = dataset_->files().size();
  return "kcol: " + std::to_string(files) + (files == 1 ? " file, " : " files, ") + std::to_string(row_groups_.size()) +
         " row groups";
}

std::vector<size_t> KcolTable::plan_scan(const ScanSpec&) const {
  // Per-chunk min/max pruning is not used yet: every row group is read.
  std::vector<size_t> morsels(row_groups_.size());
  for (size_t i = 0; i < morsels.size(); ++i) morsels[i] = i;
  return morsels;
}

Batch KcolTable::read_morsel(size_t morsel, const ScanSpec& spec) const {
  Batch batch = dataset_->read(row_groups_.at(morsel), spec.columns);
  return Batch(projected_schema(spec.columns), batch.columns(), batch.num_rows(), batch.residency());
}

}  // namespace kestrel::catalog
