#include "exec/ops/scan/table_scan_gpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <unordered_map>

#include "catalog/kcol_table.hpp"
#include "catalog/parquet_table.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/scan/device_table_cache.hpp"
#include "exec/ops/scan/scan_reuse.hpp"
#include "gpu/stream_pool.hpp"
#include "io/kcol/kcol_device.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec {

namespace {

/// Device batches of consecutive morsels as one batch named by `schema` (without columns, only the rows count).
Batch combine_parts(const std::vector<Batch>& parts, const SchemaPtr& schema, gpu::Stream stream,
                    gpu::MemoryResource& mr) {
  if (parts.size() == 1) {
    const Batch& b = parts.front();
    return Batch(schema, b.columns(), b.num_rows(), gpu::MemoryKind::kDevice, stream);
  }
  if (schema->size() == 0) {
    size_t rows = 0;
    for (const Batch& b : parts) rows += b.num_rows();
    return Batch(schema, {}, rows, gpu::MemoryKind::kDevice, stream);
  }
  return concat_batches_gpu(parts, schema, stream, mr);
}

std::vector<io::KcolPart> kcol_parts(const catalog::KcolTable& table, const std::vector<size_t>& morsels) {
  std::vector<io::KcolPart> parts;
  for (size_t m : morsels) {
    const io::KcolRowGroup& ref = table.row_group_refs().at(m);
    parts.emplace_back(table.dataset()->files().at(ref.file).get(), ref.row_group);
  }
  return parts;
}

}  // namespace

Batch read_morsels_to_device(const catalog::Table& table, const std::vector<size_t>& morsels,
                             const catalog::ScanSpec& spec, const SchemaPtr& schema, gpu::Stream stream,
                             gpu::MemoryResource& mr, const GpuScanRead& read) {
  if (read.device_decode && table.kind() == catalog::TableKind::kParquet) {
    const auto& parquet = static_cast<const catalog::ParquetTable&>(table);
    std::vector<io::RowGroupRef> refs;
    for (size_t m : morsels) refs.push_back(parquet.row_group_refs().at(m));
    SchemaPtr read_schema = schema ? schema : parquet.dataset()->project_schema(spec.columns);
    return io::read_parquet_to_device(*parquet.dataset(), refs, spec.columns, read_schema, stream, mr, read.stats);
  }
  if (read.device_decode && table.kind() == catalog::TableKind::kKcol) {
    const auto& kcol = static_cast<const catalog::KcolTable&>(table);
    SchemaPtr read_schema = schema ? schema : kcol.dataset()->project_schema(spec.columns);
    return io::read_kcol_to_device(kcol_parts(kcol, morsels), spec.columns, read_schema, stream, mr, read.stats);
  }
  std::vector<Batch> hosts(morsels.size());
  std::atomic<size_t> next{0};
  auto decode = [&] {
    try {
      for (size_t i = next.fetch_add(1); i < morsels.size(); i = next.fetch_add(1)) {
        hosts[i] = table.read_morsel(morsels[i], spec);
      }
    } catch (...) {
      next.store(morsels.size());  // the other threads stop after their current morsel
      throw;
    }
  };
  {
    // The helpers' futures wait for them (also when decode throws here first); get() rethrows their errors.
    std::vector<std::future<void>> helpers;
    for (size_t t = 1; t < std::min(morsels.size(), kGpuScanDecodeThreads); ++t) {
      helpers.push_back(std::async(std::launch::async, decode));
    }
    decode();
    for (auto& h : helpers) h.get();
  }
  std::vector<Batch> parts;
  SchemaPtr read_schema = schema;
  for (Batch& host : hosts) {
    if (!read_schema) read_schema = host.schema();
    parts.push_back(copy_batch(host, mr, stream));
    host = Batch();
  }
  if (!read_schema) read_schema = std::make_shared<Schema>();
  return combine_parts(parts, read_schema, stream, mr);
}

namespace {

uint64_t trace_now_ns() {
  static const auto epoch = std::chrono::steady_clock::now();
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - epoch).count());
}

}  // namespace

/// KESTREL_SCAN_TRACE: per morsel, host times (ns since the process's first trace) and copy events on the stager's
/// stream, turned into host times through a base event recorded on the idle stream when the stager was made.
struct ScanStager::Trace {
  struct Morsel {
    uint64_t stage_begin = 0, stage_end = 0, turn_wait = 0, take_begin = 0, take_end = 0, decoded = 0, bytes = 0;
    std::unique_ptr<gpu::Event> copy_begin, copy_end;
  };
  std::string path, label;
  uint64_t base_ns = 0;
  gpu::OwnedStream idle;
  gpu::Event base{true};
  std::mutex mutex;
  std::vector<Morsel> morsels;
};

ScanStager::ScanStager(size_t morsels, StageFn stage, size_t ahead, gpu::MemoryResource& mr,
                       std::shared_ptr<gpu::OwnedStream> stream, std::string label)
    : stage_(std::move(stage)),
      ahead_(ahead),
      stream_(stream ? std::move(stream) : std::make_shared<gpu::OwnedStream>()),
      upload_{stream_->view(), &mr, {}, {}},
      staged_(morsels),
      started_(morsels, 0),
      turn_done_(morsels, 0) {
  // KESTREL_EARLY_DECOMPRESS=0 leaves the tables, gathers and decompression to the decoding driver (benchmarks).
  const char* early = std::getenv("KESTREL_EARLY_DECOMPRESS");
  if (early == nullptr || std::string(early) != "0") {
    for (size_t i = 0; i < std::min<size_t>(std::max<size_t>(ahead, 1), 4); ++i) {
      prepare_streams_.push_back(std::make_unique<gpu::OwnedStream>());
    }
  }
  if (const char* path = std::getenv("KESTREL_SCAN_TRACE"); path != nullptr && *path != '\0') {
    trace_ = std::make_unique<Trace>();
    trace_->path = path;
    trace_->label = std::move(label);
    trace_->morsels.resize(morsels);
    trace_->base_ns = trace_now_ns();
    trace_->base.record(trace_->idle.view());  // an idle stream: the event completes at once
  }
}

ScanStager::~ScanStager() {
  // Reads still running use this object: wait for them (their results are dropped), then for the copies they
  // queued, which read pinned staging and file mappings that go away with the staged morsels and the dataset.
  for (auto& f : staged_) {
    if (f.valid()) f.wait();
  }
  try {
    stream_->view().synchronize();
    for (const auto& p : prepare_streams_) p->view().synchronize();
  } catch (...) {  // a failed device: nothing is left to wait for
    return;
  }
  if (!trace_) return;
  try {
    static std::mutex file_mutex;
    std::lock_guard lock(file_mutex);
    std::FILE* f = std::fopen(trace_->path.c_str(), "a");
    if (f == nullptr) return;
    auto ms = [](uint64_t ns) { return static_cast<double>(ns) / 1e6; };
    const double base = ms(trace_->base_ns);
    for (size_t m = 0; m < trace_->morsels.size(); ++m) {
      const Trace::Morsel& t = trace_->morsels[m];
      if (t.stage_begin == 0 && t.take_begin == 0) continue;
      double c0 = -1, c1 = -1;
      if (t.copy_begin && t.copy_end) {
        c0 = base + t.copy_begin->elapsed_ms_since(trace_->base);
        c1 = base + t.copy_end->elapsed_ms_since(trace_->base);
      }
      std::fprintf(f, "trace %s m=%zu bytes=%llu stage=%.3f-%.3f turn_wait=%.3f copy=%.3f-%.3f take=%.3f-%.3f decoded=%.3f\n",
                   trace_->label.c_str(), m, static_cast<unsigned long long>(t.bytes), ms(t.stage_begin),
                   ms(t.stage_end), ms(t.turn_wait), c0, c1, ms(t.take_begin), ms(t.take_end), ms(t.decoded));
    }
    std::fclose(f);
  } catch (...) {  // tracing is best effort
  }
}

void ScanStager::finish_turn(size_t morsel) {
  std::function<void()> queued;
  {
    std::lock_guard lock(turn_mutex_);
    if (turn_done_[morsel]) return;
    turn_done_[morsel] = 1;
    while (turn_ < turn_done_.size() && turn_done_[turn_]) ++turn_;
    turn_cv_.notify_all();
    if (turn_ == turn_done_.size()) queued = std::move(queued_);
  }
  if (queued) queued();
}

void ScanStager::on_queued(std::function<void()> queued) {
  {
    std::lock_guard lock(turn_mutex_);
    if (turn_ < turn_done_.size()) {
      queued_ = std::move(queued);
      return;
    }
  }
  queued();
}

void ScanStager::prefetch(std::shared_ptr<ReadGate> gate, size_t count) {
  std::lock_guard lock(mutex_);
  gate_ = std::move(gate);
  if (count > 0 && !staged_.empty()) start_locked(std::min(count, staged_.size()) - 1);
}

void ScanStager::start_locked(size_t morsel) {
  if (morsel >= staged_.size()) return;
  // Earlier morsels start first: copies are queued in morsel order, so a morsel waits for every earlier one.
  for (; first_unstarted_ <= morsel; ++first_unstarted_) {
    const size_t m = first_unstarted_;
    if (started_[m]) continue;
    started_[m] = 1;
    staged_[m] = std::async(std::launch::async, [this, m] {
                   Trace::Morsel* t = trace_ ? &trace_->morsels[m] : nullptr;
                   struct Done {
                     ScanStager* self;
                     size_t m;
                     Trace::Morsel* t;
                     ~Done() {
                       self->finish_turn(m);  // a morsel without a copy (kept columns, an error) passes its turn
                       if (t != nullptr) t->stage_end = trace_now_ns();
                     }
                   } done{this, m, t};
                   // A prefetch waits for the scans before it; nothing is read when the statement failed first.
                   if (gate_ && !gate_->wait()) return std::shared_ptr<void>();
                   {
                     // At most `ahead` (at least 2) morsels between starting and queuing their copies: later ones
                     // wait here rather than compete for the host's threads with the one the copy engine needs next.
                     const size_t window = std::max<size_t>(ahead_, 2);
                     std::unique_lock lock(turn_mutex_);
                     turn_cv_.wait(lock, [&] { return m < turn_ + window; });
                   }
                   if (t != nullptr) t->stage_begin = trace_now_ns();
                   io::StageUpload upload = upload_;
                   if (!prepare_streams_.empty()) upload.prepare_stream = prepare_streams_[m % prepare_streams_.size()]->view();
                   upload.before_copy = [this, m, t] {
                     const uint64_t wait_begin = t != nullptr ? trace_now_ns() : 0;
                     {
                       std::unique_lock lock(turn_mutex_);
                       turn_cv_.wait(lock, [&] { return turn_ >= m; });
                     }
                     if (t != nullptr) {
                       t->turn_wait = trace_now_ns() - wait_begin;
                       t->copy_begin = std::make_unique<gpu::Event>(true);
                       t->copy_begin->record(upload_.stream);
                     }
                   };
                   upload.after_copy = [this, m, t] {
                     if (t != nullptr && t->copy_begin) {
                       t->copy_end = std::make_unique<gpu::Event>(true);
                       t->copy_end->record(upload_.stream);
                     }
                     finish_turn(m);
                   };
                   return stage_(m, &upload);
                 }).share();
  }
}

std::shared_ptr<void> ScanStager::take(size_t morsel) {
  const uint64_t begin = trace_ ? trace_now_ns() : 0;
  std::shared_future<std::shared_ptr<void>> mine;
  {
    std::lock_guard lock(mutex_);
    start_locked(std::min(morsel + ahead_, staged_.size() - 1));
    mine = staged_[morsel];
    staged_[morsel] = {};  // taken once: the staged bytes are released when the decode is done
  }
  std::shared_ptr<void> result = mine.get();
  if (trace_ && morsel < trace_->morsels.size()) {
    trace_->morsels[morsel].take_begin = begin;
    trace_->morsels[morsel].take_end = trace_now_ns();
  }
  return result;
}

void ScanStager::decoded(size_t morsel, uint64_t bytes) {
  if (!trace_ || morsel >= trace_->morsels.size()) return;
  trace_->morsels[morsel].decoded = trace_now_ns();
  trace_->morsels[morsel].bytes = bytes;
}

std::shared_ptr<ReadGate> TableScanGpu::prefetch(ExecContext& ctx, const std::shared_ptr<ReadGate>& after) {
  // Only a scan that reads files ahead on its own: not through the table cache, not sharing columns with other
  // scans of the statement (what they keep is known only when its pipeline runs).
  const bool files = table_->kind() == catalog::TableKind::kParquet || table_->kind() == catalog::TableKind::kKcol;
  if (ctx.table_cache != nullptr || !ctx.gpu_decode || !files || spec_.columns.empty()) return after;
  if (ctx.scan_reuse != nullptr && ctx.scan_reuse->shared(table_.get())) {
    // This scan reads when its pipeline runs: later scans reading ahead now would queue their copies before its.
    ctx.prefetch_bytes_left = 0;
    return after;
  }
  if (ctx.prefetch_bytes_left == 0) return after;
  plan(ctx);
  if (!stager_) return after;
  // As many morsels as the read-ahead budget holds, from the footers' sizes.
  const double per_row = table_->read_ahead_bytes_per_row(spec_.columns);
  const auto rows = table_->statistics().row_count;
  const size_t all = table_->plan_scan(catalog::ScanSpec{spec_.columns, {}}).size();
  const double per_morsel = rows && all > 0 && per_row > 0
                                ? per_row * static_cast<double>(*rows) / static_cast<double>(all)
                                : 0.0;
  size_t count = 0;
  for (const auto& group : groups_) {
    const auto bytes = static_cast<size_t>(per_morsel * static_cast<double>(group.size()));
    if (bytes > ctx.prefetch_bytes_left) break;
    ctx.prefetch_bytes_left -= bytes;
    ++count;
  }
  if (count < groups_.size()) ctx.prefetch_bytes_left = 0;  // later scans would overtake this one's other reads
  if (count == 0) return after;
  stager_->prefetch(after, count);
  prefetched_ = true;
  queued_gate_ = std::make_shared<ReadGate>();
  stager_->on_queued([gate = queued_gate_] { gate->open(); });
  return queued_gate_;
}

void TableScanGpu::prepare(ExecContext& ctx) {
  if (!prefetched_) plan(ctx);
  prefetched_ = false;
  if (stager_ && ctx.read_gate && !queued_gate_) {
    // The first pipeline: the later scans start reading once this one's reads are queued.
    ctx.read_gate_taken = true;
    stager_->on_queued([gate = ctx.read_gate] { gate->open(); });
  }
}

void TableScanGpu::plan(ExecContext& ctx) {
  const std::vector<size_t> morsels = table_->plan_scan(spec_);
  // Groups come from the morsels' positions in the unpruned scan, so they are the same in every query.
  const std::vector<size_t> all = table_->plan_scan(catalog::ScanSpec{spec_.columns, {}});
  std::unordered_map<size_t, size_t> position;
  for (size_t i = 0; i < all.size(); ++i) position.emplace(all[i], i);
  size_t per_group = 1;
  if (auto rows = table_->statistics().row_count; rows && !all.empty()) {
    const size_t rows_per_morsel = std::max<size_t>(1, static_cast<size_t>(*rows) / all.size());
    // Big tables get bigger batches (fewer fixed costs), still about two per driver so all drivers work.
    const size_t drivers = static_cast<size_t>(std::max(1, ctx.gpu_drivers > 0 ? ctx.gpu_drivers : ctx.threads));
    size_t max_rows = kGpuScanMaxRows;
    if (const char* env = std::getenv("KESTREL_SCAN_MAX_ROWS"); env != nullptr && std::atoll(env) > 0) {
      max_rows = std::max<size_t>(static_cast<size_t>(std::atoll(env)), kGpuScanRows);  // benchmarks
    }
    const size_t target = std::clamp<size_t>(static_cast<size_t>(*rows) / (2 * drivers), kGpuScanRows, max_rows);
    per_group = std::max<size_t>(1, target / rows_per_morsel);
    const double per_row = spec_.columns.empty() ? 0.0 : table_->scan_bytes_per_row(spec_.columns);
    if (ctx.device_budget > 0 && per_row > 0) {
      // Under a set budget, the batches being decoded and read ahead (two per driver) take at most an eighth of
      // it, leaving the rest to the operators' state.
      const double cap_rows = static_cast<double>(ctx.device_budget) / 8.0 / (2.0 * static_cast<double>(drivers) *
                                                                              std::max(per_row, 1.0));
      per_group = std::min(per_group, std::max<size_t>(1, static_cast<size_t>(cap_rows) / rows_per_morsel));
    }
  }
  groups_.clear();
  size_t current = SIZE_MAX;
  for (size_t m : morsels) {
    auto it = position.find(m);
    const size_t group = it == position.end() ? SIZE_MAX - 1 - m : it->second / per_group;
    if (groups_.empty() || group != current) groups_.emplace_back();
    groups_.back().push_back(m);
    current = group;
  }
  stager_.reset();
  const bool files = table_->kind() == catalog::TableKind::kParquet || table_->kind() == catalog::TableKind::kKcol;
  // Files decoded on the device without the table cache: a stager reads ahead of the drivers.
  const bool staged = ctx.table_cache == nullptr && ctx.gpu_decode && files && !spec_.columns.empty();
  reuse_ = nullptr;
  reused_.reset();
  decode_slots_.clear();
  for (size_t i = 0; i < spec_.columns.size(); ++i) decode_slots_.push_back(i);
  decode_columns_ = spec_.columns;
  auto project = [&](const std::vector<size_t>& columns) {
    if (table_->kind() == catalog::TableKind::kParquet) {
      return static_cast<const catalog::ParquetTable&>(*table_).dataset()->project_schema(columns);
    }
    return static_cast<const catalog::KcolTable&>(*table_).dataset()->project_schema(columns);
  };
  if (staged && ctx.scan_reuse != nullptr && ctx.scan_reuse->shared(table_.get())) {
    // Pipelines run one after another: what earlier scans of the statement kept is known now. Columns kept for
    // every group are not read again; groups whose columns are all kept are not read at all.
    reuse_ = ctx.scan_reuse;
    reused_ = std::make_shared<std::vector<char>>(groups_.size(), 0);
    std::vector<char> everywhere(spec_.columns.size(), 1);
    size_t all = 0;
    for (size_t g = 0; g < groups_.size(); ++g) {
      const std::vector<char> kept = reuse_->kept(table_.get(), groups_[g], spec_.columns);
      size_t n = 0;
      for (size_t i = 0; i < kept.size(); ++i) {
        everywhere[i] &= kept[i];
        n += kept[i] ? 1 : 0;
      }
      (*reused_)[g] = n == kept.size() ? 1 : 0;
      all += (*reused_)[g];
    }
    full_schema_ = schema_ ? schema_ : project(spec_.columns);
    if (all == groups_.size()) {
      stager_schema_ = full_schema_;
      return;  // nothing to read
    }
    decode_slots_.clear();
    decode_columns_.clear();
    for (size_t i = 0; i < spec_.columns.size(); ++i) {
      if (everywhere[i]) continue;
      decode_slots_.push_back(i);
      decode_columns_.push_back(spec_.columns[i]);
    }
  }
  if (staged) {
    size_t drivers = static_cast<size_t>(std::max(1, ctx.gpu_drivers > 0 ? ctx.gpu_drivers : ctx.threads));
    // Morsels staged ahead of the drivers: as many as drivers (KESTREL_READ_AHEAD overrides, for benchmarks).
    if (const char* env = std::getenv("KESTREL_READ_AHEAD"); env != nullptr && std::atoi(env) > 0) {
      drivers = static_cast<size_t>(std::atoi(env));
    }
    ScanStager::StageFn stage;
    if (table_->kind() == catalog::TableKind::kParquet) {
      const auto& parquet = static_cast<const catalog::ParquetTable&>(*table_);
      auto refs = std::make_shared<std::vector<std::vector<io::RowGroupRef>>>();
      for (const auto& group : groups_) {
        refs->emplace_back();
        for (size_t m : group) refs->back().push_back(parquet.row_group_refs().at(m));
      }
      stage = [dataset = parquet.dataset(), refs, columns = decode_columns_, reused = reused_](
                  size_t m, const io::StageUpload* up) -> std::shared_ptr<void> {
        if (reused && (*reused)[m]) return nullptr;
        return std::static_pointer_cast<void>(io::stage_parquet(*dataset, refs->at(m), columns, up));
      };
    } else {
      const auto& kcol = static_cast<const catalog::KcolTable&>(*table_);
      auto parts = std::make_shared<std::vector<std::vector<io::KcolPart>>>();
      for (const auto& group : groups_) parts->push_back(kcol_parts(kcol, group));
      // The files stay open while the table (and so this scan) lives.
      stage = [dataset = kcol.dataset(), parts, columns = decode_columns_, reused = reused_](
                  size_t m, const io::StageUpload* up) -> std::shared_ptr<void> {
        if (reused && (*reused)[m]) return nullptr;
        return std::static_pointer_cast<void>(io::stage_kcol(parts->at(m), columns, up));
      };
    }
    stager_schema_ = decode_columns_.size() < spec_.columns.size() ? project(decode_columns_)
                     : schema_                                   ? schema_
                                                                 : project(spec_.columns);
    // One copy stream for the statement's scans: their copies run in the order they are queued.
    if (!ctx.read_stream) ctx.read_stream = std::make_shared<gpu::OwnedStream>();
    stager_ = std::make_unique<ScanStager>(groups_.size(), std::move(stage), drivers, *ctx.device_mr,
                                           ctx.read_stream, table_->name());
  }
}

void TableScanGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  gpu::Stream stream = gpu::driver_stream();
  const GpuScanRead read{ctx.gpu_decode, ctx.scan_stats};
  if (ctx.table_cache != nullptr && table_->kind() != catalog::TableKind::kMemory) {
    out.push_back(ctx.table_cache->read(table_, groups_[morsel], spec_, schema_, stream, read));
    return;
  }
  if (reused_ && (*reused_)[morsel]) {
    size_t rows = 0;
    std::vector<ColumnPtr> columns = reuse_->find(table_.get(), groups_[morsel], spec_.columns, &rows);
    out.push_back(Batch(full_schema_, std::move(columns), rows, gpu::MemoryKind::kDevice, stream));
    return;
  }
  if (stager_) {
    const auto t_wait = std::chrono::steady_clock::now();
    std::shared_ptr<void> staged = stager_->take(morsel);
    if (ctx.scan_stats != nullptr) {
      ctx.scan_stats->stage_wait_ns += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t_wait).count());
    }
    if (table_->kind() == catalog::TableKind::kParquet) {
      auto& parquet = *std::static_pointer_cast<io::StagedParquet>(staged);
      out.push_back(io::decode_staged_parquet(parquet, stager_schema_, stream, *ctx.device_mr, ctx.scan_stats));
      stager_->decoded(morsel, io::staged_bytes(parquet));
    } else {
      out.push_back(io::decode_staged_kcol(*std::static_pointer_cast<io::StagedKcol>(staged), stager_schema_, stream,
                                           *ctx.device_mr, ctx.scan_stats));
    }
    if (reuse_ != nullptr) {
      // The decoded columns join the kept ones in the scan's column order, and are offered to later scans.
      const Batch decoded = out.back();
      if (decode_columns_.size() < spec_.columns.size()) {
        std::vector<ColumnPtr> columns = reuse_->find(table_.get(), groups_[morsel], spec_.columns, nullptr);
        for (size_t k = 0; k < decode_slots_.size(); ++k) columns[decode_slots_[k]] = decoded.column(k);
        out.back() = Batch(full_schema_, std::move(columns), decoded.num_rows(), gpu::MemoryKind::kDevice, stream);
      }
      reuse_->offer(table_.get(), groups_[morsel], decode_columns_, decoded, stream);
    }
    return;
  }
  out.push_back(read_morsels_to_device(*table_, groups_[morsel], spec_, schema_, stream, *ctx.device_mr, read));
}

}  // namespace kestrel::exec
