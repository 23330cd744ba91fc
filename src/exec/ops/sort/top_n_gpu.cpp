/// TopNSinkGpu: each driver keeps its best limit + offset device rows, each with its origin as a last sort key;
/// finalize sorts the drivers' candidates together and keeps rows [offset, offset + limit).

#include <algorithm>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "exec/ops/sort/sort_gpu.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

struct TopNSinkGpu::Local final : LocalState {
  Candidates candidates;
  gpu::Stream stream;  ///< where the candidates are ready and reduced (the first batch's stream)
};

TopNSinkGpu::TopNSinkGpu(SchemaPtr schema, std::vector<SortKeySpec> keys, uint64_t limit, uint64_t offset,
                         size_t min_reduce_rows)
    : schema_(std::move(schema)), keys_(std::move(keys)), limit_(limit), offset_(offset) {
  check_sort_gpu_supported(*schema_, keys_, kMaxDeviceKeys - 1);
  const uint64_t keep = limit > UINT64_MAX - offset ? UINT64_MAX : limit + offset;
  keep_ = static_cast<size_t>(std::min<uint64_t>(keep, UINT32_MAX - 1));
  reduce_threshold_ = std::max<size_t>({4 * keep_, min_reduce_rows, 1});
  std::vector<Field> fields = schema_->fields();
  fields.push_back({"__row_origin", LogicalType::decimal(kMaxDecimalPrecision, 0), false});
  candidate_schema_ = std::make_shared<Schema>(std::move(fields));
  candidate_keys_ = keys_;
  candidate_keys_.push_back({schema_->size(), false, false});
}

bool TopNSinkGpu::supports(const Schema& schema, const std::vector<SortKeySpec>& keys) {
  try {
    check_sort_gpu_supported(schema, keys, kMaxDeviceKeys - 1);
    return true;
  } catch (const NotImplemented&) {
    return false;
  }
}

std::unique_ptr<Sink::LocalState> TopNSinkGpu::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void TopNSinkGpu::reduce(Candidates& c, size_t skip, size_t keep, gpu::Stream stream, gpu::MemoryResource& mr) const {
  if (c.batches.empty() || (c.reduced && skip == 0)) return;
  Batch all = concat_batches_gpu(c.batches, candidate_schema_, stream, mr);
  const size_t rows = all.num_rows();
  KESTREL_CHECK_LT(rows, size_t{UINT32_MAX});
  BufferPtr order = Buffer::allocate(std::max<size_t>(rows * sizeof(uint32_t), 8), mr, stream);
  // Origins are unique, so (keys, origin) is a total order: TopNSink's order, whatever the batches' order here.
  sort_rows_gpu(device_keys(all, key_columns(candidate_keys_)), device_sort_order(candidate_keys_), rows,
                order->as<uint32_t>(), stream, mr);
  const size_t first = std::min(skip, rows);
  const size_t count = std::min(keep, rows - first);
  Batch best = gather_batch_gpu(all, order->as<uint32_t>() + first, count, stream, mr);
  // The dropped batches may have been made on other streams and are freed there: finish reading them first.
  // This also leaves `best` ready for any stream.
  stream.synchronize();
  c.batches.clear();
  c.batches.push_back(std::move(best));
  c.rows = count;
  c.reduced = true;
}

void TopNSinkGpu::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) {
  auto& l = static_cast<Local&>(local);
  if (batch.num_rows() == 0 || keep_ == 0) return;
  KESTREL_CHECK_MSG(batch.on_device() && ctx.device_mr != nullptr, "TopN [GPU] needs device batches");
  if (l.stream.is_host()) l.stream = batch.stream().is_host() ? gpu::driver_stream() : batch.stream();
  // The candidates are combined on l.stream: a batch made on another stream must be finished first.
  if (batch.stream() != l.stream) batch.stream().synchronize();
  const size_t rows = batch.num_rows();
  std::vector<ColumnPtr> columns = batch.columns();
  columns.push_back(row_origin_column_gpu(rows, morsel, sequence, l.stream, *ctx.device_mr));
  Candidates& c = l.candidates;
  c.batches.emplace_back(candidate_schema_, std::move(columns), rows, gpu::MemoryKind::kDevice, l.stream);
  c.rows += rows;
  c.reduced = false;
  if (c.rows >= reduce_threshold_) reduce(c, 0, keep_, l.stream, *ctx.device_mr);
}

void TopNSinkGpu::combine(LocalState& local, ExecContext& ctx) {
  auto& l = static_cast<Local&>(local);
  Candidates& c = l.candidates;
  if (c.batches.empty()) return;
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "TopN [GPU] needs the query's device memory resource");
  // reduce ends by synchronizing l.stream (a reduced set was synchronized when it was made), so finalize can
  // read the candidates on its own stream.
  reduce(c, 0, keep_, l.stream, *ctx.device_mr);
  std::lock_guard lock(mutex_);
  for (auto& b : c.batches) global_.batches.push_back(std::move(b));
  global_.rows += c.rows;
  global_.reduced = false;
  c = Candidates{};
}

void TopNSinkGpu::finalize(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "TopN [GPU] needs the query's device memory resource");
  gpu::MemoryResource& mr = *ctx.device_mr;
  const gpu::Stream stream = gpu::driver_stream();
  if (global_.batches.empty()) {
    output_ = concat_batches_gpu({}, schema_, stream, mr);
  } else {
    // The best keep_ rows of the input are among the drivers' candidates; rows [offset, offset + limit) of
    // them are the result.
    global_.reduced = false;
    const size_t skip = static_cast<size_t>(offset_);
    const size_t count = static_cast<size_t>(std::min<uint64_t>(limit_, keep_));
    reduce(global_, skip, count, stream, mr);
    const Batch& best = global_.batches[0];
    std::vector<ColumnPtr> columns(best.columns().begin(), best.columns().begin() + schema_->size());
    output_ = Batch(schema_, std::move(columns), best.num_rows(), gpu::MemoryKind::kDevice, stream);
  }
  global_ = Candidates{};
  // Readers use their own streams.
  stream.synchronize();
}

Batch TopNSinkGpu::read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const {
  KESTREL_CHECK_LE(first + count, output_.num_rows());
  Batch rows = slice_batch_gpu(output_, first, count, stream, mr);
  // output_ is freed on the finalize stream when the sink goes away: finish reading it now.
  stream.synchronize();
  // The whole output comes back as output_ itself, on the finalize stream (finished): hand it over on `stream`.
  return Batch(rows.schema(), rows.columns(), rows.num_rows(), gpu::MemoryKind::kDevice, stream);
}

}  // namespace kestrel::exec
