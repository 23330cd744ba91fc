/// SetOpStateGpu, SetOpSinkGpu and SetOpSourceGpu: device batches kept per side, one sort of both sides' rows and
/// one selection of the output rows when the source is prepared.

#include "exec/ops/set_ops/set_op_gpu.hpp"

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

namespace {

/// The columns of `schema` that take part in comparing rows: all but the NULL-typed ones.
std::vector<size_t> compared_columns(const Schema& schema) {
  std::vector<size_t> columns;
  for (size_t c = 0; c < schema.size(); ++c) {
    if (schema.field(c).type.id() != TypeId::kNull) columns.push_back(c);
  }
  return columns;
}

}  // namespace

SetOpStateGpu::SetOpStateGpu(SchemaPtr schema, plan::SetOpKind op, bool all)
    : schema_(std::move(schema)), op_(op), all_(all), key_columns_(compared_columns(*schema_)) {
  KESTREL_CHECK_GT(schema_->size(), 0u);
  if (!supports(*schema_)) {
    throw NotImplemented("GPU set operation over " + std::to_string(key_columns_.size()) + " columns (at most " +
                         std::to_string(kMaxDeviceKeys) + ")");
  }
}

bool SetOpStateGpu::supports(const Schema& schema) {
  const std::vector<size_t> columns = compared_columns(schema);
  if (columns.size() > static_cast<size_t>(kMaxDeviceKeys)) return false;
  return std::all_of(columns.begin(), columns.end(),
                     [&](size_t c) { return device_key_supported(schema.field(c).type); });
}

void SetOpStateGpu::add(int side, std::vector<Batch> batches) {
  KESTREL_CHECK(side == 0 || side == 1);
  std::lock_guard lock(mutex_);
  for (auto& b : batches) inputs_[side].push_back(std::move(b));
}

void SetOpStateGpu::prepare_output(gpu::Stream stream, gpu::MemoryResource& mr) {
  std::lock_guard lock(mutex_);
  if (prepared_) return;
  prepared_ = true;
  size_t left_rows = 0;
  for (const Batch& b : inputs_[0]) left_rows += b.num_rows();
  std::vector<Batch> inputs = std::move(inputs_[0]);
  for (auto& b : inputs_[1]) inputs.push_back(std::move(b));
  inputs_[0].clear();
  inputs_[1].clear();
  // Left rows first: a row id below left_rows is a left row.
  rows_ = concat_batches_gpu(inputs, schema_, stream, mr);
  const size_t rows = rows_.num_rows();
  output_ = Buffer::allocate(std::max<size_t>(rows * sizeof(uint32_t), 8), mr, stream);
  if (rows > 0) {
    output_rows_ = set_op_output_rows_gpu(device_keys(rows_, key_columns_), rows, left_rows, op_, all_,
                                          output_->as<uint32_t>(), stream, mr);
  }
  // Readers use their own streams, and the inputs' buffers are freed on their producers' streams when `inputs`
  // goes away: both need the concatenation and the selection finished.
  stream.synchronize();
}

Batch SetOpStateGpu::read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const {
  KESTREL_CHECK_LE(first + count, output_rows_);
  Batch rows = gather_batch_gpu(rows_, output_->as<uint32_t>() + first, count, stream, mr);
  // rows_ and output_ are freed on the prepare stream when the state goes away: finish reading them now.
  stream.synchronize();
  return Batch(schema_, rows.columns(), count, gpu::MemoryKind::kDevice, stream);
}

struct SetOpSinkGpu::Local final : LocalState {
  std::vector<Batch> batches;
};

SetOpSinkGpu::SetOpSinkGpu(std::shared_ptr<SetOpStateGpu> state, int side) : state_(std::move(state)), side_(side) {
  KESTREL_CHECK(side_ == 0 || side_ == 1);
}

std::string SetOpSinkGpu::name() const {
  static const char* kNames[] = {"Union", "Intersect", "Except"};
  return std::string(kNames[static_cast<int>(state_->op())]) + (state_->all() ? " All" : "") +
         (side_ == 0 ? " (left)" : " (right)") + " [GPU]";
}

std::unique_ptr<Sink::LocalState> SetOpSinkGpu::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void SetOpSinkGpu::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  KESTREL_CHECK_MSG(batch.on_device(), name() << " needs device batches");
  KESTREL_CHECK_EQ(batch.num_columns(), state_->schema()->size());
  static_cast<Local&>(local).batches.push_back(std::move(batch));
}

void SetOpSinkGpu::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  // The state reads these batches on another stream: wait until their producers are done, once per stream.
  std::vector<gpu::Stream> synchronized;
  for (const Batch& b : l.batches) {
    const gpu::Stream s = b.stream();
    if (std::find(synchronized.begin(), synchronized.end(), s) != synchronized.end()) continue;
    s.synchronize();
    synchronized.push_back(s);
  }
  state_->add(side_, std::move(l.batches));
  l.batches.clear();
}

void SetOpSourceGpu::prepare(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "SetOpScan [GPU] needs the query's device memory resource");
  state_->prepare_output(gpu::driver_stream(), *ctx.device_mr);
}

void SetOpSourceGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "SetOpScan [GPU] needs the query's device memory resource");
  const size_t first = morsel * morsel_rows_;
  const size_t count = std::min(morsel_rows_, state_->output_rows() - first);
  out.push_back(state_->read_rows(first, count, gpu::driver_stream(), *ctx.device_mr));
}

}  // namespace kestrel::exec
