#include <cstring>

#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/kcol/kcol_device.hpp"
#include "io/parquet/parallel_decode.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "gpu/pinned_pool.hpp"
#endif

namespace kestrel::io {

#if !KESTREL_WITH_CUDA

Batch read_kcol_row_group_to_device(const KcolFile&, size_t, const std::vector<size_t>&, const SchemaPtr&, gpu::Stream,
                                    gpu::MemoryResource&) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

#else

namespace {

using kcol::ChunkMeta;
using kcol::Encoding;

/// Whether section [offset, offset + size) lies in a chunk of `chunk` bytes.
bool inside(uint64_t offset, uint64_t size, uint64_t chunk) { return offset <= chunk && size <= chunk - offset; }

/// The host-side checks of the CPU reader that need no data: every section inside the chunk, sizes that match the
/// rows. False sends the chunk to the CPU reader for its message.
bool sections_valid(const ChunkMeta& m, const LogicalType& type, size_t rows) {
  if (m.null_count > rows) return false;
  if (m.null_count > 0 && (m.validity_size < (rows + 7) / 8 || !inside(m.validity_offset, m.validity_size, m.size))) {
    return false;
  }
  const bool is_string = type.id() == TypeId::kVarchar;
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
             inside(m.aux_offset, m.aux_size, m.size) && inside(m.aux2_offset, m.aux2_size, m.size) &&
             (m.dictionary_entries > 0 || m.null_count == rows);
    case Encoding::kStrings:
      return is_string && m.aux_size == (static_cast<uint64_t>(rows) + 1) * 8 && inside(m.aux_offset, m.aux_size, m.size) &&
             inside(m.data_offset, m.data_size, m.size);
  }
  return false;
}

void h2d(void* dst, const uint8_t* src, size_t bytes, gpu::Stream stream) {
  if (bytes == 0) return;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream.handle()));
}

BufferPtr device_copy(const uint8_t* src, size_t bytes, gpu::Stream stream, gpu::MemoryResource& mr) {
  BufferPtr b = Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream);
  h2d(b->data(), src, bytes, stream);
  return b;
}

/// String bytes on the device: copied as they lie, or zstd-decompressed on the host first (kcol compresses only
/// sections where it pays; the device decompressor comes later). A malformed frame throws InvalidInput.
BufferPtr device_strings(const uint8_t* section, uint64_t size, bool zstd, const uint8_t* offsets, size_t count,
                         std::vector<std::vector<uint8_t>>& keep, gpu::Stream stream, gpu::MemoryResource& mr) {
  if (!zstd) return device_copy(section, static_cast<size_t>(size), stream, mr);
  uint64_t plain_size;
  std::memcpy(&plain_size, offsets + count * 8, 8);
  if (plain_size > kcol::plausible_string_bytes(size)) throw InvalidInput("compressed strings claim too many bytes");
  keep.emplace_back(static_cast<size_t>(plain_size));  // pageable: alive until the copy has run (synchronized)
  decompress(CompressionCodec::kZstd, {section, static_cast<size_t>(size)}, {keep.back().data(), keep.back().size()});
  return device_copy(keep.back().data(), keep.back().size(), stream, mr);
}

}  // namespace

Batch read_kcol_row_group_to_device(const KcolFile& file, size_t row_group, const std::vector<size_t>& columns,
                                    const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "read_kcol_row_group_to_device");
  const kcol::Footer& footer = file.footer();
  if (row_group >= file.num_row_groups()) return file.read_row_group(row_group, columns);  // its error
  const size_t rows = static_cast<size_t>(file.row_group_rows(row_group));
  // The chunks, read into one pinned block.
  std::vector<uint64_t> at(columns.size() + 1, 0);
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] >= footer.columns.size()) return file.read_row_group(row_group, columns);
    at[i + 1] = at[i] + (footer.chunk(row_group, columns[i]).size + 63) / 64 * 64;
  }
  gpu::PinnedBlock pinned = gpu::acquire_pinned(std::max<uint64_t>(at.back(), 64));
  parallel_for(columns.size(), 4, [&](size_t i) {
    const ChunkMeta& m = footer.chunk(row_group, columns[i]);
    file.read_bytes(m.offset, static_cast<size_t>(m.size), pinned.data() + at[i]);
  });
  BufferPtr scratch = Buffer::allocate(std::max<uint64_t>(at.back(), 64) + 64, mr, stream);
  uint32_t* error = reinterpret_cast<uint32_t*>(scratch->as<uint8_t>() + at.back());
  KESTREL_CUDA_CHECK(cudaMemsetAsync(error, 0, sizeof(uint32_t), stream.handle()));
  std::vector<ColumnPtr> out(columns.size());
  std::vector<std::vector<uint8_t>> plain_strings;  // decompressed string bytes, alive until the synchronization
  // The bytes the offsets must end at: the section's size, or its decompressed size (the last offset).
  auto plain_size = [](uint64_t size, bool zstd, const uint8_t* offsets, size_t count) -> uint64_t {
    if (!zstd) return size;
    uint64_t v;
    std::memcpy(&v, offsets + count * 8, 8);
    return v;
  };
  for (size_t i = 0; i < columns.size(); ++i) {
    const ChunkMeta& m = footer.chunk(row_group, columns[i]);
    const LogicalType& type = footer.columns[columns[i]].type;
    if (!sections_valid(m, type, rows)) {
      file.read_chunk(row_group, columns[i]);  // throws the CPU reader's error
      throw InternalError("kcol file '" + file.path() + "': the GPU reader rejects a chunk the CPU reader reads");
    }
    const uint8_t* host = pinned.data() + at[i];
    uint8_t* device = scratch->as<uint8_t>() + at[i];
    if (m.null_count > 0) {
      // The bitmap must agree with the null count, as the CPU reader checks.
      size_t valid = 0;
      const uint8_t* bits = host + m.validity_offset;
      for (size_t r = 0; r < rows; ++r) valid += (bits[r >> 3] >> (r & 7)) & 1;
      if (valid != rows - m.null_count) {
        file.read_chunk(row_group, columns[i]);
        throw InternalError("kcol file '" + file.path() + "': the GPU reader rejects a chunk the CPU reader reads");
      }
    }
    BufferPtr validity = m.null_count > 0 ? device_copy(host + m.validity_offset, (rows + 7) / 8, stream, mr) : nullptr;
    const size_t nulls = static_cast<size_t>(m.null_count);
    try {
    switch (m.encoding) {
      case Encoding::kPlain: {
        BufferPtr values = device_copy(host + m.data_offset, static_cast<size_t>(m.data_size), stream, mr);
        out[i] = Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, validity, values, nullptr, nullptr);
        break;
      }
      case Encoding::kPacked:
      case Encoding::kDictionary: {
        // The block table and the words go to the device as they lie in the chunk; the unpacking writes the values.
        h2d(device + m.blocks_offset, host + m.blocks_offset, m.block_count * sizeof(kcol::BlockHeader), stream);
        h2d(device + m.data_offset, host + m.data_offset, static_cast<size_t>(m.data_size), stream);
        const bool dictionary = m.encoding == Encoding::kDictionary;
        const int width = dictionary ? 4 : static_cast<int>(type.physical_width());
        BufferPtr values = Buffer::allocate(std::max<size_t>(rows * static_cast<size_t>(width), 8), mr, stream);
        kcol::unpack_blocks_gpu(reinterpret_cast<const kcol::BlockHeader*>(device + m.blocks_offset),
                                static_cast<size_t>(m.block_count), reinterpret_cast<const uint32_t*>(device + m.data_offset),
                                static_cast<size_t>(m.data_size / 4), rows, width,
                                dictionary ? std::max<uint64_t>(m.dictionary_entries, 1) : 0,
                                type.id() == TypeId::kBoolean, values->data(), error, stream);
        if (!dictionary) {
          out[i] = Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, validity, values, nullptr, nullptr);
          break;
        }
        const size_t entries = static_cast<size_t>(m.dictionary_entries);
        BufferPtr offsets = device_copy(host + m.aux_offset, (entries + 1) * 8, stream, mr);
        BufferPtr bytes = device_strings(host + m.aux2_offset, m.aux2_size, m.bytes_zstd, host + m.aux_offset, entries,
                                         plain_strings, stream, mr);
        kcol::check_offsets_gpu(offsets->as<int64_t>(), entries, plain_size(m.aux2_size, m.bytes_zstd, host + m.aux_offset, entries),
                                error, stream);
        ColumnPtr dict = Column::from_buffers(type, ColumnEncoding::kPlain, entries, 0, nullptr, bytes, offsets, nullptr);
        out[i] = Column::make_dictionary(type, rows, values, validity, nulls, dict);
        break;
      }
      case Encoding::kStrings: {
        BufferPtr offsets = device_copy(host + m.aux_offset, (rows + 1) * 8, stream, mr);
        BufferPtr bytes = device_strings(host + m.data_offset, m.data_size, m.bytes_zstd, host + m.aux_offset, rows,
                                         plain_strings, stream, mr);
        kcol::check_offsets_gpu(offsets->as<int64_t>(), rows, plain_size(m.data_size, m.bytes_zstd, host + m.aux_offset, rows), error,
                                stream);
        out[i] = Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, validity, bytes, offsets, nullptr);
        break;
      }
    }
    } catch (const InvalidInput&) {
      file.read_chunk(row_group, columns[i]);  // a malformed compressed section: the CPU reader's error
      throw InternalError("kcol file '" + file.path() + "': the GPU reader rejects a chunk the CPU reader reads");
    }
  }
  uint32_t flagged = 0;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(&flagged, error, sizeof(flagged), cudaMemcpyDeviceToHost, stream.handle()));
  // The data checks' verdict is needed before the batch leaves (and the pinned block must outlive its copies).
  stream.synchronize();
  if (flagged != 0) {
    for (size_t c : columns) file.read_chunk(row_group, c);
    throw InternalError("kcol file '" + file.path() + "': the GPU reader rejects row group " +
                        std::to_string(row_group) + ", which the CPU reader reads");
  }
  return Batch(schema, std::move(out), rows, gpu::MemoryKind::kDevice, stream);
}

#endif

}  // namespace kestrel::io
