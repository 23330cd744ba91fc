/// WindowSinkGpu: device batches kept in input order; in finalize one concatenation, then per function a stable
/// device sort, its boundaries and the function's values (window_gpu.cu for the kernels).

#include "exec/ops/window/window_gpu.hpp"

#include <algorithm>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/join_pairs_gpu.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

namespace {

using Kind = WindowFunctionSpec::Kind;
using Frame = WindowFunctionSpec::Frame;
using namespace window_gpu_detail;

/// The sort keys of `f`: its partition keys (ascending), then its ORDER BY keys.
std::vector<SortKeySpec> sort_keys_of(const WindowFunctionSpec& f) {
  std::vector<SortKeySpec> keys;
  for (size_t c : f.partition) keys.push_back({c, false, false});
  keys.insert(keys.end(), f.order.begin(), f.order.end());
  return keys;
}

/// An aggregate of `f` runs as an aggregation of [group number BIGINT, argument] grouped by column 0.
AggregateSpec grouped_spec(const WindowFunctionSpec& f) {
  AggregateSpec spec = f.aggregate;
  if (spec.argument) spec.argument = 1;
  return spec;
}

SchemaPtr grouped_schema(const Schema& input, const WindowFunctionSpec& f) {
  std::vector<Field> fields{{"#group", TypeId::kBigInt, false}};
  if (f.aggregate.argument) fields.push_back(input.field(*f.aggregate.argument));
  return std::make_shared<Schema>(std::move(fields));
}

/// A one-column device batch holding `column`.
Batch single_column(const ColumnPtr& column, gpu::Stream stream) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{Field{"value", column->type(), true}});
  return Batch(schema, {column}, column->length(), gpu::MemoryKind::kDevice, stream);
}

/// The aggregate of `f` per row: groups by frame, the GPU aggregation's states, for running frames their prefix
/// scan within each partition, and the final values gathered back to the rows.
ColumnPtr aggregate_column(const WindowFunctionSpec& f, const Schema& input, const Batch& all, const Boundaries& b,
                           const uint32_t* perm, gpu::Stream stream, gpu::MemoryResource& mr) {
  using namespace aggregate_gpu_detail;
  const size_t n = all.num_rows();
  BufferPtr group_of = device_buffer(n * sizeof(uint32_t), stream, mr);
  BufferPtr first_group = device_buffer(n * sizeof(uint32_t), stream, mr);
  ColumnPtr key = Column::make_fixed(TypeId::kBigInt, n, false, mr, stream);
  aggregate_groups(f.frame, b, perm, n, group_of->as<uint32_t>(), key->values()->as<int64_t>(),
                   first_group->as<uint32_t>(), stream);
  std::vector<ColumnPtr> columns{key};
  if (f.aggregate.argument) columns.push_back(all.column(*f.aggregate.argument));
  const Batch grouped(grouped_schema(input, f), std::move(columns), n, gpu::MemoryKind::kDevice, stream);
  const std::vector<AggregateSpec> spec{grouped_spec(f)};
  // Every group number 0..groups-1 has rows, and the states come in ascending key order: state row g is group g.
  Batch states = partial_states(grouped, {0}, spec, 0, nullptr, stream, mr);
  const size_t groups = states.num_rows();
  if (f.frame != Frame::kPartition && groups > 1) {
    // Running frames: an inclusive prefix scan of the states within each partition (Hillis-Steele, as
    // WindowSink): in the round of distance d, group g merges what group g - d held after the previous round,
    // when g - d is in g's partition. The merge sees each state with its own key plus the shifted ones (those
    // leaving their partition get the scratch key `groups`, which sorts last and is dropped).
    const size_t longest = longest_partition(first_group->as<uint32_t>(), groups, stream, mr);
    for (size_t d = 1; d < longest; d *= 2) {
      const Batch earlier = slice_batch_gpu(states, 0, groups - d, stream, mr);
      ColumnPtr shifted = Column::make_fixed(TypeId::kBigInt, groups - d, false, mr, stream);
      shifted_keys(first_group->as<uint32_t>(), groups, d, shifted->values()->as<int64_t>(), stream);
      std::vector<ColumnPtr> moved_columns = earlier.columns();
      moved_columns[0] = shifted;
      const Batch moved(states.schema(), std::move(moved_columns), groups - d, gpu::MemoryKind::kDevice, stream);
      Batch merged = merge_states(concat_batches_gpu({states, moved}, states.schema(), stream, mr), 1, spec, stream, mr);
      KESTREL_CHECK_GE(merged.num_rows(), groups);
      states = merged.num_rows() > groups ? slice_batch_gpu(merged, 0, groups, stream, mr) : std::move(merged);
    }
  }
  const Batch finals = final_values(states, 1, spec, stream, mr);
  return gather_batch_gpu(single_column(finals.column(1), stream), group_of->as<uint32_t>(), n, stream, mr).column(0);
}

}  // namespace

void check_window_gpu_supported(const Schema& input, const std::vector<WindowFunctionSpec>& functions) {
  for (const WindowFunctionSpec& f : functions) {
    if (f.kind == Kind::kNthValue) throw NotImplemented("GPU window function nth_value");
    check_sort_gpu_supported(input, sort_keys_of(f));
    for (const std::optional<size_t>& c : {f.value, f.fallback}) {
      if (!c) continue;
      KESTREL_CHECK_LT(*c, input.size());
      if (input.field(*c).type.id() == TypeId::kNull) throw NotImplemented("GPU window function of an untyped NULL");
    }
    if (f.kind != Kind::kAggregate) continue;
    if (f.aggregate.distinct) throw NotImplemented("GPU window aggregate over DISTINCT values");
    if (f.aggregate.argument) KESTREL_CHECK_LT(*f.aggregate.argument, input.size());
    check_aggregate_gpu_supported(*grouped_schema(input, f), {0}, {grouped_spec(f)});
  }
}

bool WindowSinkGpu::supports(const Schema& input, const std::vector<WindowFunctionSpec>& functions) {
  try {
    check_window_gpu_supported(input, functions);
    return true;
  } catch (const NotImplemented&) {
    return false;
  }
}

struct WindowSinkGpu::Local final : LocalState {
  std::vector<SortSinkGpu::Entry> entries;
};

WindowSinkGpu::WindowSinkGpu(SchemaPtr input, size_t passed, std::vector<WindowFunctionSpec> functions)
    : input_(std::move(input)), passed_(passed), functions_(std::move(functions)) {
  KESTREL_CHECK_LE(passed_, input_->size());
  check_window_gpu_supported(*input_, functions_);
  std::vector<Field> fields(input_->fields().begin(), input_->fields().begin() + static_cast<std::ptrdiff_t>(passed_));
  for (size_t f = 0; f < functions_.size(); ++f) {
    fields.push_back(Field{"#window" + std::to_string(f), window_result_type(functions_[f]), true});
  }
  output_schema_ = std::make_shared<Schema>(std::move(fields));
}

std::unique_ptr<Sink::LocalState> WindowSinkGpu::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void WindowSinkGpu::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  KESTREL_CHECK_MSG(batch.on_device(), "Window [GPU] needs device batches");
  static_cast<Local&>(local).entries.push_back({morsel, sequence, std::move(batch)});
}

void WindowSinkGpu::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  synchronize_producers(l.entries);  // finalize reads the batches on its own stream
  std::lock_guard lock(mutex_);
  for (auto& e : l.entries) entries_.push_back(std::move(e));
  l.entries.clear();
}

void WindowSinkGpu::finalize(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "Window [GPU] needs the query's device memory resource");
  gpu::MemoryResource& mr = *ctx.device_mr;
  const gpu::Stream stream = gpu::driver_stream();
  // Concatenated in input order, a row's position is its origin: stable sorts break ties like WindowSink.
  const std::vector<Batch> inputs = take_in_input_order(entries_);
  const Batch all = concat_batches_gpu(inputs, input_, stream, mr);
  const size_t n = all.num_rows();
  KESTREL_CHECK_LT(n, size_t{1} << 31);
  std::vector<ColumnPtr> columns(all.columns().begin(), all.columns().begin() + static_cast<std::ptrdiff_t>(passed_));
  for (const WindowFunctionSpec& f : functions_) {
    columns.push_back(n == 0 ? null_column_gpu(window_result_type(f), 0, stream, mr) : compute(f, all, stream, mr));
  }
  output_ = Batch(output_schema_, std::move(columns), n, gpu::MemoryKind::kDevice, stream);
  // Readers use their own streams, and the inputs are freed on their producers' streams: finish everything now.
  stream.synchronize();
}

ColumnPtr WindowSinkGpu::compute(const WindowFunctionSpec& f, const Batch& all, gpu::Stream stream,
                                 gpu::MemoryResource& mr) const {
  const size_t n = all.num_rows();
  const std::vector<SortKeySpec> keys = sort_keys_of(f);
  std::vector<size_t> key_columns, order_columns;
  for (const SortKeySpec& k : keys) key_columns.push_back(k.column);
  for (const SortKeySpec& k : f.order) order_columns.push_back(k.column);
  BufferPtr perm = device_buffer(n * sizeof(uint32_t), stream, mr);
  sort_rows_gpu(device_keys(all, key_columns), device_sort_order(keys), n, perm->as<uint32_t>(), stream, mr);
  const Boundaries b =
      find_boundaries(device_keys(all, f.partition), device_keys(all, order_columns), perm->as<uint32_t>(), n, stream, mr);
  switch (f.kind) {
    case Kind::kAggregate: return aggregate_column(f, *input_, all, b, perm->as<uint32_t>(), stream, mr);
    case Kind::kLag:
    case Kind::kLead:
    case Kind::kFirstValue:
    case Kind::kLastValue: {
      // Each row reads the value of another row of its partition, or row n + r of the fallback column, or the
      // NULL row n.
      const ColumnPtr extra = f.fallback ? all.column(*f.fallback) : null_column_gpu(f.value_type, 1, stream, mr);
      const Batch value = single_column(all.column(*f.value), stream);
      const Batch source =
          concat_batches_gpu({value, single_column(extra, stream)}, value.schema(), stream, mr);
      BufferPtr rows = device_buffer(n * sizeof(uint32_t), stream, mr);
      value_rows(f.kind, f.frame, f.offset, f.fallback.has_value(), b, perm->as<uint32_t>(), n, rows->as<uint32_t>(),
                 stream);
      return gather_batch_gpu(source, rows->as<uint32_t>(), n, stream, mr).column(0);
    }
    default: return ranking_column(f.kind, f.offset, b, perm->as<uint32_t>(), n, stream, mr);
  }
}

Batch WindowSinkGpu::read_rows(size_t first, size_t count, gpu::Stream stream, gpu::MemoryResource& mr) const {
  KESTREL_CHECK_LE(first + count, output_.num_rows());
  Batch rows = slice_batch_gpu(output_, first, count, stream, mr);
  // output_ is freed on the finalize stream when the sink goes away: finish reading it now.
  stream.synchronize();
  return rows;
}

}  // namespace kestrel::exec
