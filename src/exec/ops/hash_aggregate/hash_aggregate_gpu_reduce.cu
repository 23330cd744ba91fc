/// Per-group reductions of the GPU aggregation (one thread per small group, one thread block per bigger group) and
/// the element-wise finishing kernels (average, variance, decimal precision check).

#include <algorithm>
#include <type_traits>

#include "common/check.hpp"
#include "common/numeric_ops.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_kernels.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec::aggregate_gpu_detail {

namespace {

constexpr int kGroupThreads = 128;  ///< threads of the block that reduces one group (a power of two)
constexpr int kThreads = 256;       ///< threads of the element-wise kernels (a multiple of 32)
constexpr uint32_t kNone = 0xffffffffu;
/// Groups of at most this many rows are reduced by one thread each (kernels *_small_kernel), bigger ones by one
/// block each: many tiny groups would leave almost every thread of a block idle.
constexpr size_t kSmallGroupRows = 32;

/// Blocks of the block-per-group kernels (grid-strided over the groups, skipping the small ones).
int group_blocks(size_t groups) { return static_cast<int>(std::max<size_t>(1, std::min<size_t>(groups, 8192))); }

int blocks_for(size_t items) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 65535)));
}

__device__ inline bool bit_at(const uint8_t* bitmap, size_t i) { return ((bitmap[i >> 3] >> (i & 7)) & 1) != 0; }

__device__ inline void group_range(const GroupLayout& l, size_t g, size_t* begin, size_t* end) {
  if (l.offsets != nullptr) {
    *begin = l.offsets[g];
    *end = g + 1 < l.groups ? l.offsets[g + 1] : l.rows;
  } else {
    *begin = g * l.chunk;
    *end = *begin + l.chunk < l.rows ? *begin + l.chunk : l.rows;
    if (*begin > *end) *begin = *end;
  }
}

__device__ inline size_t row_at(const GroupLayout& l, size_t position) {
  return l.perm != nullptr ? l.perm[position] : position;
}

/// Marks group g's result valid: its bit (groups of different blocks share a word) and the valid counter.
__device__ inline void set_valid(const ReduceOutput& out, size_t g) {
  atomicOr(&out.validity[g >> 5], 1u << (g & 31));
  atomicAdd(out.valid_count, 1ull);
}

/// a + b into *out, true on overflow. (numeric::add_overflow does not compile for int128_t in device code: its
/// std::make_unsigned_t<int128_t> is rejected there.)
template <typename T>
__device__ inline bool add_checked(T a, T b, T* out) {
  using U = std::conditional_t<sizeof(T) == 16, unsigned __int128, uint64_t>;
  static_assert(sizeof(T) == 16 || sizeof(T) == 8);
  const T r = static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  *out = r;
  return (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0);
}

template <typename Acc>
__device__ inline bool accumulate(Acc* acc, Acc v) {
  if constexpr (std::is_floating_point_v<Acc>) {
    *acc += v;
    return false;
  } else {
    return add_checked(*acc, v, acc);
  }
}

__global__ void count_kernel(GroupLayout l, const uint8_t* validity, ReduceOutput out) {
  __shared__ long long s_count[kGroupThreads];
  const int t = threadIdx.x;
  for (size_t g = blockIdx.x; g < l.groups; g += gridDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin <= kSmallGroupRows) continue;  // the thread-per-group kernel's (uniform in the block)
    long long n = 0;
    if (validity == nullptr) {
      if (t == 0) n = static_cast<long long>(end - begin);
    } else {
      for (size_t j = begin + t; j < end; j += blockDim.x) n += bit_at(validity, row_at(l, j)) ? 1 : 0;
    }
    s_count[t] = n;
    __syncthreads();
    for (int stride = kGroupThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride) s_count[t] += s_count[t + stride];
      __syncthreads();
    }
    if (t == 0) static_cast<int64_t*>(out.values)[g] = s_count[0];
    __syncthreads();  // shared memory is reused by the next group
  }
}

template <typename In, typename Acc>
__global__ void sum_kernel(GroupLayout l, const In* values, const uint8_t* validity, ReduceOutput out) {
  __shared__ Acc s_sum[kGroupThreads];
  __shared__ int s_flags[kGroupThreads];  ///< bit 0: has a value, bit 1: overflowed
  const int t = threadIdx.x;
  for (size_t g = blockIdx.x; g < l.groups; g += gridDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin <= kSmallGroupRows) continue;  // the thread-per-group kernel's (uniform in the block)
    Acc acc{};
    int flags = 0;
    for (size_t j = begin + t; j < end; j += blockDim.x) {
      const size_t row = row_at(l, j);
      if (validity != nullptr && !bit_at(validity, row)) continue;
      if (accumulate(&acc, static_cast<Acc>(values[row]))) flags |= 2;
      flags |= 1;
    }
    s_sum[t] = acc;
    s_flags[t] = flags;
    __syncthreads();
    for (int stride = kGroupThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride) {
        Acc a = s_sum[t];
        if (accumulate(&a, s_sum[t + stride])) s_flags[t] |= 2;
        s_sum[t] = a;
        s_flags[t] |= s_flags[t + stride];
      }
      __syncthreads();
    }
    if (t == 0) {
      static_cast<Acc*>(out.values)[g] = (s_flags[0] & 1) ? s_sum[0] : Acc{};
      if (s_flags[0] & 1) set_valid(out, g);
      if (s_flags[0] & 2) *out.overflow = 1;
    }
    __syncthreads();
  }
}

// Dense groupings (layout.group_of): every thread walks rows in input order (grid-strided, coalesced) with one
// accumulator per group in registers (kMaxDenseGroups of them, selected without branches), then each warp adds its
// totals into per-group accumulators in global memory with integer atomics, which are exact in any order. A sum
// accumulates as a 192-bit two's complement number (an int128 and a carry count), so no partial sum can wrap; the
// finishing kernel checks that the total fits the output type.

/// Per-group global accumulator of the dense reductions: a 192-bit sum as three words (low first) and a count.
struct DenseTotal {
  unsigned long long words[3];
  unsigned long long count;
};

/// The 192-bit number (value, carries) as three words: value + carries * 2^128.
__device__ inline void to_words(int128_t value, long long carries, unsigned long long* w) {
  const auto u = static_cast<unsigned __int128>(value);
  w[0] = static_cast<unsigned long long>(u);
  w[1] = static_cast<unsigned long long>(u >> 64);
  // Sign extension of the int128 plus the carries.
  w[2] = static_cast<unsigned long long>((value < 0 ? -1LL : 0LL) + carries);
}

/// *total += the three words w, word by word with the carries each atomic add's old value implies.
__device__ inline void atomic_add_words(unsigned long long* total, const unsigned long long* w) {
  unsigned long long carry = 0;
  for (int i = 0; i < 3; ++i) {
    const unsigned long long add = w[i] + carry;
    const unsigned long long wrapped = add < w[i] ? 1ull : 0ull;  // w[i] + carry overflowed
    if (i == 2) {
      atomicAdd(&total[i], add);
      break;
    }
    const unsigned long long old = atomicAdd(&total[i], add);
    carry = wrapped + (old + add < old ? 1ull : 0ull);
  }
}

/// Adds `v` to the 192-bit (acc, carries); exact.
__device__ inline void add_wide(int128_t* acc, long long* carries, int128_t v) {
  int128_t r;
  if (add_checked(*acc, v, &r)) *carries += v >= 0 ? 1 : -1;
  *acc = r;
}

__device__ inline int128_t shfl_down_int128(int128_t v, int offset) {
  const auto u = static_cast<unsigned __int128>(v);
  const unsigned long long lo = __shfl_down_sync(0xffffffffu, static_cast<unsigned long long>(u), offset);
  const unsigned long long hi = __shfl_down_sync(0xffffffffu, static_cast<unsigned long long>(u >> 64), offset);
  return static_cast<int128_t>((static_cast<unsigned __int128>(hi) << 64) | lo);
}

/// Counts (kCount) or sums of `values` per dense group into totals[group]. Every thread of a block reaches the
/// warp reductions (the row loop is the only divergence).
template <typename In, bool kCount>
__global__ void dense_reduce_kernel(GroupLayout l, const In* values, const uint8_t* validity, DenseTotal* totals) {
  constexpr int G = static_cast<int>(kMaxDenseGroups);
  int128_t sum[G];
  long long carries[G];
  long long count[G];
#pragma unroll
  for (int g = 0; g < G; ++g) {
    sum[g] = 0;
    carries[g] = 0;
    count[g] = 0;
  }
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < l.rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (validity != nullptr && !bit_at(validity, i)) continue;
    const int group = l.group_of[i];
    if constexpr (kCount) {
#pragma unroll
      for (int g = 0; g < G; ++g) count[g] += group == g ? 1 : 0;
    } else {
      const int128_t v = static_cast<int128_t>(values[i]);
#pragma unroll
      for (int g = 0; g < G; ++g) {
        if (group == g) {
          if constexpr (sizeof(In) == 16) {
            add_wide(&sum[g], &carries[g], v);
          } else {
            sum[g] += v;  // at most 2^31 values below 2^63 per thread: no wrap
          }
          ++count[g];
        }
      }
    }
  }
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int g = 0; g < G; ++g) {
    if (g >= static_cast<int>(l.groups)) break;  // uniform: every thread leaves at the same g
    long long n = count[g];
    for (int offset = 16; offset > 0; offset >>= 1) n += __shfl_down_sync(0xffffffffu, n, offset);
    if constexpr (kCount) {
      if (lane == 0 && n != 0) atomicAdd(&totals[g].count, static_cast<unsigned long long>(n));
    } else {
      int128_t acc = sum[g];
      long long c = carries[g];
      for (int offset = 16; offset > 0; offset >>= 1) {
        const int128_t other = shfl_down_int128(acc, offset);
        c += __shfl_down_sync(0xffffffffu, c, offset);
        add_wide(&acc, &c, other);
      }
      if (lane == 0 && n != 0) {
        unsigned long long w[3];
        to_words(acc, c, w);
        atomic_add_words(totals[g].words, w);
        atomicAdd(&totals[g].count, static_cast<unsigned long long>(n));
      }
    }
  }
}

/// The outputs of dense totals: counts, or sums of type Acc (NULL for a group without values; *overflow when a
/// total does not fit Acc).
template <typename Acc, bool kCount>
__global__ void dense_finish_kernel(const DenseTotal* totals, size_t groups, ReduceOutput out) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const DenseTotal& t = totals[g];
    if constexpr (kCount) {
      static_cast<int64_t*>(out.values)[g] = static_cast<int64_t>(t.count);
    } else {
      const auto value = static_cast<int128_t>((static_cast<unsigned __int128>(t.words[1]) << 64) | t.words[0]);
      // The top word must be the sign extension of the int128 for the total to fit one.
      bool fits = t.words[2] == (value < 0 ? ~0ull : 0ull);
      if constexpr (sizeof(Acc) == 8) fits = fits && value >= INT64_MIN && value <= INT64_MAX;
      static_cast<Acc*>(out.values)[g] = t.count != 0 ? static_cast<Acc>(value) : Acc{};
      if (t.count != 0) set_valid(out, g);
      if (!fits) *out.overflow = 1;
    }
  }
}

/// Blocks of the dense reductions: enough to fill the device a few times over, fewer for small batches.
int dense_blocks(size_t rows) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>((rows + kThreads * 16 - 1) / (kThreads * 16), 1024)));
}

template <typename In, typename Acc, bool kCount>
void launch_dense(const GroupLayout& l, const void* values, const uint8_t* validity, const ReduceOutput& out,
                  gpu::Stream stream) {
  KESTREL_CHECK_LE(l.groups, kMaxDenseGroups);
  KESTREL_CHECK_MSG(out.dense_totals != nullptr, "dense GPU reduction without its scratch");
  auto* totals = static_cast<DenseTotal*>(out.dense_totals);
  dense_reduce_kernel<In, kCount><<<dense_blocks(l.rows), kThreads, 0, stream.handle()>>>(
      l, static_cast<const In*>(values), validity, totals);
  KESTREL_CUDA_CHECK_LAUNCH();
  dense_finish_kernel<Acc, kCount><<<1, 32, 0, stream.handle()>>>(totals, l.groups, out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

/// Three-way order of two non-NULL values of `c` (rows i and j): the device key order, except INTERVAL by length.
__device__ inline int pick_compare(const DeviceKeyColumn& c, size_t i, size_t j) {
  if (c.kind == DeviceKeyKind::kInterval) {
    const Interval x = static_cast<const Interval*>(c.values)[i];
    const Interval y = static_cast<const Interval*>(c.values)[j];
    const int128_t lx = (static_cast<int128_t>(x.months) * 30 + x.days) * 86'400'000'000LL + x.micros;
    const int128_t ly = (static_cast<int128_t>(y.months) * 30 + y.days) * 86'400'000'000LL + y.micros;
    return lx < ly ? -1 : (ly < lx ? 1 : 0);
  }
  return device_rows::compare_key(c, i, c, j);
}

/// Of two candidate positions (kNone: none), the one group g keeps; equal values keep the earlier position.
template <PickKind P>
__device__ inline uint32_t better(const DeviceKeyColumn& c, const GroupLayout& l, uint32_t a, uint32_t b) {
  if (a == kNone) return b;
  if (b == kNone) return a;
  const uint32_t earlier = a < b ? a : b;
  if constexpr (P == PickKind::kFirst) {
    return earlier;
  } else {
    const int cmp = pick_compare(c, row_at(l, a), row_at(l, b));
    if (cmp == 0) return earlier;
    if constexpr (P == PickKind::kMin) return cmp < 0 ? a : b;
    return cmp > 0 ? a : b;
  }
}

template <PickKind P>
__global__ void pick_kernel(DeviceKeyColumn c, GroupLayout l, uint32_t* winners) {
  __shared__ uint32_t s_pos[kGroupThreads];
  const int t = threadIdx.x;
  for (size_t g = blockIdx.x; g < l.groups; g += gridDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin <= kSmallGroupRows) continue;  // the thread-per-group kernel's (uniform in the block)
    uint32_t best = kNone;
    for (size_t j = begin + t; j < end; j += blockDim.x) {
      if (!device_rows::key_valid(c, row_at(l, j))) continue;
      best = better<P>(c, l, best, static_cast<uint32_t>(j));
      if constexpr (P == PickKind::kFirst) break;  // this thread's later positions cannot be earlier
    }
    s_pos[t] = best;
    __syncthreads();
    for (int stride = kGroupThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride) s_pos[t] = better<P>(c, l, s_pos[t], s_pos[t + stride]);
      __syncthreads();
    }
    if (t == 0) winners[g] = static_cast<uint32_t>(row_at(l, s_pos[0] == kNone ? begin : s_pos[0]));
    __syncthreads();
  }
}

__global__ void count_small_kernel(GroupLayout l, const uint8_t* validity, ReduceOutput out) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < l.groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin > kSmallGroupRows) continue;
    long long n = static_cast<long long>(end - begin);
    if (validity != nullptr) {
      n = 0;
      for (size_t j = begin; j < end; ++j) n += bit_at(validity, row_at(l, j)) ? 1 : 0;
    }
    static_cast<int64_t*>(out.values)[g] = n;
  }
}

template <typename In, typename Acc>
__global__ void sum_small_kernel(GroupLayout l, const In* values, const uint8_t* validity, ReduceOutput out) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < l.groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin > kSmallGroupRows) continue;
    Acc acc{};
    bool has = false;
    bool over = false;
    for (size_t j = begin; j < end; ++j) {
      const size_t row = row_at(l, j);
      if (validity != nullptr && !bit_at(validity, row)) continue;
      over |= accumulate(&acc, static_cast<Acc>(values[row]));
      has = true;
    }
    static_cast<Acc*>(out.values)[g] = has ? acc : Acc{};
    if (has) set_valid(out, g);
    if (over) *out.overflow = 1;
  }
}

template <PickKind P>
__global__ void pick_small_kernel(DeviceKeyColumn c, GroupLayout l, uint32_t* winners) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < l.groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin > kSmallGroupRows) continue;
    uint32_t best = kNone;
    for (size_t j = begin; j < end; ++j) {
      if (!device_rows::key_valid(c, row_at(l, j))) continue;
      best = better<P>(c, l, best, static_cast<uint32_t>(j));
      if constexpr (P == PickKind::kFirst) break;
    }
    winners[g] = static_cast<uint32_t>(row_at(l, best == kNone ? begin : best));
  }
}

/// A variance state: count, mean and sum of squared deviations from the mean (the CPU's VarianceState).
struct Moments {
  long long n;
  double mean;
  double m2;
};

/// Chan et al.'s merge of b into a, as VarianceState::merge (an empty a takes b as it is).
__device__ inline void merge_moments(Moments& a, const Moments& b) {
  if (b.n == 0) return;
  if (a.n == 0) {
    a = b;
    return;
  }
  const long long n = a.n + b.n;
  const double delta = b.mean - a.mean;
  const double share = static_cast<double>(b.n) / static_cast<double>(n);
  a.m2 += b.m2 + delta * delta * static_cast<double>(a.n) * share;
  a.mean += delta * share;
  a.n = n;
}

/// Adds one row of `in` to a: Welford's update for a raw value (as VarianceState::update), a merge for a state.
__device__ inline void add_moments(Moments& a, const MomentsInput& in, size_t row) {
  if (in.validity != nullptr && !bit_at(in.validity, row)) return;
  if (in.counts != nullptr) {
    merge_moments(a, Moments{static_cast<long long>(in.counts[row]), in.values[row], in.m2s[row]});
    return;
  }
  const double x = in.values[row];
  a.n += 1;
  const double delta = x - a.mean;
  a.mean += delta / static_cast<double>(a.n);
  a.m2 += delta * (x - a.mean);
}

__device__ inline void store_moments(const MomentsOutput& out, size_t g, const Moments& m) {
  out.counts[g] = m.n;
  out.means[g] = m.mean;
  out.m2s[g] = m.m2;
}

__global__ void moments_kernel(GroupLayout l, MomentsInput in, MomentsOutput out) {
  __shared__ long long s_n[kGroupThreads];
  __shared__ double s_mean[kGroupThreads];
  __shared__ double s_m2[kGroupThreads];
  const int t = threadIdx.x;
  for (size_t g = blockIdx.x; g < l.groups; g += gridDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin <= kSmallGroupRows) continue;  // the thread-per-group kernel's (uniform in the block)
    Moments m{0, 0.0, 0.0};
    for (size_t j = begin + t; j < end; j += blockDim.x) add_moments(m, in, row_at(l, j));
    s_n[t] = m.n;
    s_mean[t] = m.mean;
    s_m2[t] = m.m2;
    __syncthreads();
    for (int stride = kGroupThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride) {
        Moments a{s_n[t], s_mean[t], s_m2[t]};
        merge_moments(a, Moments{s_n[t + stride], s_mean[t + stride], s_m2[t + stride]});
        s_n[t] = a.n;
        s_mean[t] = a.mean;
        s_m2[t] = a.m2;
      }
      __syncthreads();
    }
    if (t == 0) store_moments(out, g, Moments{s_n[0], s_mean[0], s_m2[0]});
    __syncthreads();  // shared memory is reused by the next group
  }
}

__global__ void moments_small_kernel(GroupLayout l, MomentsInput in, MomentsOutput out) {
  for (size_t g = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; g < l.groups;
       g += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t begin, end;
    group_range(l, g, &begin, &end);
    if (end - begin > kSmallGroupRows) continue;
    Moments m{0, 0.0, 0.0};
    for (size_t j = begin; j < end; ++j) add_moments(m, in, row_at(l, j));
    store_moments(out, g, m);
  }
}

/// Writes the validity word of the 32 rows of this warp (base is a multiple of 32) and counts them. Called by
/// every thread of the block, also those past the last row.
__device__ inline void store_valid_warp(bool valid, size_t base, size_t rows, const ReduceOutput& out) {
  const unsigned ballot = __ballot_sync(0xffffffffu, valid);
  const size_t first = base + (threadIdx.x & ~31u);
  if ((threadIdx.x & 31) == 0 && first < rows) {
    out.validity[first >> 5] = ballot;
    if (ballot != 0) atomicAdd(out.valid_count, static_cast<unsigned long long>(__popc(ballot)));
  }
}

template <bool kInt128Sum>
__global__ void average_double_kernel(const void* sums, const uint8_t* sum_validity, const int64_t* counts,
                                      size_t rows, ReduceOutput out) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x); base < rows; base += stride) {
    const size_t i = base + threadIdx.x;
    const bool valid = i < rows && (sum_validity == nullptr || bit_at(sum_validity, i)) && counts[i] > 0;
    if (valid) {
      double sum;
      if constexpr (kInt128Sum) {
        sum = static_cast<double>(static_cast<const int128_t*>(sums)[i]);
      } else {
        sum = static_cast<const double*>(sums)[i];
      }
      static_cast<double*>(out.values)[i] = sum / static_cast<double>(counts[i]);
    } else if (i < rows) {
      static_cast<double*>(out.values)[i] = 0.0;
    }
    store_valid_warp(valid, base, rows, out);
  }
}

__global__ void average_decimal_kernel(const int128_t* sums, const uint8_t* sum_validity, const int64_t* counts,
                                       int128_t scale, size_t rows, ReduceOutput out) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x); base < rows; base += stride) {
    const size_t i = base + threadIdx.x;
    const bool valid = i < rows && (sum_validity == nullptr || bit_at(sum_validity, i)) && counts[i] > 0;
    int128_t value = 0;
    if (valid) {
      // As the CPU: q * 10^d + round_half_away(r * 10^d / n), so that sum * 10^d never has to fit 128 bits.
      const int128_t n = counts[i];
      const int128_t q = sums[i] / n;
      const int128_t r = sums[i] % n;
      int128_t whole;
      bool over = numeric::mul_overflow(q, scale, &whole);
      over = over || add_checked(whole, numeric::div_round_half_away<int128_t>(r * scale, n), &value);
      over = over || !numeric::fits_precision(value, kMaxDecimalPrecision);
      if (over) *out.overflow = 1;
    }
    if (i < rows) static_cast<int128_t*>(out.values)[i] = value;
    store_valid_warp(valid, base, rows, out);
  }
}

__global__ void variance_kernel(bool sample, bool root, const int64_t* counts, const double* m2s, size_t rows,
                                ReduceOutput out) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x); base < rows; base += stride) {
    const size_t i = base + threadIdx.x;
    const bool valid = i < rows && counts[i] >= (sample ? 2 : 1);
    double value = 0.0;
    if (valid) {
      const double n = static_cast<double>(sample ? counts[i] - 1 : counts[i]);
      const double m2 = 0.0 < m2s[i] ? m2s[i] : 0.0;  // std::max(0.0, m2), NaN included
      value = m2 / n;
      if (root) value = sqrt(value);
    }
    if (i < rows) static_cast<double*>(out.values)[i] = value;
    store_valid_warp(valid, base, rows, out);
  }
}

__global__ void precision_kernel(const int128_t* values, const uint8_t* validity, size_t rows,
                                 unsigned long long* overflow) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if ((validity == nullptr || bit_at(validity, i)) && !numeric::fits_precision(values[i], kMaxDecimalPrecision)) {
      *overflow = 1;
    }
  }
}

template <typename In, typename Acc>
void launch_sum(const GroupLayout& l, const void* values, const uint8_t* validity, const ReduceOutput& out,
                gpu::Stream stream) {
  sum_small_kernel<In, Acc><<<blocks_for(l.groups), kThreads, 0, stream.handle()>>>(
      l, static_cast<const In*>(values), validity, out);
  KESTREL_CUDA_CHECK_LAUNCH();
  sum_kernel<In, Acc><<<group_blocks(l.groups), kGroupThreads, 0, stream.handle()>>>(
      l, static_cast<const In*>(values), validity, out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

template <PickKind P>
void launch_pick(const DeviceKeyColumn& column, const GroupLayout& l, uint32_t* winners, gpu::Stream stream) {
  pick_small_kernel<P><<<blocks_for(l.groups), kThreads, 0, stream.handle()>>>(column, l, winners);
  KESTREL_CUDA_CHECK_LAUNCH();
  pick_kernel<P><<<group_blocks(l.groups), kGroupThreads, 0, stream.handle()>>>(column, l, winners);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace

size_t dense_scratch_bytes() { return kMaxDenseGroups * sizeof(DenseTotal); }

void count_groups(const GroupLayout& layout, const uint8_t* validity, const ReduceOutput& out, gpu::Stream stream) {
  if (layout.groups == 0) return;
  if (layout.group_of != nullptr) return launch_dense<uint8_t, int64_t, true>(layout, nullptr, validity, out, stream);
  count_small_kernel<<<blocks_for(layout.groups), kThreads, 0, stream.handle()>>>(layout, validity, out);
  KESTREL_CUDA_CHECK_LAUNCH();
  count_kernel<<<group_blocks(layout.groups), kGroupThreads, 0, stream.handle()>>>(layout, validity, out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void sum_groups(SumKind kind, const GroupLayout& layout, const void* values, const uint8_t* validity,
                const ReduceOutput& out, gpu::Stream stream) {
  if (layout.groups == 0) return;
  if (layout.group_of != nullptr) {
    switch (kind) {
      case SumKind::kInt8ToInt64: return launch_dense<int8_t, int64_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt16ToInt64: return launch_dense<int16_t, int64_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt32ToInt64: return launch_dense<int32_t, int64_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt64ToInt64: return launch_dense<int64_t, int64_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt8ToInt128: return launch_dense<int8_t, int128_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt16ToInt128:
        return launch_dense<int16_t, int128_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt32ToInt128:
        return launch_dense<int32_t, int128_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt64ToInt128:
        return launch_dense<int64_t, int128_t, false>(layout, values, validity, out, stream);
      case SumKind::kInt128ToInt128:
        return launch_dense<int128_t, int128_t, false>(layout, values, validity, out, stream);
      default: throw InternalError("sum_groups: a floating point sum over a dense grouping");
    }
  }
  switch (kind) {
    case SumKind::kInt8ToInt64: return launch_sum<int8_t, int64_t>(layout, values, validity, out, stream);
    case SumKind::kInt16ToInt64: return launch_sum<int16_t, int64_t>(layout, values, validity, out, stream);
    case SumKind::kInt32ToInt64: return launch_sum<int32_t, int64_t>(layout, values, validity, out, stream);
    case SumKind::kInt64ToInt64: return launch_sum<int64_t, int64_t>(layout, values, validity, out, stream);
    case SumKind::kInt8ToInt128: return launch_sum<int8_t, int128_t>(layout, values, validity, out, stream);
    case SumKind::kInt16ToInt128: return launch_sum<int16_t, int128_t>(layout, values, validity, out, stream);
    case SumKind::kInt32ToInt128: return launch_sum<int32_t, int128_t>(layout, values, validity, out, stream);
    case SumKind::kInt64ToInt128: return launch_sum<int64_t, int128_t>(layout, values, validity, out, stream);
    case SumKind::kInt128ToInt128: return launch_sum<int128_t, int128_t>(layout, values, validity, out, stream);
    case SumKind::kFloatToDouble: return launch_sum<float, double>(layout, values, validity, out, stream);
    case SumKind::kDoubleToDouble: return launch_sum<double, double>(layout, values, validity, out, stream);
  }
  throw InternalError("sum_groups: unknown sum kind");
}

void pick_groups(PickKind kind, const DeviceKeyColumn& column, const GroupLayout& layout, uint32_t* winners,
                 gpu::Stream stream) {
  if (layout.groups == 0) return;
  KESTREL_CHECK_MSG(layout.group_of == nullptr, "pick_groups over a dense grouping");
  KESTREL_CHECK_GT(layout.rows, size_t{0});
  switch (kind) {
    case PickKind::kMin: return launch_pick<PickKind::kMin>(column, layout, winners, stream);
    case PickKind::kMax: return launch_pick<PickKind::kMax>(column, layout, winners, stream);
    case PickKind::kFirst: return launch_pick<PickKind::kFirst>(column, layout, winners, stream);
  }
}

void moments_groups(const GroupLayout& layout, const MomentsInput& in, const MomentsOutput& out, gpu::Stream stream) {
  if (layout.groups == 0) return;
  KESTREL_CHECK_MSG(layout.group_of == nullptr, "moments_groups over a dense grouping");
  moments_small_kernel<<<blocks_for(layout.groups), kThreads, 0, stream.handle()>>>(layout, in, out);
  KESTREL_CUDA_CHECK_LAUNCH();
  moments_kernel<<<group_blocks(layout.groups), kGroupThreads, 0, stream.handle()>>>(layout, in, out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void variance_values(bool sample, bool root, const int64_t* counts, const double* m2s, size_t rows,
                     const ReduceOutput& out, gpu::Stream stream) {
  if (rows == 0) return;
  variance_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(sample, root, counts, m2s, rows, out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void average_double(bool int128_sum, const void* sums, const uint8_t* sum_validity, const int64_t* counts,
                    size_t rows, const ReduceOutput& out, gpu::Stream stream) {
  if (rows == 0) return;
  if (int128_sum) {
    average_double_kernel<true><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(sums, sum_validity, counts, rows,
                                                                                    out);
  } else {
    average_double_kernel<false><<<blocks_for(rows), kThreads, 0, stream.handle()>>>(sums, sum_validity, counts,
                                                                                     rows, out);
  }
  KESTREL_CUDA_CHECK_LAUNCH();
}

void average_decimal(const int128_t* sums, const uint8_t* sum_validity, const int64_t* counts, int128_t scale,
                     size_t rows, const ReduceOutput& out, gpu::Stream stream) {
  if (rows == 0) return;
  average_decimal_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(sums, sum_validity, counts, scale, rows,
                                                                            out);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void check_decimal_precision(const int128_t* values, const uint8_t* validity, size_t rows,
                             unsigned long long* overflow, gpu::Stream stream) {
  if (rows == 0) return;
  precision_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(values, validity, rows, overflow);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::aggregate_gpu_detail
