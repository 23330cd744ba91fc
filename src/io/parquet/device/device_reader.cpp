#include "io/parquet/device/device_reader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>

#include "common/error.hpp"
#include "io/parquet/column_chunk_reader.hpp"
#include "io/parquet/page_reader.hpp"
#include "io/parquet/parallel_decode.hpp"
#include "vector/gather.hpp"
#include "vector/transfer.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"
#include "gpu/device_block.hpp"
#include "gpu/file_mapping.hpp"
#include "gpu/nvcomp.hpp"
#include "gpu/copy.hpp"
#include "gpu/pinned_pool.hpp"
#include "gpu/pull_copy.hpp"
#include "io/parquet/device/device_decode.hpp"
#include "io/parquet/device/decode_plan.hpp"
#include "io/parquet/device/device_support.hpp"
#include "io/parquet/device/snappy_literals.hpp"
#endif

namespace kestrel::io {

#if !KESTREL_WITH_CUDA

bool device_parquet_supported(std::string* why) {
  if (why != nullptr) *why = "this build of Kestrel has no GPU support";
  return false;
}

Batch read_parquet_to_device(const ParquetDataset&, const std::vector<RowGroupRef>&, const std::vector<size_t>&,
                             const SchemaPtr&, gpu::Stream, gpu::MemoryResource&, DeviceScanStats*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

struct StagedParquet {};

std::shared_ptr<StagedParquet> stage_parquet(const ParquetDataset&, const std::vector<RowGroupRef>&,
                                             const std::vector<size_t>&, const StageUpload*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

Batch decode_staged_parquet(StagedParquet&, const SchemaPtr&, gpu::Stream, gpu::MemoryResource&, DeviceScanStats*,
                            const uint8_t*) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

size_t staged_bytes(const StagedParquet&) { return 0; }
void copy_staged_to_device(const StagedParquet&, uint8_t*, gpu::Stream) {
  throw NotImplemented("this build of Kestrel has no GPU support");
}

#else

using parquet::device::DeviceChunk;
using parquet::device::DevicePage;
using parquet::Encoding;
using parquet::PageLayout;
using parquet::PageType;
namespace dev = parquet::device;

using namespace decode_plan;  // NOLINT: the plan's types are this file's vocabulary

bool device_parquet_supported(std::string*) { return true; }

size_t device_io_threads() {
  static const size_t n = [] {
    const char* env = std::getenv("KESTREL_IO_THREADS");
    const long v = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
    return v > 0 ? static_cast<size_t>(v) : size_t{4};
  }();
  return n;
}

namespace {

constexpr uint64_t kCoalesceGap = uint64_t{128} << 10;  ///< reads span gaps up to this between wanted chunks
constexpr size_t kReadPiece = size_t{8} << 20;        ///< one I/O task reads at most this much

/// A snappy body of more literals than this is decompressed rather than gathered.
constexpr size_t kMaxGatheredLiterals = 64;

/// Throws the CPU decoder's error for a chunk the device path found malformed.
[[noreturn]] void fail_like_cpu(const ChunkJob& job, const std::string& device_reason) {
  job.file->read_column_chunk(job.row_group, job.file_column);
  throw InternalError("Parquet file '" + job.file->path() + "': column '" + job.desc->name + "' of row group " +
                      std::to_string(job.row_group) + ": the GPU decoder rejects what the CPU decoder reads (" +
                      device_reason + ")");
}

/// The pages of a staged chunk, checked as the CPU decoder checks them.
void plan_pages(ChunkJob& job) {
  parquet::ByteSpan span{job.host, static_cast<size_t>(job.length)};
  try {
    // One walk over the headers: a chunk with too few values ends it early, and the CPU decoder then reports it.
    parquet::PageReader reader(span, job.meta->codec, job.meta->raw_codec, false);
    size_t done = 0;
    bool have_dictionary = false;
    PageLayout page;
    while (done < job.rows && reader.next_layout(page)) {
      if (page.type == PageType::kDictionaryPage) {
        if (have_dictionary || done > 0) throw InvalidInput("misplaced dictionary page");
        if (page.encoding != Encoding::kPlain && page.encoding != Encoding::kPlainDictionary) {
          throw InvalidInput("dictionary page encoding");
        }
        have_dictionary = true;
      } else {
        if (static_cast<size_t>(page.num_values) > job.rows - done) throw InvalidInput("page beyond the rows");
        done += static_cast<size_t>(page.num_values);
      }
      if (page.body_size > UINT32_MAX || page.levels_size > UINT32_MAX) throw InvalidInput("page too large");
      job.pages.push_back(page);
    }
    if (done != job.rows) throw InvalidInput("too few rows");
  } catch (const InvalidInput& e) {
    fail_like_cpu(job, e.message());
  }
  // Snappy bodies of literals only are found here too, from their tags, off the decoding driver's path.
  if (job.meta->codec != CompressionCodec::kSnappy) return;
  job.literals.resize(job.pages.size());
  for (size_t p = 0; p < job.pages.size(); ++p) {
    const PageLayout& page = job.pages[p];
    if (!page.body_compressed || page.body_size == 0) continue;
    if (!parquet::snappy_literals(job.host + page.body_offset, page.body_stored_size, page.body_size,
                                  kMaxGatheredLiterals, job.literals[p])) {
      job.literals[p].clear();
    }
  }
}

/// Device memory for one batch's scratch: stream-ordered, freed when the reader returns.
struct Scratch {
  gpu::Stream stream;
  gpu::MemoryResource& mr;
  std::vector<BufferPtr> held;
  template <typename T = uint8_t>
  T* alloc(size_t count) {
    held.push_back(Buffer::allocate(std::max<size_t>(count * sizeof(T), 8), mr, stream));
    return held.back()->as<T>();
  }
};

void h2d(void* dst, const void* src, size_t bytes, gpu::Stream stream) {
  if (bytes == 0) return;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream.handle()));
}

void d2h(void* dst, const void* src, size_t bytes, gpu::Stream stream) {
  if (bytes == 0) return;
  KESTREL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream.handle()));
}

/// Status words read back at the synchronization: per column its error, non-null count and string bytes.
struct ColumnStatus {
  uint32_t error = 0;
  uint32_t pad = 0;
  uint64_t last_dense_start = 0;
  uint32_t last_nonnull = 0;
  uint32_t pad2 = 0;
  int64_t chars = 0;
  int64_t dictionary_chars = 0;
};

/// A column of the batch decoded by the CPU twin (encodings the device lacks), copied to the device.
ColumnPtr decode_on_host(const std::vector<ChunkJob>& jobs, const std::vector<size_t>& ids, const LogicalType& type,
                         gpu::Stream stream, gpu::MemoryResource& mr) {
  std::vector<ColumnPtr> parts(ids.size());
  parallel_for(ids.size(), device_io_threads(), [&](size_t i) {
    const ChunkJob& job = jobs[ids[i]];
    parts[i] = job.file->read_column_chunk(job.row_group, job.file_column);
  });
  ColumnPtr host;
  if (parts.size() == 1) {
    host = parts.front();
  } else {
    auto schema = std::make_shared<const Schema>(std::vector<Field>{Field{"c", type, true}});
    std::vector<Batch> batches;
    for (auto& p : parts) batches.emplace_back(schema, std::vector<ColumnPtr>{p}, p->length(), gpu::MemoryKind::kHost);
    host = concat_batches(batches, schema).column(0);
  }
  return copy_column(*host, mr, stream);
}

}  // namespace

/// One coalesced read of a batch: from the file's registered mapping by DMA, or through the pinned staging buffer.
struct StagedRange {
  gpu::FileMapping* mapping = nullptr;  ///< null: the bytes are in the staging buffer
  uint64_t offset = 0, length = 0;      ///< in the file
  uint64_t staged = 0;                  ///< in the batch's device copy (and the staging buffer)
};

/// Steps 4 to 6 of a decode (the plan's buffers, host-decompressed bodies, the page tables on the device, gathers
/// and decompression), queued on one stream: by the decode itself, or early by the read-ahead on a stream of its own
/// once the copy arrives, so the drivers' decode starts at the levels and values.
struct PreparedPages {
  gpu::DeviceBlock inflated, realigned, host_inflated_device, tables_block;
  gpu::PinnedBlock host_inflated, upload_pinned;
  uint8_t* tables = nullptr;
  std::unique_ptr<gpu::Event> arrived, gathered, decompressed;  ///< timing (stats only)
  std::unique_ptr<gpu::Event> done;                             ///< early preparation: everything queued ran
  gpu::Stream stream;                                           ///< where it was queued
  uint64_t tables_host_ns = 0;

  /// Hands the device buffers over to `to` (freed in its order from now on).
  void free_on(gpu::Stream to) {
    for (gpu::DeviceBlock* b : {&inflated, &realigned, &host_inflated_device, &tables_block}) b->free_on(to);
  }
};

struct StagedParquet {
  std::vector<ChunkJob> jobs;
  std::vector<StagedRange> ranges;
  uint64_t mapped_bytes = 0;
  std::vector<uint64_t> first_rows;
  size_t rows = 0;
  size_t columns = 0;
  gpu::PinnedBlock staging;
  uint64_t staged_total = 0;
  size_t reads = 0;
  uint64_t read_ns = 0;
  // The bytes already sent to the device (StageUpload), until the decode takes them over.
  gpu::DeviceUpload upload;
  std::unique_ptr<DecodePlan> plan;  ///< made while staging, for the dataset's types
  std::unique_ptr<PreparedPages> early;  ///< queued by the read-ahead after the copy (StageUpload::prepare_stream)

  StagedParquet() = default;
  StagedParquet(const StagedParquet&) = delete;
  StagedParquet& operator=(const StagedParquet&) = delete;
  ~StagedParquet() {
    // A batch dropped without its decode (an error, a decode that left early): the early work reads the copy and
    // the pinned tables, which go away with this object.
    if (early && early->done) {
      try {
        early->done->synchronize();
      } catch (...) {  // a failed device: nothing is left to wait for
      }
    }
  }
};

/// Steps 4 to 6 of decoding `staged` under `plan`, its bytes at `raw` on the device, queued on `stream`.
std::unique_ptr<PreparedPages> prepare_pages(const StagedParquet& staged, const DecodePlan& plan, uint8_t* raw,
                                             gpu::Stream stream, gpu::MemoryResource& mr, bool timing) {
  auto p = std::make_unique<PreparedPages>();
  p->stream = stream;
  gpu::SyncOnError sync_on_error(stream);  // queued copies read p's pinned blocks
  if (timing) {
    p->arrived = std::make_unique<gpu::Event>(true);
    p->gathered = std::make_unique<gpu::Event>(true);
    p->decompressed = std::make_unique<gpu::Event>(true);
    p->arrived->record(stream);
  }
  const auto t_tables = std::chrono::steady_clock::now();
  const std::vector<ChunkJob>& jobs = staged.jobs;
  auto block = [&](size_t bytes) { return gpu::DeviceBlock(mr, std::max<size_t>(bytes, 8), stream); };
  // 4. The buffers the plan's addresses name; bodies of codecs the device lacks decompressed on the host.
  dev::AddressBases bases;
  p->inflated = block(plan.inflated_total);
  p->realigned = block(plan.realign_total);
  bases.base[static_cast<size_t>(dev::AddressBase::kStaged)] = raw;
  bases.base[static_cast<size_t>(dev::AddressBase::kInflated)] = p->inflated.data();
  bases.base[static_cast<size_t>(dev::AddressBase::kRealigned)] = p->realigned.data();
  if (!plan.host_inflates.empty()) {
    gpu::PinnedBlock& host_inflated = p->host_inflated;
    host_inflated = gpu::acquire_pinned(plan.host_inflated_total);
    parallel_for(plan.host_inflates.size(), device_io_threads(), [&](size_t i) {
      const HostInflate& h = plan.host_inflates[i];
      const ChunkJob& job = jobs[h.job];
      const PageLayout& page = job.pages[h.page];
      try {
        decompress(job.meta->codec, {job.host + page.body_offset, page.body_stored_size},
                   {host_inflated.data() + h.output_offset, page.body_size});
      } catch (const InvalidInput& e) {
        fail_like_cpu(job, e.message());
      }
    });
    p->host_inflated_device = block(plan.host_inflated_total);
    uint8_t* device = p->host_inflated_device.data();
    h2d(device, host_inflated.data(), plan.host_inflated_total, stream);
    bases.base[static_cast<size_t>(dev::AddressBase::kHostInflated)] = device;
  }

  // 5. The tables sent in one transfer, their addresses made absolute on the device.
  gpu::PinnedBlock& upload_pinned = p->upload_pinned;
  upload_pinned = gpu::acquire_pinned(std::max<size_t>(plan.block.size(), 64));
  std::memcpy(upload_pinned.data(), plan.block.data(), plan.block.size());
  p->tables_block = block(plan.block.size());
  uint8_t* tables = p->tables_block.data();
  p->tables = tables;
  // By the SMs, not the copy engine: there it would wait behind the read-ahead's copies (gpu/pull_copy.hpp).
  gpu::pull_pinned_to_device(tables, upload_pinned.data(), plan.block.size(), stream);
  dev::rebase_addresses(tables, reinterpret_cast<const uint64_t*>(tables + plan.slot_table), plan.slots, bases,
                        stream);
  p->tables_host_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t_tables).count());

  // 6. Gathers and realignments, then decompression.
  if (plan.pieces > 0) {
    dev::copy_pieces(reinterpret_cast<const dev::CopyPiece*>(tables + plan.piece_table), plan.pieces, stream);
  }
  if (timing) p->gathered->record(stream);
  for (const CodecBatch& b : plan.codec_batches) {
    gpu::DeviceDecompressBatch batch;
    batch.inputs = reinterpret_cast<const void* const*>(tables + b.inputs);
    batch.input_bytes = reinterpret_cast<const size_t*>(tables + b.input_bytes);
    batch.outputs = reinterpret_cast<void* const*>(tables + b.outputs);
    batch.output_capacity = reinterpret_cast<const size_t*>(tables + b.capacity);
    batch.actual_bytes = reinterpret_cast<size_t*>(tables + b.actual);
    batch.statuses = reinterpret_cast<int*>(tables + b.statuses);
    batch.count = b.pages.size();
    batch.max_output_bytes = b.max_output;
    batch.total_output_bytes = b.total_output;
    gpu::decompress_on_device(b.codec, batch, stream, mr);
  }
  if (timing) p->decompressed->record(stream);
  return p;
}

std::shared_ptr<StagedParquet> stage_parquet(const ParquetDataset& dataset, const std::vector<RowGroupRef>& refs,
                                             const std::vector<size_t>& columns, const StageUpload* upload) {
  auto staged = std::make_shared<StagedParquet>();
  std::vector<uint64_t>& first_rows = staged->first_rows;
  first_rows.assign(refs.size() + 1, 0);
  for (size_t r = 0; r < refs.size(); ++r) {
    first_rows[r + 1] = first_rows[r] + static_cast<uint64_t>(
                                            dataset.files().at(refs[r].file)->row_group_num_rows(refs[r].row_group));
  }
  staged->rows = static_cast<size_t>(first_rows.back());
  staged->columns = columns.size();
  if (columns.empty()) return staged;
  std::vector<ChunkJob>& jobs = staged->jobs;
  // 1. The chunks and the coalesced reads that cover them.
  for (size_t c = 0; c < columns.size(); ++c) {
    for (size_t r = 0; r < refs.size(); ++r) {
      ChunkJob job;
      job.column = c;
      job.ref = r;
      job.file_index = refs[r].file;
      job.file = dataset.files().at(refs[r].file).get();
      job.row_group = refs[r].row_group;
      job.file_column = dataset.file_column(refs[r].file, columns[c]);
      job.desc = &job.file->descriptor(job.file_column);
      const ParquetFile::ChunkRange range = job.file->chunk_range(job.row_group, job.file_column);
      job.meta = range.meta;
      job.offset = range.offset;
      job.length = range.length;
      job.first_row = first_rows[r];
      job.rows = static_cast<size_t>(first_rows[r + 1] - first_rows[r]);
      jobs.push_back(std::move(job));
    }
  }
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(jobs[a].file_index, jobs[a].offset) < std::tie(jobs[b].file_index, jobs[b].offset);
  });
  struct Read {
    const ParquetFile* file;
    uint64_t offset, length, staged;
  };
  std::vector<Read> ranges;
  uint64_t staged_total = 0;
  for (size_t i : order) {
    ChunkJob& job = jobs[i];
    if (!ranges.empty() && ranges.back().file == job.file && job.offset >= ranges.back().offset &&
        job.offset <= ranges.back().offset + ranges.back().length + kCoalesceGap) {
      Read& last = ranges.back();
      const uint64_t end = std::max(last.offset + last.length, job.offset + job.length);
      staged_total += end - (last.offset + last.length);
      last.length = end - last.offset;
    } else {
      ranges.push_back(Read{job.file, job.offset, job.length, staged_total});
      staged_total += job.length;
    }
    job.staged = ranges.back().staged + (job.offset - ranges.back().offset);
    job.range = ranges.size() - 1;
  }
  struct Piece {
    size_t range;
    uint64_t offset, length, staged;
  };
  std::vector<Piece> pieces;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const Read& r = ranges[i];
    for (uint64_t at = 0; at < r.length; at += kReadPiece) {
      pieces.push_back(Piece{i, r.offset + at, std::min<uint64_t>(kReadPiece, r.length - at), r.staged + at});
    }
  }

  // 2. The ranges' bytes: registered for DMA in the files' mappings where possible (the page cache is read by the
  //    copy engine, gpu/file_mapping.hpp), else read into pinned staging with a few threads.
  const auto t_read = std::chrono::steady_clock::now();
  std::unique_ptr<std::atomic<uint8_t>[]> mapped(new std::atomic<uint8_t>[ranges.size()]);
  for (size_t i = 0; i < ranges.size(); ++i) mapped[i].store(ranges[i].file->dma_mapping() != nullptr ? 1 : 0);
  parallel_for(pieces.size(), device_io_threads(), [&](size_t i) {
    const Piece& p = pieces[i];
    if (mapped[p.range].load() != 0 && !ranges[p.range].file->dma_mapping()->prepare(p.offset, p.length)) {
      mapped[p.range].store(0);
    }
  });
  std::vector<Piece> reads;
  for (const Piece& p : pieces) {
    if (mapped[p.range].load() == 0) reads.push_back(p);
  }
  gpu::PinnedBlock& staging = staged->staging;
  if (!reads.empty()) {
    staging = gpu::acquire_pinned(std::max<uint64_t>(staged_total, 64));
    parallel_for(reads.size(), device_io_threads(), [&](size_t i) {
      const Piece& p = reads[i];
      ranges[p.range].file->read_bytes(p.offset, static_cast<size_t>(p.length), staging.data() + p.staged);
    });
  }
  const auto t_read_done = std::chrono::steady_clock::now();
  for (size_t i = 0; i < ranges.size(); ++i) {
    StagedRange r{mapped[i].load() != 0 ? ranges[i].file->dma_mapping() : nullptr, ranges[i].offset,
                  ranges[i].length, ranges[i].staged};
    if (r.mapping != nullptr) staged->mapped_bytes += r.length;
    staged->ranges.push_back(r);
  }
  for (ChunkJob& job : jobs) {
    const StagedRange& r = staged->ranges[job.range];
    job.host = r.mapping != nullptr ? r.mapping->data() + job.offset : staging.data() + job.staged;
  }
  staged->staged_total = staged_total;
  staged->reads = reads.size();
  staged->read_ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t_read_done - t_read).count());
  // Page headers are checked here, off the decoding driver's path, chunks in parallel (a batch of a big table has
  // tens of thousands of pages, and its copy to the device starts after them).
  parallel_for(jobs.size(), device_io_threads(), [&](size_t j) { plan_pages(jobs[j]); });
  if (upload != nullptr) {
    // Without room ahead of the decode, the decode copies the bytes itself.
    const UploadTurn turn(*upload);
    staged->upload.start(*upload->mr, std::max<uint64_t>(staged_total, 8), upload->stream,
                         [&](uint8_t* device) { copy_staged_to_device(*staged, device, upload->stream); });
  }
  // The page tables are made here too, while the copy runs: the decoding driver only sends them.
  std::vector<LogicalType> types;
  const SchemaPtr schema = dataset.project_schema(columns);
  for (size_t c = 0; c < schema->size(); ++c) types.push_back(schema->field(c).type);
  staged->plan = plan_decode(jobs, staged->rows, columns.size(), std::move(types));
  if (upload != nullptr && upload->prepare_stream && staged->upload) {
    // Tables, gathers and decompression queued now, after the copy, on a stream of the read-ahead's.
    const gpu::Stream prepare = *upload->prepare_stream;
    staged->upload.wait_copy(prepare);
    try {
      staged->early = prepare_pages(*staged, *staged->plan, staged->upload.data(), prepare, *upload->mr, true);
      staged->early->done = std::make_unique<gpu::Event>();
      staged->early->done->record(prepare);
    } catch (const ResourceExhausted&) {
      staged->early.reset();  // no room now: the decode prepares the pages itself, later
    }
  }
  return staged;
}

Batch decode_staged_parquet(StagedParquet& staged, const SchemaPtr& schema, gpu::Stream stream,
                            gpu::MemoryResource& mr, DeviceScanStats* stats, const uint8_t* resident) {
  gpu::require_explicit_stream(stream, "decode_staged_parquet");
  const auto t_decode = std::chrono::steady_clock::now();
  const size_t rows = staged.rows;
  if (staged.columns == 0) return Batch(schema, {}, rows, gpu::MemoryKind::kDevice, stream);
  std::vector<ChunkJob>& jobs = staged.jobs;
  const uint64_t staged_total = staged.staged_total;
  const size_t column_count = staged.columns;
  if (rows >= (size_t{1} << 31)) {
    throw ResourceExhausted("a GPU Parquet batch of " + std::to_string(rows) + " rows (2^31 or more)");
  }
  // Pinned blocks whose copies are queued on `stream`: an error must not hand them back to the pool before the
  // copies are done, so every early exit waits for the stream first (the guard is destroyed before them).
  gpu::PinnedBlock status_block, codec_status;
  std::unique_ptr<PreparedPages> own_prepared;
  gpu::SyncOnError sync_on_error(stream);
  Scratch scratch{stream, mr, {}};
  uint8_t* raw = nullptr;
  // The read-ahead's device copy, taken over: freed in this stream's order after the decode, or on an error.
  gpu::DeviceBlock owned_raw;
  const bool uploaded = resident == nullptr && staged.upload;
  if (resident != nullptr) {
    raw = const_cast<uint8_t*>(resident);
  } else if (uploaded) {
    owned_raw = staged.upload.take(stream);
    raw = owned_raw.data();
    // The early preparation reads the copy too: it must be done before the copy can be freed in this stream.
    if (staged.early) staged.early->done->wait(stream);
  } else {
    raw = scratch.alloc(staged_total);
    copy_staged_to_device(staged, raw, stream);
  }

  // The decode's GPU time is measured from here: the bytes are on the device once the stream passes this point.
  gpu::Event arrived(stats != nullptr), sizes_ready(stats != nullptr);
  if (stats != nullptr) arrived.record(stream);

  // 3. The plan made while staging (made here when the caller's types differ from the dataset's).
  std::unique_ptr<DecodePlan> own_plan;
  const DecodePlan* plan = staged.plan.get();
  bool same_types = plan != nullptr && plan->types.size() == column_count;
  for (size_t c = 0; same_types && c < column_count; ++c) same_types = plan->types[c] == schema->field(c).type;
  if (!same_types) {
    std::vector<LogicalType> types;
    for (size_t c = 0; c < column_count; ++c) types.push_back(schema->field(c).type);
    own_plan = plan_decode(jobs, rows, column_count, std::move(types));
    plan = own_plan.get();
  }
  std::vector<ColumnWork> work = plan->work;
  if (reinterpret_cast<uintptr_t>(raw) % 8 != 0) {
    throw InternalError("decode_staged_parquet: the staged bytes' device buffer is not 8-byte aligned");
  }

  // 4 to 6, unless the read-ahead queued them already (for the same plan).
  PreparedPages* prepared = nullptr;
  if (staged.early && plan == staged.plan.get() && uploaded) {
    prepared = staged.early.get();  // this stream waited for it above
    prepared->free_on(stream);
  } else {
    own_prepared = prepare_pages(staged, *plan, raw, stream, mr, stats != nullptr);
    prepared = own_prepared.get();
  }
  uint8_t* tables = prepared->tables;
  if (stats != nullptr) {
    stats->tables_host_ns += prepared->tables_host_ns;
    stats->h2d_bytes += (resident != nullptr ? 0 : staged_total) + plan->host_inflated_total;
    if (uploaded) stats->uploaded_ahead += 1;
    stats->pages_host_decompressed += plan->host_inflates.size();
    stats->pages_snappy_literal += plan->literal_pages;
    for (const CodecBatch& b : plan->codec_batches) stats->pages_device_decompressed += b.pages.size();
  }

  // 7. Phase 1: levels, dictionaries and values; string sizes.
  uint32_t* errors = scratch.alloc<uint32_t>(column_count);
  KESTREL_CUDA_CHECK(cudaMemsetAsync(errors, 0, column_count * sizeof(uint32_t), stream.handle()));
  status_block = gpu::acquire_pinned(column_count * sizeof(ColumnStatus) + 64);
  auto* status = reinterpret_cast<ColumnStatus*>(status_block.data());
  for (size_t c = 0; c < column_count; ++c) status[c] = ColumnStatus{};
  for (size_t c = 0; c < column_count; ++c) {
    ColumnWork& w = work[c];
    if (w.path == ColumnPath::kHost) continue;
    uint32_t* error = errors + c;
    const auto* data_pages = reinterpret_cast<const DevicePage*>(tables + w.data_table);
    const auto* dictionary_pages = reinterpret_cast<const DevicePage*>(tables + w.dictionary_table);
    const auto* chunks = reinterpret_cast<const DeviceChunk*>(tables + w.chunk_table);
    const size_t n = w.data_count;
    if (w.nullable) {
      w.value_start = scratch.alloc<uint32_t>(n);
      w.nonnull = scratch.alloc<uint32_t>(n);
      w.dense_start = scratch.alloc<uint64_t>(n);
    } else {
      w.value_start = reinterpret_cast<uint32_t*>(tables + w.start_table);
      w.nonnull = reinterpret_cast<uint32_t*>(tables + w.nonnull_table);
      w.dense_start = reinterpret_cast<uint64_t*>(tables + w.dense_table);
    }
    if (w.nullable) {
      w.levels = scratch.alloc<uint8_t>(rows);
      // Chunks without levels (required in their file) are all valid.
      KESTREL_CUDA_CHECK(cudaMemsetAsync(w.levels, 1, rows, stream.handle()));
    }
    if (w.nullable) {
      dev::decode_levels(data_pages, n, 1, w.levels, w.value_start, w.nonnull, error, stream);
      dev::dense_starts(w.nonnull, n, w.dense_start, stream, mr);
    }
    if (n > 0) {
      d2h(&status[c].last_dense_start, w.dense_start + n - 1, sizeof(uint64_t), stream);
      d2h(&status[c].last_nonnull, w.nonnull + n - 1, sizeof(uint32_t), stream);
    }
    if (w.nullable) {
      w.ranks = scratch.alloc<uint32_t>(rows);
      dev::ranks_from_levels(w.levels, rows, w.ranks, stream, mr);
      w.validity = Buffer::allocate((rows + 7) / 8, mr, stream);
      dev::levels_to_bitmap(w.levels, rows, w.validity->as<uint8_t>(), stream);
    }
    const size_t ow = static_cast<size_t>(w.device_type.out_width);
    switch (w.path) {
      case ColumnPath::kFixed: {
        uint8_t* dictionary = scratch.alloc(w.dictionary_entries * ow);
        dev::decode_fixed_dictionaries(dictionary_pages, w.dictionary_count, chunks, w.device_type, dictionary,
                                       error, stream);
        w.values = Buffer::allocate(std::max<size_t>(rows * ow, 8), mr, stream);
        uint8_t* dense = w.nullable ? scratch.alloc(rows * ow) : w.values->as<uint8_t>();
        dev::decode_fixed_pages(data_pages, n, chunks, w.device_type, w.value_start, w.nonnull, w.dense_start,
                                dictionary, dense, error, stream);
        if (w.nullable) dev::spread_by_levels(w.levels, w.ranks, rows, dense, ow, w.values->data(), stream);
        break;
      }
      case ColumnPath::kBinaryToFixed: {
        const uint8_t** dsrc = scratch.alloc<const uint8_t*>(w.dictionary_entries);
        uint32_t* dlen = scratch.alloc<uint32_t>(w.dictionary_entries);
        dev::decode_binary_dictionaries(dictionary_pages, w.dictionary_count, chunks, w.device_type, dsrc,
                                        dlen, error, stream);
        // Every entry is converted, used or not: the CPU decoder rejects a dictionary with one that does not fit.
        dev::convert_binary(dsrc, dlen, w.dictionary_entries, w.device_type, scratch.alloc(w.dictionary_entries * ow),
                            error, stream);
        const uint8_t** src = scratch.alloc<const uint8_t*>(rows);
        uint32_t* len = scratch.alloc<uint32_t>(rows);
        dev::decode_binary_pages(data_pages, n, chunks, w.device_type, w.value_start, w.nonnull, w.dense_start, dsrc,
                                 dlen, src, len, nullptr, error, stream);
        w.values = Buffer::allocate(std::max<size_t>(rows * ow, 8), mr, stream);
        uint8_t* dense = w.nullable ? scratch.alloc(rows * ow) : w.values->as<uint8_t>();
        w.src = src;
        w.len = len;
        w.converted = dense;  // the non-null values are converted once their count is known
        break;
      }
      case ColumnPath::kString:
      case ColumnPath::kStringDictionary: {
        w.dictionary_src = scratch.alloc<const uint8_t*>(w.dictionary_entries);
        w.dictionary_len = scratch.alloc<uint32_t>(w.dictionary_entries);
        dev::decode_binary_dictionaries(dictionary_pages, w.dictionary_count, chunks, w.device_type,
                                        w.dictionary_src, w.dictionary_len, error, stream);
        if (w.path == ColumnPath::kStringDictionary) {
          w.values = Buffer::allocate(std::max<size_t>(rows * 4, 8), mr, stream);
          int32_t* dense = w.nullable ? scratch.alloc<int32_t>(rows) : w.values->as<int32_t>();
          dev::decode_binary_pages(data_pages, n, chunks, w.device_type, w.value_start, w.nonnull, w.dense_start,
                                   w.dictionary_src, w.dictionary_len, nullptr, nullptr, dense, error, stream);
          if (w.nullable) dev::spread_by_levels(w.levels, w.ranks, rows, dense, 4, w.values->data(), stream);
          w.dictionary_offsets_buffer = Buffer::allocate((w.dictionary_entries + 1) * sizeof(int64_t), mr, stream);
          w.dictionary_offsets = w.dictionary_offsets_buffer->as<int64_t>();
          dev::string_offsets(w.dictionary_len, w.dictionary_entries, w.dictionary_offsets, stream, mr);
          d2h(&status[c].dictionary_chars, w.dictionary_offsets + w.dictionary_entries, sizeof(int64_t), stream);
        } else {
          const uint8_t** src = scratch.alloc<const uint8_t*>(rows);
          uint32_t* len = scratch.alloc<uint32_t>(rows);
          dev::decode_binary_pages(data_pages, n, chunks, w.device_type, w.value_start, w.nonnull, w.dense_start,
                                   w.dictionary_src, w.dictionary_len, src, len, nullptr, error, stream);
          if (w.nullable) {
            w.src = scratch.alloc<const uint8_t*>(rows);
            w.len = scratch.alloc<uint32_t>(rows);
            dev::spread_by_levels(w.levels, w.ranks, rows, src, sizeof(void*), w.src, stream);
            dev::spread_by_levels(w.levels, w.ranks, rows, len, 4, w.len, stream);
          } else {
            w.src = src;
            w.len = len;
          }
          BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr, stream);
          dev::string_offsets(w.len, rows, offsets->as<int64_t>(), stream, mr);
          w.offsets = offsets->as<int64_t>();
          w.values = offsets;  // holds the offsets until the chars exist
          d2h(&status[c].chars, w.offsets + rows, sizeof(int64_t), stream);
        }
        break;
      }
      case ColumnPath::kHost: break;
    }
  }
  for (size_t c = 0; c < column_count; ++c) d2h(&status[c].error, errors + c, sizeof(uint32_t), stream);
  // nvCOMP results.
  size_t codec_status_bytes = 0;
  for (const CodecBatch& b : plan->codec_batches) codec_status_bytes += b.pages.size() * (sizeof(size_t) + sizeof(int));
  if (codec_status_bytes > 0) {
    codec_status = gpu::acquire_pinned(codec_status_bytes);
    size_t at = 0;
    for (const CodecBatch& b : plan->codec_batches) {
      const size_t count = b.pages.size();
      d2h(codec_status.data() + at, tables + b.actual, count * sizeof(size_t), stream);
      at += count * sizeof(size_t);
      d2h(codec_status.data() + at, tables + b.statuses, count * sizeof(int), stream);
      at += count * sizeof(int);
    }
  }
  // Host-decoded columns meanwhile (their chunks were read again by the CPU decoder).
  for (size_t c = 0; c < column_count; ++c) {
    ColumnWork& w = work[c];
    if (w.path != ColumnPath::kHost) continue;
    w.host_column = decode_on_host(jobs, w.jobs, w.type, stream, mr);
    if (stats != nullptr) stats->chunks_host_decoded += w.jobs.size();
  }
  // The one synchronization: sizes, null counts and errors are needed on the host from here on.
  if (stats != nullptr) sizes_ready.record(stream);
  stream.synchronize();
  if (stats != nullptr) {
    // Early preparation ran on the read-ahead's stream before this stream's part: both intervals count.
    const PreparedPages& pp = *prepared;
    const double early_ms = own_prepared ? 0.0 : pp.decompressed->elapsed_ms_since(*pp.arrived);
    stats->decode_gpu_ns += static_cast<uint64_t>((sizes_ready.elapsed_ms_since(arrived) + early_ms) * 1e6);
    stats->decompress_gpu_ns += static_cast<uint64_t>(pp.decompressed->elapsed_ms_since(*pp.arrived) * 1e6);
    stats->gather_gpu_ns += static_cast<uint64_t>(pp.gathered->elapsed_ms_since(*pp.arrived) * 1e6);
    if (uploaded) stats->copy_gpu_ns += static_cast<uint64_t>(staged.upload.copy_ms() * 1e6);
  }

  // 8. Errors: the CPU decoder reports them.
  {
    size_t at = 0;
    for (const CodecBatch& b : plan->codec_batches) {
      const std::vector<DeviceInflate>& list = b.pages;
      const auto* got = reinterpret_cast<const size_t*>(codec_status.data() + at);
      at += list.size() * sizeof(size_t);
      const auto* st = reinterpret_cast<const int*>(codec_status.data() + at);
      at += list.size() * sizeof(int);
      for (size_t i = 0; i < list.size(); ++i) {
        if (st[i] != 0 || got[i] != list[i].output_bytes) {
          fail_like_cpu(jobs[list[i].job], std::string(gpu::device_codec_name(b.codec)) + " page status " +
                                               std::to_string(st[i]) + ", " + std::to_string(got[i]) + " of " +
                                               std::to_string(list[i].output_bytes) + " bytes");
        }
      }
    }
  }
  for (size_t c = 0; c < column_count; ++c) {
    if (status[c].error == 0) continue;
    for (size_t j : work[c].jobs) jobs[j].file->read_column_chunk(jobs[j].row_group, jobs[j].file_column);
    throw InternalError("Parquet column '" + jobs[work[c].jobs.front()].desc->name +
                        "': the GPU decoder rejects what the CPU decoder reads (error " +
                        std::to_string(status[c].error) + ")");
  }

  // 9. Phase 2: string bytes and binary conversions; the columns.
  std::vector<ColumnPtr> out(column_count);
  for (size_t c = 0; c < column_count; ++c) {
    ColumnWork& w = work[c];
    const size_t nonnull = w.data_count == 0
                               ? 0
                               : static_cast<size_t>(status[c].last_dense_start + status[c].last_nonnull);
    const size_t null_count = w.nullable ? rows - nonnull : 0;
    BufferPtr validity = null_count > 0 ? w.validity : nullptr;
    switch (w.path) {
      case ColumnPath::kHost: out[c] = w.host_column; break;
      case ColumnPath::kFixed:
        out[c] = Column::from_buffers(w.type, ColumnEncoding::kPlain, rows, null_count, validity, w.values, nullptr,
                                      nullptr);
        break;
      case ColumnPath::kBinaryToFixed: {
        uint8_t* dense = w.converted;
        dev::convert_binary(w.src, w.len, nonnull, w.device_type, dense, errors + c, stream);
        if (w.nullable) {
          dev::spread_by_levels(w.levels, w.ranks, rows, dense, static_cast<size_t>(w.device_type.out_width),
                                w.values->data(), stream);
        }
        out[c] = Column::from_buffers(w.type, ColumnEncoding::kPlain, rows, null_count, validity, w.values, nullptr,
                                      nullptr);
        break;
      }
      case ColumnPath::kStringDictionary: {
        const size_t entries = w.dictionary_entries;
        const size_t chars = static_cast<size_t>(status[c].dictionary_chars);
        BufferPtr offsets = w.dictionary_offsets_buffer;
        BufferPtr bytes = Buffer::allocate(std::max<size_t>(chars, 8), mr, stream);
        dev::copy_strings(w.dictionary_src, w.dictionary_offsets, entries, bytes->as<uint8_t>(), stream);
        ColumnPtr dictionary = Column::from_buffers(w.type, ColumnEncoding::kPlain, entries, 0, nullptr, bytes,
                                                    offsets, nullptr);
        out[c] = Column::make_dictionary(w.type, rows, w.values, validity, null_count, dictionary);
        break;
      }
      case ColumnPath::kString: {
        const size_t chars = static_cast<size_t>(status[c].chars);
        BufferPtr bytes = Buffer::allocate(std::max<size_t>(chars, 8), mr, stream);
        dev::copy_strings(w.src, w.offsets, rows, bytes->as<uint8_t>(), stream);
        out[c] = Column::from_buffers(w.type, ColumnEncoding::kPlain, rows, null_count, validity, bytes, w.values,
                                      nullptr);
        break;
      }
    }
  }
  // A binary conversion may still fail (a DECIMAL too wide for its type): the one case read after the batch.
  bool converts = false;
  for (const ColumnWork& w : work) converts = converts || w.path == ColumnPath::kBinaryToFixed;
  if (converts) {
    for (size_t c = 0; c < column_count; ++c) d2h(&status[c].error, errors + c, sizeof(uint32_t), stream);
    stream.synchronize();
    for (size_t c = 0; c < column_count; ++c) {
      if (status[c].error == 0) continue;
      for (size_t j : work[c].jobs) jobs[j].file->read_column_chunk(jobs[j].row_group, jobs[j].file_column);
      throw InternalError("Parquet column '" + jobs[work[c].jobs.front()].desc->name +
                          "': the GPU conversion rejects what the CPU decoder reads");
    }
  }
  if (stats != nullptr) {
    const auto t_end = std::chrono::steady_clock::now();
    stats->batches += 1;
    stats->bytes_read += staged_total;
    stats->bytes_mapped += staged.mapped_bytes;
    stats->reads += staged.reads;
    stats->read_ns += staged.read_ns;
    stats->decode_ns += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t_end - t_decode).count());
    stats->pages += plan->pages;
  }
  // The staging buffers go back to the pool only after the device has read them: the transfers were queued before
  // the synchronization above, and the later work reads no host memory. The device copy of the file bytes is freed
  // in this stream's order, after the kernels that read it.
  return Batch(schema, std::move(out), rows, gpu::MemoryKind::kDevice, stream);
}

Batch read_parquet_to_device(const ParquetDataset& dataset, const std::vector<RowGroupRef>& refs,
                             const std::vector<size_t>& columns, const SchemaPtr& schema, gpu::Stream stream,
                             gpu::MemoryResource& mr, DeviceScanStats* stats) {
  gpu::require_explicit_stream(stream, "read_parquet_to_device");
  std::shared_ptr<StagedParquet> staged = stage_parquet(dataset, refs, columns, nullptr);
  return decode_staged_parquet(*staged, schema, stream, mr, stats, nullptr);
}

size_t staged_bytes(const StagedParquet& staged) { return staged.staged_total; }

void copy_staged_to_device(const StagedParquet& staged, uint8_t* device, gpu::Stream stream) {
  if (staged.mapped_bytes == 0) {
    h2d(device, staged.staging.data(), staged.staged_total, stream);  // one transfer of the whole staging buffer
    return;
  }
  // One batch for the copy engine: a copy per column chunk would run at 35-48 GB/s instead of 55 (gpu/copy.hpp).
  gpu::CopyBatch batch;
  for (const StagedRange& r : staged.ranges) {
    if (r.mapping != nullptr) {
      r.mapping->add_copies(batch, device + r.staged, r.offset, r.length);
    } else {
      batch.add(device + r.staged, staged.staging.data() + r.staged, r.length);
    }
  }
  batch.queue(stream);
}

#endif

}  // namespace kestrel::io
