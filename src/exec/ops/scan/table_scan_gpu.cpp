#include "exec/ops/scan/table_scan_gpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
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

ScanStager::ScanStager(size_t morsels, StageFn stage, size_t ahead, gpu::MemoryResource& mr)
    : stage_(std::move(stage)), ahead_(ahead), upload_{stream_.view(), &mr}, staged_(morsels), started_(morsels, 0) {}

ScanStager::~ScanStager() {
  // Reads still running use this object: wait for them (their results are dropped), then for the copies they
  // queued, which read pinned staging and file mappings that go away with the staged morsels and the dataset.
  for (auto& f : staged_) {
    if (f.valid()) f.wait();
  }
  try {
    stream_.view().synchronize();
  } catch (...) {  // a failed device: nothing is left to wait for
  }
}

void ScanStager::start_locked(size_t morsel) {
  if (morsel >= staged_.size() || started_[morsel]) return;
  started_[morsel] = 1;
  staged_[morsel] = std::async(std::launch::async, [this, morsel] { return stage_(morsel, &upload_); }).share();
}

std::shared_ptr<void> ScanStager::take(size_t morsel) {
  std::shared_future<std::shared_ptr<void>> mine;
  {
    std::lock_guard lock(mutex_);
    start_locked(morsel);
    for (size_t m = morsel + 1; m <= morsel + ahead_; ++m) start_locked(m);
    mine = staged_[morsel];
    staged_[morsel] = {};  // taken once: the staged bytes are released when the decode is done
  }
  return mine.get();
}

void TableScanGpu::prepare(ExecContext& ctx) {
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
    const size_t target = std::clamp<size_t>(static_cast<size_t>(*rows) / (2 * drivers), kGpuScanRows,
                                             kGpuScanMaxRows);
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
    stager_ = std::make_unique<ScanStager>(groups_.size(), std::move(stage), drivers, *ctx.device_mr);
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
      out.push_back(io::decode_staged_parquet(*std::static_pointer_cast<io::StagedParquet>(staged), stager_schema_,
                                              stream, *ctx.device_mr, ctx.scan_stats));
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
