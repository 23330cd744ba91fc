#pragma once
/// Reading one CSV file into host batches: header, type sniffing, then block-wise parallel tokenizing and column
/// building. Multi-file tables go through CsvReader (csv_reader.hpp), which opens one CsvFileReader per file.

#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "io/csv/csv_block.hpp"
#include "io/csv/csv_column_builder.hpp"
#include "io/csv/csv_options.hpp"
#include "io/csv/csv_tokenizer.hpp"
#include "vector/batch.hpp"

namespace kestrel {

/// The resolved shape of a CSV table; the first file decides it and every later file of the table must match it.
struct CsvTableLayout {
  SchemaPtr schema;
  /// Per column: the type was sniffed, not given (its errors then suggest the `types` option).
  std::vector<bool> sniffed;
  /// The first file's header names (empty without a header), to check later files against.
  std::vector<std::string> header_names;
  /// The first file's path, for messages about later files.
  std::string first_file;
};

/// Reads one CSV file. Not thread-safe; it runs its own parse threads inside `next_batch`.
class CsvFileReader {
 public:
  /// Opens `path` and reads its header; the first file of a table (`table` null) also sniffs the types and
  /// resolves the layout, a later file checks its header against `table`. Throws IoError when the file cannot be
  /// read and InvalidInput for a malformed header or sample.
  CsvFileReader(std::string path, const CsvOptions& options, const CsvTableLayout* table, gpu::MemoryResource& mr);
  ~CsvFileReader();
  CsvFileReader(const CsvFileReader&) = delete;
  CsvFileReader& operator=(const CsvFileReader&) = delete;

  const CsvTableLayout& layout() const { return layout_; }
  const std::string& path() const { return path_; }

  /// The next batch of at most `batch_size` rows (exactly that many except the last), or nullopt at the end.
  /// Throws InvalidInput naming the file, line, column and value of the first bad field.
  std::optional<Batch> next_batch();

 private:
  /// Records tokenized from one chunk of a block, waiting to become batches.
  struct PendingRun {
    std::shared_ptr<const CsvBlock> block;
    std::shared_ptr<const std::vector<CsvFieldSpan>> fields;
    size_t first = 0;  ///< first record not yet taken
    size_t records = 0;
  };
  struct Chunk;
  class SpanPool;

  void refill();
  size_t read_bytes(char* out, size_t bytes);
  void skip_lines();
  bool read_header(std::vector<std::string>& names);
  void resolve_layout(const std::vector<std::string>& header);
  void check_layout(const std::vector<std::string>& header, const CsvTableLayout& table);
  void tokenize_block();
  void tokenize_chunk(size_t start, size_t stop, Chunk& chunk) const;
  void build_batches();

  std::string where(uint64_t line) const;
  [[noreturn]] void throw_record_error(CsvRecordStatus status, size_t error_pos, size_t fields) const;
  std::string record_error(CsvRecordStatus status, size_t error_pos, size_t fields) const;

  std::string path_;
  CsvOptions options_;
  CsvTokenizer tokenizer_;
  gpu::MemoryResource& mr_;
  size_t threads_;
  CsvTableLayout layout_;
  size_t num_columns_ = 0;
  /// A record may carry one extra empty last field (a trailing delimiter).
  bool accept_trailing_ = true;

  std::FILE* file_ = nullptr;
  bool regular_file_ = false;  ///< a regular file, whose size fstat knows (pipes are read a block at a time)
  size_t file_remaining_ = 0;  ///< bytes of a regular file not yet read (a hint for buffer sizes)
  std::shared_ptr<CsvBlockPool> block_pool_ = std::make_shared<CsvBlockPool>();
  /// Field-span vectors of finished chunks, reused (like the block buffers) to avoid fresh pages per block.
  std::shared_ptr<SpanPool> span_pool_;
  std::shared_ptr<CsvBlock> block_;
  size_t pos_ = 0;            ///< first byte of block_ not yet tokenized
  bool eof_ = false;          ///< the whole file has been read into blocks
  bool block_fresh_ = false;  ///< block_ holds bytes from pos_ on that were never tokenized
  bool done_ = false;         ///< every record has been tokenized (or a record error stopped the reading)

  std::deque<PendingRun> pending_;
  size_t pending_rows_ = 0;
  std::optional<std::string> deferred_error_;  ///< a record error, raised once the rows before it are returned
  std::optional<std::string> failed_;          ///< an error already raised; raised again on every later call
  std::deque<Batch> ready_;
};

}  // namespace kestrel
