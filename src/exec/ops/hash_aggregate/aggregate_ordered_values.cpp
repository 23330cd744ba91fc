#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "common/check.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"
#include "exec/ops/hash_aggregate/kept_rows.hpp"
#include "vector/nested_column.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

using plan::AggregateFunction;

/// Whether `f` keeps its ORDER BY keys beside its values.
bool keeps_keys(AggregateFunction f) { return f == AggregateFunction::kStringAgg || f == AggregateFunction::kArrayAgg; }

/// string_agg, array_agg, map_agg, percentile_cont and percentile_disc: every non-NULL argument (array_agg: every
/// argument; map_agg: every entry with a non-NULL key) of a group, kept (with string_agg's
/// ORDER BY keys) in a KeptRows store, sorted per group by finish() and read by finalize. Their state is every value
/// of a group, so it has no exportable form; accumulators merge by sharing each other's kept chunks.
class OrderedValuesState final : public AggregateState {
 public:
  explicit OrderedValuesState(const AggregateSpec& spec)
      : function_(spec.function), parameter_(spec.parameter), kept_(kept_types(spec)) {
    if (keeps_keys(function_)) {
      std::vector<SortOrder> orders;
      for (const AggregateOrderKey& key : spec.order) orders.push_back(key.order);
      keys_ = orders.size();
      compare_ = RowComparator(std::move(orders));
    } else {
      // The percentiles sort their values ascending and count from the top for a descending WITHIN GROUP key.
      from_top_ = !spec.order.empty() && spec.order[0].order.descending;
      compare_ = RowComparator({SortOrder{}});
    }
  }

  void resize(size_t groups) override { groups_ = groups; }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    update_ordered(ids, argument, {}, rows);
  }
  void update_ordered(const uint32_t* ids, const Column* argument, const std::vector<const Column*>& keys,
                      size_t rows) override {
    // The percentiles' one key is the argument itself: only string_agg keeps its keys.
    KESTREL_CHECK(!keeps_keys(function_) || keys.size() == keys_);
    RowIndices picked;
    // map_agg's argument is ROW(key, value): the key decides.
    const Column& tested = function_ == AggregateFunction::kMapAgg ? *argument->child(0) : *argument;
    for (size_t r = 0; r < rows; ++r) {
      if (function_ == AggregateFunction::kArrayAgg || tested.is_valid(r)) picked.push_back(static_cast<uint32_t>(r));
    }
    if (picked.empty()) return;
    std::vector<const Column*> columns{argument};
    if (keeps_keys(function_)) columns.insert(columns.end(), keys.begin(), keys.end());
    const uint32_t chunk = kept_.append(columns, picked);
    for (size_t i = 0; i < picked.size(); ++i) {
      group_.push_back(ids[picked[i]]);
      row_.push_back(KeptRows::ref(chunk, static_cast<uint32_t>(i)));
    }
  }
  std::vector<ColumnPtr> export_state(size_t, size_t) const override { throw no_state(); }
  void merge(const uint32_t*, const std::vector<ColumnPtr>&, size_t) override { throw no_state(); }
  void merge_from(const AggregateState& other, const std::vector<uint32_t>& ids) override {
    const auto& o = dynamic_cast<const OrderedValuesState&>(other);
    const uint32_t base = kept_.append_chunks(o.kept_);
    for (size_t e = 0; e < o.group_.size(); ++e) {
      group_.push_back(ids[o.group_[e]]);
      row_.push_back(KeptRows::ref(base + KeptRows::chunk_of(o.row_[e]), KeptRows::row_of(o.row_[e])));
    }
  }
  void finish() override;
  ColumnPtr finalize(size_t first, size_t count) const override;

 private:
  static std::vector<LogicalType> kept_types(const AggregateSpec& spec) {
    std::vector<LogicalType> types{spec.input_type};
    if (keeps_keys(spec.function)) {
      for (const AggregateOrderKey& key : spec.order) types.push_back(key.type);
    }
    return types;
  }
  NotImplemented no_state() const {
    return NotImplemented(std::string(plan::aggregate_function_name(function_)) +
                          " in partial or final aggregation mode");
  }
  /// Whether kept row `a` sorts before kept row `b` (string_agg: by its keys; percentiles: by value).
  bool before(KeptRows::RowRef a, KeptRows::RowRef b) const {
    const size_t skip = keeps_keys(function_) ? 1 : 0;  // string_agg's and array_agg's keys follow the value
    return compare_.compare(kept_.views(KeptRows::chunk_of(a)) + skip, KeptRows::row_of(a),
                            kept_.views(KeptRows::chunk_of(b)) + skip, KeptRows::row_of(b)) < 0;
  }
  ColumnPtr join_strings(size_t first, size_t count) const;
  /// array_agg's arrays and map_agg's maps of groups [first, first + count).
  ColumnPtr collect(size_t first, size_t count) const;
  ColumnPtr interpolate(size_t first, size_t count) const;
  ColumnPtr nearest_rank(size_t first, size_t count) const;

  AggregateFunction function_;
  Value parameter_;
  KeptRows kept_;                      ///< [argument, string_agg's keys...] of every non-NULL argument
  RowComparator compare_;
  size_t keys_ = 0;                    ///< string_agg's ORDER BY keys
  bool from_top_ = false;              ///< percentiles of a descending key
  size_t groups_ = 0;
  std::vector<uint32_t> group_;        ///< per kept value its group, in arrival order
  std::vector<KeptRows::RowRef> row_;  ///< per kept value its row
  /// After finish: the kept values grouped by group, sorted within each, group g's at [start_[g], start_[g + 1]).
  std::vector<KeptRows::RowRef> sorted_;
  std::vector<size_t> start_;
  bool finished_ = false;
};

void OrderedValuesState::finish() {
  // Bucket by group (stable, so values keep their arrival order), then sort each group's values.
  start_.assign(groups_ + 1, 0);
  for (uint32_t g : group_) ++start_[g + 1];
  for (size_t g = 0; g < groups_; ++g) start_[g + 1] += start_[g];
  sorted_.resize(row_.size());
  std::vector<size_t> next(start_.begin(), start_.end() - 1);
  for (size_t e = 0; e < row_.size(); ++e) sorted_[next[group_[e]]++] = row_[e];
  group_ = {};
  row_ = {};
  if (!keeps_keys(function_) || keys_ > 0) {
    auto less = [this](KeptRows::RowRef a, KeptRows::RowRef b) { return before(a, b); };
    for (size_t g = 0; g < groups_; ++g) {
      std::stable_sort(sorted_.begin() + static_cast<ptrdiff_t>(start_[g]),
                       sorted_.begin() + static_cast<ptrdiff_t>(start_[g + 1]), less);
    }
  }
  finished_ = true;
}

ColumnPtr OrderedValuesState::finalize(size_t first, size_t count) const {
  KESTREL_CHECK_MSG(finished_, "finalize before finish");
  switch (function_) {
    case AggregateFunction::kStringAgg: return join_strings(first, count);
    case AggregateFunction::kArrayAgg:
    case AggregateFunction::kMapAgg: return collect(first, count);
    case AggregateFunction::kPercentileCont: return interpolate(first, count);
    default: return nearest_rank(first, count);
  }
}

ColumnPtr OrderedValuesState::join_strings(size_t first, size_t count) const {
  std::vector<std::string> values(count);
  std::vector<uint8_t> has(count, 0);
  for (size_t i = 0; i < count; ++i) {
    const size_t g = first + i;
    if (start_[g] == start_[g + 1] || parameter_.is_null()) continue;
    has[i] = 1;
    for (size_t e = start_[g]; e < start_[g + 1]; ++e) {
      if (e > start_[g]) values[i] += parameter_.as_string();
      values[i] += kept_.views(KeptRows::chunk_of(sorted_[e]))[0].string(KeptRows::row_of(sorted_[e]));
    }
  }
  return string_column(values.data(), has.data(), count);
}

ColumnPtr OrderedValuesState::collect(size_t first, size_t count) const {
  std::vector<KeptRows::RowRef> refs;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(count, 0);
  for (size_t i = 0; i < count; ++i) {
    const size_t g = first + i;
    valid[i] = start_[g] < start_[g + 1] ? 1 : 0;
    for (size_t e = start_[g]; e < start_[g + 1]; ++e) refs.push_back(sorted_[e]);
    offsets.push_back(static_cast<int64_t>(refs.size()));
  }
  ColumnPtr elements = kept_.gather(0, refs);
  if (function_ == AggregateFunction::kMapAgg) {
    // Entries are sorted by key (then value): keep the first of each key.
    RowIndices kept;
    std::vector<int64_t> deduplicated{0};
    std::string previous, key;
    for (size_t i = 0; i < count; ++i) {
      for (int64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        key.clear();
        append_key_bytes(*elements->child(0), static_cast<size_t>(e), key);
        if (e > offsets[i] && key == previous) continue;
        previous = key;
        kept.push_back(static_cast<uint32_t>(e));
      }
      deduplicated.push_back(static_cast<int64_t>(kept.size()));
    }
    elements = gather_column(*elements, kept);
    offsets = std::move(deduplicated);
  }
  const LogicalType type = function_ == AggregateFunction::kMapAgg
                               ? LogicalType::map(elements->type().child(0), elements->type().child(1))
                               : LogicalType::array(elements->type());
  size_t nulls = 0;
  for (uint8_t v : valid) nulls += v ? 0 : 1;
  auto& mr = gpu::host_memory_resource();
  BufferPtr validity;
  if (nulls > 0) {
    validity = Buffer::allocate(bits::bytes_for(count), mr, gpu::Stream::host());
    std::memset(validity->data(), 0, validity->size());
    for (size_t i = 0; i < count; ++i) {
      if (valid[i]) bits::set(validity->as<uint8_t>(), i);
    }
  }
  auto off = Buffer::allocate(offsets.size() * sizeof(int64_t), mr, gpu::Stream::host());
  std::memcpy(off->data(), offsets.data(), offsets.size() * sizeof(int64_t));
  return Column::make_list(type, count, std::move(off), std::move(validity), nulls, std::move(elements));
}

ColumnPtr OrderedValuesState::interpolate(size_t first, size_t count) const {
  const double fraction = from_top_ ? 1.0 - parameter_.as_double() : parameter_.as_double();
  std::vector<double> values(count);
  std::vector<uint8_t> has(count, 0);
  auto value = [&](size_t e) {
    return kept_.views(KeptRows::chunk_of(sorted_[e]))[0].get<double>(KeptRows::row_of(sorted_[e]));
  };
  for (size_t i = 0; i < count; ++i) {
    const size_t g = first + i;
    const size_t n = start_[g + 1] - start_[g];
    if (n == 0) continue;
    has[i] = 1;
    // Position fraction * (n - 1) between the ranks below and above it (percentile_cont, DuckDB's quantile_cont).
    const double position = fraction * static_cast<double>(n - 1);
    const auto below = static_cast<size_t>(std::floor(position));
    const double low = value(start_[g] + below);
    if (below + 1 >= n || position == static_cast<double>(below)) {
      values[i] = low;
    } else {
      values[i] = low + (value(start_[g] + below + 1) - low) * (position - static_cast<double>(below));
    }
  }
  return fixed_column<double>(TypeId::kDouble, values.data(), has.data(), count);
}

ColumnPtr OrderedValuesState::nearest_rank(size_t first, size_t count) const {
  const double fraction = parameter_.as_double();
  std::vector<KeptRows::RowRef> picked(count, KeptRows::kNoRow);
  for (size_t i = 0; i < count; ++i) {
    const size_t g = first + i;
    const size_t n = start_[g + 1] - start_[g];
    if (n == 0) continue;
    // The rank k (from 1) of the first value whose cumulative share k / n reaches the fraction. The product is
    // shrunk by a few ulps so a fraction like 0.07 of 100 values, which rounds to 7.000000000000001, is rank 7.
    const double shrunk = fraction * static_cast<double>(n) * (1.0 - 4 * DBL_EPSILON);
    const size_t rank = std::clamp<size_t>(static_cast<size_t>(std::ceil(shrunk)), 1, n);
    picked[i] = sorted_[from_top_ ? start_[g + 1] - rank : start_[g] + rank - 1];
  }
  return kept_.gather(0, picked);
}

}  // namespace

std::unique_ptr<AggregateState> make_ordered_values_state(const AggregateSpec& spec) {
  return std::make_unique<OrderedValuesState>(spec);
}

}  // namespace kestrel::exec::aggregate_detail
