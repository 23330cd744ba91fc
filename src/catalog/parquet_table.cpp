#include "catalog/parquet_table.hpp"

#include <thread>

namespace kestrel::catalog {

namespace {

io::PredicateOp to_io(PruneOp op) {
  switch (op) {
    case PruneOp::kEqual: return io::PredicateOp::kEqual;
    case PruneOp::kLess: return io::PredicateOp::kLess;
    case PruneOp::kLessEqual: return io::PredicateOp::kLessEqual;
    case PruneOp::kGreater: return io::PredicateOp::kGreater;
    case PruneOp::kGreaterEqual: return io::PredicateOp::kGreaterEqual;
    case PruneOp::kBetween: return io::PredicateOp::kBetween;
    case PruneOp::kIn: return io::PredicateOp::kIn;
    case PruneOp::kIsNull: return io::PredicateOp::kIsNull;
  }
  return io::PredicateOp::kEqual;
}

/// Smaller of two statistics values of the same type (Value has no ordering of its own here).
bool less_than(const Value& a, const Value& b) {
  switch (a.type().id()) {
    case TypeId::kVarchar:
    case TypeId::kVarbinary:
    case TypeId::kJson: return a.as_string() < b.as_string();
    case TypeId::kReal:
    case TypeId::kDouble: return a.as_double() < b.as_double();
    case TypeId::kDecimal: return a.as_int128() < b.as_int128();
    case TypeId::kInterval: return false;
    default: return a.as_int64() < b.as_int64();
  }
}

}  // namespace

ParquetTable::ParquetTable(std::string name, io::ParquetDatasetPtr dataset)
    : Table(std::move(name), dataset->schema()), dataset_(std::move(dataset)) {
  row_groups_ = dataset_->row_groups();
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  decode_threads_ = row_groups_.size() >= 2 * cores ? 1 : 0;
  statistics_.row_count = static_cast<uint64_t>(dataset_->num_rows());
  size_t columns = dataset_->schema()->size();
  statistics_.columns.resize(columns);
  for (size_t c = 0; c < columns; ++c) {
    ColumnStatistics& out = statistics_.columns[c];
    bool have_min = true, have_max = true, have_nulls = true;
    uint64_t nulls = 0;
    for (const auto& ref : row_groups_) {
      io::ColumnStatistics s = dataset_->statistics(ref, c);
      if (s.min && have_min && (!out.min || less_than(*s.min, *out.min))) out.min = s.min;
      if (s.max && have_max && (!out.max || less_than(*out.max, *s.max))) out.max = s.max;
      have_min &= s.min.has_value();
      have_max &= s.max.has_value();
      have_nulls &= s.null_count.has_value();
      if (s.null_count) nulls += static_cast<uint64_t>(*s.null_count);
    }
    if (!have_min) out.min.reset();
    if (!have_max) out.max.reset();
    if (have_nulls) out.null_count = nulls;
  }
}

std::string ParquetTable::source_description() const {
  size_t files = dataset_->files().size();
  return "parquet: " + std::to_string(files) + (files == 1 ? " file, " : " files, ") +
         std::to_string(row_groups_.size()) + " row groups";
}

std::vector<size_t> ParquetTable::plan_scan(const ScanSpec& spec) const {
  std::vector<io::ColumnPredicate> predicates;
  for (const auto& p : spec.predicates) predicates.push_back({p.column, to_io(p.op), p.values});
  std::vector<io::RowGroupRef> kept = dataset_->row_groups(predicates);
  std::vector<size_t> morsels;
  size_t k = 0;
  for (size_t i = 0; i < row_groups_.size() && k < kept.size(); ++i) {
    if (row_groups_[i].file == kept[k].file && row_groups_[i].row_group == kept[k].row_group) {
      morsels.push_back(i);
      ++k;
    }
  }
  return morsels;
}

Batch ParquetTable::read_morsel(size_t morsel, const ScanSpec& spec) const {
  io::ParquetReadOptions options;
  options.num_threads = decode_threads_;
  Batch batch = dataset_->read(row_groups_.at(morsel), spec.columns, options);
  return Batch(projected_schema(spec.columns), batch.columns(), batch.num_rows(), batch.residency());
}

TableStatistics ParquetTable::statistics() const { return statistics_; }

namespace {

/// Per row of `table`: the stored (compressed) and the uncompressed bytes of the column chunks of `columns`.
std::pair<double, double> chunk_bytes_per_row(const io::ParquetDataset& dataset,
                                              const std::vector<io::RowGroupRef>& row_groups,
                                              const std::vector<size_t>& columns) {
  double stored = 0, uncompressed = 0;
  int64_t rows = 0;
  for (const auto& ref : row_groups) {
    const io::ParquetFile& file = *dataset.files()[ref.file];
    const auto& group = file.metadata().row_groups.at(ref.row_group);
    rows += group.num_rows;
    for (size_t c : columns) {
      const auto& d = file.descriptor(dataset.file_column(ref.file, c));
      for (size_t leaf = d.leaf_index; leaf < d.leaf_index + d.leaf_count; ++leaf) {  // a nested column: every leaf
        const auto& chunk = group.columns.at(leaf);
        if (chunk.meta_data) {
          stored += static_cast<double>(chunk.meta_data->total_compressed_size);
          uncompressed += static_cast<double>(chunk.meta_data->total_uncompressed_size);
        }
      }
    }
  }
  if (rows <= 0) return {0.0, 0.0};
  return {stored / static_cast<double>(rows), uncompressed / static_cast<double>(rows)};
}

}  // namespace

double ParquetTable::scan_bytes_per_row(const std::vector<size_t>& columns) const {
  const auto [stored, uncompressed] = chunk_bytes_per_row(*dataset_, row_groups_, columns);
  double decoded = 0;
  for (size_t c : columns) {
    const LogicalType& type = schema()->field(c).type;
    decoded += type.is_variable_width() ? 24.0 : static_cast<double>(type.physical_width());
  }
  return stored + uncompressed + decoded;
}

double ParquetTable::read_ahead_bytes_per_row(const std::vector<size_t>& columns) const {
  // The file bytes, and the pages the read-ahead decompresses before the decode takes the batch.
  const auto [stored, uncompressed] = chunk_bytes_per_row(*dataset_, row_groups_, columns);
  return stored + uncompressed;
}

std::vector<std::pair<std::string, std::string>> ParquetTable::unreadable_columns() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : dataset_->unreadable_columns()) out.emplace_back(c.name, c.reason);
  return out;
}

}  // namespace kestrel::catalog
