#include "exec/ops/hash_aggregate/hash_aggregate_gpu_op.hpp"

#include <algorithm>
#include <deque>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/output_rows.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

using namespace aggregate_gpu_detail;

namespace {

/// Runs of at most this many rows per partial group: a big group (few keys, or none) spreads over many blocks.
constexpr size_t kPartialGroupRows = size_t{1} << 13;
/// A driver merges its partial batches once it holds this many (and they hold as many rows as the first).
constexpr size_t kCompactAfter = 16;

std::vector<size_t> first_columns(size_t count) {
  std::vector<size_t> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = i;
  return out;
}

/// [keys of `input` at `group_columns`..., `more`...].
SchemaPtr keys_and(const Schema& input, const std::vector<size_t>& group_columns, std::vector<Field> more) {
  std::vector<Field> fields;
  for (size_t c : group_columns) fields.push_back(input.field(c));
  for (auto& f : more) fields.push_back(std::move(f));
  return std::make_shared<const Schema>(std::move(fields));
}

}  // namespace

struct HashAggregateSinkGpu::Local final : LocalState {
  gpu::Stream stream;     ///< the stream the batches below were produced on (host: none yet)
  bool try_hash = true;  ///< whether grouping by hash table still works (false once a batch's groups did not fit)
  bool try_hash_merge = true;           ///< the same for compacting the states
  std::deque<bool> try_hash_distinct;   ///< the same per DISTINCT aggregate (a deque: its elements have addresses)
  std::vector<Batch> states;
  std::vector<std::vector<Batch>> distinct;
};

HashAggregateSinkGpu::HashAggregateSinkGpu(SchemaPtr input_schema, std::vector<size_t> group_columns,
                                           std::vector<AggregateSpec> aggregates)
    : input_schema_(std::move(input_schema)),
      group_columns_(std::move(group_columns)),
      aggregates_(std::move(aggregates)) {
  check_aggregate_gpu_supported(*input_schema_, group_columns_, aggregates_);
  output_schema_ = single_output_schema(*input_schema_, group_columns_, aggregates_);
  state_aggregates_ = state_aggregates(aggregates_);
  std::vector<Field> state_fields;
  for (const AggregateSpec& a : state_aggregates_) {
    const auto types = aggregate_state_types(a);
    const std::string name = plan::aggregate_function_name(a.function);
    for (size_t i = 0; i < types.size(); ++i) state_fields.push_back({name + "_state" + std::to_string(i), types[i]});
  }
  state_schema_ = keys_and(*input_schema_, group_columns_, std::move(state_fields));
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    if (!is_distinct_aggregate(aggregates_[i])) continue;
    distinct_aggregates_.push_back(i);
    distinct_schemas_.push_back(keys_and(*input_schema_, group_columns_, {input_schema_->field(*aggregates_[i].argument)}));
  }
  distinct_.resize(distinct_aggregates_.size());
  if (AggregateTableGpu::supports(*input_schema_, group_columns_, aggregates_)) {
    table_ = std::make_unique<AggregateTableGpu>(input_schema_, group_columns_, state_aggregates_, state_schema_);
  }
}

bool HashAggregateSinkGpu::supports(const Schema& input_schema, const std::vector<size_t>& group_columns,
                                    const std::vector<AggregateSpec>& aggregates) {
  try {
    check_aggregate_gpu_supported(input_schema, group_columns, aggregates);
    return true;
  } catch (const NotImplemented&) {
    return false;
  }
}

std::unique_ptr<Sink::LocalState> HashAggregateSinkGpu::make_local_state(ExecContext&) {
  auto local = std::make_unique<Local>();
  local->distinct.resize(distinct_aggregates_.size());
  local->try_hash_distinct.assign(distinct_aggregates_.size(), true);
  return local;
}

void HashAggregateSinkGpu::compact(std::vector<Batch>& partials, const std::vector<size_t>& key_columns, bool states,
                                   gpu::Stream stream, gpu::MemoryResource& mr, size_t distinct_index,
                                   bool* try_hash) const {
  if (partials.size() < kCompactAfter) return;
  size_t later_rows = 0;
  for (size_t i = 1; i < partials.size(); ++i) later_rows += partials[i].num_rows();
  if (later_rows < partials[0].num_rows()) return;
  const SchemaPtr& schema = states ? state_schema_ : distinct_schemas_[distinct_index];
  Batch all = concat_batches_gpu(partials, schema, stream, mr);
  Batch merged = states ? merge_states(all, group_columns_.size(), state_aggregates_, stream, mr, try_hash)
                        : distinct_rows(all, key_columns, stream, mr, try_hash);
  partials.clear();
  partials.push_back(std::move(merged));
}

void HashAggregateSinkGpu::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext& ctx) {
  KESTREL_CHECK_MSG(batch.on_device() && ctx.device_mr != nullptr, "HashAggregate [GPU] needs a device batch");
  if (batch.num_rows() == 0) return;
  if (table_) {
    table_->insert(batch, *ctx.device_mr);
    return;
  }
  auto& l = static_cast<Local&>(local);
  const gpu::Stream stream = batch.stream();
  // The partial batches so far were produced on another stream: let them complete before this one reads them.
  if (!l.stream.is_host() && !(l.stream == stream)) l.stream.synchronize();
  l.stream = stream;
  gpu::MemoryResource& mr = *ctx.device_mr;
  const size_t keys = group_columns_.size();
  l.states.push_back(partial_states(batch, group_columns_, state_aggregates_, kPartialGroupRows, &l.try_hash, stream, mr));
  compact(l.states, first_columns(keys), true, stream, mr, 0, &l.try_hash_merge);
  for (size_t d = 0; d < distinct_aggregates_.size(); ++d) {
    std::vector<size_t> columns = group_columns_;
    columns.push_back(*aggregates_[distinct_aggregates_[d]].argument);
    // Per batch and in compaction the distinct rows may come in any order: finalize sorts them.
    l.distinct[d].push_back(distinct_rows(batch, columns, stream, mr, &l.try_hash_distinct[d]));
    compact(l.distinct[d], first_columns(keys + 1), false, stream, mr, d, &l.try_hash_distinct[d]);
  }
}

void HashAggregateSinkGpu::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  // finalize reads these batches on its own stream.
  if (!l.stream.is_host()) l.stream.synchronize();
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& b : l.states) states_.push_back(std::move(b));
  for (size_t d = 0; d < l.distinct.size(); ++d) {
    for (auto& b : l.distinct[d]) distinct_[d].push_back(std::move(b));
  }
  l.states.clear();
  l.distinct.assign(l.distinct.size(), {});
}

void HashAggregateSinkGpu::finalize(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "HashAggregate [GPU] needs a device memory resource");
  const gpu::Stream stream = gpu::driver_stream();
  gpu::MemoryResource& mr = *ctx.device_mr;
  std::lock_guard<std::mutex> lock(mutex_);
  if (table_) {
    // One row per group already: the final values come straight from the states.
    const Batch states = table_->take_states(stream, mr);
    const size_t keys = group_columns_.size();
    if (states.num_rows() == 0) {
      result_ = empty_result(output_schema_, aggregates_, keys, stream, mr);
    } else {
      const Batch finals = final_values(states, keys, state_aggregates_, stream, mr);
      // Without aggregates the states carry the count(*) that state_aggregates adds; the result has the keys only.
      std::vector<ColumnPtr> columns(finals.columns().begin(),
                                     finals.columns().begin() + static_cast<ptrdiff_t>(keys + aggregates_.size()));
      result_ = Batch(output_schema_, std::move(columns), finals.num_rows(), gpu::MemoryKind::kDevice, stream);
    }
    stream.synchronize();
    return;
  }
  const Batch states = concat_batches_gpu(states_, state_schema_, stream, mr);
  std::vector<Batch> distinct;
  for (size_t d = 0; d < distinct_.size(); ++d) {
    distinct.push_back(concat_batches_gpu(distinct_[d], distinct_schemas_[d], stream, mr));
  }
  result_ = finish_aggregation(states, distinct, group_columns_.size(), aggregates_, output_schema_, stream, mr);
  // The source reads the result on other drivers' streams.
  stream.synchronize();
  states_.clear();
  distinct_.assign(distinct_.size(), {});
}

size_t HashAggregateSourceGpu::morsel_count() const { return morsels_for(sink_->group_count(), morsel_rows_); }

void HashAggregateSourceGpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "HashAggregateScan [GPU] needs a device memory resource");
  const Batch& result = sink_->result();
  const size_t first = morsel * morsel_rows_;
  KESTREL_CHECK_LT(first, result.num_rows());
  const size_t count = std::min(morsel_rows_, result.num_rows() - first);
  const gpu::Stream stream = gpu::driver_stream();
  if (count == result.num_rows()) {
    // The whole result (finalize waited for it) continues on this driver's stream, as the slices do.
    out.push_back(Batch(result.schema(), result.columns(), count, gpu::MemoryKind::kDevice, stream));
    return;
  }
  out.push_back(slice_batch_gpu(result, first, count, stream, *ctx.device_mr));
}

}  // namespace kestrel::exec
