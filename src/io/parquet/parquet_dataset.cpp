#include "io/parquet/parquet_dataset.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/error.hpp"
#include "io/file_list.hpp"
#include "io/parquet/parallel_decode.hpp"

namespace kestrel::io {

std::shared_ptr<const ParquetDataset> ParquetDataset::open(const std::string& location) {
  std::shared_ptr<ParquetDataset> d(new ParquetDataset());
  d->location_ = location;
  for (const std::string& path : list_table_files(location, ".parquet", "Parquet")) d->files_.push_back(ParquetFile::open(path));
  d->schema_ = d->files_.front()->schema();
  const Schema& schema = *d->schema_;
  for (const ParquetFilePtr& file : d->files_) {
    std::vector<size_t> map;
    for (size_t c = 0; c < schema.size(); ++c) {
      const Field& field = schema.field(c);
      auto index = file->schema()->index_of(field.name);
      if (!index) {
        throw InvalidInput("Parquet file '" + file->path() + "': lacks column '" + field.name + "' of the table ('" +
                           d->files_.front()->path() + "' has it)");
      }
      const Field& other = file->schema()->field(*index);
      if (!(other.type == field.type)) {
        throw InvalidInput("Parquet file '" + file->path() + "': column '" + field.name + "' is " +
                           other.type.to_string() + ", the table's is " + field.type.to_string() + " (from '" +
                           d->files_.front()->path() + "')");
      }
      map.push_back(*index);
    }
    d->column_maps_.push_back(std::move(map));
  }
  return d;
}

int64_t ParquetDataset::num_rows() const {
  int64_t n = 0;
  for (const ParquetFilePtr& f : files_) n += f->num_rows();
  return n;
}

std::vector<RowGroupRef> ParquetDataset::row_groups(const std::vector<ColumnPredicate>& predicates) const {
  std::vector<RowGroupRef> refs;
  for (size_t f = 0; f < files_.size(); ++f) {
    std::vector<ColumnPredicate> mapped = predicates;
    for (ColumnPredicate& p : mapped) p.column = file_column(f, p.column);
    for (size_t g : files_[f]->prune_row_groups(mapped)) refs.push_back(RowGroupRef{f, g});
  }
  return refs;
}

ColumnStatistics ParquetDataset::statistics(const RowGroupRef& ref, size_t column) const {
  return files_.at(ref.file)->statistics(ref.row_group, file_column(ref.file, column));
}

std::vector<ParquetDecodeTask> ParquetDataset::decode_tasks(const RowGroupRef& ref,
                                                            const std::vector<size_t>& columns) const {
  std::vector<ParquetDecodeTask> tasks;
  for (size_t c : columns) {
    if (c >= schema_->size()) {
      throw InvalidInput("Parquet table '" + location_ + "': column " + std::to_string(c) + " beyond its " +
                         std::to_string(schema_->size()));
    }
    tasks.push_back(ParquetDecodeTask{files_.at(ref.file).get(), ref.row_group, file_column(ref.file, c)});
  }
  return tasks;
}

SchemaPtr ParquetDataset::project_schema(const std::vector<size_t>& columns) const {
  return files_.front()->project_schema(columns);
}

Batch ParquetDataset::read(const RowGroupRef& ref, const std::vector<size_t>& columns,
                           const ParquetReadOptions& options) const {
  std::vector<ColumnPtr> decoded = run_decode_tasks(decode_tasks(ref, columns), options);
  size_t rows = static_cast<size_t>(files_.at(ref.file)->row_group_num_rows(ref.row_group));
  return Batch(project_schema(columns), std::move(decoded), rows, gpu::MemoryKind::kHost);
}

ParquetScan::ParquetScan(ParquetDatasetPtr dataset, std::vector<size_t> columns,
                         std::vector<ColumnPredicate> predicates, ParquetReadOptions options)
    : dataset_(std::move(dataset)), columns_(std::move(columns)), options_(options) {
  schema_ = dataset_->project_schema(columns_);
  row_groups_ = dataset_->row_groups(predicates);
  if (options_.num_threads == 0) options_.num_threads = default_decode_threads();
}

void ParquetScan::decode_window() {
  size_t window = std::min(options_.num_threads, row_groups_.size() - next_row_group_);
  std::vector<ParquetDecodeTask> tasks;
  for (size_t i = 0; i < window; ++i) {
    auto more = dataset_->decode_tasks(row_groups_[next_row_group_ + i], columns_);
    tasks.insert(tasks.end(), more.begin(), more.end());
  }
  std::vector<ColumnPtr> decoded = run_decode_tasks(tasks, options_);
  for (size_t i = 0; i < window; ++i) {
    const RowGroupRef& ref = row_groups_[next_row_group_ + i];
    std::vector<ColumnPtr> columns(decoded.begin() + static_cast<std::ptrdiff_t>(i * columns_.size()),
                                   decoded.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns_.size()));
    size_t rows = static_cast<size_t>(dataset_->files()[ref.file]->row_group_num_rows(ref.row_group));
    ready_.emplace_back(schema_, std::move(columns), rows, gpu::MemoryKind::kHost);
  }
  next_row_group_ += window;
}

std::optional<Batch> ParquetScan::next() {
  if (ready_.empty() && next_row_group_ < row_groups_.size()) decode_window();
  if (ready_.empty()) return std::nullopt;
  Batch batch = std::move(ready_.front());
  ready_.pop_front();
  return batch;
}

}  // namespace kestrel::io
