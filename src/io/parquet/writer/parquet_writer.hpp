#pragma once
/// Kestrel's Parquet writer: host batches in, one flat Parquet file out.
///
///   ParquetWriterOptions options;
///   options.set("compression", "zstd");
///   options.set("row_group_size", "100000");
///   auto writer = ParquetWriter::open("out/t.parquet", schema, options);
///   writer->write(batch);   // any number of host batches with `schema`'s column types
///   writer->close();        // the file appears under its name only here
///
/// Atomicity: the data goes to a hidden temporary file in the same folder (`.t.parquet.tmp-<pid>-<n>`), which
/// close() fsyncs and renames over the final name (and fsyncs the folder). An error in write() or close(), or a
/// writer destroyed without close(), removes the temporary file, so a failed write never leaves a partial file
/// under the final name (an existing file of that name is kept until the rename replaces it).
///
/// Device batches: after enable_device(), write() also takes batches in device memory; their row groups are encoded
/// on the device (device/device_encoder.hpp) and only the finished pages are copied to the host.
///
/// Rows are buffered (by reference to the batches) until a row group is full, then encoded and written; every row
/// group holds `row_group_size` rows except the last. Options and the type mapping: parquet_writer_options.hpp and
/// column_chunk_encoder.hpp.

#include <cstdint>
#include <deque>
#include <future>
#include <shared_mutex>
#include <memory>
#include <string>
#include <vector>

#include "io/parquet/parquet_format.hpp"
#include "io/parquet/writer/column_chunk_encoder.hpp"
#include "io/parquet/writer/device/device_encoder.hpp"
#include "io/parquet/writer/parquet_writer_options.hpp"
#include "vector/batch.hpp"

namespace kestrel::io {

class ParquetWriter {
 public:
  /// Creates the temporary file for `path` and checks that every column of `schema` can be written. Throws IoError
  /// when the file cannot be created, NotImplemented for an unwritable type (INTERVAL), InvalidInput for an empty
  /// schema or duplicate column names; each message names the file.
  static std::unique_ptr<ParquetWriter> open(const std::string& path, const Schema& schema,
                                             const ParquetWriterOptions& options = {});
  /// Removes the temporary file unless close() succeeded.
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  /// Appends the rows of a batch whose columns match the schema's types (names are not checked). Throws
  /// InvalidInput for a device batch (unless enable_device() was called), a type mismatch or a NULL in a NOT NULL
  /// column, IoError when writing fails; after an error the writer is failed and its temporary file removed.
  void write(const Batch& batch);
  /// Lets write() take device batches, encoded on the device with scratch from `mr` (which must outlive the
  /// writer). `stats` may be null.
  void enable_device(gpu::MemoryResource& mr, parquet::DeviceWriteStats* stats);
  /// Writes the last row group and the footer, fsyncs and renames the file into place.
  void close();
  /// Drops everything written so far and removes the temporary file; the final name is untouched.
  void abort();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }
  int64_t rows_written() const { return rows_written_; }

 private:
  ParquetWriter(std::string path, std::string temp_path, int fd, Schema schema, ParquetWriterOptions options);

  /// Starts encoding the next `rows` pending rows as a row group (in the background, its columns in parallel).
  void flush_row_group(size_t rows);
  /// Appends encoded row groups to the file, oldest first, until at most `keep` are still in flight.
  void write_finished(size_t keep);
  void append(const uint8_t* data, size_t size);
  [[noreturn]] void fail_io(const std::string& what);
  /// Runs `f`; on any error removes the temporary file, then rethrows with the file name where missing.
  template <typename F>
  void guarded(F&& f);

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  Schema schema_;
  ParquetWriterOptions options_;
  /// Rows waiting for the next row group, oldest first; the front batch's first `pending_offset_` rows are written.
  std::vector<Batch> pending_;
  size_t pending_offset_ = 0;
  size_t pending_rows_ = 0;
  int64_t file_offset_ = 0;
  int64_t rows_written_ = 0;
  std::vector<parquet::RowGroup> row_groups_;
  /// Row groups being encoded (a few at most), in file order: they encode while the next fills.
  struct InFlight {
    std::future<std::vector<parquet::EncodedColumnChunk>> chunks;
    size_t rows = 0;
  };
  std::deque<InFlight> in_flight_;
  bool closed_ = false;
  bool failed_ = false;
  gpu::MemoryResource* device_mr_ = nullptr;  ///< set by enable_device
  /// Row groups encode on the device under a shared lock; one that runs out of device memory waits for the others
  /// and encodes again under the exclusive lock.
  std::unique_ptr<std::shared_mutex> device_gate_ = std::make_unique<std::shared_mutex>();
  parquet::DeviceWriteStats* device_stats_ = nullptr;
};

}  // namespace kestrel::io
