#pragma once
/// Output batch sizes of the CPU operators that produce rows from a table they hold (aggregation and sort
/// sources, join outputs): small enough to stay in cache, big enough to amortize per-batch work.

#include <cstddef>

namespace kestrel::exec {

/// Rows per output batch (and per source morsel) of the CPU operators.
inline constexpr size_t kCpuOutputRows = 8192;

/// Number of morsels of at most `per_morsel` rows that cover `rows` rows.
inline size_t morsels_for(size_t rows, size_t per_morsel) { return (rows + per_morsel - 1) / per_morsel; }

}  // namespace kestrel::exec
