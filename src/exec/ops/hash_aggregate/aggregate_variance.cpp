#include <cmath>

#include "exec/ops/common/column_view.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

using plan::AggregateFunction;

/// var_samp, var_pop, stddev_samp and stddev_pop of DOUBLE input. Each group keeps its count, mean and sum of
/// squared deviations (m2), updated one value at a time (Welford) and merged pairwise (Chan et al.), so values
/// far from zero with a small spread keep their precision.
class VarianceState final : public AggregateState {
 public:
  explicit VarianceState(AggregateFunction function) : function_(function) {}

  void resize(size_t groups) override {
    count_.resize(groups, 0);
    mean_.resize(groups, 0.0);
    m2_.resize(groups, 0.0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      const uint32_t g = ids[r];
      const double x = v.get<double>(r);
      const int64_t n = ++count_[g];
      const double delta = x - mean_[g];
      mean_[g] += delta / static_cast<double>(n);
      m2_[g] += delta * (x - mean_[g]);
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {fixed_column<int64_t>(TypeId::kBigInt, count_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, mean_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, m2_.data() + first, nullptr, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView n_view = make_view(*state.at(0)), mean_view = make_view(*state.at(1)), m2_view = make_view(*state.at(2));
    for (size_t r = 0; r < rows; ++r) {
      const int64_t nb = n_view.get<int64_t>(r);
      if (nb == 0) continue;
      const uint32_t g = ids[r];
      const int64_t na = count_[g];
      const int64_t n = na + nb;
      const double delta = mean_view.get<double>(r) - mean_[g];
      const double share = static_cast<double>(nb) / static_cast<double>(n);
      m2_[g] += m2_view.get<double>(r) + delta * delta * static_cast<double>(na) * share;
      mean_[g] += delta * share;
      count_[g] = n;
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    const bool sample = function_ == AggregateFunction::kVarSamp || function_ == AggregateFunction::kStddevSamp;
    const bool root = function_ == AggregateFunction::kStddevSamp || function_ == AggregateFunction::kStddevPop;
    std::vector<double> values(count);
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) {
      const int64_t n = count_[first + i];
      has[i] = n >= (sample ? 2 : 1);
      if (!has[i]) continue;
      const double variance = std::max(0.0, m2_[first + i]) / static_cast<double>(sample ? n - 1 : n);
      values[i] = root ? std::sqrt(variance) : variance;
    }
    return fixed_column<double>(TypeId::kDouble, values.data(), has.data(), count);
  }

 private:
  AggregateFunction function_;
  std::vector<int64_t> count_;
  std::vector<double> mean_;
  std::vector<double> m2_;
};

}  // namespace

std::unique_ptr<AggregateState> make_variance_state(AggregateFunction function) {
  return std::make_unique<VarianceState>(function);
}

}  // namespace kestrel::exec::aggregate_detail
