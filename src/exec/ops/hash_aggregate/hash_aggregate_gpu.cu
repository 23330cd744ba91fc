#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "common/check.hpp"
#include "common/error.hpp"
#include "common/numeric_ops.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gather.hpp"

namespace kestrel::exec {

namespace {

using plan::AggregateFunction;

constexpr int kThreads = 256; ///< threads of the row-wise kernels
constexpr int kGroupThreads =
    128; ///< threads of the block that reduces one group
constexpr size_t kMaxKeys =
    32; ///< key columns the boundary kernel takes as a parameter

int blocks_for(size_t items) {
  return static_cast<int>(std::max<size_t>(
      1, std::min<size_t>((items + kThreads - 1) / kThreads, 65535)));
}

BufferPtr device_buffer(size_t bytes, gpu::Stream stream,
                        gpu::MemoryResource &mr) {
  return Buffer::allocate(std::max<size_t>(bytes, 8), mr, stream);
}

const uint8_t *validity_of(const Column &c) {
  return c.validity() && c.null_count() > 0 ? c.validity()->as<uint8_t>()
                                            : nullptr;
}

__device__ inline bool bit_at(const uint8_t *bitmap, size_t i) {
  return (bitmap[i >> 3] >> (i & 7)) & 1;
}

// ---- grouping
// ---------------------------------------------------------------------------------------------------

/// Order-preserving uint64 of each key: keys of up to 4 bytes as value + 2^31
/// with NULL as 2^32 (33 bits, one sort); 8-byte keys as the value with its
/// sign bit flipped, NULL as 0 with `nulls` (one byte per row) set.
template <typename T>
__global__ void normalize_key_kernel(const T *values, const uint8_t *validity,
                                     size_t rows, uint64_t *keys,
                                     uint8_t *nulls) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       i < rows; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const bool valid = validity == nullptr || bit_at(validity, i);
    if constexpr (sizeof(T) <= 4) {
      keys[i] = valid ? static_cast<uint64_t>(static_cast<int64_t>(values[i]) +
                                              (int64_t{1} << 31))
                      : uint64_t{1} << 32;
    } else {
      keys[i] =
          valid ? static_cast<uint64_t>(values[i]) ^ (uint64_t{1} << 63) : 0;
      if (nulls != nullptr)
        nulls[i] = valid ? 0 : 1;
    }
  }
}

__global__ void iota_kernel(uint32_t *out, size_t rows) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       i < rows; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = static_cast<uint32_t>(i);
  }
}

/// out[i] = keys[perm[i]]: the keys in the current order, ready for the next
/// stable sort.
template <typename K>
__global__ void permute_keys_kernel(const K *keys, const uint32_t *perm,
                                    size_t rows, K *out) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       i < rows; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = keys[perm[i]];
  }
}

/// The normalized key columns, passed by value to the boundary kernel.
struct KeyColumns {
  const uint64_t *keys[kMaxKeys];
  const uint8_t
      *nulls[kMaxKeys]; ///< null where the key column keeps NULL inside `keys`
  int count;
};

/// flags[i] = 1 where sorted row i starts a group (it differs from row i - 1 in
/// some key or NULL flag).
__global__ void boundary_kernel(KeyColumns k, const uint32_t *perm, size_t rows,
                                uint8_t *flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       i < rows; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    bool starts = i == 0;
    if (!starts) {
      const uint32_t a = perm[i];
      const uint32_t b = perm[i - 1];
      for (int c = 0; c < k.count && !starts; ++c) {
        starts = k.keys[c][a] != k.keys[c][b] ||
                 (k.nulls[c] != nullptr && k.nulls[c][a] != k.nulls[c][b]);
      }
    }
    flags[i] = starts ? 1 : 0;
  }
}

/// first[g] = perm[offsets[g]]: one input row of each group, where its keys are
/// read.
__global__ void first_rows_kernel(const uint32_t *perm, const uint32_t *offsets,
                                  size_t groups, uint32_t *first) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       g < groups; g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    first[g] = perm[offsets[g]];
  }
}

/// Stable sort of the row ids `*perm` by keys[perm[i]] (bits [0, end_bit)),
/// through `*perm_alt`, which it swaps with.
template <typename K>
void stable_sort_by(const K *keys, int end_bit, size_t rows, uint32_t **perm,
                    uint32_t **perm_alt, K *keys_in, K *keys_out,
                    gpu::Stream stream, gpu::MemoryResource &mr) {
  permute_keys_kernel<K><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
      keys, *perm, rows, keys_in);
  KESTREL_CUDA_CHECK_LAUNCH();
  const int n = static_cast<int>(rows);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, temp_bytes, keys_in, keys_out, *perm, *perm_alt, n, 0, end_bit,
      stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      temp->data(), temp_bytes, keys_in, keys_out, *perm, *perm_alt, n, 0,
      end_bit, stream.handle()));
  std::swap(*perm, *perm_alt);
}

template <typename T>
void launch_normalize(const Column &c, size_t rows, uint64_t *keys,
                      uint8_t *nulls, gpu::Stream stream) {
  normalize_key_kernel<T><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
      c.data<T>(), validity_of(c), rows, keys, nulls);
  KESTREL_CUDA_CHECK_LAUNCH();
}

/// The sorted row ids and the start of each group among them.
struct Grouping {
  BufferPtr perm;    ///< uint32 row ids sorted by the keys
  BufferPtr offsets; ///< uint32 start (in perm) of each group
  size_t groups = 0;
};

/// Sorts the rows by the key columns and finds the groups. Synchronizes
/// `stream` for the number of groups.
Grouping group_rows(const Batch &input,
                    const std::vector<size_t> &group_columns,
                    gpu::Stream stream, gpu::MemoryResource &mr) {
  const size_t rows = input.num_rows();
  const size_t nkeys = group_columns.size();
  std::vector<BufferPtr> keys(nkeys), nulls(nkeys);
  KeyColumns params{};
  params.count = static_cast<int>(nkeys);
  for (size_t k = 0; k < nkeys; ++k) {
    const Column &c = *input.column(group_columns[k]);
    const size_t width = c.type().physical_width();
    keys[k] = device_buffer(rows * sizeof(uint64_t), stream, mr);
    if (width == 8 && validity_of(c) != nullptr)
      nulls[k] = device_buffer(rows, stream, mr);
    uint64_t *key = keys[k]->as<uint64_t>();
    uint8_t *null = nulls[k] ? nulls[k]->as<uint8_t>() : nullptr;
    switch (width) {
    case 1:
      launch_normalize<int8_t>(c, rows, key, null, stream);
      break;
    case 2:
      launch_normalize<int16_t>(c, rows, key, null, stream);
      break;
    case 4:
      launch_normalize<int32_t>(c, rows, key, null, stream);
      break;
    default:
      launch_normalize<int64_t>(c, rows, key, null, stream);
      break;
    }
    params.keys[k] = key;
    params.nulls[k] = null;
  }
  Grouping out;
  out.perm = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr perm_alt = device_buffer(rows * sizeof(uint32_t), stream, mr);
  uint32_t *perm = out.perm->as<uint32_t>();
  uint32_t *alt = perm_alt->as<uint32_t>();
  iota_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(perm, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr sort_in = device_buffer(rows * sizeof(uint64_t), stream, mr);
  BufferPtr sort_out = device_buffer(rows * sizeof(uint64_t), stream, mr);
  // LSD over the columns: the last key first, each sort stable, so the final
  // order is lexicographic.
  for (size_t k = nkeys; k-- > 0;) {
    const size_t width =
        input.column(group_columns[k])->type().physical_width();
    stable_sort_by<uint64_t>(params.keys[k], width == 8 ? 64 : 33, rows, &perm,
                             &alt, sort_in->as<uint64_t>(),
                             sort_out->as<uint64_t>(), stream, mr);
    if (params.nulls[k] != nullptr) {
      stable_sort_by<uint8_t>(params.nulls[k], 1, rows, &perm, &alt,
                              sort_in->as<uint8_t>(), sort_out->as<uint8_t>(),
                              stream, mr);
    }
  }
  if (perm != out.perm->as<uint32_t>())
    std::swap(out.perm, perm_alt);
  BufferPtr flags = device_buffer(rows, stream, mr);
  boundary_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(
      params, perm, rows, flags->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  out.offsets = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr selected = device_buffer(sizeof(int), stream, mr);
  thrust::counting_iterator<uint32_t> positions(0);
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(
      nullptr, temp_bytes, positions, flags->as<uint8_t>(),
      out.offsets->as<uint32_t>(), selected->as<int>(), static_cast<int>(rows),
      stream.handle()));
  BufferPtr temp = device_buffer(temp_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceSelect::Flagged(
      temp->data(), temp_bytes, positions, flags->as<uint8_t>(),
      out.offsets->as<uint32_t>(), selected->as<int>(), static_cast<int>(rows),
      stream.handle()));
  int groups = 0;
  // The host sizes every output column by the number of groups (copy_bytes to
  // the host waits for it).
  gpu::copy_bytes(&groups, gpu::MemoryKind::kHost, selected->data(),
                  gpu::MemoryKind::kDevice, sizeof(int), stream);
  out.groups = static_cast<size_t>(groups);
  return out;
}

// ---- per-group reduction
// ----------------------------------------------------------------------------------------

enum class Reduce : uint8_t { kCount, kSum, kMin, kMax };
enum class Finish : uint8_t { kCount, kValue, kAvgDouble, kAvgDecimal };

/// Where each group's rows are: perm[offsets[g] .. offsets[g + 1]) (rows for
/// the last); without perm and offsets, one group of all rows in order.
struct GroupLayout {
  const uint32_t *perm;
  const uint32_t *offsets;
  size_t rows;
  size_t groups;
};

/// Merges accumulator b (of cb values) into a (of ca values).
template <Reduce R, typename Acc>
__device__ inline Acc combine(Acc a, long long ca, Acc b, long long cb) {
  if constexpr (R == Reduce::kSum) {
    return a + b;
  } else if constexpr (R == Reduce::kMin || R == Reduce::kMax) {
    if (cb == 0)
      return a;
    if (ca == 0)
      return b;
    if constexpr (R == Reduce::kMin)
      return b < a ? b : a;
    return a < b ? b : a;
  }
  return a;
}

/// One block per group (grid-strided): each thread accumulates a strided share
/// of the group's valid values, a tree in shared memory merges them, thread 0
/// writes the result and, for a non-empty group, its validity bit. `scale` is
/// 10^(result scale - input scale) for the decimal average.
template <typename In, typename Acc, typename Out, Reduce R, Finish F>
__global__ void group_aggregate_kernel(GroupLayout layout, const In *values,
                                       const uint8_t *validity, int64_t scale,
                                       Out *out, uint32_t *out_validity,
                                       unsigned long long *valid_count) {
  __shared__ Acc s_acc[kGroupThreads];
  __shared__ long long s_cnt[kGroupThreads];
  const int t = threadIdx.x;
  for (size_t g = blockIdx.x; g < layout.groups; g += gridDim.x) {
    const size_t begin = layout.offsets != nullptr ? layout.offsets[g] : 0;
    const size_t end = layout.offsets != nullptr && g + 1 < layout.groups
                           ? layout.offsets[g + 1]
                           : layout.rows;
    Acc acc{};
    long long cnt = 0;
    for (size_t j = begin + t; j < end; j += blockDim.x) {
      const size_t row = layout.perm != nullptr ? layout.perm[j] : j;
      if (validity != nullptr && !bit_at(validity, row))
        continue;
      if constexpr (R != Reduce::kCount)
        acc = combine<R>(acc, cnt, static_cast<Acc>(values[row]), 1);
      ++cnt;
    }
    s_acc[t] = acc;
    s_cnt[t] = cnt;
    __syncthreads();
    for (int stride = kGroupThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride) {
        s_acc[t] = combine<R>(s_acc[t], s_cnt[t], s_acc[t + stride],
                              s_cnt[t + stride]);
        s_cnt[t] += s_cnt[t + stride];
      }
      __syncthreads();
    }
    if (t == 0) {
      const long long n = s_cnt[0];
      const Acc total = s_acc[0];
      if constexpr (F == Finish::kCount) {
        out[g] = static_cast<Out>(n);
      } else {
        Out result{};
        if (n > 0) {
          if constexpr (F == Finish::kValue) {
            result = static_cast<Out>(total);
          } else if constexpr (F == Finish::kAvgDouble) {
            result = static_cast<Out>(static_cast<double>(total) /
                                      static_cast<double>(n));
          } else {
            // As the CPU: q * 10^d + round_half_away(r * 10^d / n), so sum *
            // 10^d never has to fit 128 bits.
            const int128_t count = n;
            const int128_t q = static_cast<int128_t>(total) / count;
            const int128_t r = static_cast<int128_t>(total) % count;
            result = static_cast<Out>(
                q * scale +
                numeric::div_round_half_away<int128_t>(r * scale, count));
          }
          atomicOr(&out_validity[g >> 5], 1u << (g & 31));
          atomicAdd(valid_count, 1ull);
        }
        out[g] = result;
      }
    }
    __syncthreads(); // shared memory is reused by the next group
  }
}

template <typename In, typename Acc, typename Out, Reduce R, Finish F>
void launch_group_aggregate(const GroupLayout &layout, const Column *argument,
                            int64_t scale, void *out, uint32_t *out_validity,
                            unsigned long long *valid_count,
                            gpu::Stream stream) {
  const In *values = argument != nullptr ? argument->data<In>() : nullptr;
  const uint8_t *validity =
      argument != nullptr ? validity_of(*argument) : nullptr;
  const int blocks =
      static_cast<int>(std::min<size_t>(layout.groups, size_t{1} << 20));
  group_aggregate_kernel<In, Acc, Out, R, F>
      <<<blocks, kGroupThreads, 0, stream.handle()>>>(
          layout, values, validity, scale, static_cast<Out *>(out),
          out_validity, valid_count);
  KESTREL_CUDA_CHECK_LAUNCH();
}

bool is_int64_decimal(const LogicalType &t) {
  return t.id() == TypeId::kDecimal && !t.is_wide_decimal();
}

/// The storage of sum/avg/min/max arguments this file aggregates; kInvalid for
/// anything else.
enum class ArgumentKind : uint8_t { kInvalid, kInt32, kInt64, kDouble };

ArgumentKind argument_kind(AggregateFunction f, const LogicalType &t) {
  const bool arithmetic =
      f == AggregateFunction::kSum || f == AggregateFunction::kAvg;
  switch (t.id()) {
  case TypeId::kInteger:
    return ArgumentKind::kInt32;
  case TypeId::kDate:
    return arithmetic ? ArgumentKind::kInvalid : ArgumentKind::kInt32;
  case TypeId::kBigInt:
    return ArgumentKind::kInt64;
  case TypeId::kTimestamp:
    return arithmetic ? ArgumentKind::kInvalid : ArgumentKind::kInt64;
  case TypeId::kDecimal:
    return is_int64_decimal(t) ? ArgumentKind::kInt64 : ArgumentKind::kInvalid;
  case TypeId::kDouble:
    return ArgumentKind::kDouble;
  default:
    return ArgumentKind::kInvalid;
  }
}

bool is_supported_key(const LogicalType &t) {
  switch (t.id()) {
  case TypeId::kBoolean:
  case TypeId::kTinyInt:
  case TypeId::kSmallInt:
  case TypeId::kInteger:
  case TypeId::kBigInt:
  case TypeId::kDate:
  case TypeId::kTimestamp:
    return true;
  case TypeId::kDecimal:
    return is_int64_decimal(t);
  default:
    return false;
  }
}

/// Throws NotImplemented for what aggregate_gpu does not do, before any work is
/// queued.
void check_supported(const Batch &input,
                     const std::vector<size_t> &group_columns,
                     const std::vector<AggregateSpec> &aggregates) {
  if (input.num_rows() > static_cast<size_t>(INT32_MAX))
    throw NotImplemented("GPU aggregation of 2^31 rows or more");
  if (group_columns.size() > kMaxKeys)
    throw NotImplemented("GPU aggregation by more than 32 key columns");
  for (size_t c : group_columns) {
    KESTREL_CHECK_LT(c, input.num_columns());
    const Column &col = *input.column(c);
    if (col.is_dictionary() || !is_supported_key(col.type())) {
      throw NotImplemented("GPU aggregation grouped by " +
                           col.type().to_string() +
                           (col.is_dictionary() ? " (dictionary)" : ""));
    }
  }
  for (const AggregateSpec &a : aggregates) {
    const std::string what =
        std::string(plan::aggregate_function_name(a.function)) + " of " +
        a.input_type.to_string();
    if (a.distinct)
      throw NotImplemented("GPU aggregation: DISTINCT " + what);
    if (a.function == AggregateFunction::kCountStar)
      continue;
    if (!a.argument.has_value())
      throw InternalError("aggregate " + what + " without an argument column");
    KESTREL_CHECK_LT(*a.argument, input.num_columns());
    const Column &arg = *input.column(*a.argument);
    if (a.function == AggregateFunction::kCount)
      continue;
    if (a.function == AggregateFunction::kAnyValue)
      throw NotImplemented("GPU aggregation: " + what);
    if (arg.is_dictionary() || arg.type() != a.input_type ||
        argument_kind(a.function, a.input_type) == ArgumentKind::kInvalid) {
      throw NotImplemented("GPU aggregation: " + what + " (column " +
                           arg.type().to_string() + ")");
    }
  }
}

/// Queues the reduction of one aggregate into `out` (one value per group of the
/// result type).
void launch_aggregate(const AggregateSpec &a, const Column *arg,
                      const GroupLayout &layout, void *out, uint32_t *validity,
                      unsigned long long *counter, gpu::Stream stream) {
  using F = AggregateFunction;
  if (a.function == F::kCountStar || a.function == F::kCount) {
    launch_group_aggregate<int8_t, int64_t, int64_t, Reduce::kCount,
                           Finish::kCount>(
        layout, a.function == F::kCount ? arg : nullptr, 1, out, validity,
        counter, stream);
    return;
  }
  const ArgumentKind kind = argument_kind(a.function, a.input_type);
  const bool decimal = a.input_type.id() == TypeId::kDecimal;
  switch (a.function) {
  case F::kSum:
    if (kind == ArgumentKind::kInt32) {
      launch_group_aggregate<int32_t, int64_t, int64_t, Reduce::kSum,
                             Finish::kValue>(layout, arg, 1, out, validity,
                                             counter, stream);
    } else if (kind == ArgumentKind::kInt64) {
      launch_group_aggregate<int64_t, int128_t, int128_t, Reduce::kSum,
                             Finish::kValue>(layout, arg, 1, out, validity,
                                             counter, stream);
    } else {
      launch_group_aggregate<double, double, double, Reduce::kSum,
                             Finish::kValue>(layout, arg, 1, out, validity,
                                             counter, stream);
    }
    return;
  case F::kAvg:
    if (kind == ArgumentKind::kInt32) {
      launch_group_aggregate<int32_t, int128_t, double, Reduce::kSum,
                             Finish::kAvgDouble>(layout, arg, 1, out, validity,
                                                 counter, stream);
    } else if (kind == ArgumentKind::kInt64 && decimal) {
      const int digits =
          std::max(a.input_type.scale(), 6) - a.input_type.scale();
      int64_t scale = 1;
      for (int i = 0; i < digits; ++i)
        scale *= 10;
      launch_group_aggregate<int64_t, int128_t, int128_t, Reduce::kSum,
                             Finish::kAvgDecimal>(layout, arg, scale, out,
                                                  validity, counter, stream);
    } else if (kind == ArgumentKind::kInt64) {
      launch_group_aggregate<int64_t, int128_t, double, Reduce::kSum,
                             Finish::kAvgDouble>(layout, arg, 1, out, validity,
                                                 counter, stream);
    } else {
      launch_group_aggregate<double, double, double, Reduce::kSum,
                             Finish::kAvgDouble>(layout, arg, 1, out, validity,
                                                 counter, stream);
    }
    return;
  case F::kMin:
  case F::kMax: {
    const bool is_min = a.function == F::kMin;
    if (kind == ArgumentKind::kInt32) {
      if (is_min)
        launch_group_aggregate<int32_t, int32_t, int32_t, Reduce::kMin,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
      else
        launch_group_aggregate<int32_t, int32_t, int32_t, Reduce::kMax,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
    } else if (kind == ArgumentKind::kInt64) {
      if (is_min)
        launch_group_aggregate<int64_t, int64_t, int64_t, Reduce::kMin,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
      else
        launch_group_aggregate<int64_t, int64_t, int64_t, Reduce::kMax,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
    } else {
      if (is_min)
        launch_group_aggregate<double, double, double, Reduce::kMin,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
      else
        launch_group_aggregate<double, double, double, Reduce::kMax,
                               Finish::kValue>(layout, arg, 1, out, validity,
                                               counter, stream);
    }
    return;
  }
  default:
    throw InternalError("aggregate_gpu: unexpected aggregate function");
  }
}

/// An output column waiting for its NULL count.
struct PendingColumn {
  LogicalType type;
  BufferPtr values;
  BufferPtr validity; ///< null when the column cannot hold NULLs
};

} // namespace

Batch aggregate_gpu(const Batch &device_input,
                    const std::vector<size_t> &group_columns,
                    const std::vector<AggregateSpec> &aggregates,
                    gpu::Stream stream, gpu::MemoryResource &mr) {
  gpu::require_explicit_stream(stream, "aggregate_gpu");
  KESTREL_CHECK_MSG(device_input.on_device(),
                    "aggregate_gpu needs a device batch");
  check_supported(device_input, group_columns, aggregates);
  const size_t rows = device_input.num_rows();
  const size_t nkeys = group_columns.size();

  Grouping grouping;
  GroupLayout layout{nullptr, nullptr, rows, 1};
  if (nkeys > 0) {
    if (rows > 0)
      grouping = group_rows(device_input, group_columns, stream, mr);
    layout = GroupLayout{
        grouping.perm ? grouping.perm->as<uint32_t>() : nullptr,
        grouping.offsets ? grouping.offsets->as<uint32_t>() : nullptr, rows,
        grouping.groups};
  }
  const size_t groups = layout.groups;
  const size_t ncols = nkeys + aggregates.size();
  // One valid-row counter per output column, read back together at the end.
  BufferPtr counters =
      device_buffer(ncols * sizeof(unsigned long long), stream, mr);
  auto *counter = counters->as<unsigned long long>();
  gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0,
                  counters->size(), stream);
  const size_t validity_bytes = (groups + 31) / 32 * 4;

  std::vector<PendingColumn> pending(ncols);
  std::vector<Field> fields;
  if (nkeys > 0 && groups > 0) {
    BufferPtr first = device_buffer(groups * sizeof(uint32_t), stream, mr);
    first_rows_kernel<<<blocks_for(groups), kThreads, 0, stream.handle()>>>(
        layout.perm, layout.offsets, groups, first->as<uint32_t>());
    KESTREL_CUDA_CHECK_LAUNCH();
    for (size_t k = 0; k < nkeys; ++k) {
      const Column &c = *device_input.column(group_columns[k]);
      PendingColumn &p = pending[k];
      p.type = c.type();
      const size_t width = c.type().physical_width();
      p.values = device_buffer(groups * width, stream, mr);
      gpu::gather_fixed(width, c.values()->data(), first->as<uint32_t>(),
                        groups, p.values->data(), stream);
      if (validity_of(c) != nullptr) {
        p.validity = device_buffer(validity_bytes, stream, mr);
        gpu::gather_bits(validity_of(c), first->as<uint32_t>(), groups,
                         p.validity->as<uint32_t>(), counter + k, stream);
      }
    }
  } else {
    for (size_t k = 0; k < nkeys; ++k) {
      pending[k].type = device_input.column(group_columns[k])->type();
      pending[k].values = device_buffer(0, stream, mr);
    }
  }
  for (size_t c : group_columns)
    fields.push_back(device_input.schema()->field(c));

  for (size_t i = 0; i < aggregates.size(); ++i) {
    const AggregateSpec &a = aggregates[i];
    PendingColumn &p = pending[nkeys + i];
    p.type = aggregate_result_type(a.function, a.input_type);
    fields.push_back({plan::aggregate_function_name(a.function), p.type, true});
    p.values = device_buffer(groups * p.type.physical_width(), stream, mr);
    const bool counts = a.function == AggregateFunction::kCountStar ||
                        a.function == AggregateFunction::kCount;
    if (!counts) {
      p.validity = device_buffer(validity_bytes, stream, mr);
      gpu::fill_bytes(p.validity->data(), gpu::MemoryKind::kDevice, 0,
                      p.validity->size(), stream);
    }
    if (groups == 0)
      continue;
    const Column *arg = a.argument.has_value()
                            ? device_input.column(*a.argument).get()
                            : nullptr;
    launch_aggregate(a, arg, layout, p.values->data(),
                     p.validity ? p.validity->as<uint32_t>() : nullptr,
                     counter + nkeys + i, stream);
  }

  std::vector<unsigned long long> valid(ncols, 0);
  if (ncols > 0) {
    // The host needs the NULL count of every output column (column metadata);
    // this waits for all the work above.
    gpu::copy_bytes(valid.data(), gpu::MemoryKind::kHost, counter,
                    gpu::MemoryKind::kDevice,
                    ncols * sizeof(unsigned long long), stream);
  }
  std::vector<ColumnPtr> columns;
  columns.reserve(ncols);
  for (size_t k = 0; k < ncols; ++k) {
    PendingColumn &p = pending[k];
    size_t null_count = p.validity ? groups - static_cast<size_t>(valid[k]) : 0;
    if (null_count == 0)
      p.validity = nullptr;
    columns.push_back(Column::from_buffers(p.type, ColumnEncoding::kPlain,
                                           groups, null_count, p.validity,
                                           p.values, nullptr, nullptr));
  }
  return Batch(std::make_shared<Schema>(std::move(fields)), std::move(columns),
               groups, gpu::MemoryKind::kDevice, stream);
}

} // namespace kestrel::exec
