/// SortSinkGpu: device batches kept in input order, one stable device sort of their row ids in finalize;
/// SortSourceGpu.

#include <algorithm>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "exec/ops/sort/sort_gpu.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

void check_sort_gpu_supported(const Schema& schema, const std::vector<SortKeySpec>& keys, size_t max_keys) {
  if (keys.size() > max_keys) {
    throw NotImplemented("GPU sort by " + std::to_string(keys.size()) + " keys (at most " + std::to_string(max_keys) +
                         ")");
  }
  for (const auto& k : keys) {
    KESTREL_CHECK_LT(k.column, schema.size());
    const LogicalType& type = schema.field(k.column).type;
    if (!device_key_supported(type) || type.id() == TypeId::kInterval) {
      throw NotImplemented("GPU sort by a key of type " + type.to_string());
    }
  }
}

bool SortSinkGpu::supports(const Schema& schema, const std::vector<SortKeySpec>& keys) {
  try {
    check_sort_gpu_supported(schema, keys);
    return true;
  } catch (const NotImplemented&) {
    return false;
  }
}

struct SortSinkGpu::Local final : LocalState {
  std::vector<Entry> entries;
};

SortSinkGpu::SortSinkGpu(SchemaPtr schema, std::vector<SortKeySpec> keys)
    : schema_(std::move(schema)), keys_(std::move(keys)) {
  check_sort_gpu_supported(*schema_, keys_);
}

std::unique_ptr<Sink::LocalState> SortSinkGpu::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void SortSinkGpu::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  KESTREL_CHECK_MSG(batch.on_device(), "Sort [GPU] needs device batches");
  static_cast<Local&>(local).entries.push_back({morsel, sequence, std::move(batch)});
}

void synchronize_producers(const std::vector<SortSinkGpu::Entry>& entries) {
  std::vector<gpu::Stream> synchronized;
  for (const auto& e : entries) {
    const gpu::Stream s = e.batch.stream();
    if (std::find(synchronized.begin(), synchronized.end(), s) != synchronized.end()) continue;
    s.synchronize();
    synchronized.push_back(s);
  }
}

std::vector<Batch> take_in_input_order(std::vector<SortSinkGpu::Entry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const SortSinkGpu::Entry& a, const SortSinkGpu::Entry& b) {
    return a.morsel != b.morsel ? a.morsel < b.morsel : a.sequence < b.sequence;
  });
  std::vector<Batch> batches;
  batches.reserve(entries.size());
  for (auto& e : entries) batches.push_back(std::move(e.batch));
  entries.clear();
  return batches;
}

void SortSinkGpu::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  // finalize reads these batches on its own stream: wait until their producers are done, once per stream.
  synchronize_producers(l.entries);
  std::lock_guard lock(mutex_);
  for (auto& e : l.entries) entries_.push_back(std::move(e));
  l.entries.clear();
}

void SortSinkGpu::finalize(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "Sort [GPU] needs the query's device memory resource");
  gpu::MemoryResource& mr = *ctx.device_mr;
  const gpu::Stream stream = gpu::driver_stream();
  // Input order: concatenated in (morsel, sequence) order, a row's position is its origin, so a stable sort
  // breaks ties exactly like SortSink.
  const std::vector<Batch> inputs = take_in_input_order(entries_);
  all_ = concat_batches_gpu(inputs, schema_, stream, mr);
  rows_ = all_.num_rows();
  KESTREL_CHECK_LT(rows_, size_t{UINT32_MAX});
  order_ = Buffer::allocate(std::max<size_t>(rows_ * sizeof(uint32_t), 8), mr, stream);
  if (rows_ > 0) {
    sort_rows_gpu(device_keys(all_, key_columns(keys_)), device_sort_order(keys_), rows_, order_->as<uint32_t>(),
                  stream, mr);
  }
  // Readers use their own streams, and the inputs' buffers are freed on their producers' streams when `inputs`
  // goes away: both need the concatenation and the sort finished.
  stream.synchronize();
}

Batch SortSinkGpu::read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const {
  KESTREL_CHECK_LE(first + count, rows_);
  Batch rows = gather_batch_gpu(all_, order_->as<uint32_t>() + first, count, stream, mr);
  // all_ and order_ are freed on the finalize stream when the sink goes away: finish reading them now.
  stream.synchronize();
  return rows;
}

void SortSourceGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "SortScan [GPU] needs the query's device memory resource");
  const size_t first = morsel * morsel_rows_;
  const size_t count = std::min(morsel_rows_, sorted_->output_rows() - first);
  out.push_back(sorted_->read_rows(first, count, gpu::driver_stream(), *ctx.device_mr));
}

}  // namespace kestrel::exec
