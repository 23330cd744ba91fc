#pragma once
/// Hashing of multi-column keys, shared by every CPU operator that hashes rows (aggregation, joins, set
/// operations) so equal keys hash equally everywhere. A plain and a dictionary-encoded string with the same bytes
/// hash the same; -0.0 and 0.0 hash the same, and so do all NaNs; NULL has its own constant hash.

#include <cstdint>
#include <string_view>
#include <vector>

#include "exec/ops/common/column_view.hpp"

namespace kestrel::exec {

/// The hash of a NULL key value.
inline constexpr uint64_t kNullHash = 0x5be2c6b41a7f0d39ULL;

/// Finalizer of a 64-bit value with good avalanche (every input bit affects every output bit).
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/// Folds the hash of one more key column into the hash of the previous ones.
inline uint64_t combine_hash(uint64_t seed, uint64_t value_hash) {
  return mix64(seed * 0x9e3779b97f4a7c15ULL + value_hash);
}

/// Hash of a byte string.
uint64_t hash_bytes(std::string_view bytes);

/// Row hashes of the key columns `keys` for rows [0, rows): `out[r]` combines the hashes of every key column.
/// With no key columns every hash is the same constant.
void hash_rows(const std::vector<ColumnView>& keys, size_t rows, uint64_t* out);

/// The indices of rows where any key column is NULL are cleared in `valid` (one byte per row, 1 = no NULL key);
/// returns whether any row had a NULL key. Joins use it: a NULL key never matches.
bool mark_null_keys(const std::vector<ColumnView>& keys, size_t rows, std::vector<uint8_t>& valid);

}  // namespace kestrel::exec
