#pragma once
/// The host's part of decoding a staged Parquet batch on the GPU (device_reader.cpp): the column chunks of a batch,
/// and the plan made from their page headers while the batch is staged — each column's path, where every page body
/// will be on the device, and the page tables, nvCOMP arguments and gathers packed into one block whose device
/// addresses are relative to buffers the decode allocates (device_pages.hpp). Internal to io/parquet/device.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/nvcomp.hpp"
#include "io/parquet/device/device_pages.hpp"
#include "io/parquet/page_reader.hpp"
#include "io/parquet/parquet_file.hpp"
#include "io/parquet/device/snappy_literals.hpp"
#include "vector/column.hpp"

namespace kestrel::io::decode_plan {

inline constexpr size_t kAlign = 16;
inline size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

/// One column chunk of the batch and the pages to decode from it.
struct ChunkJob {
  size_t column = 0;  ///< output column
  size_t ref = 0;     ///< row group among the batch's
  const ParquetFile* file = nullptr;
  size_t file_index = 0;
  size_t row_group = 0;
  size_t file_column = 0;
  const parquet::ColumnDescriptor* desc = nullptr;
  const parquet::ColumnMetaData* meta = nullptr;
  uint64_t offset = 0;  ///< in the file
  uint64_t length = 0;
  uint64_t staged = 0;  ///< in the staging buffer
  size_t range = 0;     ///< the coalesced read that covers it
  const uint8_t* host = nullptr;  ///< its bytes in host memory (the staging buffer or the file's mapping)
  uint64_t first_row = 0;
  size_t rows = 0;
  std::vector<parquet::PageLayout> pages;  ///< the dictionary page (if any) first, then the data pages the rows need
  /// Snappy chunks: per page, its literals when its body is literals only (snappy_literals.hpp), else empty.
  std::vector<std::vector<parquet::SnappyLiteral>> literals;
};

/// How one output column is decoded.
enum class ColumnPath : uint8_t { kFixed, kBinaryToFixed, kString, kStringDictionary, kHost };

/// The per-column state between the two phases of decoding.
struct ColumnWork {
  ColumnPath path = ColumnPath::kFixed;
  LogicalType type;
  size_t rows = 0;
  bool nullable = false;
  parquet::device::DeviceColumnType device_type;
  std::vector<size_t> jobs;  ///< chunk jobs, in row order
  size_t data_count = 0, dictionary_count = 0;  ///< pages in the tables
  size_t dictionary_entries = 0;
  size_t data_table = 0, dictionary_table = 0, chunk_table = 0;  ///< offsets in the upload block
  size_t start_table = 0, nonnull_table = 0, dense_table = 0;    ///< required columns: per page, from the host
  // Device scratch of phase 1.
  uint8_t* levels = nullptr;
  uint32_t* ranks = nullptr;
  uint32_t* value_start = nullptr;
  uint32_t* nonnull = nullptr;
  uint64_t* dense_start = nullptr;
  const uint8_t** src = nullptr;
  uint32_t* len = nullptr;
  int64_t* offsets = nullptr;              ///< plain strings: rows + 1
  const uint8_t** dictionary_src = nullptr;
  uint32_t* dictionary_len = nullptr;
  int64_t* dictionary_offsets = nullptr;   ///< dictionary strings: entries + 1 (in dictionary_offsets_buffer)
  BufferPtr dictionary_offsets_buffer;
  uint8_t* converted = nullptr;            ///< kBinaryToFixed: the non-null values, converted
  BufferPtr values;    ///< fixed: the output values; kStringDictionary: the indices
  BufferPtr validity;
  // Host results of the status read (slots in the status block).
  size_t status_slot = 0;
  ColumnPtr host_column;  ///< kHost
};

/// A page body decompressed by nvCOMP.
struct DeviceInflate {
  size_t job = 0, page = 0;
  const uint8_t* input = nullptr;  ///< relative address
  size_t input_bytes = 0;
  size_t output_offset = 0;  ///< in the inflated buffer
  size_t output_bytes = 0;
};

/// A page body decompressed on the host (a codec the device path lacks), into the second staging buffer.
struct HostInflate {
  size_t job = 0, page = 0;
  size_t output_offset = 0;
};

/// One nvCOMP call: its pages and the offsets of its argument arrays in the upload block.
struct CodecBatch {
  gpu::DeviceCodec codec{};
  std::vector<DeviceInflate> pages;
  size_t inputs = 0, input_bytes = 0, outputs = 0, capacity = 0, actual = 0, statuses = 0;
  size_t max_output = 0, total_output = 0;
};

/// The host's part of decoding a staged batch, done while it is staged (off the decoding driver's path): each
/// column's path, where each page body will be on the device, and the page tables, nvCOMP arguments and gathers
/// packed into one block whose addresses are relative to buffers the decode allocates (device_pages.hpp).
struct DecodePlan {
  std::vector<LogicalType> types;  ///< the output columns' types the plan was made for
  std::vector<ColumnWork> work;    ///< the host fields filled in
  std::vector<CodecBatch> codec_batches;
  std::vector<HostInflate> host_inflates;
  size_t inflated_total = 0, host_inflated_total = 0, realign_total = 0;
  size_t piece_table = 0, pieces = 0;  ///< gathers of literal-only snappy bodies and realigned inputs, before nvCOMP
  size_t slot_table = 0, slots = 0;    ///< the relative addresses to rebase
  uint64_t pages = 0, literal_pages = 0;
  std::vector<uint8_t> block;
};

/// The plan for `jobs` (chunks of `column_count` output columns of `rows` rows, their pages planned) with output
/// types `types`.
std::unique_ptr<DecodePlan> plan_decode(const std::vector<ChunkJob>& jobs, size_t rows, size_t column_count,
                                        std::vector<LogicalType> types);

}  // namespace kestrel::io::decode_plan
