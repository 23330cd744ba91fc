#include "exec/ops/hash_aggregate/hash_aggregate_gpu_table.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string_view>
#include <mutex>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate_gpu.hpp"
#include "exec/ops/common/device_rows_gpu.cuh"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gather.hpp"

namespace kestrel::exec::aggregate_gpu_detail {

namespace {

using plan::AggregateFunction;

constexpr int kThreads = 256;
constexpr int kMaxTableAggs = 32;
/// Group keys of one table; two or more are "wide keys" (below).
constexpr int kMaxTableKeys = 8;
constexpr int kMaxOutputs = kMaxTableAggs + kMaxTableKeys;
/// Marks an empty slot; a key with this value lives in the second special slot.
constexpr unsigned long long kEmptyKey = 0x8000000000000000ULL;
/// The table grows before a batch could take it past this load.
constexpr double kMaxLoad = 0.7;
constexpr size_t kMinCapacity = size_t{1} << 16;
/// Slot numbers are uint32 (and the compaction selects from at most 2^31 slots).
constexpr size_t kMaxCapacity = size_t{1} << 30;

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 1u << 20)));
}

/// kVarCount keeps a variance's whole state, four words a slot: the count of values, the sums of (x - shift) and of
/// (x - shift)^2 as doubles, and the shift, the value of the row that claimed the slot (wide tables only: the shift
/// is written before the slot is published). Sums shifted by a value of the group keep their precision where the
/// mean is far from zero. kVarMean and kVarM2 are its two other output columns, with no state of their own.
enum class Kind : uint8_t { kCountStar, kCount, kSumInt, kSumFloat, kMin, kMax, kVarCount, kVarMean, kVarM2 };

/// One state of the table: a count, a sum or a min / max, with its slot array and (not for counts) a flag per slot
/// telling whether a non-NULL value reached it.
struct TableAgg {
  Kind kind = Kind::kCountStar;
  uint8_t width = 8;          ///< bytes of an input value
  bool is_float = false;      ///< REAL / DOUBLE input
  const void* values = nullptr;
  const uint8_t* validity = nullptr;
  void* state = nullptr;      ///< u64 counts, int128 sums (lo, hi), double sums, int64 min / max, variances
  unsigned int* has = nullptr;
  uint8_t slot_words = 1;     ///< 64-bit words a slot of `state` takes (0: none)
  int partner = -1;           ///< kVarMean, kVarM2: the kVarCount holding their state
};

/// Slot states of a wide-key table.
constexpr unsigned int kSlotEmpty = 0;
constexpr unsigned int kSlotWriting = 1;
constexpr unsigned int kSlotFull = 2;

/// The table. With one key, a slot's key is one word in `keys` (kEmptyKey marks an empty slot) and two special slots
/// hold the NULL key and the key kEmptyKey. With two or more ("wide keys"), slot s keeps key c in
/// words[c * (capacity + 2) + s] (sign-extended), a bit per NULL key in null_masks[s], and its state in status[s]: a
/// thread claims an empty slot by moving it to kSlotWriting, writes the keys, then publishes it as kSlotFull; others
/// wait for that before they compare. The special slots then stay unused.
struct DeviceTable {
  unsigned long long* keys = nullptr;
  size_t capacity = 0;  ///< a power of two; slots capacity (NULL key) and capacity + 1 (kEmptyKey) are special
  unsigned int* special = nullptr;  ///< [2]: whether each special slot holds a group
  unsigned long long* claimed = nullptr;
  int key_count = 1;
  bool wide = false;  ///< keys as wide keys (two or more keys, or a variance whose shift needs the slot's claim)
  unsigned long long* words = nullptr;
  unsigned int* null_masks = nullptr;
  unsigned int* status = nullptr;
  int count = 0;
  TableAgg aggs[kMaxTableAggs];
};

struct KeyInput {
  const void* values = nullptr;
  const uint8_t* validity = nullptr;
  int width = 8;
};

struct KeyInputs {
  int count = 1;
  KeyInput keys[kMaxTableKeys];
};

__device__ inline bool bit(const uint8_t* validity, size_t i) {
  return validity == nullptr || ((validity[i >> 3] >> (i & 7)) & 1) != 0;
}

__device__ inline long long load_int(const void* values, int width, size_t i) {
  switch (width) {
    case 1: return static_cast<const int8_t*>(values)[i];
    case 2: return static_cast<const int16_t*>(values)[i];
    case 4: return static_cast<const int32_t*>(values)[i];
    default: return static_cast<const long long*>(values)[i];
  }
}

/// The slot of `key`, claimed (and *claimed_new set) when the key is new. The load bound guarantees an empty slot
/// on the way.
__device__ inline size_t find_slot(const DeviceTable& t, unsigned long long key, bool* claimed_new) {
  const size_t mask = t.capacity - 1;
  size_t slot = static_cast<size_t>(device_rows::mix64(key)) & mask;
  while (true) {
    unsigned long long cur = t.keys[slot];
    if (cur == key) return slot;
    if (cur == kEmptyKey) {
      cur = atomicCAS(&t.keys[slot], kEmptyKey, key);
      if (cur == kEmptyKey) {
        *claimed_new = true;
        return slot;
      }
      if (cur == key) return slot;
    }
    slot = (slot + 1) & mask;
  }
}

/// A wide key read from its input columns (or from a slot when rehashing).
struct WideKey {
  unsigned long long words[kMaxTableKeys];
  unsigned int nulls = 0;
};

__device__ inline uint64_t wide_hash(const WideKey& k, int count) {
  uint64_t h = device_rows::mix64(0x9e3779b97f4a7c15ULL ^ k.nulls);
  for (int c = 0; c < count; ++c) h = device_rows::mix64(h ^ k.words[c]) + 0x9e3779b97f4a7c15ULL * (c + 1);
  return h;
}

__device__ inline bool wide_equal(const DeviceTable& t, size_t slot, const WideKey& k) {
  if (static_cast<volatile unsigned int*>(t.null_masks)[slot] != k.nulls) return false;
  const size_t stride = t.capacity + 2;
  for (int c = 0; c < t.key_count; ++c) {
    if (static_cast<volatile unsigned long long*>(t.words)[c * stride + slot] != k.words[c]) return false;
  }
  return true;
}

/// The slot of the wide key `k`, claimed (and *claimed_new set) when it is new; on_claim(slot) runs before the new
/// slot is published. The load bound guarantees an empty slot on the way.
template <typename OnClaim>
__device__ inline size_t find_wide_slot(const DeviceTable& t, const WideKey& k, bool* claimed_new, OnClaim on_claim) {
  const size_t mask = t.capacity - 1;
  const size_t stride = t.capacity + 2;
  size_t slot = static_cast<size_t>(wide_hash(k, t.key_count)) & mask;
  volatile unsigned int* status = t.status;
  while (true) {
    unsigned int st = status[slot];
    if (st == kSlotEmpty) {
      st = atomicCAS(&t.status[slot], kSlotEmpty, kSlotWriting);
      if (st == kSlotEmpty) {
        for (int c = 0; c < t.key_count; ++c) t.words[c * stride + slot] = k.words[c];
        t.null_masks[slot] = k.nulls;
        on_claim(slot);
        __threadfence();
        atomicExch(&t.status[slot], kSlotFull);
        *claimed_new = true;
        return slot;
      }
    }
    while (st == kSlotWriting) st = status[slot];  // another thread is writing its keys
    __threadfence();
    if (wide_equal(t, slot, k)) return slot;
    slot = (slot + 1) & mask;
  }
}

__device__ inline void set_flag(unsigned int* flags, size_t slot) {
  if (flags[slot] == 0) flags[slot] = 1;
}

__global__ void init_kernel(DeviceTable t) {
  const size_t slots = t.capacity + 2;
  for (size_t s = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; s < slots;
       s += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (!t.wide) {
      t.keys[s] = kEmptyKey;
    } else {
      t.status[s] = kSlotEmpty;
    }
    for (int a = 0; a < t.count; ++a) {
      const TableAgg& g = t.aggs[a];
      switch (g.kind) {
        case Kind::kSumInt:
          static_cast<unsigned long long*>(g.state)[2 * s] = 0;
          static_cast<unsigned long long*>(g.state)[2 * s + 1] = 0;
          break;
        case Kind::kSumFloat: static_cast<double*>(g.state)[s] = 0.0; break;
        case Kind::kMin: static_cast<long long*>(g.state)[s] = LLONG_MAX; break;
        case Kind::kMax: static_cast<long long*>(g.state)[s] = LLONG_MIN; break;
        case Kind::kVarCount:
          for (int w = 0; w < 4; ++w) static_cast<unsigned long long*>(g.state)[4 * s + w] = 0;  // 0 and 0.0
          break;
        case Kind::kVarMean:
        case Kind::kVarM2: break;
        default: static_cast<unsigned long long*>(g.state)[s] = 0; break;
      }
      if (g.has != nullptr) g.has[s] = 0;
    }
  }
}

__global__ void insert_kernel(DeviceTable t, KeyInputs keys, size_t rows) {
  const KeyInput& key = keys.keys[0];
  // New groups are counted per block and added to the table's counter once: one global counter updated by every
  // new key would serialize them.
  __shared__ unsigned long long block_claimed;
  if (threadIdx.x == 0) block_claimed = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t slot;
    if (t.wide) {
      WideKey k;
      for (int c = 0; c < keys.count; ++c) {
        const KeyInput& in = keys.keys[c];
        if (bit(in.validity, i)) {
          k.words[c] = static_cast<unsigned long long>(load_int(in.values, in.width, i));
        } else {
          k.words[c] = 0;
          k.nulls |= 1u << c;
        }
      }
      bool claimed_new = false;
      slot = find_wide_slot(t, k, &claimed_new, [&](size_t claimed) {
        for (int a = 0; a < t.count; ++a) {
          const TableAgg& g = t.aggs[a];
          if (g.kind != Kind::kVarCount || !bit(g.validity, i)) continue;
          static_cast<double*>(g.state)[4 * claimed + 3] = static_cast<const double*>(g.values)[i];
        }
      });
      if (claimed_new) atomicAdd(&block_claimed, 1ULL);
    } else if (!bit(key.validity, i)) {
      slot = t.capacity;
    } else {
      const auto k = static_cast<unsigned long long>(load_int(key.values, key.width, i));
      bool claimed_new = false;
      slot = k == kEmptyKey ? t.capacity + 1 : find_slot(t, k, &claimed_new);
      if (claimed_new) atomicAdd(&block_claimed, 1ULL);
    }
    if (!t.wide && slot >= t.capacity && t.special[slot - t.capacity] == 0) {
      atomicExch(&t.special[slot - t.capacity], 1u);
    }
    for (int a = 0; a < t.count; ++a) {
      const TableAgg& g = t.aggs[a];
      if (g.kind == Kind::kCountStar) {
        atomicAdd(static_cast<unsigned long long*>(g.state) + slot, 1ULL);
        continue;
      }
      if (!bit(g.validity, i)) continue;
      switch (g.kind) {
        case Kind::kCount: atomicAdd(static_cast<unsigned long long*>(g.state) + slot, 1ULL); break;
        case Kind::kSumInt: {
          // v = hi * 2^32 + lo: the low halves add up in the first word, the (signed) high halves in the second,
          // with no carry to wait for; neither wraps below 2^32 rows (AggregateTableGpu::insert checks).
          const long long v = load_int(g.values, g.width, i);
          auto* p = static_cast<unsigned long long*>(g.state) + 2 * slot;
          atomicAdd(p, static_cast<unsigned long long>(v) & 0xffffffffULL);
          const long long hi = v >> 32;
          if (hi != 0) atomicAdd(p + 1, static_cast<unsigned long long>(hi));
          set_flag(g.has, slot);
          break;
        }
        case Kind::kSumFloat: {
          const double v = g.width == 4 ? static_cast<double>(static_cast<const float*>(g.values)[i])
                                        : static_cast<const double*>(g.values)[i];
          atomicAdd(static_cast<double*>(g.state) + slot, v);
          set_flag(g.has, slot);
          break;
        }
        case Kind::kMin:
          atomicMin(static_cast<long long*>(g.state) + slot, load_int(g.values, g.width, i));
          set_flag(g.has, slot);
          break;
        case Kind::kMax:
          atomicMax(static_cast<long long*>(g.state) + slot, load_int(g.values, g.width, i));
          set_flag(g.has, slot);
          break;
        case Kind::kVarCount: {
          auto* p = static_cast<double*>(g.state) + 4 * slot;
          const double d = static_cast<const double*>(g.values)[i] - p[3];
          atomicAdd(reinterpret_cast<unsigned long long*>(p), 1ULL);
          atomicAdd(p + 1, d);
          atomicAdd(p + 2, d * d);
          break;
        }
        default: break;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && block_claimed != 0) atomicAdd(t.claimed, block_claimed);
}

/// The exact sum of a slot's (low word, signed high word) pair.
__device__ inline __int128 sum_value(const unsigned long long* p) {
  return (static_cast<__int128>(static_cast<long long>(p[1])) << 32) + static_cast<__int128>(p[0]);
}

/// Moves every group of `from` into the empty table `to` (same aggregates, special slots included).
__global__ void rehash_kernel(DeviceTable from, DeviceTable to) {
  const size_t slots = from.capacity + 2;
  for (size_t s = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; s < slots;
       s += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t d;
    if (from.wide) {
      if (s >= from.capacity || from.status[s] != kSlotFull) continue;
      WideKey k;
      for (int c = 0; c < from.key_count; ++c) k.words[c] = from.words[c * (from.capacity + 2) + s];
      k.nulls = from.null_masks[s];
      bool claimed_new = false;
      d = find_wide_slot(to, k, &claimed_new, [](size_t) {});
    } else if (s < from.capacity) {
      const unsigned long long k = from.keys[s];
      if (k == kEmptyKey) continue;
      bool claimed_new = false;  // the table's count of groups does not change
      d = find_slot(to, k, &claimed_new);
    } else {
      d = to.capacity + (s - from.capacity);
    }
    for (int a = 0; a < from.count; ++a) {
      const TableAgg& g = from.aggs[a];
      const TableAgg& h = to.aggs[a];
      for (int w = 0; w < g.slot_words; ++w) {
        static_cast<unsigned long long*>(h.state)[g.slot_words * d + w] =
            static_cast<const unsigned long long*>(g.state)[g.slot_words * s + w];
      }
      if (g.has != nullptr) h.has[d] = g.has[s];
    }
  }
}

__global__ void occupied_kernel(DeviceTable t, uint8_t* flags) {
  const size_t slots = t.capacity + 2;
  for (size_t s = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; s < slots;
       s += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (t.wide) {
      flags[s] = s < t.capacity && t.status[s] == kSlotFull;
    } else {
      flags[s] = s < t.capacity ? (t.keys[s] != kEmptyKey) : (t.special[s - t.capacity] != 0);
    }
  }
}

/// One output column of the states batch: the key (source -1) or a state.
struct OutputColumn {
  int source = -1;            ///< index into DeviceTable::aggs; -1 - c: key c
  int width = 8;              ///< bytes per output value
  void* values = nullptr;
  uint32_t* validity = nullptr;  ///< null: never NULL
  unsigned long long* valid_count = nullptr;
};

struct Outputs {
  int count = 0;
  OutputColumn columns[kMaxOutputs];
  unsigned long long* overflow = nullptr;
};

__global__ void output_kernel(DeviceTable t, Outputs o, const uint32_t* slots, size_t groups) {
  const size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const bool in = r < groups;
  const size_t s = in ? slots[r] : 0;
  for (int c = 0; c < o.count; ++c) {
    const OutputColumn& col = o.columns[c];
    bool valid = true;
    if (in) {
      if (col.source < 0) {
        unsigned long long k;
        if (t.wide) {
          const int c = -1 - col.source;
          valid = ((t.null_masks[s] >> c) & 1u) == 0;
          k = t.words[c * (t.capacity + 2) + s];
        } else {
          valid = s != t.capacity;
          k = s < t.capacity ? t.keys[s] : (s == t.capacity ? 0ULL : kEmptyKey);
        }
        switch (col.width) {
          case 1: static_cast<int8_t*>(col.values)[r] = static_cast<int8_t>(static_cast<long long>(k)); break;
          case 2: static_cast<int16_t*>(col.values)[r] = static_cast<int16_t>(static_cast<long long>(k)); break;
          case 4: static_cast<int32_t*>(col.values)[r] = static_cast<int32_t>(static_cast<long long>(k)); break;
          default: static_cast<unsigned long long*>(col.values)[r] = k; break;
        }
      } else {
        const TableAgg& g = t.aggs[col.source];
        valid = g.has == nullptr || g.has[s] != 0;
        if (g.kind == Kind::kVarCount || g.kind == Kind::kVarMean || g.kind == Kind::kVarM2) {
          // (count, mean, m2) as the CPU's variance state; an empty group is (0, 0, 0).
          const TableAgg& v = g.kind == Kind::kVarCount ? g : t.aggs[g.partner];
          const double* p = static_cast<const double*>(v.state) + 4 * s;
          const auto n = static_cast<const unsigned long long*>(v.state)[4 * s];
          if (g.kind == Kind::kVarCount) {
            static_cast<unsigned long long*>(col.values)[r] = n;
          } else if (g.kind == Kind::kVarMean) {
            static_cast<double*>(col.values)[r] = n == 0 ? 0.0 : p[3] + p[1] / static_cast<double>(n);
          } else {
            const double m2 = n == 0 ? 0.0 : p[2] - p[1] * p[1] / static_cast<double>(n);
            static_cast<double*>(col.values)[r] = m2 > 0.0 ? m2 : 0.0;
          }
        } else if (g.kind == Kind::kSumInt) {
          const __int128 sum = sum_value(static_cast<const unsigned long long*>(g.state) + 2 * s);
          if (col.width == 16) {
            static_cast<__int128*>(col.values)[r] = sum;
          } else {
            // A BIGINT sum: the total must fit 64 bits.
            if (valid && (sum > LLONG_MAX || sum < LLONG_MIN)) atomicAdd(o.overflow, 1ULL);
            static_cast<long long*>(col.values)[r] = static_cast<long long>(sum);
          }
        } else if ((g.kind == Kind::kMin || g.kind == Kind::kMax) && col.width < 8) {
          const long long v = static_cast<const long long*>(g.state)[s];
          switch (col.width) {
            case 1: static_cast<int8_t*>(col.values)[r] = static_cast<int8_t>(v); break;
            case 2: static_cast<int16_t*>(col.values)[r] = static_cast<int16_t>(v); break;
            default: static_cast<int32_t*>(col.values)[r] = static_cast<int32_t>(v); break;
          }
        } else {
          static_cast<unsigned long long*>(col.values)[r] = static_cast<const unsigned long long*>(g.state)[s];
        }
      }
    }
    if (col.validity != nullptr) {
      const unsigned word = __ballot_sync(0xffffffffu, in && valid);
      if ((threadIdx.x & 31) == 0 && in) {
        col.validity[r >> 5] = word;
        if (word != 0) atomicAdd(col.valid_count, static_cast<unsigned long long>(__popc(word)));
      }
    }
  }
}

/// Storage class of an integer-like type for the table: its width, or 0 when it is not one (BOOLEAN included).
int integer_width(const LogicalType& type) {
  if (type.id() == TypeId::kNull) return 0;
  switch (physical_kind(type)) {
    case PhysicalKind::kInt8: return 1;
    case PhysicalKind::kInt16: return 2;
    case PhysicalKind::kInt32: return 4;
    case PhysicalKind::kInt64: return 8;
    default: return 0;
  }
}

bool is_float(const LogicalType& type) { return type.id() == TypeId::kReal || type.id() == TypeId::kDouble; }

bool aggregate_supported(const AggregateSpec& a) {
  if (a.distinct && a.function != AggregateFunction::kCountStar) return false;
  switch (a.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount: return true;
    case AggregateFunction::kSum:
    case AggregateFunction::kAvg: return integer_width(a.input_type) > 0 || is_float(a.input_type);
    case AggregateFunction::kMin:
    case AggregateFunction::kMax: return integer_width(a.input_type) > 0;
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop: return a.input_type.id() == TypeId::kDouble;
    default: return false;
  }
}

bool is_variance(const AggregateSpec& a) {
  return a.function == AggregateFunction::kVarSamp || a.function == AggregateFunction::kVarPop ||
         a.function == AggregateFunction::kStddevSamp || a.function == AggregateFunction::kStddevPop;
}

/// How a table state is laid out on the host side.
struct StateSpec {
  Kind kind;
  int width;          ///< input value bytes
  bool is_float;
  std::optional<size_t> argument;
  size_t slot_bytes;  ///< bytes per slot of its state array
  bool has_flag;
  int partner = -1;   ///< kVarMean, kVarM2: their kVarCount
};

std::vector<StateSpec> state_specs(const std::vector<AggregateSpec>& aggregates) {
  std::vector<StateSpec> out;
  for (const AggregateSpec& a : aggregates) {
    const int w =
        is_float(a.input_type) ? static_cast<int>(a.input_type.physical_width()) : integer_width(a.input_type);
    const bool f = is_float(a.input_type);
    switch (a.function) {
      case AggregateFunction::kCountStar: out.push_back({Kind::kCountStar, 8, false, std::nullopt, 8, false}); break;
      case AggregateFunction::kCount: out.push_back({Kind::kCount, w, f, a.argument, 8, false}); break;
      case AggregateFunction::kSum:
      case AggregateFunction::kAvg:
        out.push_back({f ? Kind::kSumFloat : Kind::kSumInt, w, f, a.argument, f ? size_t{8} : size_t{16}, true});
        if (a.function == AggregateFunction::kAvg) out.push_back({Kind::kCount, w, f, a.argument, 8, false});
        break;
      case AggregateFunction::kMin: out.push_back({Kind::kMin, w, false, a.argument, 8, true}); break;
      case AggregateFunction::kMax: out.push_back({Kind::kMax, w, false, a.argument, 8, true}); break;
      case AggregateFunction::kVarSamp:
      case AggregateFunction::kVarPop:
      case AggregateFunction::kStddevSamp:
      case AggregateFunction::kStddevPop: {
        const int count = static_cast<int>(out.size());
        out.push_back({Kind::kVarCount, 8, true, a.argument, 32, false});
        out.push_back({Kind::kVarMean, 8, true, a.argument, 0, false, count});
        out.push_back({Kind::kVarM2, 8, true, a.argument, 0, false, count});
        break;
      }
      default: throw InternalError("aggregate without a table state");
    }
  }
  return out;
}

}  // namespace

struct AggregateTableGpu::Impl {
  SchemaPtr input_schema;
  std::vector<size_t> key_columns;
  bool wide = false;  ///< DeviceTable::wide
  std::vector<AggregateSpec> aggregates;
  SchemaPtr state_schema;
  std::vector<StateSpec> specs;

  std::mutex mutex;
  gpu::Event last;
  bool has_last = false;
  size_t capacity = 0;
  size_t bound = 0;  ///< at least the groups in the table (exact after a read-back, plus the rows inserted since)
  size_t total_rows = 0;  ///< rows inserted so far
  BufferPtr keys, special, claimed;
  BufferPtr words, null_masks, status;  ///< wide keys
  std::vector<BufferPtr> states, flags;

  DeviceTable view() const {
    DeviceTable t;
    t.keys = keys ? keys->as<unsigned long long>() : nullptr;
    t.capacity = capacity;
    t.special = special ? special->as<unsigned int>() : nullptr;
    t.claimed = claimed ? claimed->as<unsigned long long>() : nullptr;
    t.key_count = static_cast<int>(key_columns.size());
    t.wide = wide;
    t.words = words ? words->as<unsigned long long>() : nullptr;
    t.null_masks = null_masks ? null_masks->as<unsigned int>() : nullptr;
    t.status = status ? status->as<unsigned int>() : nullptr;
    t.count = static_cast<int>(specs.size());
    for (size_t a = 0; a < specs.size(); ++a) {
      t.aggs[a].kind = specs[a].kind;
      t.aggs[a].width = static_cast<uint8_t>(specs[a].width);
      t.aggs[a].is_float = specs[a].is_float;
      t.aggs[a].state = states.empty() || !states[a] ? nullptr : states[a]->data();
      t.aggs[a].has = specs[a].has_flag && !flags.empty() ? flags[a]->as<unsigned int>() : nullptr;
      t.aggs[a].slot_words = static_cast<uint8_t>(specs[a].slot_bytes / 8);
      t.aggs[a].partner = specs[a].partner;
    }
    return t;
  }

  /// Allocates empty slot arrays of `slots` capacity (a power of two) into the members, initialized on `stream`.
  void allocate(size_t slots, gpu::Stream stream, gpu::MemoryResource& mr) {
    if (slots > kMaxCapacity) throw NotImplemented("GPU aggregation of more than 750M groups");
    // Everything is allocated before a member changes: a failed allocation (memory budget) leaves the table as it
    // was for the drivers still inserting until the query stops.
    const size_t key_count = key_columns.size();
    BufferPtr new_keys, new_words, new_nulls, new_status;
    if (!wide) {
      new_keys = device_buffer((slots + 2) * sizeof(unsigned long long), stream, mr);
    } else {
      new_words = device_buffer(key_count * (slots + 2) * sizeof(unsigned long long), stream, mr);
      new_nulls = device_buffer((slots + 2) * sizeof(unsigned int), stream, mr);
      new_status = device_buffer((slots + 2) * sizeof(unsigned int), stream, mr);
    }
    std::vector<BufferPtr> new_states, new_flags;
    for (const StateSpec& s : specs) {
      new_states.push_back(s.slot_bytes == 0 ? BufferPtr() : device_buffer((slots + 2) * s.slot_bytes, stream, mr));
      new_flags.push_back(s.has_flag ? device_buffer((slots + 2) * sizeof(unsigned int), stream, mr) : BufferPtr());
    }
    capacity = slots;
    keys = std::move(new_keys);
    words = std::move(new_words);
    null_masks = std::move(new_nulls);
    status = std::move(new_status);
    states = std::move(new_states);
    flags = std::move(new_flags);
    const DeviceTable t = view();
    init_kernel<<<blocks_for(slots + 2), kThreads, 0, stream.handle()>>>(t);
    KESTREL_CUDA_CHECK_LAUNCH();
  }

  static size_t capacity_for(size_t groups) {
    size_t c = kMinCapacity;
    while (static_cast<double>(c) * kMaxLoad < static_cast<double>(groups)) c <<= 1;
    return c;
  }

  size_t read_claimed(gpu::Stream stream) const {
    unsigned long long n = 0;
    gpu::copy_bytes(&n, gpu::MemoryKind::kHost, claimed->data(), gpu::MemoryKind::kDevice, sizeof(n), stream);
    return static_cast<size_t>(n);
  }
};

bool AggregateTableGpu::supports(const Schema& input, const std::vector<size_t>& group_columns,
                                 const std::vector<AggregateSpec>& aggregates) {
  // GROUP BY without aggregates (DISTINCT, UNION) would take the table with the count(*) of state_aggregates, which
  // finalize now drops; not enabled until that has run on a GPU (it failed there before the drop: one column too
  // many in 7 TPC-DS queries).
  if (group_columns.empty() || group_columns.size() > static_cast<size_t>(kMaxTableKeys) || aggregates.empty()) {
    return false;
  }
  const bool wide = group_columns.size() > 1 || std::any_of(aggregates.begin(), aggregates.end(), is_variance);
  // KESTREL_GPU_WIDE_TABLE=0 leaves wide tables out (benchmarks compare with and without them).
  static const bool wide_tables = [] {
    const char* env = std::getenv("KESTREL_GPU_WIDE_TABLE");
    return env == nullptr || std::string_view(env) != "0";
  }();
  if (wide && !wide_tables) return false;
  for (size_t key : group_columns) {
    const int key_width = integer_width(input.field(key).type);
    // One key: a 32- or 64-bit integer (the special slots); wide keys: any integer-like width.
    if (key_width == 0 || (!wide && key_width != 4 && key_width != 8)) return false;
  }
  size_t states = 0;
  for (const AggregateSpec& a : aggregates) {
    if (!aggregate_supported(a)) return false;
    states += a.function == AggregateFunction::kAvg ? 2 : is_variance(a) ? 3 : 1;
  }
  return states <= static_cast<size_t>(kMaxTableAggs);
}

AggregateTableGpu::AggregateTableGpu(SchemaPtr input_schema, std::vector<size_t> key_columns,
                                     std::vector<AggregateSpec> aggregates, SchemaPtr state_schema)
    : impl_(std::make_unique<Impl>()) {
  KESTREL_CHECK_MSG(!key_columns.empty() && key_columns.size() <= static_cast<size_t>(kMaxTableKeys),
                    "a GPU aggregation table takes 1 to 8 keys");
  impl_->input_schema = std::move(input_schema);
  impl_->key_columns = std::move(key_columns);
  impl_->aggregates = std::move(aggregates);
  impl_->state_schema = std::move(state_schema);
  impl_->specs = state_specs(impl_->aggregates);
  impl_->wide = impl_->key_columns.size() > 1 ||
                std::any_of(impl_->specs.begin(), impl_->specs.end(), [](const StateSpec& s) {
                  return s.kind == Kind::kVarCount;
                });
  KESTREL_CHECK_EQ(impl_->state_schema->size(), impl_->specs.size() + impl_->key_columns.size());
}

AggregateTableGpu::~AggregateTableGpu() = default;

void AggregateTableGpu::insert(const Batch& batch, gpu::MemoryResource& mr) {
  const size_t rows = batch.num_rows();
  if (rows == 0) return;
  if (rows > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU aggregation of 2^31 rows or more at once");
  Impl& m = *impl_;
  const gpu::Stream stream = batch.stream();
  std::lock_guard<std::mutex> lock(m.mutex);
  // An integer sum's words take at most 2^32 - 1 (low halves) and 2^31 (high halves) per row: exact below 2^32 rows.
  const bool int_sums = std::any_of(m.specs.begin(), m.specs.end(), [](const StateSpec& s) {
    return s.kind == Kind::kSumInt;
  });
  if (int_sums && m.total_rows + rows >= (size_t{1} << 32)) {
    throw NotImplemented("GPU aggregation table with integer sums over 2^32 rows");
  }
  m.total_rows += rows;
  if (m.has_last) m.last.wait(stream);
  if (m.capacity == 0) {
    m.special = device_buffer(2 * sizeof(unsigned int), stream, mr);
    m.claimed = device_buffer(sizeof(unsigned long long), stream, mr);
    gpu::fill_bytes(m.special->data(), gpu::MemoryKind::kDevice, 0, m.special->size(), stream);
    gpu::fill_bytes(m.claimed->data(), gpu::MemoryKind::kDevice, 0, m.claimed->size(), stream);
    m.allocate(Impl::capacity_for(rows), stream, mr);
    m.bound = 0;
  } else if (static_cast<double>(m.bound + rows) > kMaxLoad * static_cast<double>(m.capacity)) {
    m.bound = m.read_claimed(stream);  // waits for the inserts so far (the stream waits for the last one)
    if (static_cast<double>(m.bound + rows) > kMaxLoad * static_cast<double>(m.capacity)) {
      const DeviceTable from = m.view();
      std::vector<BufferPtr> old{m.keys, m.words, m.null_masks, m.status};
      old.insert(old.end(), m.states.begin(), m.states.end());
      old.insert(old.end(), m.flags.begin(), m.flags.end());
      m.allocate(Impl::capacity_for(m.bound + rows), stream, mr);
      rehash_kernel<<<blocks_for(from.capacity + 2), kThreads, 0, stream.handle()>>>(from, m.view());
      KESTREL_CUDA_CHECK_LAUNCH();
      // The old arrays may be freed on the stream that allocated them: the rehash must be done first.
      stream.synchronize();
    }
  }
  DeviceTable t = m.view();
  for (size_t a = 0; a < m.specs.size(); ++a) {
    if (!m.specs[a].argument) continue;
    const Column& c = *batch.column(*m.specs[a].argument);
    t.aggs[a].values = c.values() ? c.values()->data() : nullptr;
    t.aggs[a].validity = validity_of(c);
  }
  KeyInputs keys;
  keys.count = static_cast<int>(m.key_columns.size());
  for (size_t c = 0; c < m.key_columns.size(); ++c) {
    const Column& key_col = *batch.column(m.key_columns[c]);
    KeyInput& key = keys.keys[c];
    key.values = key_col.values()->data();
    key.validity = validity_of(key_col);
    key.width = integer_width(key_col.type());
  }
  insert_kernel<<<blocks_for(rows), kThreads, 0, stream.handle()>>>(t, keys, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  m.bound += rows;
  m.last.record(stream);
  m.has_last = true;
}

size_t AggregateTableGpu::group_count() {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  if (m.capacity == 0) return 0;
  m.last.synchronize();
  if (m.wide) return m.read_claimed(m.claimed->stream());
  unsigned int special[2] = {0, 0};
  gpu::copy_bytes(special, gpu::MemoryKind::kHost, m.special->data(), gpu::MemoryKind::kDevice, sizeof(special),
                  m.claimed->stream());
  return m.read_claimed(m.claimed->stream()) + special[0] + special[1];
}

Batch AggregateTableGpu::take_states(gpu::Stream stream, gpu::MemoryResource& mr) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  const Schema& schema = *m.state_schema;
  std::vector<ColumnPtr> columns;
  if (m.capacity == 0) {
    for (const Field& f : schema.fields()) {
      columns.push_back(Column::from_buffers(f.type, ColumnEncoding::kPlain, 0, 0, nullptr,
                                             device_buffer(0, stream, mr), nullptr, nullptr));
    }
    return Batch(m.state_schema, std::move(columns), 0, gpu::MemoryKind::kDevice, stream);
  }
  if (m.has_last) m.last.wait(stream);
  const DeviceTable t = m.view();
  const size_t slots = m.capacity + 2;
  BufferPtr occupied = device_buffer(slots, stream, mr);
  occupied_kernel<<<blocks_for(slots), kThreads, 0, stream.handle()>>>(t, occupied->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr ids = device_buffer(slots * sizeof(uint32_t), stream, mr);
  const size_t groups = gpu::select_true_rows(occupied->as<uint8_t>(), nullptr, slots, ids->as<uint32_t>(), stream, mr);
  // Counters: [valid rows per column..., overflow].
  BufferPtr counters = device_buffer((schema.size() + 1) * sizeof(unsigned long long), stream, mr);
  gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0, counters->size(), stream);
  auto* counter = counters->as<unsigned long long>();
  Outputs o;
  o.count = static_cast<int>(schema.size());
  o.overflow = counter + schema.size();
  std::vector<BufferPtr> values(schema.size()), validity(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) {
    const LogicalType& type = schema.field(c).type;
    OutputColumn& col = o.columns[c];
    const size_t key_count = m.key_columns.size();
    col.source = c < key_count ? -1 - static_cast<int>(c) : static_cast<int>(c - key_count);
    col.width = static_cast<int>(type.physical_width());
    values[c] = device_buffer(groups * type.physical_width(), stream, mr);
    col.values = values[c]->data();
    const bool nullable = c < key_count || m.specs[c - key_count].has_flag;
    if (nullable) {
      validity[c] = device_buffer((groups + 31) / 32 * 4, stream, mr);
      col.validity = validity[c]->as<uint32_t>();
      col.valid_count = counter + c;
    }
  }
  if (groups > 0) {
    // One thread per group (the validity words need whole warps of consecutive rows), no grid-stride loop.
    const auto blocks = static_cast<unsigned>((groups + kThreads - 1) / kThreads);
    output_kernel<<<blocks, kThreads, 0, stream.handle()>>>(t, o, ids->as<uint32_t>(), groups);
    KESTREL_CUDA_CHECK_LAUNCH();
  }
  std::vector<unsigned long long> host(schema.size() + 1, 0);
  // NULL counts are column metadata; the overflow flag raises. This also waits for the table's last use.
  gpu::copy_bytes(host.data(), gpu::MemoryKind::kHost, counter, gpu::MemoryKind::kDevice,
                  host.size() * sizeof(unsigned long long), stream);
  if (host.back() != 0) {
    for (const AggregateSpec& a : m.aggregates) {
      if (a.function == AggregateFunction::kSum && !is_float(a.input_type) &&
          aggregate_state_types(a).at(0).physical_width() == 8) {
        throw InvalidInput(sum_overflow_message(a));
      }
    }
    throw InternalError("a GPU aggregation table flagged an overflow without a BIGINT sum");
  }
  for (size_t c = 0; c < schema.size(); ++c) {
    const size_t nulls = validity[c] ? groups - static_cast<size_t>(host[c]) : 0;
    columns.push_back(Column::from_buffers(schema.field(c).type, ColumnEncoding::kPlain, groups, nulls,
                                           nulls > 0 ? validity[c] : nullptr, values[c], nullptr, nullptr));
  }
  m.keys.reset();
  m.words.reset();
  m.null_masks.reset();
  m.status.reset();
  m.states.clear();
  m.flags.clear();
  m.special.reset();
  m.claimed.reset();
  m.capacity = 0;
  m.total_rows = 0;
  m.has_last = false;
  return Batch(m.state_schema, std::move(columns), groups, gpu::MemoryKind::kDevice, stream);
}

}  // namespace kestrel::exec::aggregate_gpu_detail
