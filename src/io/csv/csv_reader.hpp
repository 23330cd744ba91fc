#pragma once
/// Kestrel's CSV reader: the entry point for reading one CSV file, or a folder or glob of them as one table, into
/// host batches.
///
///   CsvOptions options;
///   options.set("delim", "|");
///   options.set("header", "false");
///   auto reader = CsvReader::open("data/lineitem/*.tbl", options);
///   const Schema& schema = *reader->schema();
///   while (auto batch = reader->next_batch()) { ... }
///
/// Option names and null rules: csv_options.hpp. Type sniffing rules: csv_sniffer.hpp.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "io/csv/csv_options.hpp"
#include "vector/batch.hpp"

namespace kestrel {

class CsvFileReader;
struct CsvTableLayout;

/// The files a CSV table path names, in order: a file; every regular file under a folder (recursively, names
/// starting with '.' or '_' left out, sorted); or the matches of a glob pattern (`*`, `?`, `[...]`), sorted.
/// Throws InvalidInput when a pattern or a folder yields no file.
std::vector<std::string> expand_csv_paths(const std::string& path);

/// Reads a CSV table (one file or several with one schema) batch by batch. The first file decides the schema (its
/// header and sniffed types, or the options' `columns`); every later file must have the same columns.
class CsvReader {
 public:
  /// Opens the table at `path` (file, folder or glob; see expand_csv_paths) and resolves its schema. Batches are
  /// allocated from `mr` (host or pinned memory). Throws IoError or InvalidInput.
  static std::unique_ptr<CsvReader> open(const std::string& path, const CsvOptions& options,
                                         gpu::MemoryResource& mr = gpu::host_memory_resource());
  /// The same over an explicit, non-empty list of files.
  static std::unique_ptr<CsvReader> open_files(std::vector<std::string> files, const CsvOptions& options,
                                               gpu::MemoryResource& mr = gpu::host_memory_resource());
  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  const SchemaPtr& schema() const;
  /// Per column: whether its type was sniffed rather than given.
  const std::vector<bool>& sniffed() const;
  const std::vector<std::string>& files() const { return files_; }

  /// The next batch of at most `batch_size` rows, or nullopt after the last file. Batches never span files.
  /// Throws InvalidInput naming the file, line, column and value of the first bad field.
  std::optional<Batch> next_batch();

 private:
  CsvReader(std::vector<std::string> files, const CsvOptions& options, gpu::MemoryResource& mr);

  std::vector<std::string> files_;
  CsvOptions options_;
  gpu::MemoryResource& mr_;
  std::unique_ptr<CsvTableLayout> layout_;
  std::unique_ptr<CsvFileReader> current_;
  size_t next_file_ = 0;
};

/// A whole CSV table read into memory.
struct CsvTable {
  SchemaPtr schema;
  std::vector<Batch> batches;

  size_t num_rows() const;
};

/// Reads every batch of the CSV table at `path` (file, folder or glob).
CsvTable read_csv_file(const std::string& path, const CsvOptions& options = {},
                       gpu::MemoryResource& mr = gpu::host_memory_resource());

}  // namespace kestrel
