#include "exec/ops/hash_aggregate/aggregate_state.hpp"

#include <algorithm>

#include "common/check.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/common/row_compare.hpp"
#include "exec/ops/hash_aggregate/aggregate_collected.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"

namespace kestrel::exec {

using plan::AggregateFunction;

namespace aggregate_detail {

ColumnPtr string_column(const std::string* values, const uint8_t* has, size_t count) {
  size_t bytes = 0;
  bool nullable = false;
  for (size_t i = 0; i < count; ++i) {
    bytes += has[i] ? values[i].size() : 0;
    nullable |= has[i] == 0;
  }
  auto column = Column::make_string(count, bytes, nullable, gpu::host_memory_resource(), gpu::Stream::host());
  int64_t* off = column->mutable_offsets();
  char* chars = column->values()->as<char>();
  uint8_t* valid = column->mutable_validity();
  off[0] = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t n = has[i] ? values[i].size() : 0;
    if (n > 0) std::memcpy(chars + off[i], values[i].data(), n);
    off[i + 1] = off[i] + static_cast<int64_t>(n);
    if (!has[i]) bits::clear(valid, i);
  }
  column->recount_nulls();
  return column;
}

}  // namespace aggregate_detail

void AggregateState::update_ordered(const uint32_t* ids, const Column* argument,
                                    const std::vector<const Column*>& keys, size_t rows) {
  KESTREL_CHECK_MSG(keys.empty(), "this aggregate takes no order keys");
  update(ids, argument, rows);
}

void AggregateState::merge_from(const AggregateState& other, const std::vector<uint32_t>& ids) {
  // In slices, so the exported state stays small next to the accumulators.
  constexpr size_t kSlice = size_t{1} << 14;
  for (size_t first = 0; first < ids.size(); first += kSlice) {
    const size_t count = std::min(kSlice, ids.size() - first);
    merge(ids.data() + first, other.export_state(first, count), count);
  }
}

namespace {

using aggregate_detail::fixed_column;
using aggregate_detail::string_column;

/// count(*) and count(x).
class CountState final : public AggregateState {
 public:
  void resize(size_t groups) override { counts_.resize(groups, 0); }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    const uint8_t* valid = argument && argument->validity() ? argument->validity()->as<uint8_t>() : nullptr;
    if (valid == nullptr) {
      for (size_t r = 0; r < rows; ++r) ++counts_[ids[r]];
    } else {
      for (size_t r = 0; r < rows; ++r) counts_[ids[r]] += bits::get(valid, r);
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {finalize(first, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView v = make_view(*state.at(0));
    for (size_t r = 0; r < rows; ++r) {
      if (!v.is_null(r)) counts_[ids[r]] += v.get<int64_t>(r);
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    return fixed_column<int64_t>(TypeId::kBigInt, counts_.data() + first, nullptr, count);
  }

 private:
  std::vector<int64_t> counts_;
};

/// Which value min, max and any_value keep.
enum class Pick : uint8_t { kMin, kMax, kAny };

template <Pick P>
bool replaces(int c) {
  if constexpr (P == Pick::kMin) return c < 0;
  if constexpr (P == Pick::kMax) return c > 0;
  return false;
}

/// min, max and any_value of fixed-width types.
template <typename T, Pick P>
class PickFixedState final : public AggregateState {
 public:
  explicit PickFixedState(LogicalType type) : type_(type) {}
  void resize(size_t groups) override {
    values_.resize(groups);
    has_.resize(groups, 0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    const T* in = reinterpret_cast<const T*>(v.values);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      uint32_t g = ids[r];
      if (!has_[g]) {
        values_[g] = in[r];
        has_[g] = 1;
      } else if (replaces<P>(detail::fixed_compare(in[r], values_[g]))) {
        values_[g] = in[r];
      }
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {finalize(first, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    update(ids, state.at(0).get(), rows);
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    return fixed_column<T>(type_, values_.data() + first, has_.data() + first, count);
  }

 private:
  LogicalType type_;
  std::vector<T> values_;
  std::vector<uint8_t> has_;
};

/// min, max and any_value of VARCHAR (byte-wise order).
template <Pick P>
class PickStringState final : public AggregateState {
 public:
  void resize(size_t groups) override {
    values_.resize(groups);
    has_.resize(groups, 0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      uint32_t g = ids[r];
      if (!has_[g]) {
        values_[g].assign(v.string(r));
        has_[g] = 1;
      } else if (replaces<P>(detail::string_compare(v.string(r), values_[g]))) {
        values_[g].assign(v.string(r));
      }
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {finalize(first, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    update(ids, state.at(0).get(), rows);
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    return string_column(values_.data() + first, has_.data() + first, count);
  }

 private:
  std::vector<std::string> values_;
  std::vector<uint8_t> has_;
};

/// min, max and any_value of ARRAY and ROW: compared by their key bytes, kept as values.
template <Pick P>
class PickNestedState final : public AggregateState {
 public:
  explicit PickNestedState(LogicalType type) : type_(std::move(type)) {}
  void resize(size_t groups) override {
    keys_.resize(groups);
    values_.resize(groups, Value::null(type_));
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      const uint32_t g = ids[r];
      if (values_[g].is_null() || replaces<P>(detail::string_compare(v.string(r), keys_[g]))) {
        keys_[g].assign(v.string(r));
        values_[g] = argument->value_at(r);
      }
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {finalize(first, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    update(ids, state.at(0).get(), rows);
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    return Column::from_values(type_, std::vector<Value>(values_.begin() + static_cast<ptrdiff_t>(first),
                                                         values_.begin() + static_cast<ptrdiff_t>(first + count)));
  }

 private:
  LogicalType type_;
  std::vector<std::string> keys_;
  std::vector<Value> values_;
};

template <Pick P>
std::unique_ptr<AggregateState> make_pick_state(const LogicalType& input) {
  PhysicalKind kind = physical_kind(input);
  if (input.is_nested()) return std::make_unique<PickNestedState<P>>(input);
  if (kind == PhysicalKind::kString) return std::make_unique<PickStringState<P>>();
  return visit_fixed(kind, [&](auto tag) -> std::unique_ptr<AggregateState> {
    return std::make_unique<PickFixedState<decltype(tag), P>>(input);
  });
}

bool summable(const LogicalType& input) {
  return input.is_numeric();
}

}  // namespace

LogicalType aggregate_result_type(AggregateFunction function, const LogicalType& input) {
  switch (function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount: return TypeId::kBigInt;
    case AggregateFunction::kSum:
      if (!summable(input)) break;
      if (input.id() == TypeId::kBigInt) return LogicalType::decimal(38, 0);
      if (input.is_integral()) return TypeId::kBigInt;
      if (input.id() == TypeId::kDecimal) return LogicalType::decimal(38, input.scale());
      return TypeId::kDouble;
    case AggregateFunction::kAvg:
      if (!summable(input)) break;
      if (input.id() == TypeId::kDecimal) return LogicalType::decimal(38, std::max(input.scale(), 6));
      return TypeId::kDouble;
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
    case AggregateFunction::kAnyValue:
    case AggregateFunction::kMaxBy:
    case AggregateFunction::kMinBy:
    case AggregateFunction::kPercentileDisc: return input;
    case AggregateFunction::kStringAgg:
      if (input.id() == TypeId::kVarchar) return input;
      break;
    case AggregateFunction::kPercentileCont:
      if (input.id() == TypeId::kDouble) return input;
      break;
    case AggregateFunction::kChecksum: return TypeId::kBigInt;
    case AggregateFunction::kArrayAgg: return LogicalType::array(input);
    case AggregateFunction::kMapAgg:
      if (input.id() == TypeId::kRow && input.fields().size() == 2) return LogicalType::map(input.child(0), input.child(1));
      break;
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
    case AggregateFunction::kSkewness:
    case AggregateFunction::kKurtosis:
      if (input.id() == TypeId::kDouble) return TypeId::kDouble;
      break;
    case AggregateFunction::kEntropy:
      if (input.id() == TypeId::kBigInt) return TypeId::kDouble;
      break;
    case AggregateFunction::kBitwiseAndAgg:
    case AggregateFunction::kBitwiseOrAgg:
    case AggregateFunction::kBitwiseXorAgg:
      if (input.id() == TypeId::kBigInt) return TypeId::kBigInt;
      break;
    case AggregateFunction::kSetAgg:
    case AggregateFunction::kSetUnion:
    case AggregateFunction::kHistogram:
    case AggregateFunction::kMapUnion:
    case AggregateFunction::kMapUnionSum:
    case AggregateFunction::kMultimapAgg:
    case AggregateFunction::kNumericHistogram:
    case AggregateFunction::kClassificationMissRate:
    case AggregateFunction::kClassificationFallOut:
    case AggregateFunction::kClassificationPrecision:
    case AggregateFunction::kClassificationRecall:
    case AggregateFunction::kClassificationThresholds:
    case AggregateFunction::kDifferentialEntropy:
    case AggregateFunction::kApproxMostFrequent:
    case AggregateFunction::kReservoirSample: return aggregate_detail::collected_result_type(function, input);
  }
  throw NotImplemented(std::string(plan::aggregate_function_name(function)) + " of " + input.to_string());
}

bool is_ordered_aggregate(AggregateFunction function) {
  switch (function) {
    case AggregateFunction::kMaxBy:
    case AggregateFunction::kMinBy:
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kArrayAgg:
    case AggregateFunction::kMapAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc:
    case AggregateFunction::kChecksum:
    case AggregateFunction::kSkewness:
    case AggregateFunction::kKurtosis:
    case AggregateFunction::kEntropy:
    case AggregateFunction::kBitwiseAndAgg:
    case AggregateFunction::kBitwiseOrAgg:
    case AggregateFunction::kBitwiseXorAgg: return true;
    default: return aggregate_detail::is_collected_aggregate(function);
  }
}

std::vector<LogicalType> aggregate_state_types(const AggregateSpec& spec) {
  const AggregateFunction function = spec.function;
  const LogicalType& input = spec.input_type;
  if (function == AggregateFunction::kAvg) {
    aggregate_result_type(function, input);  // rejects unsupported inputs
    LogicalType sum = input.id() == TypeId::kDecimal ? LogicalType::decimal(38, input.scale())
                      : input.is_integral()          ? LogicalType::decimal(38, 0)
                                                     : LogicalType(TypeId::kDouble);
    return {sum, TypeId::kBigInt};
  }
  switch (function) {
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
      aggregate_result_type(function, input);
      return {TypeId::kBigInt, TypeId::kDouble, TypeId::kDouble};  // count, mean, sum of squared deviations
    case AggregateFunction::kMaxBy:
    case AggregateFunction::kMinBy: {
      std::vector<LogicalType> types{input};  // the best row: x, then y
      for (const AggregateOrderKey& key : spec.order) types.push_back(key.type);
      return types;
    }
    case AggregateFunction::kChecksum: return {TypeId::kBigInt, TypeId::kBigInt};  // checksum, rows
    case AggregateFunction::kSkewness:
    case AggregateFunction::kKurtosis:
      aggregate_result_type(function, input);
      // count, mean, and the sums of the 2nd, 3rd and 4th powers of the deviations
      return {TypeId::kBigInt, TypeId::kDouble, TypeId::kDouble, TypeId::kDouble, TypeId::kDouble};
    case AggregateFunction::kEntropy: return {TypeId::kDouble, TypeId::kDouble};  // sum of c, sum of c log2 c
    case AggregateFunction::kBitwiseAndAgg:
    case AggregateFunction::kBitwiseOrAgg:
    case AggregateFunction::kBitwiseXorAgg: return {TypeId::kBigInt, TypeId::kBigInt};  // value, values seen
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kArrayAgg:
    case AggregateFunction::kMapAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc:
      throw NotImplemented(std::string(plan::aggregate_function_name(function)) +
                           " in partial or final aggregation mode");
    default:
      if (aggregate_detail::is_collected_aggregate(function)) {
        throw NotImplemented(std::string(plan::aggregate_function_name(function)) +
                             " in partial or final aggregation mode");
      }
      break;
  }
  return {aggregate_result_type(function, input)};
}

std::unique_ptr<AggregateState> make_aggregate_state(const AggregateSpec& spec) {
  const AggregateFunction function = spec.function;
  const LogicalType& input = spec.input_type;
  aggregate_result_type(function, input);  // rejects unsupported inputs with NotImplemented
  switch (function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount: return std::make_unique<CountState>();
    case AggregateFunction::kSum: return aggregate_detail::make_sum_state(false, input);
    case AggregateFunction::kAvg: return aggregate_detail::make_sum_state(true, input);
    case AggregateFunction::kMin: return make_pick_state<Pick::kMin>(input);
    case AggregateFunction::kMax: return make_pick_state<Pick::kMax>(input);
    case AggregateFunction::kAnyValue: return make_pick_state<Pick::kAny>(input);
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop: return aggregate_detail::make_variance_state(function);
    case AggregateFunction::kMaxBy:
    case AggregateFunction::kMinBy: return aggregate_detail::make_max_by_state(spec);
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kArrayAgg:
    case AggregateFunction::kMapAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc: return aggregate_detail::make_ordered_values_state(spec);
    case AggregateFunction::kChecksum: return aggregate_detail::make_checksum_state();
    case AggregateFunction::kSkewness:
    case AggregateFunction::kKurtosis: return aggregate_detail::make_moments_state(function);
    case AggregateFunction::kEntropy: return aggregate_detail::make_entropy_state();
    case AggregateFunction::kBitwiseAndAgg:
    case AggregateFunction::kBitwiseOrAgg:
    case AggregateFunction::kBitwiseXorAgg: return aggregate_detail::make_bitwise_agg_state(function);
    case AggregateFunction::kSetAgg:
    case AggregateFunction::kSetUnion:
    case AggregateFunction::kHistogram:
    case AggregateFunction::kMapUnion:
    case AggregateFunction::kMapUnionSum:
    case AggregateFunction::kMultimapAgg:
    case AggregateFunction::kNumericHistogram:
    case AggregateFunction::kClassificationMissRate:
    case AggregateFunction::kClassificationFallOut:
    case AggregateFunction::kClassificationPrecision:
    case AggregateFunction::kClassificationRecall:
    case AggregateFunction::kClassificationThresholds:
    case AggregateFunction::kDifferentialEntropy:
    case AggregateFunction::kApproxMostFrequent:
    case AggregateFunction::kReservoirSample: return aggregate_detail::make_collected_state(spec);
  }
  throw InternalError("unknown aggregate function");
}

}  // namespace kestrel::exec
