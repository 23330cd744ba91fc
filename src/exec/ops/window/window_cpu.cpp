#include "exec/ops/window/window.hpp"

#include <algorithm>
#include <numeric>

#include "common/check.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

namespace {

using Kind = WindowFunctionSpec::Kind;
using Frame = WindowFunctionSpec::Frame;

}  // namespace

LogicalType window_result_type(const WindowFunctionSpec& spec) {
  switch (spec.kind) {
    case Kind::kAggregate: return aggregate_result_type(spec.aggregate.function, spec.aggregate.input_type);
    case Kind::kPercentRank:
    case Kind::kCumeDist: return TypeId::kDouble;
    case Kind::kLag:
    case Kind::kLead:
    case Kind::kFirstValue:
    case Kind::kLastValue:
    case Kind::kNthValue: return spec.value_type;
    default: return TypeId::kBigInt;
  }
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

namespace {

/// The ranking, distribution and value functions, from the sorted order and its partition and peer starts.
ColumnPtr compute_positional(const WindowFunctionSpec& f, const Batch& all, const std::vector<uint32_t>& sorted,
                             const std::vector<uint8_t>& starts_partition, const std::vector<uint8_t>& starts_peers) {
  const size_t n = sorted.size();
  // Per sorted position: its partition's [start, end) and the end of its peer group.
  std::vector<size_t> partition_start(n), partition_end(n), peers_end(n);
  for (size_t i = 0; i < n; ++i) partition_start[i] = starts_partition[i] ? i : partition_start[i - 1];
  for (size_t i = n; i-- > 0;) {
    const bool last = i + 1 == n || starts_partition[i + 1];
    partition_end[i] = last ? i + 1 : partition_end[i + 1];
    peers_end[i] = last || starts_peers[i + 1] ? i + 1 : peers_end[i + 1];
  }
  switch (f.kind) {
    case Kind::kLag:
    case Kind::kLead:
    case Kind::kFirstValue:
    case Kind::kLastValue:
    case Kind::kNthValue: {
      // Each row reads the value of another row of its partition (a fallback row n + r, or NULL, outside it).
      ColumnPtr source = all.column(*f.value);
      if (f.fallback) {
        auto schema = std::make_shared<Schema>(std::vector<Field>{Field{"value", f.value_type, true}});
        source = concat_batches({Batch(schema, {source}, n, gpu::MemoryKind::kHost, gpu::Stream::host()),
                                 Batch(schema, {all.column(*f.fallback)}, n, gpu::MemoryKind::kHost,
                                       gpu::Stream::host())},
                                schema)
                     .column(0);
      }
      RowIndices rows(n);
      for (size_t i = 0; i < n; ++i) {
        int64_t j = static_cast<int64_t>(i);
        // The frame's last row: the partition's, the current row's last peer's, or the current row.
        const auto frame_last = static_cast<int64_t>(f.frame == Frame::kPartition    ? partition_end[i] - 1
                                                     : f.frame == Frame::kToLastPeer ? peers_end[i] - 1
                                                                                     : i);
        switch (f.kind) {
          case Kind::kLag: j -= f.offset; break;
          case Kind::kLead: j += f.offset; break;
          case Kind::kFirstValue: j = static_cast<int64_t>(partition_start[i]); break;
          case Kind::kNthValue: j = static_cast<int64_t>(partition_start[i]) + f.offset - 1; break;
          default: j = frame_last; break;
        }
        // nth_value reads nothing past the frame's last row.
        const int64_t end = f.kind == Kind::kNthValue ? frame_last + 1 : static_cast<int64_t>(partition_end[i]);
        const bool inside = j >= static_cast<int64_t>(partition_start[i]) && j < end;
        rows[sorted[i]] = inside ? sorted[static_cast<size_t>(j)]
                          : f.fallback ? static_cast<uint32_t>(n + sorted[i])
                                       : kNullRow;
      }
      return gather_column(*source, rows);
    }
    case Kind::kPercentRank:
    case Kind::kCumeDist: {
      std::vector<double> values(n);
      size_t rank = 0;
      for (size_t i = 0; i < n; ++i) {
        if (starts_peers[i]) rank = i - partition_start[i] + 1;
        const double size = static_cast<double>(partition_end[i] - partition_start[i]);
        values[sorted[i]] = f.kind == Kind::kCumeDist
                                ? static_cast<double>(peers_end[i] - partition_start[i]) / size
                                : (size > 1 ? static_cast<double>(rank - 1) / (size - 1) : 0.0);
      }
      return aggregate_detail::fixed_column<double>(TypeId::kDouble, values.data(), nullptr, n);
    }
    default: break;
  }
  std::vector<int64_t> values(n);
  int64_t row_number = 0, rank = 0, dense_rank = 0;
  for (size_t i = 0; i < n; ++i) {
    if (starts_partition[i]) row_number = dense_rank = 0;
    ++row_number;
    if (starts_peers[i]) {
      rank = row_number;
      ++dense_rank;
    }
    int64_t value = f.kind == Kind::kRowNumber ? row_number : f.kind == Kind::kRank ? rank : dense_rank;
    if (f.kind == Kind::kNtile) {
      // Buckets of size / buckets rows, the first size % buckets of them one row larger (PostgreSQL's ntile).
      const int64_t size = static_cast<int64_t>(partition_end[i] - partition_start[i]);
      const int64_t position = row_number - 1, q = size / f.offset, r = size % f.offset;
      value = 1 + (position < r * (q + 1) ? position / (q + 1) : r + (position - r * (q + 1)) / q);
    }
    values[sorted[i]] = value;
  }
  return aggregate_detail::fixed_column<int64_t>(TypeId::kBigInt, values.data(), nullptr, n);
}

}  // namespace

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
  if (f.kind != Kind::kAggregate) return compute_positional(f, all, sorted, starts_partition, starts_peers);
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
  std::unique_ptr<AggregateState> state = make_aggregate_state(f.aggregate);
  state->resize(groups + 1);  // the last group is scratch for the scan below
  state->update(group_of.data(), argument, n);
  if (f.frame != Frame::kPartition && groups > 1) {
    // Running frames: each group takes in all earlier groups of its partition, an inclusive prefix scan with the
    // accumulators' merge, in log2(groups) rounds of whole-column merges (Hillis-Steele): in the round of distance
    // d, group g merges what group g - d held after the previous round, when g - d is in g's partition.
    std::vector<uint32_t> first(groups);  // the first group of each group's partition
    for (uint32_t g = 0; g < groups; ++g) first[g] = continues[g] ? first[g - 1] : g;
    std::vector<uint32_t> targets;
    for (size_t d = 1; d < groups; d *= 2) {
      const size_t count = groups - d;
      targets.resize(count);
      bool any = false;
      for (size_t k = 0; k < count; ++k) {
        const size_t g = k + d;
        const bool inside = first[g] <= k;
        targets[k] = inside ? static_cast<uint32_t>(g) : static_cast<uint32_t>(groups);  // scratch: dropped
        any = any || inside;
      }
      if (!any) break;  // no partition spans d groups: later rounds change nothing either
      state->merge(targets.data(), state->export_state(0, count), count);
    }
  }
  state->finish();
  return gather_column(*state->finalize(0, groups), group_of);
}

}  // namespace kestrel::exec
