#pragma once
/// Device functions over DeviceKeys (device_rows.hpp): key validity, hashing, equality across two batches and
/// lexicographic order. Include from .cu files only.

#include <cstdint>

#include "exec/ops/common/device_rows.hpp"
#include "vector/column.hpp"

namespace kestrel::exec::device_rows {

__device__ inline bool key_valid(const DeviceKeyColumn& c, size_t row) {
  return c.validity == nullptr || ((c.validity[row >> 3] >> (row & 7)) & 1) != 0;
}

/// Whether any key of `row` is NULL.
__device__ inline bool any_key_null(const DeviceKeys& k, size_t row) {
  for (int c = 0; c < k.count; ++c) {
    if (!key_valid(k.columns[c], row)) return true;
  }
  return false;
}

struct StringRef {
  const char* data;
  int64_t size;
};

__device__ inline StringRef key_string(const DeviceKeyColumn& c, size_t row) {
  size_t r = row;
  if (c.kind == DeviceKeyKind::kDictString) r = static_cast<size_t>(c.indices[row]);
  const int64_t begin = c.offsets[r];
  return StringRef{static_cast<const char*>(c.values) + begin, c.offsets[r + 1] - begin};
}

__device__ inline uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

__device__ inline uint64_t hash_bytes(const char* data, int64_t size) {
  // FNV-1a over 8-byte words where aligned reads are not guaranteed: byte loads, then a final mix.
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int64_t i = 0; i < size; ++i) {
    h ^= static_cast<uint8_t>(data[i]);
    h *= 0x100000001b3ULL;
  }
  return mix64(h ^ static_cast<uint64_t>(size));
}

template <typename F>
__device__ inline uint64_t float_bits(F v) {
  if (v == F(0)) v = F(0);  // -0.0 hashes as 0.0
  if (v != v) return 0x7ff8000000000000ULL;
  if constexpr (sizeof(F) == 4) {
    return static_cast<uint64_t>(__float_as_uint(v));
  } else {
    return static_cast<uint64_t>(__double_as_longlong(v));
  }
}

/// The hash of one key value (the caller handles NULL).
__device__ inline uint64_t hash_key(const DeviceKeyColumn& c, size_t row) {
  switch (c.kind) {
    case DeviceKeyKind::kInt8: return mix64(static_cast<uint64_t>(static_cast<const int8_t*>(c.values)[row]));
    case DeviceKeyKind::kInt16: return mix64(static_cast<uint64_t>(static_cast<const int16_t*>(c.values)[row]));
    case DeviceKeyKind::kInt32: return mix64(static_cast<uint64_t>(static_cast<const int32_t*>(c.values)[row]));
    case DeviceKeyKind::kInt64: return mix64(static_cast<uint64_t>(static_cast<const int64_t*>(c.values)[row]));
    case DeviceKeyKind::kInt128: {
      const uint64_t* p = static_cast<const uint64_t*>(c.values) + 2 * row;
      return mix64(p[0] ^ mix64(p[1]));
    }
    case DeviceKeyKind::kFloat: return mix64(float_bits(static_cast<const float*>(c.values)[row]));
    case DeviceKeyKind::kDouble: return mix64(float_bits(static_cast<const double*>(c.values)[row]));
    case DeviceKeyKind::kInterval: {
      const uint64_t* p = static_cast<const uint64_t*>(c.values) + 2 * row;
      return mix64(p[0] ^ mix64(p[1]));
    }
    case DeviceKeyKind::kString:
    case DeviceKeyKind::kDictString: {
      const StringRef s = key_string(c, row);
      return hash_bytes(s.data, s.size);
    }
  }
  return 0;
}

/// The hash of all keys of `row`.
__device__ inline uint64_t hash_row(const DeviceKeys& k, size_t row) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int c = 0; c < k.count; ++c) {
    const uint64_t v = key_valid(k.columns[c], row) ? hash_key(k.columns[c], row) : 0x5bd1e9955bd1e995ULL;
    h = mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
  }
  return h;
}

__device__ inline int compare_strings(StringRef a, StringRef b) {
  const int64_t n = a.size < b.size ? a.size : b.size;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t x = static_cast<uint8_t>(a.data[i]);
    const uint8_t y = static_cast<uint8_t>(b.data[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size < b.size ? -1 : (a.size > b.size ? 1 : 0);
}

template <typename T>
__device__ inline int compare_values(T x, T y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

template <typename F>
__device__ inline int compare_floats(F x, F y) {
  const bool xn = x != x;
  const bool yn = y != y;
  if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);  // NaN sorts after every number
  return compare_values(x, y);
}

/// Three-way comparison of two non-NULL key values of the same kind (a of row i, b of row j).
__device__ inline int compare_key(const DeviceKeyColumn& a, size_t i, const DeviceKeyColumn& b, size_t j) {
  switch (a.kind) {
    case DeviceKeyKind::kInt8:
      return compare_values(static_cast<const int8_t*>(a.values)[i], static_cast<const int8_t*>(b.values)[j]);
    case DeviceKeyKind::kInt16:
      return compare_values(static_cast<const int16_t*>(a.values)[i], static_cast<const int16_t*>(b.values)[j]);
    case DeviceKeyKind::kInt32:
      return compare_values(static_cast<const int32_t*>(a.values)[i], static_cast<const int32_t*>(b.values)[j]);
    case DeviceKeyKind::kInt64:
      return compare_values(static_cast<const int64_t*>(a.values)[i], static_cast<const int64_t*>(b.values)[j]);
    case DeviceKeyKind::kInt128:
      return compare_values(static_cast<const __int128*>(a.values)[i], static_cast<const __int128*>(b.values)[j]);
    case DeviceKeyKind::kFloat:
      return compare_floats(static_cast<const float*>(a.values)[i], static_cast<const float*>(b.values)[j]);
    case DeviceKeyKind::kDouble:
      return compare_floats(static_cast<const double*>(a.values)[i], static_cast<const double*>(b.values)[j]);
    case DeviceKeyKind::kInterval: {
      const Interval x = static_cast<const Interval*>(a.values)[i];
      const Interval y = static_cast<const Interval*>(b.values)[j];
      if (x.months != y.months) return x.months < y.months ? -1 : 1;
      if (x.days != y.days) return x.days < y.days ? -1 : 1;
      return compare_values(x.micros, y.micros);
    }
    case DeviceKeyKind::kString:
    case DeviceKeyKind::kDictString:
      if (a.kind == DeviceKeyKind::kDictString && b.kind == DeviceKeyKind::kDictString && a.indices == b.indices &&
          a.offsets == b.offsets) {
        if (a.indices[i] == b.indices[j]) return 0;
      }
      return compare_strings(key_string(a, i), key_string(b, j));
  }
  return 0;
}

/// Whether row i of `a` and row j of `b` have equal keys. With `nulls_equal` NULL equals NULL (grouping);
/// without, a NULL key never equals anything (join matching).
__device__ inline bool rows_equal(const DeviceKeys& a, size_t i, const DeviceKeys& b, size_t j, bool nulls_equal) {
  for (int c = 0; c < a.count; ++c) {
    const bool va = key_valid(a.columns[c], i);
    const bool vb = key_valid(b.columns[c], j);
    if (!va || !vb) {
      if (!nulls_equal || va != vb) return false;
      continue;
    }
    if (compare_key(a.columns[c], i, b.columns[c], j) != 0) return false;
  }
  return true;
}

/// ORDER BY comparison of rows i and j of one batch's keys: negative when i sorts first.
__device__ inline int compare_rows(const DeviceKeys& k, const DeviceSortOrder& order, size_t i, size_t j) {
  for (int c = 0; c < k.count; ++c) {
    const bool vi = key_valid(k.columns[c], i);
    const bool vj = key_valid(k.columns[c], j);
    int r;
    if (!vi || !vj) {
      if (vi == vj) continue;
      r = vi ? 1 : -1;  // NULL first ...
      if (!order.nulls_first[c]) r = -r;
      return r;  // NULL placement does not flip with DESC
    }
    r = compare_key(k.columns[c], i, k.columns[c], j);
    if (r != 0) return order.descending[c] ? -r : r;
  }
  return 0;
}

}  // namespace kestrel::exec::device_rows
