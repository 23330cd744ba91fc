#include "io/parquet/writer/parquet_writer.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <shared_mutex>

#include <fcntl.h>
#include <unistd.h>

#include "common/error.hpp"
#include "io/parquet/parallel_decode.hpp"
#include "gpu/stream_pool.hpp"
#include "io/parquet/writer/metadata_encoder.hpp"
#include "io/parquet/writer/nested_writer.hpp"

namespace kestrel::io {
namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
constexpr const char* kCreatedBy = "Kestrel";

std::string file_prefix(const std::string& path) { return "Parquet file '" + path + "': "; }

std::string errno_text() { return std::strerror(errno); }

/// `.name.tmp-<pid>-<n>` beside `path`: hidden from dataset scans, unique within and across processes.
std::string temp_path_for(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path p(path);
  std::string name = "." + p.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter.fetch_add(1));
  return (p.parent_path() / name).string();
}

/// The same error category with the file named in front of the message.
[[noreturn]] void rethrow_with_file(const Error& e, const std::string& path) {
  std::string message = e.message();
  if (message.find(path) == std::string::npos) message = file_prefix(path) + message;
  switch (e.category()) {
    case ErrorCategory::kInvalidInput: throw InvalidInput(message, e.code());
    case ErrorCategory::kNotImplemented: throw NotImplemented(message);
    case ErrorCategory::kIo: throw IoError(message);
    case ErrorCategory::kResourceExhausted: throw ResourceExhausted(message);
    default: throw;
  }
}

}  // namespace

ParquetWriter::ParquetWriter(std::string path, std::string temp_path, int fd, Schema schema,
                             ParquetWriterOptions options)
    : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), schema_(std::move(schema)),
      options_(options) {}

std::unique_ptr<ParquetWriter> ParquetWriter::open(const std::string& path, const Schema& schema,
                                                   const ParquetWriterOptions& options) {
  if (schema.size() == 0) throw InvalidInput(file_prefix(path) + "cannot write a table without columns");
  std::set<std::string> names;
  for (const Field& field : schema.fields()) {
    if (!names.insert(field.name).second) {
      throw InvalidInput(file_prefix(path) + "duplicate column name '" + field.name + "'");
    }
    try {
      std::vector<parquet::SchemaElement> elements;
      parquet::append_schema_elements(field, elements);
    } catch (const Error& e) {
      rethrow_with_file(e, path);
    }
  }
  if (options.row_group_size == 0 || options.data_page_size == 0) {
    throw InvalidInput(file_prefix(path) + "row_group_size and page_size must be positive");
  }
  if (std::filesystem::is_directory(path)) throw IoError(file_prefix(path) + "is a folder");
  std::string temp = temp_path_for(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(file_prefix(path) + "cannot create '" + temp + "': " + errno_text());
  std::unique_ptr<ParquetWriter> writer(new ParquetWriter(path, temp, fd, schema, options));
  writer->guarded([&] { writer->append(reinterpret_cast<const uint8_t*>(kMagic), 4); });
  return writer;
}

ParquetWriter::~ParquetWriter() {
  if (!closed_) abort();
}

void ParquetWriter::abort() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!closed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  pending_.clear();
  in_flight_.clear();  // waits for the encodings still running
  failed_ = true;
}

template <typename F>
void ParquetWriter::guarded(F&& f) {
  if (closed_) throw InvalidInput(file_prefix(path_) + "the writer is already closed");
  if (failed_) throw InvalidInput(file_prefix(path_) + "an earlier error aborted the write");
  try {
    f();
  } catch (const Error& e) {
    abort();
    rethrow_with_file(e, path_);
  } catch (...) {
    abort();
    throw;
  }
}

[[noreturn]] void ParquetWriter::fail_io(const std::string& what) {
  throw IoError(file_prefix(path_) + what + " '" + temp_path_ + "': " + errno_text());
}

void ParquetWriter::append(const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_io("cannot write to");
    data += n;
    size -= static_cast<size_t>(n);
    file_offset_ += n;
  }
}

void ParquetWriter::enable_device(gpu::MemoryResource& mr, parquet::DeviceWriteStats* stats) {
  if (!parquet::device_encoding_supported()) throw NotImplemented("this build of Kestrel has no GPU support");
  device_mr_ = &mr;
  device_stats_ = stats;
}

void ParquetWriter::write(const Batch& batch) {
  guarded([&] {
    if (batch.on_device() && device_mr_ == nullptr) {
      throw InvalidInput("write takes host batches; copy device batches to the host first");
    }
    if (batch.num_columns() != schema_.size()) {
      throw InvalidInput("a batch of " + std::to_string(batch.num_columns()) + " columns for a schema of " +
                         std::to_string(schema_.size()));
    }
    for (size_t c = 0; c < schema_.size(); ++c) {
      const Column& column = *batch.column(c);
      if (!(column.type() == schema_.field(c).type)) {
        throw InvalidInput("column '" + schema_.field(c).name + "' is " + schema_.field(c).type.to_string() +
                           " but the batch holds " + column.type().to_string());
      }
      if (column.length() < batch.num_rows()) {
        throw InvalidInput("column '" + schema_.field(c).name + "' is shorter than its batch");
      }
    }
    if (batch.num_rows() == 0) return;
    pending_.push_back(batch);
    pending_rows_ += batch.num_rows();
    while (pending_rows_ >= options_.row_group_size) flush_row_group(options_.row_group_size);
  });
}

namespace {

/// Row groups encoded at once: one is encoded while the writer fills the next.
constexpr size_t kRowGroupsInFlight = 2;
/// Row groups of device batches encoded at once: each one's encoding waits on its stream several times (sizes,
/// compressed sizes, the pages' copy to the host), so several overlap to keep the GPU and the host busy.
constexpr size_t kDeviceRowGroupsInFlight = 8;

/// The chunks of one row group (columns encoded in parallel, the biggest first so that one long column does not run
/// alone at the end), each as if it started at file offset 0; a nested column gives one chunk per leaf.
std::vector<parquet::EncodedColumnChunk> encode_row_group(const Schema& schema,
                                                         const std::vector<std::vector<parquet::ColumnSlice>>& slices,
                                                         const ParquetWriterOptions& options) {
  std::vector<std::vector<parquet::EncodedColumnChunk>> encoded(schema.size());
  std::vector<std::pair<size_t, size_t>> order;  // (estimated bytes, column)
  for (size_t c = 0; c < schema.size(); ++c) {
    size_t bytes = 0;
    for (const auto& slice : slices[c]) {
      const Column& column = *slice.column;
      bytes += slice.count * (column.type().is_variable_width() ? 16 : column.type().physical_width());
      if (column.type().is_variable_width() && !column.is_dictionary() && column.offsets()) {
        const int64_t* o = column.offsets()->as<int64_t>();
        bytes += static_cast<size_t>(o[slice.begin + slice.count] - o[slice.begin]);
      }
    }
    order.emplace_back(bytes, c);
  }
  std::sort(order.begin(), order.end(), std::greater<>());
  parallel_for(schema.size(), 0, [&](size_t k) {
    const size_t c = order[k].second;
    const Field& field = schema.field(c);
    if (field.type.is_nested()) {
      encoded[c] = parquet::encode_nested_column_chunks(field, slices[c], options);
    } else {
      encoded[c].push_back(parquet::encode_column_chunk(field, slices[c], options, 0));
    }
  });
  std::vector<parquet::EncodedColumnChunk> chunks;
  for (auto& column : encoded) {
    for (auto& chunk : column) chunks.push_back(std::move(chunk));
  }
  return chunks;
}

}  // namespace

void ParquetWriter::flush_row_group(size_t rows) {
  // Slices of the pending batches that make up the row group's `rows` rows.
  std::vector<std::vector<parquet::ColumnSlice>> slices(schema_.size());
  size_t taken = 0;
  size_t consumed_batches = 0;
  size_t offset = pending_offset_;
  while (taken < rows) {
    const Batch& b = pending_[consumed_batches];
    size_t n = std::min(rows - taken, b.num_rows() - offset);
    for (size_t c = 0; c < schema_.size(); ++c) slices[c].push_back({b.column(c), offset, n});
    taken += n;
    offset += n;
    if (offset == b.num_rows()) {
      ++consumed_batches;
      offset = 0;
    }
  }

  bool device = false;
  for (const auto& column : slices) {
    for (const auto& slice : column) device = device || slice.column->on_device();
  }
  if (device) {
    for (const Field& field : schema_.fields()) {
      if (field.type.is_nested()) {
        throw NotImplemented("column '" + field.name + "' is " + field.type.to_string() +
                             ": nested columns are encoded on the host only; copy the batches to the host");
      }
    }
    // Encoded on the device, on a stream of its own, while the previous row group is written.
    in_flight_.push_back(InFlight{std::async(std::launch::async,
                                             [schema = schema_, options = options_, slices = std::move(slices),
                                              mr = device_mr_, stats = device_stats_, gate = device_gate_.get()] {
                                               {
                                                 std::shared_lock shared(*gate);
                                                 try {
                                                   return parquet::encode_row_group_on_device(
                                                       schema, slices, options, gpu::driver_stream(), *mr, stats);
                                                 } catch (const ResourceExhausted&) {
                                                   // Other row groups hold the memory: retried alone below.
                                                 }
                                               }
                                               std::unique_lock alone(*gate);
                                               return parquet::encode_row_group_on_device(
                                                   schema, slices, options, gpu::driver_stream(), *mr, stats);
                                             }),
                                  rows});
  } else {
    in_flight_.push_back(InFlight{std::async(std::launch::async,
                                             [schema = schema_, options = options_, slices = std::move(slices)] {
                                               return encode_row_group(schema, slices, options);
                                             }),
                                  rows});
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(consumed_batches));
  pending_offset_ = offset;
  pending_rows_ -= rows;
  write_finished((device ? kDeviceRowGroupsInFlight : kRowGroupsInFlight) - 1);
}

void ParquetWriter::write_finished(size_t keep) {
  while (in_flight_.size() > keep) {
    std::vector<parquet::EncodedColumnChunk> encoded = in_flight_.front().chunks.get();
    const size_t rows = in_flight_.front().rows;
    in_flight_.pop_front();
    parquet::RowGroup group;
    group.num_rows = static_cast<int64_t>(rows);
    for (parquet::EncodedColumnChunk& e : encoded) {
      // Encoded as if at offset 0: move the chunk's offsets to where it lands.
      parquet::ColumnChunk& chunk = e.chunk;
      const int64_t base = file_offset_;
      chunk.file_offset += base;
      chunk.meta_data->data_page_offset += base;
      if (chunk.meta_data->dictionary_page_offset) *chunk.meta_data->dictionary_page_offset += base;
      append(e.bytes.data(), e.bytes.size());
      group.total_byte_size += e.uncompressed_bytes;
      group.columns.push_back(std::move(chunk));
    }
    row_groups_.push_back(std::move(group));
    rows_written_ += static_cast<int64_t>(rows);
  }
}

void ParquetWriter::close() {
  guarded([&] {
    if (pending_rows_ > 0) flush_row_group(pending_rows_);
    write_finished(0);
    parquet::FileMetaData meta;
    meta.version = 1;
    meta.num_rows = rows_written_;
    meta.created_by = kCreatedBy;
    parquet::SchemaElement root;
    root.name = "schema";
    root.num_children = static_cast<int32_t>(schema_.size());
    meta.schema.push_back(root);
    size_t leaves = 0;
    for (const Field& field : schema_.fields()) {
      parquet::append_schema_elements(field, meta.schema);
      leaves += parquet::leaf_count(field.type);
    }
    meta.row_groups = std::move(row_groups_);
    meta.column_orders_type_defined.assign(leaves, true);  // one per leaf column
    std::vector<uint8_t> footer = parquet::encode_file_metadata(meta);
    append(footer.data(), footer.size());
    uint8_t length[4];
    for (int i = 0; i < 4; ++i) length[i] = static_cast<uint8_t>(footer.size() >> (8 * i));
    append(length, 4);
    append(reinterpret_cast<const uint8_t*>(kMagic), 4);
    if (::fsync(fd_) != 0) fail_io("cannot fsync");
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail_io("cannot close");
    }
    fd_ = -1;
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail_io("cannot rename into place");
    closed_ = true;
    // Make the rename durable; a failure here cannot undo it, so it is not an error.
    std::filesystem::path folder = std::filesystem::path(path_).parent_path();
    int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  });
}

}  // namespace kestrel::io
