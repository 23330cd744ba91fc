#include "exec/ops/common/row_hash.hpp"

#include <cmath>
#include <cstring>

namespace kestrel::exec {

namespace {

constexpr uint64_t kByteMul = 0x9ddfea08eb382d69ULL;

uint64_t hash_double(double v) {
  if (v == 0.0) v = 0.0;  // -0.0 equals 0.0
  if (std::isnan(v)) return 0x7ff8000000000000ULL * kByteMul;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return mix64(bits);
}

template <typename T>
uint64_t hash_value(T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return hash_double(static_cast<double>(v));
  } else if constexpr (std::is_same_v<T, int128_t>) {
    auto u = static_cast<unsigned __int128>(v);
    return mix64(static_cast<uint64_t>(u) ^ mix64(static_cast<uint64_t>(u >> 64)));
  } else if constexpr (std::is_same_v<T, Interval>) {
    uint64_t a = (static_cast<uint64_t>(static_cast<uint32_t>(v.months)) << 32) | static_cast<uint32_t>(v.days);
    return mix64(a ^ mix64(static_cast<uint64_t>(v.micros)));
  } else if constexpr (std::is_same_v<T, TimestampTz>) {
    return mix64(static_cast<uint64_t>(v.micros));  // the instant only: equal instants in two zones are equal
  } else {
    return mix64(static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
}

/// Hashes one fixed-width column; `first` writes the hashes, otherwise they are combined into `out`.
template <typename T>
void hash_fixed(const ColumnView& col, size_t rows, bool first, uint64_t* out) {
  const T* values = reinterpret_cast<const T*>(col.values);
  for (size_t r = 0; r < rows; ++r) {
    uint64_t h = col.is_null(r) ? kNullHash : hash_value<T>(values[r]);
    out[r] = first ? h : combine_hash(out[r], h);
  }
}

void hash_strings(const ColumnView& col, size_t rows, bool first, uint64_t* out) {
  if (col.dict_indices != nullptr) {
    // Hash each dictionary entry once, then look the hashes up by index.
    int32_t max_index = -1;
    for (size_t r = 0; r < rows; ++r) {
      if (!col.is_null(r)) max_index = std::max(max_index, col.dict_indices[r]);
    }
    std::vector<uint64_t> dict_hashes(static_cast<size_t>(max_index + 1));
    const char* chars = reinterpret_cast<const char*>(col.values);
    for (size_t i = 0; i < dict_hashes.size(); ++i) {
      dict_hashes[i] = hash_bytes(std::string_view(chars + col.offsets[i],
                                                   static_cast<size_t>(col.offsets[i + 1] - col.offsets[i])));
    }
    for (size_t r = 0; r < rows; ++r) {
      uint64_t h = col.is_null(r) ? kNullHash : dict_hashes[static_cast<size_t>(col.dict_indices[r])];
      out[r] = first ? h : combine_hash(out[r], h);
    }
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    uint64_t h = col.is_null(r) ? kNullHash : hash_bytes(col.string(r));
    out[r] = first ? h : combine_hash(out[r], h);
  }
}

}  // namespace

uint64_t hash_bytes(std::string_view bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t h = 0x243f6a8885a308d3ULL ^ (n * kByteMul);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ mix64(w)) * kByteMul;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ mix64(w ^ n)) * kByteMul;
  }
  return mix64(h);
}

void hash_rows(const std::vector<ColumnView>& keys, size_t rows, uint64_t* out) {
  if (keys.empty()) {
    for (size_t r = 0; r < rows; ++r) out[r] = kNullHash;
    return;
  }
  for (size_t k = 0; k < keys.size(); ++k) {
    const ColumnView& col = keys[k];
    bool first = k == 0;
    if (col.kind == PhysicalKind::kString) {
      hash_strings(col, rows, first, out);
    } else {
      visit_fixed(col.kind, [&](auto tag) { hash_fixed<decltype(tag)>(col, rows, first, out); });
    }
  }
}

bool mark_null_keys(const std::vector<ColumnView>& keys, size_t rows, std::vector<uint8_t>& valid) {
  valid.assign(rows, 1);
  bool any = false;
  for (const auto& col : keys) {
    if (col.validity == nullptr) continue;
    for (size_t r = 0; r < rows; ++r) {
      if (!bits::get(col.validity, r)) {
        valid[r] = 0;
        any = true;
      }
    }
  }
  return any;
}

}  // namespace kestrel::exec
