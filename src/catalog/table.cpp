#include "catalog/table.hpp"

#include "common/check.hpp"

namespace kestrel::catalog {

SchemaPtr Table::projected_schema(const std::vector<size_t>& columns) const {
  std::vector<Field> fields;
  fields.reserve(columns.size());
  for (size_t c : columns) {
    KESTREL_CHECK_LT(c, schema_->size());
    fields.push_back(schema_->field(c));
  }
  return std::make_shared<Schema>(std::move(fields));
}

std::vector<size_t> MemoryTable::plan_scan(const ScanSpec&) const {
  std::lock_guard lock(mutex_);
  std::vector<size_t> morsels(batches_.size());
  for (size_t i = 0; i < morsels.size(); ++i) morsels[i] = i;
  return morsels;
}

Batch MemoryTable::read_morsel(size_t morsel, const ScanSpec& spec) const {
  std::lock_guard lock(mutex_);
  KESTREL_CHECK_LT(morsel, batches_.size());
  const Batch& batch = batches_[morsel];
  std::vector<ColumnPtr> columns;
  columns.reserve(spec.columns.size());
  for (size_t c : spec.columns) columns.push_back(batch.column(c));
  return Batch(projected_schema(spec.columns), std::move(columns), batch.num_rows(), batch.residency());
}

TableStatistics MemoryTable::statistics() const {
  TableStatistics stats;
  stats.row_count = row_count();
  return stats;
}

void MemoryTable::check_types(const Batch& batch) const {
  KESTREL_CHECK_EQ(batch.num_columns(), schema()->size());
  for (size_t c = 0; c < batch.num_columns(); ++c) {
    KESTREL_CHECK_MSG(batch.schema()->field(c).type == schema()->field(c).type,
                      "rows of " << batch.schema()->field(c).type.to_string() << " into "
                                 << schema()->field(c).type.to_string());
  }
}

size_t MemoryTable::append(const Batch& batch) {
  check_types(batch);
  if (batch.num_rows() == 0) return 0;
  std::lock_guard lock(mutex_);
  batches_.push_back(Batch(schema(), batch.columns(), batch.num_rows(), batch.residency()));
  ++version_;
  return batch.num_rows();
}

uint64_t MemoryTable::version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

bool MemoryTable::replace(std::vector<Batch> batches, uint64_t expected_version) {
  std::vector<Batch> rows;
  for (const auto& b : batches) {
    check_types(b);
    if (b.num_rows() > 0) rows.push_back(Batch(schema(), b.columns(), b.num_rows(), b.residency()));
  }
  std::lock_guard lock(mutex_);
  if (version_ != expected_version) return false;
  batches_ = std::move(rows);
  ++version_;
  return true;
}

size_t MemoryTable::row_count() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& b : batches_) n += b.num_rows();
  return n;
}

}  // namespace kestrel::catalog
