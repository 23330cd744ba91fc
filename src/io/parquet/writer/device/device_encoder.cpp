#include "io/parquet/writer/device/device_encoder.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "io/compression/codec.hpp"
#include "io/parquet/parallel_decode.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/writer/metadata_encoder.hpp"
#include "vector/transfer.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "gpu/nvcomp.hpp"
#include "gpu/pinned_pool.hpp"
#include "io/parquet/writer/device/encode_pages.hpp"
#endif

namespace kestrel::io::parquet {

#if !KESTREL_WITH_CUDA

bool device_encoding_supported() { return false; }

std::vector<EncodedColumnChunk> encode_row_group_on_device(const Schema&, const std::vector<std::vector<ColumnSlice>>&,
                                                           const ParquetWriterOptions&, gpu::Stream,
                                                           gpu::MemoryResource&, DeviceWriteStats*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

#else

bool device_encoding_supported() { return true; }

namespace {

namespace dw = device_write;

/// String pages are cut at multiples of this many rows, from the measured size of each such segment.
constexpr uint32_t kSegmentRows = 1024;
constexpr size_t kAlign = 8;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

enum class Path : uint8_t { kHost, kFixed, kString, kDictionary };

/// One page to encode: its descriptor (pointers filled once the buffers exist) and where its body goes.
struct PagePlan {
  size_t column = 0;
  bool dictionary_page = false;
  dw::EncodePage page;
  size_t capacity = 0;
  size_t body_offset = 0;     ///< in the body arena
  size_t scratch_offset = 0;  ///< in the scratch arena (kIndices with a bitmap)
};

struct ColumnPlan {
  Path path = Path::kHost;
  bool optional = false;
  int in_width = 0, out_width = 0;
  dw::StatKind stat = dw::StatKind::kNone;
  const Column* dictionary = nullptr;  ///< kDictionary: the slices' shared dictionary
  int bit_width = 0;
  uint64_t rows = 0;
  std::vector<size_t> segments;        ///< kString / kDictionary: measurement entries, per slice in order
  std::vector<size_t> pages;           ///< entries of the page list, the dictionary page first
};

/// Bytes of the definition levels of a page of `rows` rows (an upper bound).
size_t level_capacity(const ColumnPlan& c, uint64_t rows) { return c.optional ? 4 + 10 + (rows + 7) / 8 : 0; }

/// The device path of a column (kString for VARCHAR, refined after the measurement), or kHost.
Path choose_path(const Field& field, const std::vector<ColumnSlice>& slices, ColumnPlan& c) {
  for (const ColumnSlice& s : slices) {
    if (!s.column->on_device()) return Path::kHost;
    // NOT NULL fields holding NULLs are rejected by the CPU encoder, with its message.
    if (!c.optional && s.column->null_count() > 0) return Path::kHost;
    if (s.column->is_dictionary() && field.type.id() != TypeId::kVarchar) return Path::kHost;
  }
  const LogicalType& t = field.type;
  auto fixed = [&](int in, int out, dw::StatKind stat) {
    c.in_width = in;
    c.out_width = out;
    c.stat = stat;
    return Path::kFixed;
  };
  switch (t.id()) {
    case TypeId::kTinyInt: return fixed(1, 4, dw::StatKind::kSigned);
    case TypeId::kSmallInt: return fixed(2, 4, dw::StatKind::kSigned);
    case TypeId::kInteger:
    case TypeId::kDate: return fixed(4, 4, dw::StatKind::kSigned);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return fixed(8, 8, dw::StatKind::kSigned);
    case TypeId::kReal: return fixed(4, 4, dw::StatKind::kFloat);
    case TypeId::kDouble: return fixed(8, 8, dw::StatKind::kDouble);
    case TypeId::kDecimal:
      if (t.is_wide_decimal()) return Path::kHost;
      return fixed(8, t.precision() <= 9 ? 4 : 8, dw::StatKind::kSigned);
    case TypeId::kVarchar: return Path::kString;
    default: return Path::kHost;
  }
}

/// A string page over rows [first, first + rows) of a slice's column.
dw::EncodePage string_page(const Column& column, uint64_t first, uint64_t rows) {
  dw::EncodePage p;
  if (column.is_dictionary()) {
    p.kind = static_cast<int32_t>(dw::ValueKind::kDictionaryString);
    p.values = column.values()->as<uint8_t>();
    p.offsets = column.dictionary()->offsets()->as<int64_t>();
    p.chars = column.dictionary()->values() ? column.dictionary()->values()->as<uint8_t>() : nullptr;
  } else {
    p.kind = static_cast<int32_t>(dw::ValueKind::kString);
    p.offsets = column.offsets()->as<int64_t>();
    p.chars = column.values() ? column.values()->as<uint8_t>() : nullptr;
  }
  p.validity = column.null_count() > 0 && column.validity() ? column.validity()->as<uint8_t>() : nullptr;
  p.first_row = first;
  p.rows = static_cast<uint32_t>(rows);
  return p;
}

/// Host memory packed and sent to the device in one transfer.
template <typename T>
T* upload(const std::vector<T>& items, gpu::PinnedBlock& pinned, std::vector<BufferPtr>& held,
          gpu::MemoryResource& mr, gpu::Stream stream) {
  const size_t bytes = std::max<size_t>(items.size() * sizeof(T), 8);
  pinned = gpu::acquire_pinned(bytes);
  if (!items.empty()) std::memcpy(pinned.data(), items.data(), items.size() * sizeof(T));
  held.push_back(Buffer::allocate(bytes, mr, stream));
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(held.back()->data(), pinned.data(), bytes, cudaMemcpyHostToDevice,
                                     stream.handle()));
  return held.back()->as<T>();
}

/// Writes a host int64/double bound in the Kestrel layout of `type` (a fixed-width column of two rows).
void put_bound(const LogicalType& type, Column& bounds, size_t row, int64_t i, double d) {
  uint8_t* out = bounds.mutable_data<uint8_t>() + row * type.physical_width();
  switch (type.id()) {
    case TypeId::kReal: {
      const float f = static_cast<float>(d);
      std::memcpy(out, &f, 4);
      break;
    }
    case TypeId::kDouble: std::memcpy(out, &d, 8); break;
    default: std::memcpy(out, &i, type.physical_width()); break;  // little-endian: the low bytes
  }
}

}  // namespace

std::vector<EncodedColumnChunk> encode_row_group_on_device(const Schema& schema,
                                                           const std::vector<std::vector<ColumnSlice>>& slices,
                                                           const ParquetWriterOptions& options, gpu::Stream stream,
                                                           gpu::MemoryResource& mr, DeviceWriteStats* stats) {
  gpu::require_explicit_stream(stream, "encode_row_group_on_device");
  const size_t columns = schema.size();
  std::vector<EncodedColumnChunk> out(columns);
  std::vector<ColumnPlan> plans(columns);
  const bool device_snappy = options.compression == CompressionCodec::kSnappy &&
                             gpu::device_compression_available(gpu::DeviceCodec::kSnappy);
  // Pages past this are left to the host (nvCOMP's chunk limit, Parquet's int32 page sizes).
  const size_t max_page = device_snappy ? gpu::kMaxDeviceCompressChunk : size_t{INT32_MAX} / 2;
  const size_t page_target = std::min(options.data_page_size, max_page / 2);

  // 1. Paths; string sizes measured per segment (and dictionaries whole) to cut pages by size.
  std::vector<dw::EncodePage> measure;
  for (size_t c = 0; c < columns; ++c) {
    ColumnPlan& plan = plans[c];
    const Field& field = schema.field(c);
    plan.optional = schema_element_for(field).repetition == Repetition::kOptional;
    plan.path = choose_path(field, slices[c], plan);
    for (const ColumnSlice& s : slices[c]) plan.rows += s.count;
    if (plan.path != Path::kString) continue;
    const Column* dictionary = slices[c].front().column->dictionary().get();
    bool shared = options.dictionary && dictionary != nullptr && dictionary->length() > 0 &&
                  dictionary->length() < (size_t{1} << 31);
    for (const ColumnSlice& s : slices[c]) shared = shared && s.column->dictionary().get() == dictionary;
    if (shared) {
      plan.path = Path::kDictionary;
      plan.dictionary = dictionary;
      dw::EncodePage whole;
      whole.kind = static_cast<int32_t>(dw::ValueKind::kString);
      whole.offsets = dictionary->offsets()->as<int64_t>();
      whole.chars = dictionary->values() ? dictionary->values()->as<uint8_t>() : nullptr;
      whole.rows = static_cast<uint32_t>(dictionary->length());
      plan.segments.push_back(measure.size());
      measure.push_back(whole);
    }
    for (const ColumnSlice& s : slices[c]) {
      for (uint64_t r = 0; r < s.count; r += kSegmentRows) {
        plan.segments.push_back(measure.size());
        measure.push_back(string_page(*s.column, s.begin + r, std::min<uint64_t>(kSegmentRows, s.count - r)));
      }
    }
  }
  std::vector<BufferPtr> held;
  gpu::PinnedBlock measure_pinned, measured_pinned, table_pinned, pointers_pinned, results_pinned, bytes_pinned;
  gpu::SyncOnError sync_on_error(stream);
  std::vector<uint64_t> measured(measure.size(), 0);
  if (!measure.empty()) {
    const dw::EncodePage* table = upload(measure, measure_pinned, held, mr, stream);
    held.push_back(Buffer::allocate(measure.size() * sizeof(uint64_t), mr, stream));
    dw::measure_string_pages(table, measure.size(), held.back()->as<uint64_t>(), stream);
    measured_pinned = gpu::acquire_pinned(measure.size() * sizeof(uint64_t));
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(measured_pinned.data(), held.back()->data(), measure.size() * sizeof(uint64_t),
                                       cudaMemcpyDeviceToHost, stream.handle()));
    stream.synchronize();
    std::memcpy(measured.data(), measured_pinned.data(), measure.size() * sizeof(uint64_t));
  }

  // 2. The pages: fixed-width ones by rows, string ones by measured size.
  std::vector<PagePlan> pages;
  size_t body_total = 0, scratch_total = 0;
  auto add_page = [&](size_t c, const dw::EncodePage& page, size_t capacity, bool dictionary_page) {
    PagePlan p;
    p.column = c;
    p.dictionary_page = dictionary_page;
    p.page = page;
    p.page.levels = dictionary_page ? 0 : (plans[c].optional ? 1 : 0);
    p.capacity = capacity;
    plans[c].pages.push_back(pages.size());
    pages.push_back(p);
  };
  for (size_t c = 0; c < columns; ++c) {
    ColumnPlan& plan = plans[c];
    if (plan.path == Path::kHost) continue;
    size_t segment = 0;
    if (plan.path == Path::kDictionary) {
      const uint64_t dictionary_bytes = measured[plan.segments[segment++]];
      plan.bit_width = std::max(1, bit_width_for(plan.dictionary->length() == 0 ? 0 : plan.dictionary->length() - 1));
      if (dictionary_bytes > options.dictionary_size_limit || dictionary_bytes > max_page) {
        plan.path = Path::kString;  // too big a dictionary: PLAIN through it
      } else {
        dw::EncodePage d;
        d.kind = static_cast<int32_t>(dw::ValueKind::kString);
        d.offsets = plan.dictionary->offsets()->as<int64_t>();
        d.chars = plan.dictionary->values() ? plan.dictionary->values()->as<uint8_t>() : nullptr;
        d.rows = static_cast<uint32_t>(plan.dictionary->length());
        add_page(c, d, static_cast<size_t>(dictionary_bytes), true);
      }
    }
    bool too_big = false;
    for (const ColumnSlice& s : slices[c]) {
      const Column& column = *s.column;
      const uint8_t* validity =
          column.null_count() > 0 && column.validity() ? column.validity()->as<uint8_t>() : nullptr;
      if (plan.path == Path::kFixed || plan.path == Path::kDictionary) {
        const bool fixed = plan.path == Path::kFixed;
        const uint64_t per_page =
            fixed ? std::max<uint64_t>(1, page_target / static_cast<uint64_t>(plan.out_width))
                  : std::max<uint64_t>(8, page_target * 8 / static_cast<uint64_t>(plan.bit_width)) / 8 * 8;
        for (uint64_t r = 0; r < s.count; r += per_page) {
          const uint64_t rows = std::min<uint64_t>(per_page, s.count - r);
          dw::EncodePage p;
          p.kind = static_cast<int32_t>(fixed ? dw::ValueKind::kFixed : dw::ValueKind::kIndices);
          p.values = column.values()->as<uint8_t>();
          p.validity = validity;
          p.first_row = s.begin + r;
          p.rows = static_cast<uint32_t>(rows);
          p.in_width = plan.in_width;
          p.out_width = plan.out_width;
          p.bit_width = plan.bit_width;
          p.stat = options.statistics ? static_cast<int32_t>(plan.stat) : 0;
          const size_t values = fixed ? rows * static_cast<uint64_t>(plan.out_width)
                                      : 1 + 10 + (rows + 7) / 8 * static_cast<uint64_t>(plan.bit_width);
          add_page(c, p, level_capacity(plan, rows) + values, false);
        }
        continue;
      }
      // Strings: whole segments until the page reaches the target size.
      uint64_t r = 0;
      while (r < s.count) {
        uint64_t rows = 0, bytes = 0;
        while (r + rows < s.count && (rows == 0 || (bytes < page_target && rows < (uint64_t{1} << 30)))) {
          bytes += measured[plan.segments[segment++]];
          rows += std::min<uint64_t>(kSegmentRows, s.count - r - rows);
        }
        const size_t capacity = level_capacity(plan, rows) + bytes;
        if (capacity > max_page) too_big = true;
        add_page(c, string_page(column, s.begin + r, rows), capacity, false);
        r += rows;
      }
    }
    if (too_big) {
      // A page past the limit (very long strings): the CPU encoder writes this column.
      plan.pages.clear();
      plan.path = Path::kHost;
    }
  }
  // Room for the pages (those of columns sent to the host dropped).
  {
    std::vector<PagePlan> kept;
    std::vector<size_t> remap(pages.size(), SIZE_MAX);
    for (size_t i = 0; i < pages.size(); ++i) {
      if (plans[pages[i].column].path == Path::kHost) continue;
      PagePlan p = pages[i];
      p.body_offset = body_total;
      body_total += align_up(p.capacity);
      if (p.page.kind == static_cast<int32_t>(dw::ValueKind::kIndices) && p.page.validity != nullptr) {
        p.scratch_offset = scratch_total;
        scratch_total += align_up(size_t{p.page.rows} * 4);
      }
      remap[i] = kept.size();
      kept.push_back(p);
    }
    for (ColumnPlan& plan : plans) {
      for (size_t& p : plan.pages) p = remap[p];
    }
    pages = std::move(kept);
  }

  // 3. Encoding, then compression, on the device.
  const size_t n = pages.size();
  std::vector<size_t> stored_sizes(n, 0);
  std::vector<dw::PageResult> results(n);
  std::vector<const uint8_t*> stored_at(n, nullptr);  ///< device address of each page's finished bytes
  if (n > 0) {
    held.push_back(Buffer::allocate(std::max<size_t>(body_total, 8), mr, stream));
    uint8_t* bodies = held.back()->as<uint8_t>();
    held.push_back(Buffer::allocate(std::max<size_t>(scratch_total, 8), mr, stream));
    uint8_t* scratch = held.back()->as<uint8_t>();
    std::vector<dw::EncodePage> table;
    size_t max_capacity = 0, total_capacity = 0;
    for (PagePlan& p : pages) {
      p.page.out = bodies + p.body_offset;
      if (p.page.kind == static_cast<int32_t>(dw::ValueKind::kIndices) && p.page.validity != nullptr) {
        p.page.scratch = reinterpret_cast<uint32_t*>(scratch + p.scratch_offset);
      }
      table.push_back(p.page);
      max_capacity = std::max(max_capacity, p.capacity);
      total_capacity += p.capacity;
    }
    const dw::EncodePage* device_table = upload(table, table_pinned, held, mr, stream);
    held.push_back(Buffer::allocate(n * sizeof(dw::PageResult), mr, stream));
    auto* device_results = held.back()->as<dw::PageResult>();
    held.push_back(Buffer::allocate(n * sizeof(size_t), mr, stream));
    auto* device_sizes = held.back()->as<size_t>();
    dw::encode_pages(device_table, n, device_results, device_sizes, stream);
    for (size_t i = 0; i < n; ++i) stored_at[i] = bodies + pages[i].body_offset;
    size_t* device_compressed = nullptr;
    int* device_statuses = nullptr;
    if (device_snappy) {
      std::vector<size_t> bound(n);
      size_t compressed_total = 0;
      for (size_t i = 0; i < n; ++i) {
        bound[i] = compressed_total;
        compressed_total += align_up(gpu::max_compressed_bytes(gpu::DeviceCodec::kSnappy, pages[i].capacity));
      }
      held.push_back(Buffer::allocate(std::max<size_t>(compressed_total, 8), mr, stream));
      uint8_t* compressed = held.back()->as<uint8_t>();
      // Inputs, then outputs, as one pointer array.
      std::vector<const void*> pointers(2 * n);
      for (size_t i = 0; i < n; ++i) {
        pointers[i] = bodies + pages[i].body_offset;
        pointers[n + i] = compressed + bound[i];
        stored_at[i] = compressed + bound[i];
      }
      const void* const* device_pointers = upload(pointers, pointers_pinned, held, mr, stream);
      held.push_back(Buffer::allocate(n * (sizeof(size_t) + sizeof(int)), mr, stream));
      device_compressed = held.back()->as<size_t>();
      device_statuses = reinterpret_cast<int*>(device_compressed + n);
      gpu::DeviceCompressBatch batch;
      batch.inputs = device_pointers;
      batch.input_bytes = device_sizes;
      batch.outputs = const_cast<void* const*>(device_pointers + n);
      batch.compressed_bytes = device_compressed;
      batch.statuses = device_statuses;
      batch.count = n;
      batch.max_input_bytes = max_capacity;
      batch.total_input_bytes = total_capacity;
      gpu::compress_on_device(gpu::DeviceCodec::kSnappy, batch, stream, mr);
    }
    const size_t result_bytes = n * sizeof(dw::PageResult);
    const size_t extra = device_snappy ? n * (sizeof(size_t) + sizeof(int)) : 0;
    results_pinned = gpu::acquire_pinned(result_bytes + extra);
    KESTREL_CUDA_CHECK(cudaMemcpyAsync(results_pinned.data(), device_results, result_bytes, cudaMemcpyDeviceToHost,
                                       stream.handle()));
    if (device_snappy) {
      KESTREL_CUDA_CHECK(cudaMemcpyAsync(results_pinned.data() + result_bytes, device_compressed, extra,
                                         cudaMemcpyDeviceToHost, stream.handle()));
    }
    stream.synchronize();
    std::memcpy(results.data(), results_pinned.data(), result_bytes);
    for (size_t i = 0; i < n; ++i) {
      if (results[i].bytes > pages[i].capacity) {
        throw InternalError("GPU Parquet writer: page of column '" + schema.field(pages[i].column).name +
                            "' overran its room (" + std::to_string(results[i].bytes) + " of " +
                            std::to_string(pages[i].capacity) + " bytes)");
      }
      stored_sizes[i] = static_cast<size_t>(results[i].bytes);
    }
    if (device_snappy) {
      const auto* sizes = reinterpret_cast<const size_t*>(results_pinned.data() + result_bytes);
      const auto* statuses = reinterpret_cast<const int*>(sizes + n);
      for (size_t i = 0; i < n; ++i) {
        if (statuses[i] != 0) {
          throw InternalError("GPU Parquet writer: nvCOMP could not compress a page of column '" +
                              schema.field(pages[i].column).name + "' (status " + std::to_string(statuses[i]) + ")");
        }
        stored_sizes[i] = sizes[i];
      }
    }
  }

  // 4. The finished pages to the host, packed.
  std::vector<size_t> host_offset(n + 1, 0);
  for (size_t i = 0; i < n; ++i) host_offset[i + 1] = host_offset[i] + stored_sizes[i];
  if (n > 0) {
    bytes_pinned = gpu::acquire_pinned(std::max<size_t>(host_offset[n], 8));
    for (size_t i = 0; i < n; ++i) {
      if (stored_sizes[i] == 0) continue;
      KESTREL_CUDA_CHECK(cudaMemcpyAsync(bytes_pinned.data() + host_offset[i], stored_at[i], stored_sizes[i],
                                         cudaMemcpyDeviceToHost, stream.handle()));
    }
    stream.synchronize();
    if (stats != nullptr) {
      stats->pages += n;
      stats->d2h_bytes += host_offset[n];
    }
  }

  // 5. Column chunks: page headers on the host (and compression for codecs the device path lacks).
  std::vector<size_t> host_columns;
  for (size_t c = 0; c < columns; ++c) {
    if (plans[c].path == Path::kHost) host_columns.push_back(c);
  }
  const bool host_compress = options.compression != CompressionCodec::kUncompressed && !device_snappy;
  std::atomic<uint64_t> host_compressed{0};
  parallel_for(columns, 0, [&](size_t c) {
    const ColumnPlan& plan = plans[c];
    if (plan.path == Path::kHost) return;
    const Field& field = schema.field(c);
    const SchemaElement element = schema_element_for(field);
    EncodedColumnChunk& chunk = out[c];
    ColumnMetaData meta;
    meta.type = *element.type;
    meta.path_in_schema = {field.name};
    meta.codec = options.compression;
    meta.num_values = static_cast<int64_t>(plan.rows);
    meta.encodings = {Encoding::kPlain, Encoding::kRle};
    const bool dictionary = plan.path == Path::kDictionary;
    if (dictionary) {
      meta.encodings.push_back(Encoding::kRleDictionary);
      meta.dictionary_page_offset = 0;
    }
    uint64_t nonnull = 0;
    bool bounded = false, first_data_page = true;
    size_t reserve = 0;
    for (size_t i : plan.pages) reserve += stored_sizes[i] + 64;
    chunk.bytes.reserve(reserve);
    int64_t min_i = INT64_MAX, max_i = INT64_MIN;
    double min_d = 0, max_d = 0;
    for (size_t i : plan.pages) {
      const PagePlan& p = pages[i];
      const dw::PageResult& r = results[i];
      if (!p.dictionary_page) {
        nonnull += r.nonnull;
        if (r.has_minmax != 0) {
          if (!bounded) {
            min_d = r.min_d;
            max_d = r.max_d;
          }
          bounded = true;
          min_i = std::min(min_i, r.min_i);
          max_i = std::max(max_i, r.max_i);
          min_d = std::min(min_d, r.min_d);
          max_d = std::max(max_d, r.max_d);
        }
      }
      std::span<const uint8_t> stored(bytes_pinned.data() + host_offset[i], stored_sizes[i]);
      std::vector<uint8_t> compressed;
      if (host_compress) {
        compressed = compress(options.compression, stored, options.compression_level);
        stored = compressed;
        host_compressed += 1;
      }
      if (stored.size() > INT32_MAX) throw InvalidInput("a page of column '" + field.name + "' is too large");
      PageHeader header;
      header.uncompressed_page_size = static_cast<int32_t>(r.bytes);
      header.compressed_page_size = static_cast<int32_t>(stored.size());
      if (options.page_checksum) header.crc = crc32(stored);
      if (p.dictionary_page) {
        header.type = PageType::kDictionaryPage;
        header.dictionary_page_header = DictionaryPageHeader{static_cast<int32_t>(p.page.rows), Encoding::kPlain, false};
      } else {
        if (first_data_page) meta.data_page_offset = static_cast<int64_t>(chunk.bytes.size());
        first_data_page = false;
        header.type = PageType::kDataPage;
        header.data_page_header = DataPageHeader{static_cast<int32_t>(p.page.rows),
                                                 dictionary ? Encoding::kRleDictionary : Encoding::kPlain,
                                                 Encoding::kRle, Encoding::kRle};
      }
      const std::vector<uint8_t> header_bytes = encode_page_header(header);
      chunk.bytes.insert(chunk.bytes.end(), header_bytes.begin(), header_bytes.end());
      chunk.bytes.insert(chunk.bytes.end(), stored.begin(), stored.end());
      chunk.uncompressed_bytes += static_cast<int64_t>(header_bytes.size() + r.bytes);
    }
    meta.total_compressed_size = static_cast<int64_t>(chunk.bytes.size());
    meta.total_uncompressed_size = chunk.uncompressed_bytes;
    if (options.statistics) {
      const int64_t nulls = static_cast<int64_t>(plan.rows - nonnull);
      ColumnPtr bounds;
      if (bounded) {
        bounds = Column::make_fixed(field.type, 2, false, gpu::host_memory_resource(), gpu::Stream::host());
        put_bound(field.type, *bounds, 0, min_i, min_d);
        put_bound(field.type, *bounds, 1, max_i, max_d);
      }
      meta.statistics = statistics_from_bounds(field, bounds.get(), nulls);
    }
    chunk.chunk.file_offset = 0;
    chunk.chunk.meta_data = std::move(meta);
  });
  if (stats != nullptr) {
    stats->chunks_device += columns - host_columns.size();
    stats->pages_host_compressed += host_compressed.load();
  }

  // 6. Columns the device path does not encode: copied to the host, encoded by the CPU encoder.
  if (!host_columns.empty()) {
    std::vector<std::vector<ColumnSlice>> host_slices(columns);
    for (size_t c : host_columns) {
      for (const ColumnSlice& s : slices[c]) {
        ColumnPtr column = s.column->on_device() ? copy_column(*s.column, gpu::host_memory_resource(), stream)
                                                 : s.column;
        host_slices[c].push_back(ColumnSlice{column, s.begin, s.count});
      }
    }
    stream.synchronize();
    parallel_for(host_columns.size(), 0, [&](size_t k) {
      const size_t c = host_columns[k];
      out[c] = encode_column_chunk(schema.field(c), host_slices[c], options, 0);
    });
    if (stats != nullptr) stats->chunks_host += host_columns.size();
  }
  return out;
}

#endif

}  // namespace kestrel::io::parquet
