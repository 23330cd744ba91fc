#pragma once
/// Builders of result and state columns from per-group accumulator arrays, shared by the aggregate states.

#include <cstring>
#include <string>
#include <vector>

#include "common/bit_util.hpp"
#include "exec/ops/hash_aggregate/aggregate_state.hpp"

namespace kestrel::exec::aggregate_detail {

/// A host column of `type` with `values[0..count)`; with `has`, rows where has[i] == 0 are NULL.
template <typename T>
ColumnPtr fixed_column(const LogicalType& type, const T* values, const uint8_t* has, size_t count) {
  auto column = Column::make_fixed(type, count, has != nullptr, gpu::host_memory_resource(), gpu::Stream::host());
  if (count > 0) std::memcpy(column->mutable_data<uint8_t>(), values, count * sizeof(T));
  if (has != nullptr) {
    uint8_t* valid = column->mutable_validity();
    for (size_t i = 0; i < count; ++i) {
      if (has[i] == 0) bits::clear(valid, i);
    }
    column->recount_nulls();
  }
  return column;
}

/// A VARCHAR column of `values[0..count)`, NULL where has[i] == 0.
ColumnPtr string_column(const std::string* values, const uint8_t* has, size_t count);

/// Sum and avg accumulators (aggregate_sum.cpp).
std::unique_ptr<AggregateState> make_sum_state(bool average, const LogicalType& input);

/// var_samp, var_pop, stddev_samp and stddev_pop accumulators of DOUBLE input (aggregate_variance.cpp).
std::unique_ptr<AggregateState> make_variance_state(plan::AggregateFunction function);

/// max_by and min_by accumulators (aggregate_max_by.cpp).
std::unique_ptr<AggregateState> make_max_by_state(const AggregateSpec& spec);

/// string_agg, percentile_cont and percentile_disc accumulators, which keep every value (aggregate_ordered_values.cpp).
std::unique_ptr<AggregateState> make_ordered_values_state(const AggregateSpec& spec);

/// checksum accumulators (aggregate_checksum.cpp).
std::unique_ptr<AggregateState> make_checksum_state();

/// skewness and kurtosis (DOUBLE input), entropy (BIGINT counts) and the bitwise aggregates (BIGINT input)
/// (aggregate_moments.cpp).
std::unique_ptr<AggregateState> make_moments_state(plan::AggregateFunction function);
std::unique_ptr<AggregateState> make_entropy_state();
std::unique_ptr<AggregateState> make_bitwise_agg_state(plan::AggregateFunction function);

}  // namespace kestrel::exec::aggregate_detail
