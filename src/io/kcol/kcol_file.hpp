#pragma once
/// Reading and writing kcol files (docs/kcol.md) on the CPU.
///
///   write_kcol_file("t.kcol", schema, batches);                 // host batches in, one file out (atomically)
///   auto data = KcolDataset::open("folder/");                     // a file, a folder or a glob
///   Batch b = data->read(data->row_groups()[0], {0, 2});          // columns 0 and 2 of the first row group

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/kcol/kcol_format.hpp"
#include "io/parquet/file_source.hpp"
#include "vector/batch.hpp"

namespace kestrel::io {

/// Writes `batches` (host, all of `schema`) as one kcol file: row groups of `row_group_size` rows (option
/// "row_group_size"), every chunk encoded in parallel. Goes to a hidden temporary file renamed into place when
/// complete. Returns the rows written. Throws InvalidInput for an unknown option, NotImplemented for types kcol
/// lacks, IoError when writing fails (the temporary file is removed).
/// With `device_mr`, batches may be in device memory: their chunks are encoded on the GPU (scratch from
/// `device_mr`; string bytes then stay uncompressed) and only the finished sections are copied to the host.
size_t write_kcol_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                       const std::vector<std::pair<std::string, std::string>>& options,
                       gpu::MemoryResource* device_mr = nullptr);

/// One kcol file, its footer decoded and checked. Immutable and thread-safe.
class KcolFile {
 public:
  /// Throws IoError when the file cannot be read, InvalidInput naming the file when it is not valid kcol.
  static std::shared_ptr<const KcolFile> open(const std::string& path);
  /// The same over bytes in memory (fuzzing, tests), reported as file `name`.
  static std::shared_ptr<const KcolFile> open_buffer(const std::string& name,
                                                     std::shared_ptr<const std::vector<uint8_t>> bytes);

  const std::string& path() const { return path_; }
  const SchemaPtr& schema() const { return schema_; }
  const kcol::Footer& footer() const { return footer_; }
  size_t num_row_groups() const { return footer_.row_group_rows.size(); }
  uint64_t row_group_rows(size_t g) const { return footer_.row_group_rows.at(g); }

  /// Decodes columns `columns` of row group `row_group` into a host batch. Malformed chunks throw InvalidInput
  /// "kcol file 'f': column 'c' of row group g: reason".
  Batch read_row_group(size_t row_group, const std::vector<size_t>& columns) const;
  ColumnPtr read_chunk(size_t row_group, size_t column) const;
  /// Reads `length` bytes at `offset` (IoError on failure).
  void read_bytes(uint64_t offset, size_t length, uint8_t* out) const { file_->read(offset, length, out); }
  /// The file mapped for DMA to the GPU (gpu/file_mapping.hpp), or null.
  gpu::FileMapping* dma_mapping() const { return file_->dma_mapping(); }

 private:
  KcolFile() = default;
  static std::shared_ptr<const KcolFile> open_source(const std::string& path,
                                                     std::shared_ptr<parquet::RandomAccessFile> source);

  std::string path_;
  std::shared_ptr<parquet::RandomAccessFile> file_;
  kcol::Footer footer_;
  SchemaPtr schema_;
};

/// A row group of a kcol dataset.
struct KcolRowGroup {
  size_t file = 0;
  size_t row_group = 0;
};

/// kcol files with one schema (names and types of the first file).
class KcolDataset {
 public:
  static std::shared_ptr<const KcolDataset> open(const std::string& location);
  const SchemaPtr& schema() const { return files_.front()->schema(); }
  const std::vector<std::shared_ptr<const KcolFile>>& files() const { return files_; }
  std::vector<KcolRowGroup> row_groups() const;
  uint64_t num_rows() const;
  Batch read(const KcolRowGroup& ref, const std::vector<size_t>& columns) const;
  /// The schema of a selection of columns.
  SchemaPtr project_schema(const std::vector<size_t>& columns) const;

 private:
  KcolDataset() = default;
  std::vector<std::shared_ptr<const KcolFile>> files_;
};

using KcolDatasetPtr = std::shared_ptr<const KcolDataset>;

}  // namespace kestrel::io
