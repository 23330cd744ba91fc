#include "exec/ops/window/window.hpp"

#include <algorithm>
#include <numeric>

#include "common/check.hpp"
#include "exec/ops/common/column_view.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

namespace {

using Kind = WindowFunctionSpec::Kind;
using Frame = WindowFunctionSpec::Frame;

ColumnPtr int64_column(const std::vector<int64_t>& values) {
  auto column = Column::make_fixed(TypeId::kBigInt, values.size(), false, gpu::host_memory_resource(),
                                   gpu::Stream::host());
  if (!values.empty()) std::memcpy(column->mutable_data<int64_t>(), values.data(), values.size() * sizeof(int64_t));
  return column;
}

}  // namespace

LogicalType window_result_type(const WindowFunctionSpec& spec) {
  if (spec.kind != Kind::kAggregate) return TypeId::kBigInt;
  return aggregate_result_type(spec.aggregate.function, spec.aggregate.input_type);
}

struct WindowSink::Local final : LocalState {
  std::vector<std::pair<RowOrigin, Batch>> batches;
};

WindowSink::WindowSink(SchemaPtr input, size_t passed, std::vector<WindowFunctionSpec> functions)
    : input_(std::move(input)), passed_(passed), functions_(std::move(functions)) {
  KESTREL_CHECK_LE(passed_, input_->size());
  std::vector<Field> fields(input_->fields().begin(), input_->fields().begin() + static_cast<std::ptrdiff_t>(passed_));
  for (size_t f = 0; f < functions_.size(); ++f) {
    fields.push_back(Field{"#window" + std::to_string(f), window_result_type(functions_[f]), true});
  }
  output_schema_ = std::make_shared<Schema>(std::move(fields));
}

std::unique_ptr<Sink::LocalState> WindowSink::make_local_state(ExecContext&) { return std::make_unique<Local>(); }

void WindowSink::consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  static_cast<Local&>(local).batches.emplace_back(RowOrigin{morsel, sequence, 0}, std::move(batch));
}

void WindowSink::combine(LocalState& local, ExecContext&) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& b : static_cast<Local&>(local).batches) batches_.push_back(std::move(b));
}

void WindowSink::finalize(ExecContext&) {
  std::sort(batches_.begin(), batches_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Batch> parts;
  for (auto& b : batches_) parts.push_back(std::move(b.second));
  batches_.clear();
  const Batch all = concat_batches(parts, input_);
  std::vector<ColumnPtr> columns(all.columns().begin(), all.columns().begin() + static_cast<std::ptrdiff_t>(passed_));
  for (const WindowFunctionSpec& f : functions_) columns.push_back(compute(f, all));
  output_ = Batch(output_schema_, std::move(columns), all.num_rows(), gpu::MemoryKind::kHost, gpu::Stream::host());
}

Batch WindowSink::read_rows(size_t first, size_t count) const { return slice_batch(output_, first, count); }

ColumnPtr WindowSink::compute(const WindowFunctionSpec& f, const Batch& all) const {
  const size_t n = all.num_rows();
  std::vector<ColumnView> partition, order, keys;
  std::vector<SortOrder> orders;
  for (size_t c : f.partition) {
    partition.push_back(make_view(*all.column(c)));
    keys.push_back(partition.back());
    orders.push_back(SortOrder{});
  }
  for (const SortKeySpec& k : f.order) {
    order.push_back(make_view(*all.column(k.column)));
    keys.push_back(order.back());
    orders.push_back(SortOrder{k.descending, k.nulls_first});
  }
  // The rows sorted by partition, then by the ORDER BY keys; ties keep the input order.
  const RowComparator comparator(std::move(orders));
  std::vector<uint32_t> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 0u);
  std::stable_sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
    return comparator.compare(keys.data(), a, keys.data(), b) < 0;
  });
  // Per sorted position: does it start a partition, a peer group (equal ORDER BY keys)?
  std::vector<uint8_t> starts_partition(n), starts_peers(n);
  for (size_t i = 0; i < n; ++i) {
    const bool new_partition =
        i == 0 || !rows_equal(partition.data(), sorted[i - 1], partition.data(), sorted[i], partition.size());
    starts_partition[i] = new_partition;
    starts_peers[i] =
        new_partition || !rows_equal(order.data(), sorted[i - 1], order.data(), sorted[i], order.size());
  }
  if (f.kind != Kind::kAggregate) {
    std::vector<int64_t> values(n);
    int64_t row_number = 0, rank = 0, dense_rank = 0;
    for (size_t i = 0; i < n; ++i) {
      if (starts_partition[i]) row_number = dense_rank = 0;
      ++row_number;
      if (starts_peers[i]) {
        rank = row_number;
        ++dense_rank;
      }
      values[sorted[i]] = f.kind == Kind::kRowNumber ? row_number : f.kind == Kind::kRank ? rank : dense_rank;
    }
    return int64_column(values);
  }
  // Aggregates: rows in groups (partitions, peer groups or single rows), one accumulator per group; for the
  // running frames each group's accumulator then takes in the previous group's of the same partition.
  RowIndices group_of(n);
  std::vector<uint8_t> continues;  // per group: it continues the previous group's partition
  for (size_t i = 0; i < n; ++i) {
    const bool starts = f.frame == Frame::kPartition    ? starts_partition[i] != 0
                        : f.frame == Frame::kToLastPeer ? starts_peers[i] != 0
                                                        : true;
    if (starts) continues.push_back(!starts_partition[i]);
    group_of[sorted[i]] = static_cast<uint32_t>(continues.size() - 1);
  }
  const size_t groups = continues.size();
  const Column* argument = f.aggregate.argument ? all.column(*f.aggregate.argument).get() : nullptr;
  std::unique_ptr<AggregateState> state = make_aggregate_state(f.aggregate.function, f.aggregate.input_type);
  state->resize(groups);
  state->update(group_of.data(), argument, n);
  if (f.frame != Frame::kPartition) {
    std::unique_ptr<AggregateState> running = make_aggregate_state(f.aggregate.function, f.aggregate.input_type);
    running->resize(groups);
    for (uint32_t g = 0; g < groups; ++g) {
      if (continues[g]) running->merge(&g, running->export_state(g - 1, 1), 1);
      running->merge(&g, state->export_state(g, 1), 1);
    }
    state = std::move(running);
  }
  return gather_column(*state->finalize(0, groups), group_of);
}

}  // namespace kestrel::exec
