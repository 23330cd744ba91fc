#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/filter/filter_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 1 << 20)));
}

#define KESTREL_GRID_LOOP(i, n)                                                                 \
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<size_t>(gridDim.x) * blockDim.x)

__global__ void hash_rows_kernel(DeviceKeys keys, size_t rows, uint64_t* hashes, uint8_t* any_null) {
  KESTREL_GRID_LOOP(i, rows) {
    hashes[i] = device_rows::hash_row(keys, i);
    if (any_null != nullptr) any_null[i] = device_rows::any_key_null(keys, i) ? 1 : 0;
  }
}

/// sizes[i] = bytes of row i's dictionary string (0 for NULL rows); sizes[rows] = 0 (room for the scan's total).
__global__ void dictionary_sizes_kernel(const int32_t* indices, const uint8_t* validity, const int64_t* dict_offsets,
                                        size_t rows, int64_t* sizes) {
  KESTREL_GRID_LOOP(i, rows + 1) {
    int64_t size = 0;
    if (i < rows && (validity == nullptr || ((validity[i >> 3] >> (i & 7)) & 1) != 0)) {
      const int32_t r = indices[i];
      size = dict_offsets[r + 1] - dict_offsets[r];
    }
    sizes[i] = size;
  }
}

__global__ void dictionary_chars_kernel(const int32_t* indices, const uint8_t* validity, const int64_t* dict_offsets,
                                        const char* dict_chars, size_t rows, const int64_t* offsets, char* chars) {
  KESTREL_GRID_LOOP(i, rows) {
    if (validity != nullptr && ((validity[i >> 3] >> (i & 7)) & 1) == 0) continue;
    const int32_t r = indices[i];
    const char* src = dict_chars + dict_offsets[r];
    const int64_t n = offsets[i + 1] - offsets[i];
    char* dst = chars + offsets[i];
    for (int64_t b = 0; b < n; ++b) dst[b] = src[b];
  }
}

/// Sets bit (dst_first + i) of `dst` to bit i of `src` (all ones when `src` is null) for i < rows. `dst` starts
/// zeroed; words shared with a neighbouring batch are combined with atomicOr.
__global__ void append_bits_kernel(const uint8_t* src, size_t rows, uint32_t* dst, size_t dst_first) {
  KESTREL_GRID_LOOP(i, rows) {
    const bool valid = src == nullptr || ((src[i >> 3] >> (i & 7)) & 1) != 0;
    if (valid) {
      const size_t bit = dst_first + i;
      atomicOr(dst + (bit >> 5), 1u << (bit & 31));
    }
  }
}

/// dst[i] = src[i] - src[0] + base for i <= rows (the offsets of one batch's strings after earlier batches).
__global__ void rebase_offsets_kernel(const int64_t* src, size_t rows, int64_t base, int64_t* dst) {
  KESTREL_GRID_LOOP(i, rows + 1) { dst[i] = src[i] - src[0] + base; }
}

/// dst[i] = value for i <= rows (the offsets of a part of empty strings).
__global__ void fill_offsets_kernel(size_t rows, int64_t value, int64_t* dst) {
  KESTREL_GRID_LOOP(i, rows + 1) { dst[i] = value; }
}

/// dst[i] = src[i] + base for valid rows, 0 for NULL rows (whose index may be anything).
__global__ void offset_indices_kernel(const int32_t* src, const uint8_t* validity, size_t rows, int32_t base,
                                      int32_t* dst) {
  KESTREL_GRID_LOOP(i, rows) {
    const bool valid = validity == nullptr || ((validity[i >> 3] >> (i & 7)) & 1) != 0;
    dst[i] = valid ? src[i] + base : 0;
  }
}

__global__ void iota_kernel(uint32_t* out, size_t rows, uint32_t first) {
  KESTREL_GRID_LOOP(i, rows) { out[i] = first + static_cast<uint32_t>(i); }
}

/// Order-preserving unsigned transform of a single non-NULL integer key (sign bit flipped), descending inverted.
template <typename T>
__global__ void radix_key_kernel(const T* values, size_t rows, bool descending, uint64_t* out) {
  KESTREL_GRID_LOOP(i, rows) {
    uint64_t k = static_cast<uint64_t>(static_cast<int64_t>(values[i])) ^ (uint64_t{1} << 63);
    out[i] = descending ? ~k : k;
  }
}

struct RowLess {
  DeviceKeys keys;
  DeviceSortOrder order;
  __device__ bool operator()(uint32_t a, uint32_t b) const {
    return device_rows::compare_rows(keys, order, a, b) < 0;
  }
};

/// Concatenates plain fixed-width or dictionary-index values (`width` bytes per row).
BufferPtr concat_values(const std::vector<const Column*>& parts, size_t width, size_t rows, gpu::Stream stream,
                        gpu::MemoryResource& mr) {
  BufferPtr out = device_buffer(rows * width, stream, mr);
  size_t at = 0;
  for (const Column* c : parts) {
    const size_t bytes = c->length() * width;
    if (bytes > 0) {
      gpu::copy_bytes(out->as<uint8_t>() + at, gpu::MemoryKind::kDevice, c->values()->data(), gpu::MemoryKind::kDevice,
                      bytes, stream);
    }
    at += bytes;
  }
  return out;
}

/// The concatenated validity of `parts`, or null when none has NULLs.
BufferPtr concat_validity(const std::vector<const Column*>& parts, size_t rows, size_t& null_count, gpu::Stream stream,
                          gpu::MemoryResource& mr) {
  null_count = 0;
  for (const Column* c : parts) null_count += c->null_count();
  if (null_count == 0) return nullptr;
  const size_t words = (rows + 31) / 32;
  BufferPtr out = device_buffer(words * 4, stream, mr);
  gpu::fill_bytes(out->data(), gpu::MemoryKind::kDevice, 0, words * 4, stream);
  size_t first = 0;
  for (const Column* c : parts) {
    if (c->length() > 0) {
      append_bits_kernel<<<blocks_for(c->length()), kThreads, 0, stream.handle()>>>(
          validity_of(*c), c->length(), out->as<uint32_t>(), first);
      KESTREL_CUDA_CHECK_LAUNCH();
    }
    first += c->length();
  }
  return out;
}

/// Plain VARCHAR columns `cols` one after the other: every part's first and last offset are read in one copy to
/// place its chars.
ColumnPtr concat_strings(const std::vector<const Column*>& cols, const LogicalType& type, size_t rows,
                         gpu::Stream stream, gpu::MemoryResource& mr) {
  size_t null_count = 0;
  BufferPtr validity = concat_validity(cols, rows, null_count, stream, mr);
  BufferPtr ends = device_buffer(cols.size() * 2 * sizeof(int64_t), stream, mr);
  for (size_t p = 0; p < cols.size(); ++p) {
    if (cols[p]->length() == 0 || !cols[p]->offsets()) {
      // An empty part (an empty dictionary may have no offsets at all) adds no bytes.
      gpu::fill_bytes(ends->as<int64_t>() + 2 * p, gpu::MemoryKind::kDevice, 0, 2 * sizeof(int64_t), stream);
      continue;
    }
    const int64_t* off = cols[p]->offsets()->as<int64_t>();
    gpu::copy_bytes(ends->as<int64_t>() + 2 * p, gpu::MemoryKind::kDevice, off, gpu::MemoryKind::kDevice,
                    sizeof(int64_t), stream);
    gpu::copy_bytes(ends->as<int64_t>() + 2 * p + 1, gpu::MemoryKind::kDevice, off + cols[p]->length(),
                    gpu::MemoryKind::kDevice, sizeof(int64_t), stream);
  }
  std::vector<int64_t> host_ends(cols.size() * 2);
  gpu::copy_bytes(host_ends.data(), gpu::MemoryKind::kHost, ends->data(), gpu::MemoryKind::kDevice,
                  host_ends.size() * sizeof(int64_t), stream);
  size_t total = 0;
  for (size_t p = 0; p < cols.size(); ++p) total += static_cast<size_t>(host_ends[2 * p + 1] - host_ends[2 * p]);
  BufferPtr offsets = device_buffer((rows + 1) * sizeof(int64_t), stream, mr);
  gpu::fill_bytes(offsets->data(), gpu::MemoryKind::kDevice, 0, sizeof(int64_t), stream);
  BufferPtr chars = device_buffer(total, stream, mr);
  size_t row_at = 0;
  size_t byte_at = 0;
  for (size_t p = 0; p < cols.size(); ++p) {
    const Column& c = *cols[p];
    if (c.length() == 0) continue;
    if (!c.offsets()) {
      // A part without offsets (every row NULL or empty) still takes its rows: empty strings at byte_at.
      fill_offsets_kernel<<<blocks_for(c.length() + 1), kThreads, 0, stream.handle()>>>(
          c.length(), static_cast<int64_t>(byte_at), offsets->as<int64_t>() + row_at);
      KESTREL_CUDA_CHECK_LAUNCH();
      row_at += c.length();
      continue;
    }
    // Each part writes offsets [row_at, row_at + n]; the next part overwrites the shared last entry with the
    // same value, and the writes are ordered on one stream.
    rebase_offsets_kernel<<<blocks_for(c.length() + 1), kThreads, 0, stream.handle()>>>(
        c.offsets()->as<int64_t>(), c.length(), static_cast<int64_t>(byte_at), offsets->as<int64_t>() + row_at);
    KESTREL_CUDA_CHECK_LAUNCH();
    const size_t bytes = static_cast<size_t>(host_ends[2 * p + 1] - host_ends[2 * p]);
    if (bytes > 0) {
      gpu::copy_bytes(chars->as<char>() + byte_at, gpu::MemoryKind::kDevice, c.values()->as<char>() + host_ends[2 * p],
                      gpu::MemoryKind::kDevice, bytes, stream);
    }
    row_at += c.length();
    byte_at += bytes;
  }
  return Column::from_buffers(type, ColumnEncoding::kPlain, rows, null_count, validity, chars, offsets, nullptr);
}

/// Dictionary columns `cols` one after the other, their dictionaries concatenated (entries may repeat across
/// parts) and each part's indices shifted past the dictionaries before it.
ColumnPtr concat_dictionaries(const std::vector<const Column*>& cols, const LogicalType& type, size_t rows,
                              gpu::Stream stream, gpu::MemoryResource& mr) {
  std::vector<const Column*> dictionaries;
  size_t entries = 0;
  for (const Column* c : cols) {
    dictionaries.push_back(c->dictionary().get());
    entries += c->dictionary()->length();
  }
  KESTREL_CHECK_MSG(entries < (size_t{1} << 31), "a merged dictionary of 2^31 entries or more");
  ColumnPtr dictionary = concat_strings(dictionaries, type, entries, stream, mr);
  size_t null_count = 0;
  BufferPtr validity = concat_validity(cols, rows, null_count, stream, mr);
  BufferPtr indices = device_buffer(rows * sizeof(int32_t), stream, mr);
  size_t row_at = 0;
  size_t base = 0;
  for (const Column* c : cols) {
    if (c->length() > 0) {
      offset_indices_kernel<<<blocks_for(c->length()), kThreads, 0, stream.handle()>>>(
          c->data<int32_t>(), validity_of(*c), c->length(), static_cast<int32_t>(base),
          indices->as<int32_t>() + row_at);
      KESTREL_CUDA_CHECK_LAUNCH();
    }
    row_at += c->length();
    base += c->dictionary()->length();
  }
  return Column::make_dictionary(type, rows, indices, validity, null_count, dictionary);
}

}  // namespace

bool device_key_supported(const LogicalType& type) { return type.id() != TypeId::kNull; }

DeviceKeys device_keys(const Batch& batch, const std::vector<size_t>& columns) {
  KESTREL_CHECK_MSG(batch.on_device() || batch.num_rows() == 0 || batch.num_columns() == 0,
                    "device_keys needs a device batch");
  if (columns.size() > static_cast<size_t>(kMaxDeviceKeys)) {
    throw NotImplemented("more than " + std::to_string(kMaxDeviceKeys) + " key columns on the GPU");
  }
  DeviceKeys keys;
  keys.count = static_cast<int>(columns.size());
  for (size_t k = 0; k < columns.size(); ++k) {
    const Column& c = *batch.column(columns[k]);
    DeviceKeyColumn& d = keys.columns[k];
    d.validity = validity_of(c);
    const LogicalType& t = c.type();
    if (!device_key_supported(t)) throw NotImplemented("a key of type " + t.to_string() + " on the GPU");
    if (c.is_dictionary()) {
      const Column& dict = *c.dictionary();
      d.kind = DeviceKeyKind::kDictString;
      d.indices = c.data<int32_t>();
      d.offsets = dict.offsets() ? dict.offsets()->as<int64_t>() : nullptr;
      d.values = dict.values() ? dict.values()->data() : nullptr;
      continue;
    }
    d.values = c.values() ? c.values()->data() : nullptr;
    switch (t.id()) {
      case TypeId::kVarchar:
        d.kind = DeviceKeyKind::kString;
        d.offsets = c.offsets()->as<int64_t>();
        break;
      case TypeId::kReal: d.kind = DeviceKeyKind::kFloat; break;
      case TypeId::kDouble: d.kind = DeviceKeyKind::kDouble; break;
      case TypeId::kInterval: d.kind = DeviceKeyKind::kInterval; break;
      default:
        switch (t.physical_width()) {
          case 1: d.kind = DeviceKeyKind::kInt8; break;
          case 2: d.kind = DeviceKeyKind::kInt16; break;
          case 4: d.kind = DeviceKeyKind::kInt32; break;
          case 8: d.kind = DeviceKeyKind::kInt64; break;
          case 16: d.kind = DeviceKeyKind::kInt128; break;
          default: throw NotImplemented("a key of type " + t.to_string() + " on the GPU");
        }
    }
  }
  return keys;
}

void hash_device_rows(const DeviceKeys& keys, size_t rows, uint64_t* hashes, uint8_t* any_null, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "hash_device_rows");
  if (rows == 0) return;
  hash_rows_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(keys, rows, hashes, any_null);
  KESTREL_CUDA_CHECK_LAUNCH();
}

ColumnPtr decode_dictionary_gpu(const ColumnPtr& column, gpu::Stream stream, gpu::MemoryResource& mr) {
  if (!column->is_dictionary()) return column;
  gpu::require_explicit_stream(stream, "decode_dictionary_gpu");
  const size_t rows = column->length();
  const Column& dict = *column->dictionary();
  BufferPtr offsets = device_buffer((rows + 1) * sizeof(int64_t), stream, mr);
  BufferPtr validity;
  if (column->null_count() > 0) {
    // A private copy: the dictionary column keeps its own.
    validity = device_buffer(column->validity()->size(), stream, mr);
    gpu::copy_bytes(validity->data(), gpu::MemoryKind::kDevice, column->validity()->data(), gpu::MemoryKind::kDevice,
                    column->validity()->size(), stream);
  }
  const int64_t* dict_offsets = dict.offsets()->as<int64_t>();
  BufferPtr sizes = device_buffer((rows + 1) * sizeof(int64_t), stream, mr);
  dictionary_sizes_kernel<<<blocks_for(rows + 1), kThreads, 0, stream.handle()>>>(
      column->data<int32_t>(), validity_of(*column), dict_offsets, rows, sizes->as<int64_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, sizes->as<int64_t>(), offsets->as<int64_t>(),
                                                   rows + 1, stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp->data(), temp_bytes, sizes->as<int64_t>(),
                                                   offsets->as<int64_t>(), rows + 1, stream.handle()));
  int64_t total = 0;
  gpu::copy_bytes(&total, gpu::MemoryKind::kHost, offsets->as<int64_t>() + rows, gpu::MemoryKind::kDevice,
                  sizeof(int64_t), stream);
  BufferPtr chars = device_buffer(static_cast<size_t>(total), stream, mr);
  if (rows > 0) {
    dictionary_chars_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
        column->data<int32_t>(), validity_of(*column), dict_offsets, dict.values() ? dict.values()->as<char>() : nullptr,
        rows, offsets->as<int64_t>(), chars->as<char>());
    KESTREL_CUDA_CHECK_LAUNCH();
  }
  return Column::from_buffers(column->type(), ColumnEncoding::kPlain, rows, column->null_count(), validity, chars,
                              offsets, nullptr);
}

Batch concat_batches_gpu(const std::vector<Batch>& batches, const SchemaPtr& schema, gpu::Stream stream,
                         gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "concat_batches_gpu");
  std::vector<const Batch*> parts;
  size_t rows = 0;
  for (const Batch& b : batches) {
    if (b.num_rows() == 0) continue;
    KESTREL_CHECK_MSG(b.on_device(), "concat_batches_gpu needs device batches");
    KESTREL_CHECK_MSG(b.num_columns() == schema->size(), "concat_batches_gpu: batch does not match the schema");
    parts.push_back(&b);
    rows += b.num_rows();
  }
  KESTREL_CHECK_MSG(rows < (size_t{1} << 32), "a device table of 2^32 rows or more");
  if (parts.size() == 1) return *parts[0];
  std::vector<ColumnPtr> columns;
  // Decoded dictionary columns stay alive until the copies below are queued.
  std::vector<ColumnPtr> keep;
  for (size_t k = 0; k < schema->size(); ++k) {
    const LogicalType& type = schema->field(k).type;
    std::vector<const Column*> cols;
    bool all_dictionary = !parts.empty();
    bool one_dictionary = true;
    for (const Batch* b : parts) {
      const Column* c = b->column(k).get();
      cols.push_back(c);
      if (!c->is_dictionary()) {
        all_dictionary = false;
      } else if (c->dictionary() != cols.front()->dictionary()) {
        one_dictionary = false;
      }
    }
    size_t null_count = 0;
    if (all_dictionary && !one_dictionary) {
      columns.push_back(concat_dictionaries(cols, type, rows, stream, mr));
      continue;
    }
    if (all_dictionary) {
      BufferPtr validity = concat_validity(cols, rows, null_count, stream, mr);
      BufferPtr indices = concat_values(cols, sizeof(int32_t), rows, stream, mr);
      columns.push_back(
          Column::make_dictionary(type, rows, indices, validity, null_count, parts[0]->column(k)->dictionary()));
      continue;
    }
    if (type.id() != TypeId::kVarchar) {
      BufferPtr validity = concat_validity(cols, rows, null_count, stream, mr);
      BufferPtr values = concat_values(cols, type.physical_width(), rows, stream, mr);
      columns.push_back(Column::from_buffers(type, ColumnEncoding::kPlain, rows, null_count, validity, values, nullptr,
                                             nullptr));
      continue;
    }
    // Plain strings: decode dictionaries first.
    for (size_t p = 0; p < cols.size(); ++p) {
      if (cols[p]->is_dictionary()) {
        keep.push_back(decode_dictionary_gpu(parts[p]->column(k), stream, mr));
        cols[p] = keep.back().get();
      }
    }
    columns.push_back(concat_strings(cols, type, rows, stream, mr));
  }
  return Batch(schema, std::move(columns), rows, gpu::MemoryKind::kDevice, stream);
}

Batch slice_batch_gpu(const Batch& batch, size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "slice_batch_gpu");
  KESTREL_CHECK_MSG(first + count <= batch.num_rows(), "slice_batch_gpu: rows out of range");
  if (first == 0 && count == batch.num_rows()) return batch;
  BufferPtr indices = device_buffer(count * sizeof(uint32_t), stream, mr);
  if (count > 0) {
    iota_kernel<<<blocks_for(count), kThreads, 0, stream.handle()>>>(indices->as<uint32_t>(), count,
                                                                      static_cast<uint32_t>(first));
    KESTREL_CUDA_CHECK_LAUNCH();
  }
  return gather_batch_gpu(batch, indices->as<uint32_t>(), count, stream, mr);
}

void sort_rows_gpu(const DeviceKeys& keys, const DeviceSortOrder& order, size_t rows, uint32_t* perm,
                   gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "sort_rows_gpu");
  if (rows == 0) return;
  KESTREL_CHECK_MSG(rows < (size_t{1} << 31), "sort_rows_gpu: 2^31 rows or more");
  const int n = static_cast<int>(rows);
  const DeviceKeyColumn& k0 = keys.columns[0];
  const bool single_integer = keys.count == 1 && k0.validity == nullptr &&
                              (k0.kind == DeviceKeyKind::kInt32 || k0.kind == DeviceKeyKind::kInt64);
  if (single_integer) {
    // One integer key without NULLs: a stable radix sort of (key, row id) pairs.
    BufferPtr key_in = device_buffer(rows * sizeof(uint64_t), stream, mr);
    BufferPtr key_out = device_buffer(rows * sizeof(uint64_t), stream, mr);
    BufferPtr ids = device_buffer(rows * sizeof(uint32_t), stream, mr);
    if (k0.kind == DeviceKeyKind::kInt32) {
      radix_key_kernel<int32_t><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
          static_cast<const int32_t*>(k0.values), rows, order.descending[0], key_in->as<uint64_t>());
    } else {
      radix_key_kernel<int64_t><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
          static_cast<const int64_t*>(k0.values), rows, order.descending[0], key_in->as<uint64_t>());
    }
    KESTREL_CUDA_CHECK_LAUNCH();
    iota_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(ids->as<uint32_t>(), rows, 0);
    KESTREL_CUDA_CHECK_LAUNCH();
    size_t temp_bytes = 0;
    KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, key_in->as<uint64_t>(),
                                                       key_out->as<uint64_t>(), ids->as<uint32_t>(), perm, n, 0, 64,
                                                       stream.handle()));
    BufferPtr temp = device_buffer(temp_bytes, stream, mr);
    KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp->data(), temp_bytes, key_in->as<uint64_t>(),
                                                       key_out->as<uint64_t>(), ids->as<uint32_t>(), perm, n, 0, 64,
                                                       stream.handle()));
    return;
  }
  iota_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(perm, rows, 0);
  KESTREL_CUDA_CHECK_LAUNCH();
  RowLess less{keys, order};
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, perm, n, less, stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeys(temp->data(), temp_bytes, perm, n, less, stream.handle()));
}

DeviceSortOrder device_sort_order(const std::vector<SortKeySpec>& keys) {
  DeviceSortOrder order;
  for (size_t k = 0; k < keys.size() && k < static_cast<size_t>(kMaxDeviceKeys); ++k) {
    order.descending[k] = keys[k].descending;
    order.nulls_first[k] = keys[k].nulls_first;
  }
  return order;
}

}  // namespace kestrel::exec
