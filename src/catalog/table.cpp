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

size_t MemoryTable::append(const Batch& batch) {
  KESTREL_CHECK_EQ(batch.num_columns(), schema()->size());
  for (size_t c = 0; c < batch.num_columns(); ++c) {
    KESTREL_CHECK_MSG(batch.schema()->field(c).type == schema()->field(c).type,
                      "append of " << batch.schema()->field(c).type.to_string() << " into "
                                   << schema()->field(c).type.to_string());
  }
  if (batch.num_rows() == 0) return 0;
  std::lock_guard lock(mutex_);
  batches_.push_back(Batch(schema(), batch.columns(), batch.num_rows(), batch.residency()));
  return batch.num_rows();
}

size_t MemoryTable::row_count() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& b : batches_) n += b.num_rows();
  return n;
}

}  // namespace kestrel::catalog
