// Presto's skewness and kurtosis (central moments), entropy of counts, and bitwise_and_agg / bitwise_or_agg /
// bitwise_xor_agg, on the CPU.

#include <cmath>
#include <limits>
#include <string>

#include "exec/ops/common/column_view.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

using plan::AggregateFunction;

/// skewness and kurtosis of DOUBLE input. Each group keeps its count, mean and the sums of the 2nd, 3rd and 4th
/// powers of deviations from the mean, updated one value at a time and merged pairwise with the one-pass update
/// formulas for higher central moments (no cancellation for values far from zero).
class MomentsState final : public AggregateState {
 public:
  explicit MomentsState(AggregateFunction function) : function_(function) {}

  void resize(size_t groups) override {
    n_.resize(groups, 0);
    for (auto* v : {&mean_, &m2_, &m3_, &m4_}) v->resize(groups, 0.0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      const uint32_t g = ids[r];
      const double x = v.get<double>(r);
      const double before = static_cast<double>(n_[g]);
      const double n = static_cast<double>(++n_[g]);
      const double delta = x - mean_[g];
      const double dn = delta / n;
      const double dn2 = dn * dn;
      const double term = delta * dn * before;
      mean_[g] += dn;
      m4_[g] += term * dn2 * (n * n - 3 * n + 3) + 6 * dn2 * m2_[g] - 4 * dn * m3_[g];
      m3_[g] += term * dn * (n - 2) - 3 * dn * m2_[g];
      m2_[g] += term;
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {fixed_column<int64_t>(TypeId::kBigInt, n_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, mean_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, m2_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, m3_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, m4_.data() + first, nullptr, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView nv = make_view(*state.at(0)), meanv = make_view(*state.at(1)), m2v = make_view(*state.at(2)),
               m3v = make_view(*state.at(3)), m4v = make_view(*state.at(4));
    for (size_t r = 0; r < rows; ++r) {
      const int64_t nb_count = nv.get<int64_t>(r);
      if (nb_count == 0) continue;
      const uint32_t g = ids[r];
      const double na = static_cast<double>(n_[g]), nb = static_cast<double>(nb_count), n = na + nb;
      const double m2a = m2_[g], m3a = m3_[g], m4a = m4_[g];
      const double m2b = m2v.get<double>(r), m3b = m3v.get<double>(r), m4b = m4v.get<double>(r);
      const double delta = meanv.get<double>(r) - mean_[g];
      const double d2 = delta * delta, d3 = d2 * delta, d4 = d2 * d2;
      m4_[g] = m4a + m4b + d4 * na * nb * (na * na - na * nb + nb * nb) / (n * n * n) +
               6 * d2 * (na * na * m2b + nb * nb * m2a) / (n * n) + 4 * delta * (na * m3b - nb * m3a) / n;
      m3_[g] = m3a + m3b + d3 * na * nb * (na - nb) / (n * n) + 3 * delta * (na * m2b - nb * m2a) / n;
      m2_[g] = m2a + m2b + d2 * na * nb / n;
      mean_[g] += delta * nb / n;
      n_[g] += nb_count;
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    const bool skewness = function_ == AggregateFunction::kSkewness;
    std::vector<double> values(count);
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) {
      const size_t g = first + i;
      const double n = static_cast<double>(n_[g]);
      has[i] = n_[g] >= (skewness ? 3 : 4);
      if (!has[i]) continue;
      const double m2 = m2_[g];
      if (skewness) {
        // Presto's (population) skewness: sqrt(n) m3 / m2^1.5; NaN for equal values.
        values[i] = m2 == 0 ? std::numeric_limits<double>::quiet_NaN() : std::sqrt(n) * m3_[g] / std::pow(m2, 1.5);
      } else {
        // Presto's kurtosis, the unbiased excess kurtosis:
        // n(n+1)(n-1) m4 / ((n-2)(n-3) m2^2) - 3(n-1)^2 / ((n-2)(n-3)).
        const double d = (n - 2) * (n - 3);
        values[i] = m2 == 0 ? std::numeric_limits<double>::quiet_NaN()
                            : n * (n + 1) * (n - 1) * m4_[g] / (d * m2 * m2) - 3 * (n - 1) * (n - 1) / d;
      }
    }
    return fixed_column<double>(TypeId::kDouble, values.data(), has.data(), count);
  }

 private:
  AggregateFunction function_;
  std::vector<int64_t> n_;
  std::vector<double> mean_, m2_, m3_, m4_;
};

/// entropy(c) of BIGINT counts: with S the sum of the counts and T the sum of c log2 c, log2 S - T / S (0 when S is
/// 0, NULL counts skipped). A negative count is an error.
class EntropyState final : public AggregateState {
 public:
  void resize(size_t groups) override {
    sum_.resize(groups, 0.0);
    weighted_.resize(groups, 0.0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      const int64_t c = v.get<int64_t>(r);
      if (c < 0) throw InvalidInput("entropy: a count must not be negative, got " + std::to_string(c), "22023");
      if (c == 0) continue;
      const double x = static_cast<double>(c);
      sum_[ids[r]] += x;
      weighted_[ids[r]] += x * std::log2(x);
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {fixed_column<double>(TypeId::kDouble, sum_.data() + first, nullptr, count),
            fixed_column<double>(TypeId::kDouble, weighted_.data() + first, nullptr, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView s = make_view(*state.at(0)), w = make_view(*state.at(1));
    for (size_t r = 0; r < rows; ++r) {
      sum_[ids[r]] += s.get<double>(r);
      weighted_[ids[r]] += w.get<double>(r);
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    std::vector<double> values(count);
    for (size_t i = 0; i < count; ++i) {
      const double s = sum_[first + i];
      values[i] = s == 0 ? 0.0 : std::max(0.0, std::log2(s) - weighted_[first + i] / s);
    }
    return fixed_column<double>(TypeId::kDouble, values.data(), nullptr, count);
  }

 private:
  std::vector<double> sum_, weighted_;
};

/// bitwise_and_agg, bitwise_or_agg and bitwise_xor_agg of BIGINT input (two's complement); NULL without values.
class BitwiseAggState final : public AggregateState {
 public:
  explicit BitwiseAggState(AggregateFunction function) : function_(function) {}

  void resize(size_t groups) override {
    value_.resize(groups, function_ == AggregateFunction::kBitwiseAndAgg ? -1 : 0);
    count_.resize(groups, 0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    ColumnView v = make_view(*argument);
    for (size_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      combine(ids[r], v.get<int64_t>(r), 1);
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {fixed_column<int64_t>(TypeId::kBigInt, value_.data() + first, nullptr, count),
            fixed_column<int64_t>(TypeId::kBigInt, count_.data() + first, nullptr, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    ColumnView v = make_view(*state.at(0)), c = make_view(*state.at(1));
    for (size_t r = 0; r < rows; ++r) {
      if (c.get<int64_t>(r) > 0) combine(ids[r], v.get<int64_t>(r), c.get<int64_t>(r));
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) has[i] = count_[first + i] > 0;
    return fixed_column<int64_t>(TypeId::kBigInt, value_.data() + first, has.data(), count);
  }

 private:
  void combine(uint32_t g, int64_t x, int64_t n) {
    switch (function_) {
      case AggregateFunction::kBitwiseAndAgg: value_[g] &= x; break;
      case AggregateFunction::kBitwiseOrAgg: value_[g] |= x; break;
      default: value_[g] ^= x; break;
    }
    count_[g] += n;
  }

  AggregateFunction function_;
  std::vector<int64_t> value_, count_;
};

}  // namespace

std::unique_ptr<AggregateState> make_moments_state(AggregateFunction function) {
  return std::make_unique<MomentsState>(function);
}

std::unique_ptr<AggregateState> make_entropy_state() { return std::make_unique<EntropyState>(); }

std::unique_ptr<AggregateState> make_bitwise_agg_state(AggregateFunction function) {
  return std::make_unique<BitwiseAggState>(function);
}

}  // namespace kestrel::exec::aggregate_detail
