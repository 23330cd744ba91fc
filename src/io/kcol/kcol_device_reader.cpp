#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/kcol/kcol_device.hpp"
#include "io/parquet/parallel_decode.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_block.hpp"
#include "gpu/file_mapping.hpp"
#include "gpu/nvcomp.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/pull_copy.hpp"
#endif

namespace kestrel::io {

#if !KESTREL_WITH_CUDA

struct StagedKcol {};

std::shared_ptr<StagedKcol> stage_kcol(const std::vector<KcolPart>&, const std::vector<size_t>&, const StageUpload*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

Batch decode_staged_kcol(StagedKcol&, const SchemaPtr&, gpu::Stream, gpu::MemoryResource&, DeviceScanStats*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

Batch read_kcol_to_device(const std::vector<KcolPart>&, const std::vector<size_t>&, const SchemaPtr&, gpu::Stream,
                          gpu::MemoryResource&, DeviceScanStats*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

#else

namespace {

using kcol::ChunkMeta;
using kcol::Encoding;

constexpr uint64_t kReadPiece = uint64_t{8} << 20;  ///< one I/O task reads (or registers) at most this much

/// Whether section [offset, offset + size) lies in a chunk of `chunk` bytes.
bool inside(uint64_t offset, uint64_t size, uint64_t chunk) { return offset <= chunk && size <= chunk - offset; }

/// The host-side checks of the CPU reader that need no data: every section inside the chunk, sizes that match the
/// rows. False sends the chunk to the CPU reader for its message.
bool sections_valid(const ChunkMeta& m, const LogicalType& type, size_t rows) {
  if (m.null_count > rows) return false;
  if (m.null_count > 0 && (m.validity_size < (rows + 7) / 8 || !inside(m.validity_offset, m.validity_size, m.size))) {
    return false;
  }
  const bool is_string = type.is_variable_width();
  const bool packed_sections = m.encoding == Encoding::kPacked || m.encoding == Encoding::kDictionary;
  if (packed_sections) {
    const size_t blocks = (rows + kcol::kBlockValues - 1) / kcol::kBlockValues;
    if (m.block_count != blocks || m.block_count > m.size / sizeof(kcol::BlockHeader)) return false;
    if (!inside(m.blocks_offset, m.block_count * sizeof(kcol::BlockHeader), m.size) || m.blocks_offset % 8 != 0) {
      return false;
    }
    if (!inside(m.data_offset, m.data_size, m.size) || m.data_offset % 4 != 0) return false;
  }
  switch (m.encoding) {
    case Encoding::kPlain:
      return !is_string && !kcol::packed_type(type) && m.data_size == rows * type.physical_width() &&
             inside(m.data_offset, m.data_size, m.size);
    case Encoding::kPacked: return kcol::packed_type(type);
    case Encoding::kDictionary:
      return is_string && m.dictionary_entries < (uint64_t{1} << 31) && m.aux_size == (m.dictionary_entries + 1) * 8 &&
             m.aux_offset % 8 == 0 &&
             inside(m.aux_offset, m.aux_size, m.size) && inside(m.aux2_offset, m.aux2_size, m.size) &&
             (m.dictionary_entries > 0 || m.null_count == rows);
    case Encoding::kStrings:
      return is_string && m.aux_size == (static_cast<uint64_t>(rows) + 1) * 8 && m.aux_offset % 8 == 0 &&
             inside(m.aux_offset, m.aux_size, m.size) &&
             inside(m.data_offset, m.data_size, m.size);
  }
  return false;
}

void h2d(void* dst, const void* src, size_t bytes, gpu::Stream stream) {
  if (bytes == 0) return;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream.handle()));
}

void d2d(void* dst, const void* src, size_t bytes, gpu::Stream stream) {
  if (bytes == 0) return;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream.handle()));
}

uint64_t u64_at(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

struct StagedKcol {
  struct Chunk {
    const KcolFile* file = nullptr;
    size_t row_group = 0, column = 0;  ///< file column
    const ChunkMeta* meta = nullptr;
    uint64_t at = 0;                    ///< in the batch's device copy (and the staging buffer)
    const uint8_t* host = nullptr;      ///< the chunk's bytes on the host (mapping or staging)
    gpu::FileMapping* mapping = nullptr;  ///< null: in the staging buffer
  };
  std::vector<KcolPart> parts;
  std::vector<size_t> columns;
  std::vector<uint64_t> first_rows;  ///< per part, and the total last
  std::vector<Chunk> chunks;         ///< part-major: chunk of part p, column i at p * columns + i
  uint64_t total = 0;       ///< the device copy's size (chunks padded to 64 bytes)
  uint64_t file_bytes = 0;  ///< the chunks' bytes in the files
  gpu::PinnedBlock staging;
  uint64_t mapped_bytes = 0, read_ns = 0;
  size_t reads = 0;
  // The bytes already sent to the device (StageUpload), until the decode takes them over.
  gpu::DeviceUpload upload;
};

namespace {

void copy_chunks_to_device(const StagedKcol& staged, uint8_t* device, gpu::Stream stream) {
  if (staged.mapped_bytes == 0) {
    h2d(device, staged.staging.data(), static_cast<size_t>(staged.total), stream);
    return;
  }
  gpu::CopyBatch batch;  // one batch: the copy engine's speed for chunk-sized copies (gpu/copy.hpp)
  for (const StagedKcol::Chunk& c : staged.chunks) {
    if (c.mapping != nullptr) {
      c.mapping->add_copies(batch, device + c.at, c.meta->offset, c.meta->size);
    } else {
      batch.add(device + c.at, staged.staging.data() + c.at, static_cast<size_t>(c.meta->size));
    }
  }
  batch.queue(stream);
}

[[noreturn]] void reject(const StagedKcol::Chunk& c, const std::string& why) {
  c.file->read_chunk(c.row_group, c.column);  // throws the CPU reader's error
  throw InternalError("kcol file '" + c.file->path() + "': the GPU reader rejects column " + std::to_string(c.column) +
                      " of row group " + std::to_string(c.row_group) + ", which the CPU reader reads (" + why + ")");
}

}  // namespace

std::shared_ptr<StagedKcol> stage_kcol(const std::vector<KcolPart>& parts, const std::vector<size_t>& columns,
                                       const StageUpload* upload) {
  auto staged = std::make_shared<StagedKcol>();
  staged->parts = parts;
  staged->columns = columns;
  staged->first_rows.assign(parts.size() + 1, 0);
  for (size_t p = 0; p < parts.size(); ++p) {
    const auto& [file, row_group] = parts[p];
    if (row_group >= file->num_row_groups()) file->read_row_group(row_group, columns);  // its error
    staged->first_rows[p + 1] = staged->first_rows[p] + file->row_group_rows(row_group);
    for (size_t c : columns) {
      if (c >= file->footer().columns.size()) file->read_row_group(row_group, columns);
      StagedKcol::Chunk chunk;
      chunk.file = file;
      chunk.row_group = row_group;
      chunk.column = c;
      chunk.meta = &file->footer().chunk(row_group, c);
      chunk.at = staged->total;
      staged->total += (chunk.meta->size + 63) / 64 * 64;
      staged->file_bytes += chunk.meta->size;
      staged->chunks.push_back(chunk);
    }
  }
  // The chunks by DMA from the files' registered mappings where possible, else read into pinned staging.
  const auto t_read = std::chrono::steady_clock::now();
  struct Piece {
    size_t chunk;
    uint64_t offset, length;
  };
  std::vector<Piece> pieces;
  for (size_t i = 0; i < staged->chunks.size(); ++i) {
    const ChunkMeta& m = *staged->chunks[i].meta;
    for (uint64_t at = 0; at < m.size; at += kReadPiece) {
      pieces.push_back(Piece{i, m.offset + at, std::min<uint64_t>(kReadPiece, m.size - at)});
    }
  }
  std::unique_ptr<std::atomic<uint8_t>[]> mapped(new std::atomic<uint8_t>[staged->chunks.size()]);
  for (size_t i = 0; i < staged->chunks.size(); ++i) {
    mapped[i].store(staged->chunks[i].file->dma_mapping() != nullptr ? 1 : 0);
  }
  parallel_for(pieces.size(), device_io_threads(), [&](size_t i) {
    const Piece& p = pieces[i];
    if (mapped[p.chunk].load() != 0 &&
        !staged->chunks[p.chunk].file->dma_mapping()->prepare(p.offset, p.length)) {
      mapped[p.chunk].store(0);
    }
  });
  std::vector<Piece> reads;
  for (const Piece& p : pieces) {
    if (mapped[p.chunk].load() == 0) reads.push_back(p);
  }
  if (!reads.empty()) {
    staged->staging = gpu::acquire_pinned(std::max<uint64_t>(staged->total, 64));
    parallel_for(reads.size(), device_io_threads(), [&](size_t i) {
      const Piece& p = reads[i];
      const StagedKcol::Chunk& c = staged->chunks[p.chunk];
      c.file->read_bytes(p.offset, static_cast<size_t>(p.length),
                         staged->staging.data() + c.at + (p.offset - c.meta->offset));
    });
  }
  for (size_t i = 0; i < staged->chunks.size(); ++i) {
    StagedKcol::Chunk& c = staged->chunks[i];
    if (mapped[i].load() != 0) {
      c.mapping = c.file->dma_mapping();
      c.host = c.mapping->data() + c.meta->offset;
      staged->mapped_bytes += c.meta->size;
    } else {
      c.host = staged->staging.data() + c.at;
    }
  }
  staged->reads = reads.size();
  staged->read_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t_read).count());
  if (upload != nullptr) {
    // Without room ahead of the decode, the decode copies the bytes itself.
    const UploadTurn turn(*upload);
    staged->upload.start(*upload->mr, std::max<uint64_t>(staged->total, 8), upload->stream,
                         [&](uint8_t* device) { copy_chunks_to_device(*staged, device, upload->stream); });
  }
  return staged;
}

Batch decode_staged_kcol(StagedKcol& staged, const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr,
                         DeviceScanStats* stats) {
  gpu::require_explicit_stream(stream, "decode_staged_kcol");
  const auto t_decode = std::chrono::steady_clock::now();
  const size_t rows = static_cast<size_t>(staged.first_rows.back());
  const size_t column_count = staged.columns.size();
  const size_t part_count = staged.parts.size();
  if (column_count == 0) return Batch(schema, {}, rows, gpu::MemoryKind::kDevice, stream);
  if (part_count == 0) {
    // No row groups (a file of no rows): empty columns of the schema's types.
    std::vector<ColumnPtr> empty;
    for (const Field& f : schema->fields()) {
      if (f.type.is_variable_width()) {
        empty.push_back(Column::retyped(Column::make_string(0, 0, f.nullable, mr, stream), f.type));
        KESTREL_CUDA_CHECK(
            cudaMemsetAsync(empty.back()->mutable_offsets(), 0, sizeof(int64_t), stream.handle()));
      } else {
        empty.push_back(Column::make_fixed(f.type, 0, f.nullable, mr, stream));
      }
    }
    return Batch(schema, std::move(empty), 0, gpu::MemoryKind::kDevice, stream);
  }
  gpu::PinnedBlock tables, status_block, host_frames;
  gpu::SyncOnError sync_on_error(stream);
  std::vector<BufferPtr> held;  // scratch, freed in the stream's order when this returns
  auto alloc = [&](size_t bytes) {
    held.push_back(Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream));
    return held.back()->as<uint8_t>();
  };
  uint8_t* raw = nullptr;
  gpu::DeviceBlock uploaded;  // the read-ahead's copy, taken over: freed in this stream's order
  if (staged.upload) {
    uploaded = staged.upload.take(stream);
    raw = uploaded.data();
  } else {
    raw = alloc(static_cast<size_t>(staged.total) + 64);
    copy_chunks_to_device(staged, raw, stream);
  }
  uint32_t* error = reinterpret_cast<uint32_t*>(alloc(8));
  KESTREL_CUDA_CHECK(cudaMemsetAsync(error, 0, sizeof(uint32_t), stream.handle()));

  std::vector<kcol::UnpackJob> jobs;
  std::vector<uint64_t> starts{0};
  struct Frame {
    kcol::BytesCodec codec;
    size_t chunk;
    const uint8_t* input;
    size_t input_bytes;
    uint8_t* output;
    size_t output_bytes;
    const uint8_t* host_input;
  };
  std::vector<Frame> frames;
  std::vector<kcol::BytesFrame> table;
  // A string section's bytes into `dst`: copied, or its compressed frames queued for decompression.
  auto section_bytes = [&](size_t chunk_index, uint64_t offset, uint64_t size, kcol::BytesCodec codec, uint64_t plain,
                           uint8_t* dst) {
    const StagedKcol::Chunk& c = staged.chunks[chunk_index];
    if (codec == kcol::BytesCodec::kNone) {
      d2d(dst, raw + c.at + offset, static_cast<size_t>(size), stream);
      return;
    }
    if (plain > kcol::plausible_string_bytes(size) || !kcol::bytes_frames(c.host + offset, size, plain, table)) {
      reject(c, "compressed frame table");
    }
    for (const kcol::BytesFrame& f : table) {
      frames.push_back(Frame{codec, chunk_index, raw + c.at + offset + f.offset, static_cast<size_t>(f.size),
                             dst + f.plain_offset, static_cast<size_t>(f.plain_size), c.host + offset + f.offset});
    }
  };
  std::vector<ColumnPtr> out(column_count);
  size_t host_columns = 0;
  for (size_t i = 0; i < column_count; ++i) {
    auto chunk_of = [&](size_t p) -> const StagedKcol::Chunk& { return staged.chunks[p * column_count + i]; };
    const LogicalType& type = schema->field(i).type;
    size_t nulls = 0;
    uint64_t entries_total = 0;
    bool all_dictionary = true, all_strings = true;
    for (size_t p = 0; p < part_count; ++p) {
      const StagedKcol::Chunk& c = chunk_of(p);
      const ChunkMeta& m = *c.meta;
      const size_t part_rows = static_cast<size_t>(staged.first_rows[p + 1] - staged.first_rows[p]);
      if (!(c.file->footer().columns[c.column].type == type) || !sections_valid(m, type, part_rows)) {
        reject(c, "section bounds");
      }
      if (m.null_count > 0) {
        // The bitmap must agree with the null count, as the CPU reader checks.
        const uint8_t* bits = c.host + m.validity_offset;
        size_t valid = 0, r = 0;
        for (; r + 64 <= part_rows; r += 64) valid += static_cast<size_t>(std::popcount(u64_at(bits + r / 8)));
        for (; r < part_rows; ++r) valid += (bits[r >> 3] >> (r & 7)) & 1;
        if (valid != part_rows - m.null_count) reject(c, "null count");
      }
      if (m.encoding == Encoding::kDictionary || m.encoding == Encoding::kStrings) {
        // A compressed section's claimed size and frame table are checked before anything is sized from them.
        const bool dict = m.encoding == Encoding::kDictionary;
        const uint64_t count = dict ? m.dictionary_entries : part_rows;
        const uint64_t size = dict ? m.aux2_size : m.data_size;
        if (m.bytes_codec != kcol::BytesCodec::kNone) {
          const uint64_t plain = u64_at(c.host + m.aux_offset + count * 8);
          if (plain > kcol::plausible_string_bytes(size) ||
              !kcol::bytes_frames(c.host + (dict ? m.aux2_offset : m.data_offset), size, plain, table)) {
            reject(c, "compressed frame table");
          }
        }
        if (dict) entries_total += m.dictionary_entries;
      }
      nulls += static_cast<size_t>(m.null_count);
      all_dictionary = all_dictionary && m.encoding == Encoding::kDictionary;
      all_strings = all_strings && m.encoding == Encoding::kStrings;
    }
    if (type.is_variable_width() &&
        ((!all_dictionary && !all_strings) || (all_dictionary && entries_total >= (uint64_t{1} << 31)))) {
      // Row groups that chose different string encodings, or dictionaries too big together for 32-bit codes: the
      // CPU twin reads them and the column is copied over.
      std::vector<Batch> hosts;
      auto one = std::make_shared<const Schema>(std::vector<Field>{Field{"c", type, true}});
      for (size_t p = 0; p < part_count; ++p) {
        const StagedKcol::Chunk& c = chunk_of(p);
        ColumnPtr col = c.file->read_chunk(c.row_group, c.column);
        hosts.emplace_back(one, std::vector<ColumnPtr>{col}, col->length(), gpu::MemoryKind::kHost);
      }
      out[i] = copy_column(*concat_batches(hosts, one).column(0), mr, stream);
      ++host_columns;
      continue;
    }
    BufferPtr validity;
    if (nulls > 0) {
      validity = Buffer::allocate((rows + 31) / 32 * 4, mr, stream);
      KESTREL_CUDA_CHECK(cudaMemsetAsync(validity->data(), 0, (rows + 31) / 32 * 4, stream.handle()));
      for (size_t p = 0; p < part_count; ++p) {
        const StagedKcol::Chunk& c = chunk_of(p);
        const size_t part_rows = static_cast<size_t>(staged.first_rows[p + 1] - staged.first_rows[p]);
        kcol::copy_bits_gpu(c.meta->null_count > 0 ? raw + c.at + c.meta->validity_offset : nullptr, part_rows,
                            validity->as<uint8_t>(), static_cast<size_t>(staged.first_rows[p]), stream);
      }
    }
    const Encoding encoding = chunk_of(0).meta->encoding;
    if (encoding == Encoding::kPlain || encoding == Encoding::kPacked) {
      const size_t width = type.physical_width();
      BufferPtr values = Buffer::allocate(std::max<size_t>(rows * width, 8), mr, stream);
      for (size_t p = 0; p < part_count; ++p) {
        const StagedKcol::Chunk& c = chunk_of(p);
        const ChunkMeta& m = *c.meta;
        uint8_t* dst = values->as<uint8_t>() + staged.first_rows[p] * width;
        if (m.encoding == Encoding::kPlain) {
          d2d(dst, raw + c.at + m.data_offset, static_cast<size_t>(m.data_size), stream);
          continue;
        }
        kcol::UnpackJob job;
        job.blocks = reinterpret_cast<const kcol::BlockHeader*>(raw + c.at + m.blocks_offset);
        job.words = reinterpret_cast<const uint32_t*>(raw + c.at + m.data_offset);
        job.out = dst;
        job.block_count = m.block_count;
        job.word_count = m.data_size / 4;
        job.rows = staged.first_rows[p + 1] - staged.first_rows[p];
        job.out_width = static_cast<int32_t>(width);
        job.boolean = type.id() == TypeId::kBoolean ? 1 : 0;
        jobs.push_back(job);
        starts.push_back(starts.back() + m.block_count);
      }
      out[i] = Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, validity, values, nullptr, nullptr);
      continue;
    }
    // Strings: offsets shifted by the bytes of the row groups before, bytes side by side; dictionaries likewise,
    // with codes shifted by the entries before.
    const bool dictionary = encoding == Encoding::kDictionary;
    std::vector<uint64_t> count_before(part_count + 1, 0), bytes_before(part_count + 1, 0);
    for (size_t p = 0; p < part_count; ++p) {
      const StagedKcol::Chunk& c = chunk_of(p);
      const ChunkMeta& m = *c.meta;
      const uint64_t count = dictionary ? m.dictionary_entries : staged.first_rows[p + 1] - staged.first_rows[p];
      const uint64_t section_size = dictionary ? m.aux2_size : m.data_size;
      const uint64_t plain =
          m.bytes_codec != kcol::BytesCodec::kNone ? u64_at(c.host + m.aux_offset + count * 8) : section_size;
      count_before[p + 1] = count_before[p] + count;
      bytes_before[p + 1] = bytes_before[p] + plain;
    }
    BufferPtr offsets = Buffer::allocate((count_before.back() + 1) * 8, mr, stream);
    BufferPtr bytes = Buffer::allocate(std::max<uint64_t>(bytes_before.back(), 8), mr, stream);
    BufferPtr codes;
    if (dictionary) codes = Buffer::allocate(std::max<size_t>(rows * 4, 8), mr, stream);
    for (size_t p = 0; p < part_count; ++p) {
      const StagedKcol::Chunk& c = chunk_of(p);
      const ChunkMeta& m = *c.meta;
      const uint64_t count = count_before[p + 1] - count_before[p];
      const uint64_t plain = bytes_before[p + 1] - bytes_before[p];
      kcol::copy_offsets_gpu(reinterpret_cast<const int64_t*>(raw + c.at + m.aux_offset), static_cast<size_t>(count),
                             plain, static_cast<int64_t>(bytes_before[p]), p + 1 == part_count,
                             offsets->as<int64_t>() + count_before[p], error, stream);
      section_bytes(p * column_count + i, dictionary ? m.aux2_offset : m.data_offset,
                    dictionary ? m.aux2_size : m.data_size, m.bytes_codec, plain,
                    bytes->as<uint8_t>() + bytes_before[p]);
      if (dictionary) {
        kcol::UnpackJob job;
        job.blocks = reinterpret_cast<const kcol::BlockHeader*>(raw + c.at + m.blocks_offset);
        job.words = reinterpret_cast<const uint32_t*>(raw + c.at + m.data_offset);
        job.out = codes->as<int32_t>() + staged.first_rows[p];
        job.block_count = m.block_count;
        job.word_count = m.data_size / 4;
        job.rows = staged.first_rows[p + 1] - staged.first_rows[p];
        job.limit = std::max<uint64_t>(m.dictionary_entries, 1);
        job.code_base = count_before[p];
        job.out_width = 4;
        jobs.push_back(job);
        starts.push_back(starts.back() + m.block_count);
      }
    }
    if (dictionary) {
      ColumnPtr dict = Column::from_buffers(type, ColumnEncoding::kPlain, static_cast<size_t>(count_before.back()), 0,
                                            nullptr, bytes, offsets, nullptr);
      out[i] = Column::make_dictionary(type, rows, codes, validity, nulls, dict);
    } else {
      out[i] = Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, validity, bytes, offsets, nullptr);
    }
  }

  // The job table and the nvCOMP arguments go over in one pinned block. nvCOMP wants aligned buffers: frames
  // that start or land at an odd place go through aligned scratch (copied in before, out after). The frames are
  // ordered by codec, one nvCOMP batch per codec; when the device lacks a codec they all go through the host.
  std::stable_sort(frames.begin(), frames.end(),
                   [](const Frame& a, const Frame& b) { return a.codec < b.codec; });
  auto device_codec = [](kcol::BytesCodec codec) {
    return codec == kcol::BytesCodec::kZstd ? gpu::DeviceCodec::kZstd : gpu::DeviceCodec::kLz4;
  };
  bool device_frames = !frames.empty();
  for (size_t f = 0; f < frames.size(); ++f) {
    if (f == 0 || frames[f].codec != frames[f - 1].codec) {
      device_frames = device_frames && gpu::device_codec_available(device_codec(frames[f].codec));
    }
  }
  struct Moved {
    uint8_t* dst;
    const uint8_t* src;
    size_t bytes;
  };
  std::vector<Moved> copy_out;
  if (device_frames) {
    constexpr uintptr_t kAlign = 16;
    auto misaligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % kAlign != 0; };
    auto padded = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
    size_t in_bytes = 0, out_bytes = 0;
    for (const Frame& f : frames) {
      if (misaligned(f.input)) in_bytes += padded(f.input_bytes);
      if (misaligned(f.output)) out_bytes += padded(f.output_bytes);
    }
    uint8_t* in_at = in_bytes > 0 ? alloc(in_bytes) : nullptr;
    uint8_t* out_at = out_bytes > 0 ? alloc(out_bytes) : nullptr;
    for (Frame& f : frames) {
      if (misaligned(f.input)) {
        d2d(in_at, f.input, f.input_bytes, stream);
        f.input = in_at;
        in_at += padded(f.input_bytes);
      }
      if (misaligned(f.output)) {
        copy_out.push_back(Moved{f.output, out_at, f.output_bytes});
        f.output = out_at;
        out_at += padded(f.output_bytes);
      }
    }
  }
  const size_t job_bytes = jobs.size() * sizeof(kcol::UnpackJob), start_bytes = starts.size() * 8;
  const size_t frame_count = device_frames ? frames.size() : 0;
  const size_t table_bytes = job_bytes + start_bytes + frame_count * 4 * 8 + 64;
  tables = gpu::acquire_pinned(table_bytes);
  uint8_t* device_tables = alloc(table_bytes);
  std::memcpy(tables.data(), jobs.data(), job_bytes);
  std::memcpy(tables.data() + job_bytes, starts.data(), start_bytes);
  size_t frame_at = job_bytes + start_bytes;
  frame_at = (frame_at + 7) / 8 * 8;
  if (device_frames) {
    auto* host_args = reinterpret_cast<uint64_t*>(tables.data() + frame_at);
    for (size_t f = 0; f < frame_count; ++f) {
      host_args[f] = reinterpret_cast<uint64_t>(frames[f].input);
      host_args[frame_count + f] = frames[f].input_bytes;
      host_args[2 * frame_count + f] = reinterpret_cast<uint64_t>(frames[f].output);
      host_args[3 * frame_count + f] = frames[f].output_bytes;
    }
  }
  gpu::pull_pinned_to_device(device_tables, tables.data(), table_bytes, stream);  // not behind the read-ahead
  kcol::unpack_jobs_gpu(reinterpret_cast<const kcol::UnpackJob*>(device_tables),
                        reinterpret_cast<const uint64_t*>(device_tables + job_bytes), jobs.size(), starts.back(), error,
                        stream);
  // Compressed frames: one nvCOMP batch per codec, or the host when a device codec is missing.
  size_t* actual = nullptr;
  int* statuses = nullptr;
  if (device_frames) {
    auto* args = reinterpret_cast<uint64_t*>(device_tables + frame_at);
    actual = reinterpret_cast<size_t*>(alloc(frame_count * sizeof(size_t)));
    statuses = reinterpret_cast<int*>(alloc(frame_count * sizeof(int)));
    for (size_t first = 0; first < frame_count;) {
      size_t end = first;
      gpu::DeviceDecompressBatch batch;
      for (; end < frame_count && frames[end].codec == frames[first].codec; ++end) {
        batch.max_output_bytes = std::max(batch.max_output_bytes, frames[end].output_bytes);
        batch.total_output_bytes += frames[end].output_bytes;
      }
      batch.inputs = reinterpret_cast<const void* const*>(args + first);
      batch.input_bytes = reinterpret_cast<const size_t*>(args + frame_count + first);
      batch.outputs = reinterpret_cast<void* const*>(args + 2 * frame_count + first);
      batch.output_capacity = reinterpret_cast<const size_t*>(args + 3 * frame_count + first);
      batch.actual_bytes = actual + first;
      batch.statuses = statuses + first;
      batch.count = end - first;
      gpu::decompress_on_device(device_codec(frames[first].codec), batch, stream, mr);
      first = end;
    }
    for (const Moved& m : copy_out) d2d(m.dst, m.src, m.bytes, stream);
  } else if (!frames.empty()) {
    size_t total = 0;
    std::vector<size_t> at(frames.size());
    for (size_t f = 0; f < frames.size(); ++f) {
      at[f] = total;
      total += frames[f].output_bytes;
    }
    host_frames = gpu::acquire_pinned(std::max<size_t>(total, 64));
    parallel_for(frames.size(), device_io_threads(), [&](size_t f) {
      try {
        decompress(frames[f].codec == kcol::BytesCodec::kZstd ? CompressionCodec::kZstd : CompressionCodec::kLz4Raw,
                   {frames[f].host_input, frames[f].input_bytes},
                   {host_frames.data() + at[f], frames[f].output_bytes});
      } catch (const InvalidInput& e) {
        reject(staged.chunks[frames[f].chunk], e.message());
      }
    });
    for (size_t f = 0; f < frames.size(); ++f) h2d(frames[f].output, host_frames.data() + at[f], frames[f].output_bytes, stream);
  }
  // One synchronization: the device checks' verdict and the frames' statuses.
  const size_t status_bytes = 8 + frame_count * (sizeof(size_t) + sizeof(int));
  status_block = gpu::acquire_pinned(status_bytes);
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(status_block.data(), error, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream.handle()));
  if (frame_count > 0) {
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(status_block.data() + 8, actual, frame_count * sizeof(size_t),
                                       cudaMemcpyDeviceToHost, stream.handle()));
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(status_block.data() + 8 + frame_count * sizeof(size_t), statuses,
                                       frame_count * sizeof(int), cudaMemcpyDeviceToHost, stream.handle()));
  }
  stream.synchronize();
  for (size_t f = 0; f < frame_count; ++f) {
    size_t got;
    int status;
    std::memcpy(&got, status_block.data() + 8 + f * sizeof(size_t), sizeof(size_t));
    std::memcpy(&status, status_block.data() + 8 + frame_count * sizeof(size_t) + f * sizeof(int), sizeof(int));
    if (status != 0 || got != frames[f].output_bytes) reject(staged.chunks[frames[f].chunk], std::string(kcol::bytes_codec_name(frames[f].codec)) + " frame");
  }
  uint32_t flagged;
  std::memcpy(&flagged, status_block.data(), sizeof(flagged));
  if (flagged != 0) {
    for (const StagedKcol::Chunk& c : staged.chunks) c.file->read_chunk(c.row_group, c.column);
    throw InternalError("kcol: the GPU reader rejects a batch of " + std::to_string(part_count) +
                        " row groups that the CPU reader reads (first file '" + staged.parts.front().first->path() + "')");
  }
  if (stats != nullptr) {
    stats->batches += 1;
    stats->kcol_batches += 1;
    stats->bytes_read += staged.file_bytes;
    stats->bytes_mapped += staged.mapped_bytes;
    stats->reads += staged.reads;
    stats->read_ns += staged.read_ns;
    stats->h2d_bytes += staged.total;
    stats->chunks_host_decoded += host_columns * part_count;
    if (uploaded) stats->uploaded_ahead += 1;
    stats->decode_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t_decode).count());
  }
  return Batch(schema, std::move(out), rows, gpu::MemoryKind::kDevice, stream);
}

Batch read_kcol_to_device(const std::vector<KcolPart>& parts, const std::vector<size_t>& columns,
                          const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr, DeviceScanStats* stats) {
  gpu::require_explicit_stream(stream, "read_kcol_to_device");
  std::shared_ptr<StagedKcol> staged = stage_kcol(parts, columns, nullptr);
  return decode_staged_kcol(*staged, schema, stream, mr, stats);
}

#endif

}  // namespace kestrel::io
