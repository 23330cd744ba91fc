/// sum and avg: exact integer and decimal accumulation with overflow detection, floating sums in double.

#include "common/check.hpp"
#include "common/numeric_ops.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

/// sum or avg of inputs stored as `In`, accumulated as `Acc` (int64, int128 or double).
template <typename In, typename Acc>
class SumState final : public AggregateState {
 public:
  SumState(bool average, LogicalType input, LogicalType sum_type)
      : average_(average), input_(input), sum_type_(sum_type) {}

  void resize(size_t groups) override {
    sums_.resize(groups, Acc{});
    counts_.resize(groups, 0);
  }

  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    const In* in = reinterpret_cast<const In*>(v.values);
    if (v.validity == nullptr) {
      for (size_t r = 0; r < rows; ++r) add(ids[r], static_cast<Acc>(in[r]), 1);
    } else {
      for (size_t r = 0; r < rows; ++r) {
        if (bits::get(v.validity, r)) add(ids[r], static_cast<Acc>(in[r]), 1);
      }
    }
  }

  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) has[i] = counts_[first + i] > 0;
    std::vector<ColumnPtr> out{fixed_column<Acc>(sum_type_, sums_.data() + first, has.data(), count)};
    if (average_) out.push_back(fixed_column<int64_t>(TypeId::kBigInt, counts_.data() + first, nullptr, count));
    return out;
  }

  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView sums = make_view(*state.at(0));
    const Acc* in = reinterpret_cast<const Acc*>(sums.values);
    const int64_t* counts = average_ ? state.at(1)->data<int64_t>() : nullptr;
    for (size_t r = 0; r < rows; ++r) {
      if (sums.is_null(r)) continue;
      add(ids[r], in[r], counts != nullptr ? counts[r] : 1);
    }
  }

  ColumnPtr finalize(size_t first, size_t count) const override {
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) has[i] = counts_[first + i] > 0;
    if (!average_) {
      if constexpr (std::is_same_v<Acc, int128_t>) {
        for (size_t i = 0; i < count; ++i) {
          if (has[i] && !numeric::fits_precision(sums_[first + i], kMaxDecimalPrecision)) overflow();
        }
      }
      return fixed_column<Acc>(sum_type_, sums_.data() + first, has.data(), count);
    }
    if (input_.id() == TypeId::kDecimal) return decimal_average(first, count, has);
    std::vector<double> out(count, 0.0);
    for (size_t i = 0; i < count; ++i) {
      if (has[i]) out[i] = static_cast<double>(sums_[first + i]) / static_cast<double>(counts_[first + i]);
    }
    return fixed_column<double>(TypeId::kDouble, out.data(), has.data(), count);
  }

 private:
  [[noreturn]] void overflow() const {
    throw InvalidInput(std::string(average_ ? "avg" : "sum") + " of " + input_.to_string() + " overflows " +
                       sum_type_.to_string());
  }

  void add(uint32_t g, Acc v, int64_t n) {
    if constexpr (std::is_floating_point_v<Acc>) {
      sums_[g] += v;
    } else {
      if (__builtin_add_overflow(sums_[g], v, &sums_[g])) overflow();
    }
    counts_[g] += n;
  }

  /// avg of DECIMAL(p,s) as DECIMAL(38, max(s,6)): sum * 10^d / count rounded half away from zero, computed as
  /// q * 10^d + round(r * 10^d / count) with q, r the quotient and remainder of sum / count, so that the
  /// intermediate sum * 10^d never has to fit 128 bits.
  ColumnPtr decimal_average(size_t first, size_t count, const std::vector<uint8_t>& has) const {
    const LogicalType result = LogicalType::decimal(38, std::max(input_.scale(), 6));
    const int d = result.scale() - input_.scale();
    const int128_t scale = numeric::pow10<int128_t>(d);
    std::vector<int128_t> out(count, 0);
    for (size_t i = 0; i < count; ++i) {
      if (!has[i]) continue;
      if constexpr (std::is_same_v<Acc, int128_t>) {
        const int128_t n = counts_[first + i];
        const int128_t q = sums_[first + i] / n;
        const int128_t r = sums_[first + i] % n;
        int128_t whole;
        if (numeric::mul_overflow(q, scale, &whole)) overflow();
        int128_t value;
        if (numeric::add_overflow(whole, numeric::div_round_half_away(r * scale, n), &value)) overflow();
        if (!numeric::fits_precision(value, kMaxDecimalPrecision)) overflow();
        out[i] = value;
      }
    }
    return fixed_column<int128_t>(result, out.data(), has.data(), count);
  }

  bool average_;
  LogicalType input_;
  LogicalType sum_type_;
  std::vector<Acc> sums_;
  std::vector<int64_t> counts_;
};

}  // namespace

std::unique_ptr<AggregateState> make_sum_state(bool average, const LogicalType& input) {
  const LogicalType wide_sum = input.id() == TypeId::kDecimal ? LogicalType::decimal(38, input.scale())
                                                               : LogicalType::decimal(38, 0);
  switch (physical_kind(input)) {
    case PhysicalKind::kInt8:
      if (average) return std::make_unique<SumState<int8_t, int128_t>>(true, input, wide_sum);
      return std::make_unique<SumState<int8_t, int64_t>>(false, input, TypeId::kBigInt);
    case PhysicalKind::kInt16:
      if (average) return std::make_unique<SumState<int16_t, int128_t>>(true, input, wide_sum);
      return std::make_unique<SumState<int16_t, int64_t>>(false, input, TypeId::kBigInt);
    case PhysicalKind::kInt32:
      if (average) return std::make_unique<SumState<int32_t, int128_t>>(true, input, wide_sum);
      return std::make_unique<SumState<int32_t, int64_t>>(false, input, TypeId::kBigInt);
    case PhysicalKind::kInt64: return std::make_unique<SumState<int64_t, int128_t>>(average, input, wide_sum);
    case PhysicalKind::kInt128: return std::make_unique<SumState<int128_t, int128_t>>(average, input, wide_sum);
    case PhysicalKind::kFloat: return std::make_unique<SumState<float, double>>(average, input, TypeId::kDouble);
    case PhysicalKind::kDouble: return std::make_unique<SumState<double, double>>(average, input, TypeId::kDouble);
    default: break;
  }
  throw NotImplemented(std::string(average ? "avg" : "sum") + " of " + input.to_string());
}

}  // namespace kestrel::exec::aggregate_detail
