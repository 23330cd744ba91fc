#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "common/numeric_ops.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_kernels.hpp"
#include "gpu/copy.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec {

using plan::AggregateFunction;

namespace aggregate_gpu_detail {

namespace {

/// Runs of at most this many rows per partial group in aggregate_gpu (spreads a big group over many blocks).
constexpr size_t kPartialGroupRows = size_t{1} << 13;

/// One per-group reduction of reduce_groups.
struct Reduction {
  enum class Kind : uint8_t { kCount, kSum, kPick, kMoments };
  Kind kind = Kind::kCount;
  std::optional<size_t> column;  ///< input column; nullopt for count(*); the first of the three state columns
                                 ///< (count, mean, m2) for moments merged from states
  SumKind sum = SumKind::kInt64ToInt64;
  PickKind pick = PickKind::kFirst;
  bool merge = false;            ///< moments: merge states instead of raw DOUBLE values
  Field field;                   ///< the output column (moments: the count)
  std::vector<Field> more_fields;  ///< moments: the mean and m2 columns that follow the count
  std::string overflow_message;  ///< InvalidInput message when a sum overflows
};

Reduction count_of(std::optional<size_t> column, Field field) {
  Reduction r;
  r.kind = Reduction::Kind::kCount;
  r.column = column;
  r.field = std::move(field);
  return r;
}

Reduction sum_of(size_t column, SumKind kind, Field field, std::string overflow_message) {
  Reduction r;
  r.kind = Reduction::Kind::kSum;
  r.column = column;
  r.sum = kind;
  r.field = std::move(field);
  r.overflow_message = std::move(overflow_message);
  return r;
}

Reduction pick_of(size_t column, PickKind kind, Field field) {
  Reduction r;
  r.kind = Reduction::Kind::kPick;
  r.column = column;
  r.pick = kind;
  r.field = std::move(field);
  return r;
}

/// The variance state (count, mean, m2: three output columns) of raw DOUBLE values at `column`, or (`merge`) of
/// the states at `column`, `column` + 1 and `column` + 2.
Reduction moments_of(size_t column, bool merge, std::vector<Field> fields) {
  KESTREL_CHECK_EQ(fields.size(), size_t{3});
  Reduction r;
  r.kind = Reduction::Kind::kMoments;
  r.column = column;
  r.merge = merge;
  r.field = fields[0];
  r.more_fields = {fields[1], fields[2]};
  return r;
}

bool is_variance(AggregateFunction f) {
  return f == AggregateFunction::kVarSamp || f == AggregateFunction::kVarPop || f == AggregateFunction::kStddevSamp ||
         f == AggregateFunction::kStddevPop;
}

/// The accumulator of sum/avg over raw values of `input`, as make_sum_state chooses it.
SumKind raw_sum_kind(const LogicalType& input, bool average) {
  switch (physical_kind(input)) {
    case PhysicalKind::kInt8: return average ? SumKind::kInt8ToInt128 : SumKind::kInt8ToInt64;
    case PhysicalKind::kInt16: return average ? SumKind::kInt16ToInt128 : SumKind::kInt16ToInt64;
    case PhysicalKind::kInt32: return average ? SumKind::kInt32ToInt128 : SumKind::kInt32ToInt64;
    case PhysicalKind::kInt64: return SumKind::kInt64ToInt128;
    case PhysicalKind::kInt128: return SumKind::kInt128ToInt128;
    case PhysicalKind::kFloat: return SumKind::kFloatToDouble;
    case PhysicalKind::kDouble: return SumKind::kDoubleToDouble;
    default: break;
  }
  throw NotImplemented(std::string(average ? "avg" : "sum") + " of " + input.to_string() + " on the GPU");
}

/// The accumulator that merges a sum state column of type `state` (BIGINT, DECIMAL(38, s) or DOUBLE).
SumKind state_sum_kind(const LogicalType& state) {
  switch (physical_kind(state)) {
    case PhysicalKind::kInt64: return SumKind::kInt64ToInt64;
    case PhysicalKind::kInt128: return SumKind::kInt128ToInt128;
    case PhysicalKind::kDouble: return SumKind::kDoubleToDouble;
    default: break;
  }
  throw InternalError("GPU aggregation: unexpected sum state type " + state.to_string());
}

size_t accumulator_width(SumKind kind) {
  switch (kind) {
    case SumKind::kInt8ToInt128:
    case SumKind::kInt16ToInt128:
    case SumKind::kInt32ToInt128:
    case SumKind::kInt64ToInt128:
    case SumKind::kInt128ToInt128: return 16;
    default: return 8;
  }
}

PickKind pick_kind(AggregateFunction f) {
  if (f == AggregateFunction::kMin) return PickKind::kMin;
  if (f == AggregateFunction::kMax) return PickKind::kMax;
  return PickKind::kFirst;
}

/// An output column waiting for its NULL count (or already complete in `done`).
struct PendingColumn {
  LogicalType type;
  BufferPtr values;
  BufferPtr validity;
  ColumnPtr done;
  std::vector<ColumnPtr> more;  ///< complete columns that follow this one (the mean and m2 of moments)
};

/// The columns `columns` of `batch` as a batch of their own.
Batch select_columns(const Batch& batch, const std::vector<size_t>& columns) {
  std::vector<Field> fields;
  std::vector<ColumnPtr> selected;
  for (size_t c : columns) {
    fields.push_back(batch.schema()->field(c));
    selected.push_back(batch.column(c));
  }
  return Batch(std::make_shared<Schema>(std::move(fields)), std::move(selected), batch.num_rows(),
               gpu::MemoryKind::kDevice, batch.stream());
}

/// The variance states (count, mean, m2) of each group of `layout` for the moments reduction `r` over `input`:
/// the count column, and the mean and m2 columns in *more. None of them has NULLs.
ColumnPtr moments_columns(const Batch& input, const Reduction& r, const GroupLayout& layout, gpu::Stream stream,
                          gpu::MemoryResource& mr, std::vector<ColumnPtr>* more) {
  const size_t groups = layout.groups;
  MomentsInput in;
  if (r.merge) {
    const Column& counts = *input.column(*r.column);
    const Column& means = *input.column(*r.column + 1);
    const Column& m2s = *input.column(*r.column + 2);
    KESTREL_CHECK(physical_kind(counts.type()) == PhysicalKind::kInt64 &&
                  physical_kind(means.type()) == PhysicalKind::kDouble &&
                  physical_kind(m2s.type()) == PhysicalKind::kDouble);
    in.counts = counts.data<int64_t>();
    in.validity = validity_of(counts);
    in.values = means.data<double>();
    in.m2s = m2s.data<double>();
  } else {
    const Column& values = *input.column(*r.column);
    KESTREL_CHECK_MSG(physical_kind(values.type()) == PhysicalKind::kDouble && !values.is_dictionary(),
                      "GPU variance over a column that is not DOUBLE");
    in.values = values.data<double>();
    in.validity = validity_of(values);
  }
  BufferPtr counts = device_buffer(groups * sizeof(int64_t), stream, mr);
  BufferPtr means = device_buffer(groups * sizeof(double), stream, mr);
  BufferPtr m2s = device_buffer(groups * sizeof(double), stream, mr);
  MomentsOutput out{counts->as<int64_t>(), means->as<double>(), m2s->as<double>()};
  moments_groups(layout, in, out, stream);
  auto column = [&](const Field& f, BufferPtr values) {
    return Column::from_buffers(f.type, ColumnEncoding::kPlain, groups, 0, nullptr, std::move(values), nullptr,
                                nullptr);
  };
  *more = {column(r.more_fields.at(0), means), column(r.more_fields.at(1), m2s)};
  return column(r.field, counts);
}

/// Groups `input` by the columns `keys` (none: runs of `max_group_rows` rows, or all rows as one group; see
/// group_rows for `try_hash`) and runs `reductions` per group: [group keys..., one column per reduction]. Synchronizes `stream` for the group count,
/// for each gathered column and once for the NULL counts and overflow flags; throws InvalidInput on overflow.
Batch reduce_groups(const Batch& input, const std::vector<size_t>& keys, size_t max_group_rows, bool* try_hash,
                    const std::vector<Reduction>& reductions, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "GPU aggregation");
  KESTREL_CHECK_MSG(input.on_device(), "GPU aggregation needs a device batch");
  const size_t rows = input.num_rows();
  if (rows > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU aggregation of 2^31 rows or more at once");
  Grouping grouping;
  GroupLayout layout;
  if (keys.empty()) {
    KESTREL_CHECK_GT(rows, size_t{0});
    layout.rows = rows;
    layout.chunk = max_group_rows > 0 ? std::min(max_group_rows, rows) : rows;
    layout.groups = (rows + layout.chunk - 1) / layout.chunk;
  } else {
    // Few groups need no sort when every reduction is a count or an integer sum (dense grouping).
    const bool dense_ok = std::all_of(reductions.begin(), reductions.end(), [](const Reduction& r) {
      return r.kind == Reduction::Kind::kCount || (r.kind == Reduction::Kind::kSum && dense_sum_supported(r.sum));
    });
    grouping = group_rows(input, keys, max_group_rows, try_hash, dense_ok ? kMaxDenseGroups : 0, stream, mr);
    layout = grouping.layout();
  }
  const size_t groups = layout.groups;
  const size_t n = reductions.size();
  // Per reduction: [valid groups, overflow flag], read back together at the end; after them the scratch of the
  // dense reductions.
  const size_t counter_bytes = 2 * n * sizeof(unsigned long long);
  const size_t dense_bytes = layout.group_of != nullptr ? dense_scratch_bytes() : 0;
  BufferPtr counters = device_buffer(counter_bytes + n * dense_bytes, stream, mr);
  auto* counter = counters->as<unsigned long long>();
  gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0, counters->size(), stream);
  const size_t validity_bytes = (groups + 31) / 32 * 4;

  std::vector<PendingColumn> pending(n);
  for (size_t i = 0; i < n; ++i) {
    const Reduction& r = reductions[i];
    PendingColumn& p = pending[i];
    p.type = r.field.type;
    const Column* column = r.column ? input.column(*r.column).get() : nullptr;
    ReduceOutput out;
    out.valid_count = counter + 2 * i;
    out.overflow = counter + 2 * i + 1;
    if (dense_bytes > 0) out.dense_totals = counters->as<unsigned char>() + counter_bytes + i * dense_bytes;
    if (r.kind == Reduction::Kind::kCount) {
      p.values = device_buffer(groups * sizeof(int64_t), stream, mr);
      out.values = p.values->data();
      count_groups(layout, column != nullptr ? validity_of(*column) : nullptr, out, stream);
    } else if (r.kind == Reduction::Kind::kSum) {
      KESTREL_CHECK_MSG(column != nullptr && !column->is_dictionary(), "GPU sum over a dictionary column");
      p.values = device_buffer(groups * accumulator_width(r.sum), stream, mr);
      p.validity = device_buffer(validity_bytes, stream, mr);
      gpu::fill_bytes(p.validity->data(), gpu::MemoryKind::kDevice, 0, p.validity->size(), stream);
      out.values = p.values->data();
      out.validity = p.validity->as<uint32_t>();
      sum_groups(r.sum, layout, column->values()->data(), validity_of(*column), out, stream);
    } else if (r.kind == Reduction::Kind::kMoments) {
      p.done = moments_columns(input, r, layout, stream, mr, &p.more);
    }
  }
  // min, max and any_value: the winning rows, gathered (values, strings and dictionaries alike).
  BufferPtr winners;
  for (size_t i = 0; i < n; ++i) {
    const Reduction& r = reductions[i];
    if (r.kind != Reduction::Kind::kPick) continue;
    if (!winners) winners = device_buffer(groups * sizeof(uint32_t), stream, mr);
    const Batch argument = select_columns(input, {*r.column});
    if (groups > 0) {
      const DeviceKeys view = device_keys(argument, {0});
      pick_groups(r.pick, view.columns[0], layout, winners->as<uint32_t>(), stream);
    }
    pending[i].done = gather_batch_gpu(argument, winners->as<uint32_t>(), groups, stream, mr).column(0);
  }
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  if (!keys.empty()) {
    Batch gathered = gather_batch_gpu(select_columns(input, keys), grouping.first->as<uint32_t>(), groups, stream, mr);
    for (size_t k = 0; k < keys.size(); ++k) {
      fields.push_back(input.schema()->field(keys[k]));
      columns.push_back(gathered.column(k));
    }
  }
  std::vector<unsigned long long> host(2 * n, 0);
  if (n > 0) {
    // The host needs the NULL counts (column metadata) and the overflow flags; this waits for all work above.
    gpu::copy_bytes(host.data(), gpu::MemoryKind::kHost, counter, gpu::MemoryKind::kDevice,
                    host.size() * sizeof(unsigned long long), stream);
  }
  for (size_t i = 0; i < n; ++i) {
    if (host[2 * i + 1] != 0) throw InvalidInput(reductions[i].overflow_message);
  }
  for (size_t i = 0; i < n; ++i) {
    PendingColumn& p = pending[i];
    fields.push_back(reductions[i].field);
    if (p.done) {
      columns.push_back(p.done);
      for (size_t m = 0; m < p.more.size(); ++m) {
        fields.push_back(reductions[i].more_fields.at(m));
        columns.push_back(p.more[m]);
      }
      continue;
    }
    const size_t null_count = p.validity ? groups - static_cast<size_t>(host[2 * i]) : 0;
    if (null_count == 0) p.validity = nullptr;
    columns.push_back(Column::from_buffers(p.type, ColumnEncoding::kPlain, groups, null_count, p.validity, p.values,
                                           nullptr, nullptr));
  }
  return Batch(std::make_shared<Schema>(std::move(fields)), std::move(columns), groups, gpu::MemoryKind::kDevice,
               stream);
}

std::vector<size_t> first_columns(size_t count) {
  std::vector<size_t> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = i;
  return out;
}

}  // namespace

std::string sum_overflow_message(const AggregateSpec& a) {
  return std::string(a.function == AggregateFunction::kAvg ? "avg" : "sum") + " of " + a.input_type.to_string() +
         " overflows " + aggregate_state_types(a).at(0).to_string();
}

bool is_distinct_aggregate(const AggregateSpec& a) {
  return a.distinct && a.function != AggregateFunction::kCountStar;
}

std::vector<AggregateSpec> state_aggregates(const std::vector<AggregateSpec>& aggregates) {
  std::vector<AggregateSpec> plain;
  for (const AggregateSpec& a : aggregates) {
    if (!is_distinct_aggregate(a)) plain.push_back(a);
  }
  if (plain.empty()) plain.emplace_back(AggregateFunction::kCountStar, std::nullopt, TypeId::kBigInt);
  return plain;
}

SchemaPtr single_output_schema(const Schema& input, const std::vector<size_t>& group_columns,
                               const std::vector<AggregateSpec>& aggregates) {
  std::vector<Field> fields;
  for (size_t c : group_columns) fields.push_back(input.field(c));
  for (const auto& a : aggregates) {
    fields.push_back({plan::aggregate_function_name(a.function), aggregate_result_type(a.function, a.input_type), true});
  }
  return std::make_shared<const Schema>(std::move(fields));
}

Batch partial_states(const Batch& input, const std::vector<size_t>& group_columns,
                     const std::vector<AggregateSpec>& aggregates, size_t max_group_rows, bool* try_hash,
                     gpu::Stream stream, gpu::MemoryResource& mr) {
  std::vector<Reduction> reductions;
  for (const AggregateSpec& a : aggregates) {
    KESTREL_CHECK(!is_distinct_aggregate(a));
    const auto types = aggregate_state_types(a);
    const std::string name = plan::aggregate_function_name(a.function);
    auto field = [&](size_t i) { return Field{name + "_state" + std::to_string(i), types.at(i), true}; };
    if (a.function != AggregateFunction::kCountStar) KESTREL_CHECK(a.argument.has_value());
    switch (a.function) {
      case AggregateFunction::kCountStar: reductions.push_back(count_of(std::nullopt, field(0))); break;
      case AggregateFunction::kCount: reductions.push_back(count_of(*a.argument, field(0))); break;
      case AggregateFunction::kSum:
        reductions.push_back(sum_of(*a.argument, raw_sum_kind(a.input_type, false), field(0), sum_overflow_message(a)));
        break;
      case AggregateFunction::kAvg:
        reductions.push_back(sum_of(*a.argument, raw_sum_kind(a.input_type, true), field(0), sum_overflow_message(a)));
        reductions.push_back(count_of(*a.argument, field(1)));
        break;
      case AggregateFunction::kMin:
      case AggregateFunction::kMax:
      case AggregateFunction::kAnyValue: reductions.push_back(pick_of(*a.argument, pick_kind(a.function), field(0)));
        break;
      case AggregateFunction::kVarSamp:
      case AggregateFunction::kVarPop:
      case AggregateFunction::kStddevSamp:
      case AggregateFunction::kStddevPop:
        reductions.push_back(moments_of(*a.argument, false, {field(0), field(1), field(2)}));
        break;
      default: throw InternalError("GPU aggregation of " + name);
    }
  }
  return reduce_groups(input, group_columns, max_group_rows, try_hash, reductions, stream, mr);
}

Batch merge_states(const Batch& states, size_t keys, const std::vector<AggregateSpec>& aggregates,
                   gpu::Stream stream, gpu::MemoryResource& mr, bool* try_hash) {
  std::vector<Reduction> reductions;
  size_t c = keys;
  for (const AggregateSpec& a : aggregates) {
    const size_t width = aggregate_state_types(a).size();
    KESTREL_CHECK_LE(c + width, states.num_columns());
    const Field& field = states.schema()->field(c);
    switch (a.function) {
      case AggregateFunction::kCountStar:
      case AggregateFunction::kCount:
        reductions.push_back(sum_of(c, SumKind::kInt64ToInt64, field, "count overflows BIGINT"));
        break;
      case AggregateFunction::kSum:
        reductions.push_back(sum_of(c, state_sum_kind(field.type), field, sum_overflow_message(a)));
        break;
      case AggregateFunction::kAvg:
        reductions.push_back(sum_of(c, state_sum_kind(field.type), field, sum_overflow_message(a)));
        reductions.push_back(
            sum_of(c + 1, SumKind::kInt64ToInt64, states.schema()->field(c + 1), "count overflows BIGINT"));
        break;
      case AggregateFunction::kMin:
      case AggregateFunction::kMax:
      case AggregateFunction::kAnyValue: reductions.push_back(pick_of(c, pick_kind(a.function), field)); break;
      case AggregateFunction::kVarSamp:
      case AggregateFunction::kVarPop:
      case AggregateFunction::kStddevSamp:
      case AggregateFunction::kStddevPop:
        reductions.push_back(
            moments_of(c, true, {field, states.schema()->field(c + 1), states.schema()->field(c + 2)}));
        break;
      default: throw InternalError(std::string("GPU aggregation of ") + plan::aggregate_function_name(a.function));
    }
    c += width;
  }
  KESTREL_CHECK_EQ(c, states.num_columns());
  return reduce_groups(states, first_columns(keys), 0, try_hash, reductions, stream, mr);
}

Batch final_values(const Batch& states, size_t keys, const std::vector<AggregateSpec>& aggregates,
                   gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "GPU aggregation");
  const size_t rows = states.num_rows();
  const size_t n = aggregates.size();
  BufferPtr counters = device_buffer(2 * n * sizeof(unsigned long long), stream, mr);
  auto* counter = counters->as<unsigned long long>();
  gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0, counters->size(), stream);
  std::vector<Field> fields;
  std::vector<PendingColumn> pending(n);
  size_t c = keys;
  for (size_t i = 0; i < n; ++i) {
    const AggregateSpec& a = aggregates[i];
    const LogicalType result = aggregate_result_type(a.function, a.input_type);
    fields.push_back({plan::aggregate_function_name(a.function), result, true});
    PendingColumn& p = pending[i];
    p.type = result;
    const ColumnPtr& state = states.column(c);
    ReduceOutput out;
    out.valid_count = counter + 2 * i;
    out.overflow = counter + 2 * i + 1;
    if (is_variance(a.function)) {
      // From the count and m2 of the state (count, mean, m2).
      p.values = device_buffer(rows * sizeof(double), stream, mr);
      p.validity = device_buffer((rows + 31) / 32 * 4, stream, mr);
      out.values = p.values->data();
      out.validity = p.validity->as<uint32_t>();
      const bool sample = a.function == AggregateFunction::kVarSamp || a.function == AggregateFunction::kStddevSamp;
      const bool root = a.function == AggregateFunction::kStddevSamp || a.function == AggregateFunction::kStddevPop;
      variance_values(sample, root, state->data<int64_t>(), states.column(c + 2)->data<double>(), rows, out, stream);
      c += 3;
      continue;
    }
    if (a.function != AggregateFunction::kAvg) {
      if (a.function == AggregateFunction::kSum && physical_kind(state->type()) == PhysicalKind::kInt128) {
        check_decimal_precision(state->data<int128_t>(), validity_of(*state), rows, counter + 2 * i + 1, stream);
      }
      p.done = state;
      c += 1;
      continue;
    }
    const Column& counts = *states.column(c + 1);
    p.values = device_buffer(rows * result.physical_width(), stream, mr);
    p.validity = device_buffer((rows + 31) / 32 * 4, stream, mr);
    out.values = p.values->data();
    out.validity = p.validity->as<uint32_t>();
    if (result.id() == TypeId::kDecimal) {
      const int128_t scale = numeric::pow10<int128_t>(result.scale() - a.input_type.scale());
      average_decimal(state->data<int128_t>(), validity_of(*state), counts.data<int64_t>(), scale, rows, out, stream);
    } else {
      const bool wide = physical_kind(state->type()) == PhysicalKind::kInt128;
      average_double(wide, state->values()->data(), validity_of(*state), counts.data<int64_t>(), rows, out, stream);
    }
    c += 2;
  }
  KESTREL_CHECK_EQ(c, states.num_columns());
  std::vector<unsigned long long> host(2 * n, 0);
  if (n > 0) {
    // The host needs the NULL counts of the averages and variances and the overflow flags; this waits for the kernels above.
    gpu::copy_bytes(host.data(), gpu::MemoryKind::kHost, counter, gpu::MemoryKind::kDevice,
                    host.size() * sizeof(unsigned long long), stream);
  }
  for (size_t i = 0; i < n; ++i) {
    if (host[2 * i + 1] != 0) throw InvalidInput(sum_overflow_message(aggregates[i]));
  }
  std::vector<Field> out_fields;
  std::vector<ColumnPtr> columns;
  for (size_t k = 0; k < keys; ++k) {
    out_fields.push_back(states.schema()->field(k));
    columns.push_back(states.column(k));
  }
  for (size_t i = 0; i < n; ++i) {
    PendingColumn& p = pending[i];
    out_fields.push_back(fields[i]);
    if (p.done) {
      columns.push_back(p.done);
      continue;
    }
    const size_t null_count = rows - static_cast<size_t>(host[2 * i]);
    if (null_count == 0) p.validity = nullptr;
    columns.push_back(Column::from_buffers(p.type, ColumnEncoding::kPlain, rows, null_count, p.validity, p.values,
                                           nullptr, nullptr));
  }
  return Batch(std::make_shared<Schema>(std::move(out_fields)), std::move(columns), rows, gpu::MemoryKind::kDevice,
               stream);
}

Batch distinct_rows(const Batch& input, const std::vector<size_t>& columns, gpu::Stream stream,
                    gpu::MemoryResource& mr, bool* try_hash) {
  KESTREL_CHECK(!columns.empty());
  return reduce_groups(input, columns, 0, try_hash, {}, stream, mr);
}

Batch empty_result(const SchemaPtr& output_schema, const std::vector<AggregateSpec>& aggregates, size_t keys,
                   gpu::Stream stream, gpu::MemoryResource& mr) {
  const size_t rows = keys == 0 ? 1 : 0;
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < output_schema->size(); ++c) {
    const LogicalType& type = output_schema->field(c).type;
    std::vector<Value> values;
    if (rows == 1) {
      const AggregateFunction f = aggregates.at(c).function;
      const bool counts = f == AggregateFunction::kCount || f == AggregateFunction::kCountStar;
      values.push_back(counts ? Value::bigint(0) : Value::null(type));
    }
    columns.push_back(Column::from_values(type, values));
  }
  Batch host(output_schema, std::move(columns), rows, gpu::MemoryKind::kHost);
  return copy_batch(host, mr, stream);
}

Batch finish_aggregation(const Batch& states, const std::vector<Batch>& distinct, size_t keys,
                         const std::vector<AggregateSpec>& aggregates, const SchemaPtr& output_schema,
                         gpu::Stream stream, gpu::MemoryResource& mr) {
  if (states.num_rows() == 0) return empty_result(output_schema, aggregates, keys, stream, mr);
  if (keys > 0 && aggregates.size() == 1 && is_distinct_aggregate(aggregates[0])) {
    // One aggregate, DISTINCT (count(DISTINCT x) GROUP BY ...): its distinct rows alone give the groups, so they
    // are found by hash tables instead of sorts, and the plain states (count(*) placeholders) are not merged.
    KESTREL_CHECK_EQ(distinct.size(), size_t{1});
    bool hash_rows = true, hash_groups = true;
    const Batch unique = distinct_rows(distinct[0], first_columns(keys + 1), stream, mr, &hash_rows);
    AggregateSpec spec = aggregates[0];
    spec.distinct = false;
    spec.argument = keys;
    const Batch value = final_values(partial_states(unique, first_columns(keys), {spec}, 0, &hash_groups, stream, mr),
                                     keys, {spec}, stream, mr);
    return Batch(output_schema, value.columns(), value.num_rows(), gpu::MemoryKind::kDevice, stream);
  }
  const std::vector<AggregateSpec> plain = state_aggregates(aggregates);
  // Both the merged groups and each DISTINCT aggregate's groups come out in ascending key order over the same
  // set of keys (every input row is in both), so their rows line up.
  const Batch finals = final_values(merge_states(states, keys, plain, stream, mr), keys, plain, stream, mr);
  std::vector<ColumnPtr> columns(finals.columns().begin(), finals.columns().begin() + static_cast<ptrdiff_t>(keys));
  size_t next_plain = keys;
  size_t next_distinct = 0;
  for (const AggregateSpec& a : aggregates) {
    if (!is_distinct_aggregate(a)) {
      columns.push_back(finals.column(next_plain++));
      continue;
    }
    KESTREL_CHECK_LT(next_distinct, distinct.size());
    const Batch unique = distinct_rows(distinct[next_distinct++], first_columns(keys + 1), stream, mr);
    AggregateSpec spec = a;
    spec.distinct = false;
    spec.argument = keys;
    const Batch value = final_values(partial_states(unique, first_columns(keys), {spec}, 0, nullptr, stream, mr),
                                     keys, {spec}, stream, mr);
    KESTREL_CHECK_EQ(value.num_rows(), finals.num_rows());
    columns.push_back(value.column(keys));
  }
  return Batch(output_schema, std::move(columns), finals.num_rows(), gpu::MemoryKind::kDevice, stream);
}

}  // namespace aggregate_gpu_detail

void check_aggregate_gpu_supported(const Schema& input, const std::vector<size_t>& group_columns,
                                   const std::vector<AggregateSpec>& aggregates) {
  if (group_columns.size() > static_cast<size_t>(kMaxDeviceKeys)) {
    throw NotImplemented("GPU aggregation by more than " + std::to_string(kMaxDeviceKeys) + " key columns");
  }
  for (size_t c : group_columns) {
    KESTREL_CHECK_LT(c, input.size());
    if (!device_key_supported(input.field(c).type)) {
      throw NotImplemented("GPU aggregation grouped by " + input.field(c).type.to_string());
    }
  }
  for (const AggregateSpec& a : aggregates) {
    const std::string what = std::string(plan::aggregate_function_name(a.function)) + " of " + a.input_type.to_string();
    aggregate_result_type(a.function, a.input_type);  // NotImplemented for what no side aggregates
    if (a.function == AggregateFunction::kCountStar) continue;
    if (is_ordered_aggregate(a.function) || !a.order.empty() || a.filter) {
      throw NotImplemented("GPU aggregation: " + what + " (CPU only)");
    }
    if (!a.argument.has_value()) throw InternalError("aggregate " + what + " without an argument column");
    KESTREL_CHECK_LT(*a.argument, input.size());
    if (input.field(*a.argument).type != a.input_type) {
      throw NotImplemented("GPU aggregation: " + what + " over a column of " + input.field(*a.argument).type.to_string());
    }
    const bool picks = a.function == AggregateFunction::kMin || a.function == AggregateFunction::kMax ||
                       a.function == AggregateFunction::kAnyValue;
    if ((picks || aggregate_gpu_detail::is_distinct_aggregate(a)) && !device_key_supported(a.input_type)) {
      throw NotImplemented("GPU aggregation: " + what);
    }
    if (aggregate_gpu_detail::is_distinct_aggregate(a) && group_columns.size() + 1 > static_cast<size_t>(kMaxDeviceKeys)) {
      throw NotImplemented("GPU aggregation: DISTINCT " + what + " with more than " +
                           std::to_string(kMaxDeviceKeys - 1) + " key columns");
    }
  }
}

Batch aggregate_gpu(const Batch& device_input, const std::vector<size_t>& group_columns,
                    const std::vector<AggregateSpec>& aggregates, gpu::Stream stream, gpu::MemoryResource& mr) {
  using namespace aggregate_gpu_detail;
  gpu::require_explicit_stream(stream, "aggregate_gpu");
  KESTREL_CHECK_MSG(device_input.on_device(), "aggregate_gpu needs a device batch");
  check_aggregate_gpu_supported(*device_input.schema(), group_columns, aggregates);
  const SchemaPtr output_schema = single_output_schema(*device_input.schema(), group_columns, aggregates);
  if (device_input.num_rows() == 0) return empty_result(output_schema, aggregates, group_columns.size(), stream, mr);
  std::vector<Batch> distinct;
  for (const AggregateSpec& a : aggregates) {
    if (!is_distinct_aggregate(a)) continue;
    std::vector<size_t> columns = group_columns;
    columns.push_back(*a.argument);
    distinct.push_back(distinct_rows(device_input, columns, stream, mr));
  }
  bool try_hash = true;
  const Batch states = partial_states(device_input, group_columns, state_aggregates(aggregates), kPartialGroupRows,
                                      &try_hash, stream, mr);
  return finish_aggregation(states, distinct, group_columns.size(), aggregates, output_schema, stream, mr);
}

}  // namespace kestrel::exec
