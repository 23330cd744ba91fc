#pragma once
/// Device steps of the GPU aggregation (hash_aggregate_gpu.hpp), callable from host code: grouping the rows of a
/// device batch by sorting, and the per-group reductions (count, exact sums, min/max/first as a winning row,
/// variance states) and finishing kernels (average, variance, decimal precision check) that
/// hash_aggregate_gpu.cpp composes.
///
/// Groups are runs of a permutation of the input rows: group g is perm[offsets[g] .. offsets[g + 1]). Every
/// reduction runs one thread per group of up to 32 rows and one thread block per bigger group (grid-strided), so
/// it is exact and needs no atomics on values.

#include <cstdint>
#include <vector>

#include "exec/ops/common/device_rows.hpp"
#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec::aggregate_gpu_detail {

/// Groups a batch may have for dense grouping (group_rows' `dense_groups`): each thread of the dense reductions
/// keeps one accumulator per group in registers.
inline constexpr size_t kMaxDenseGroups = 8;

/// Where each group's rows are. With `group_of` set the rows stay in input order and row i belongs to group
/// group_of[i] (dense grouping: at most kMaxDenseGroups groups; only counts and integer sums reduce it). Otherwise,
/// with `offsets` null the groups are consecutive ranges of `chunk` positions (the last one shorter; one empty group
/// when `rows` is 0), and with `perm` null, position j is row j.
struct GroupLayout {
  const uint32_t* perm = nullptr;
  const uint32_t* offsets = nullptr;
  const uint8_t* group_of = nullptr;
  size_t rows = 0;
  size_t groups = 0;
  size_t chunk = 0;
};

/// The groups of a device batch: its rows sorted by the keys and the start of each group.
struct Grouping {
  BufferPtr perm;      ///< uint32 row ids sorted by the keys (stable: equal keys keep their input order)
  BufferPtr offsets;   ///< uint32 start (position in perm) of each group
  BufferPtr group_of;  ///< dense grouping instead of perm and offsets: uint8 group of each row
  BufferPtr first;     ///< uint32 a row id of each group (sorted: its first), where its keys are read
  size_t rows = 0;
  size_t groups = 0;

  GroupLayout layout() const;
};

/// Finds the groups of the rows of `batch` by the key columns `keys` (at least one; NULL keys equal). Rows of one
/// group keep their input order. With `try_hash` null or false the rows are sorted by their keys and the groups
/// come in ascending key order. With *try_hash true a hash table numbers the groups first and the rows are radix
/// sorted by group number (groups in no particular order; much faster than a key sort, above all for string keys):
/// a table of 2^16 slots first, one of at least twice the rows when more than 32768 groups fill the first. When
/// neither holds the groups (a probe sequence too long) it falls back to sorting and sets *try_hash to false, so a
/// caller can stop trying.
/// With `max_group_rows` > 0 a group of more rows is cut into runs of at most that many positions (for partial
/// aggregation, where a key may repeat: it spreads a big group over many blocks). Synchronizes `stream` once for
/// the number of groups, and once or twice more when it tries the hash tables.
/// With `dense_groups` > 0 (at most kMaxDenseGroups) and *try_hash true, a batch whose first hash table numbers at
/// most that many groups is not sorted at all: the result has `group_of` instead of `perm` and `offsets` (groups
/// in the order the sort would give them, `max_group_rows` ignored), for callers whose reductions are all counts
/// and integer sums (dense_sum_supported): those then read the rows once, in input order, and add exactly.
Grouping group_rows(const Batch& batch, const std::vector<size_t>& keys, size_t max_group_rows, bool* try_hash,
                    size_t dense_groups, gpu::Stream stream, gpu::MemoryResource& mr);

/// How many batches group_rows grouped densely since the process started (tests check that the path ran).
size_t dense_groupings();

/// Storage of a sum's input and accumulator.
enum class SumKind : uint8_t {
  kInt8ToInt64,
  kInt16ToInt64,
  kInt32ToInt64,
  kInt64ToInt64,
  kInt8ToInt128,
  kInt16ToInt128,
  kInt32ToInt128,
  kInt64ToInt128,
  kInt128ToInt128,
  kFloatToDouble,
  kDoubleToDouble,
};

/// Whether sum_groups reduces `kind` over a dense grouping (integer inputs; float sums depend on the order).
inline bool dense_sum_supported(SumKind kind) {
  return kind != SumKind::kFloatToDouble && kind != SumKind::kDoubleToDouble;
}

/// Per-group outputs of a reduction. `valid_count` counts the groups whose result is not NULL; `overflow` is set
/// to 1 when an integer accumulator overflowed (the host raises the error after reading it back).
struct ReduceOutput {
  void* values = nullptr;
  uint32_t* validity = nullptr;  ///< zeroed bitmap (one bit per group); null for counts, which are never NULL
  unsigned long long* valid_count = nullptr;
  unsigned long long* overflow = nullptr;
  void* dense_totals = nullptr;  ///< dense layouts only: zeroed device scratch of dense_scratch_bytes()
};

/// Bytes of the zeroed device scratch (ReduceOutput::dense_totals) each count or sum over a dense layout needs.
size_t dense_scratch_bytes();

/// out.values[g] (int64) = the number of rows of group g where `validity` is set (all rows when it is null).
/// Counts and sums take any layout; pick and moments reductions not a dense one (`group_of`).
void count_groups(const GroupLayout& layout, const uint8_t* validity, const ReduceOutput& out, gpu::Stream stream);

/// out.values[g] = the sum of group g's valid values (accumulator of `kind`); NULL when it has none.
void sum_groups(SumKind kind, const GroupLayout& layout, const void* values, const uint8_t* validity,
                const ReduceOutput& out, gpu::Stream stream);

/// The rows var_samp, var_pop, stddev_samp and stddev_pop reduce: raw DOUBLE values (`counts` null), or states of
/// the CPU's VarianceState layout (count, mean, sum of squared deviations) to merge.
struct MomentsInput {
  const double* values = nullptr;     ///< the DOUBLE values, or the states' means
  const uint8_t* validity = nullptr;  ///< of the values, or of the counts (a NULL state is an empty one)
  const int64_t* counts = nullptr;    ///< the states' counts; null for raw values
  const double* m2s = nullptr;        ///< the states' sums of squared deviations
};

/// Per-group variance states, never NULL (a group without values has count 0, mean 0 and m2 0, as on the CPU).
struct MomentsOutput {
  int64_t* counts = nullptr;
  double* means = nullptr;
  double* m2s = nullptr;
};

/// The variance state of each group: Welford's update over each thread's values (in row order within a group of
/// at most 32 rows, exactly as the CPU), then Chan et al.'s pairwise merge across the threads of a block; states
/// are merged with Chan's formula throughout.
void moments_groups(const GroupLayout& layout, const MomentsInput& in, const MomentsOutput& out, gpu::Stream stream);

/// var_samp / var_pop (`sample`), or with `root` stddev_samp / stddev_pop, of variance states as the CPU's
/// VarianceState::finalize computes them: max(m2, 0) / (n - 1) or / n, NULL when n < 2 (samples) or n < 1.
void variance_values(bool sample, bool root, const int64_t* counts, const double* m2s, size_t rows,
                     const ReduceOutput& out, gpu::Stream stream);

/// Which row of a group min, max and any_value keep.
enum class PickKind : uint8_t {
  kMin,    ///< the least valid value (the first one of equal values)
  kMax,    ///< the greatest valid value (the first one of equal values)
  kFirst,  ///< the first valid value
};

/// winners[g] = the row id whose value of `column` group g keeps; the group's first row when all its values are
/// NULL (so gathering it gives NULL). INTERVAL values order by their length with 30-day months, as on the CPU.
/// `layout` must have rows > 0.
void pick_groups(PickKind kind, const DeviceKeyColumn& column, const GroupLayout& layout, uint32_t* winners,
                 gpu::Stream stream);

/// avg as DOUBLE: out[i] = sum[i] / count[i] where sum[i] is valid (int128 or double sums); NULL elsewhere.
void average_double(bool int128_sum, const void* sums, const uint8_t* sum_validity, const int64_t* counts,
                    size_t rows, const ReduceOutput& out, gpu::Stream stream);

/// avg of DECIMAL: out[i] = sum[i] * scale / count[i] rounded half away from zero, exactly as the CPU computes it
/// (int128); NULL where sum[i] is NULL; sets *out.overflow when the result leaves 38 digits.
void average_decimal(const int128_t* sums, const uint8_t* sum_validity, const int64_t* counts, int128_t scale,
                     size_t rows, const ReduceOutput& out, gpu::Stream stream);

/// Sets *overflow when a valid value of `values` has more than 38 digits (the final check of an int128 sum).
void check_decimal_precision(const int128_t* values, const uint8_t* validity, size_t rows,
                             unsigned long long* overflow, gpu::Stream stream);

}  // namespace kestrel::exec::aggregate_gpu_detail
