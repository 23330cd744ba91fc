#pragma once
/// Flattened, read-only views of host columns for the hot loops of the CPU operators (hashing, key equality, sort
/// comparisons, aggregate updates): raw pointers and a physical kind, so an inner loop touches no shared_ptr, no
/// virtual call and no Value. Plain and dictionary-encoded strings read alike through `string`.

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/bit_util.hpp"
#include "common/types.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// How the values of a column are laid out in memory, which is all a key loop needs to know about its type.
enum class PhysicalKind : uint8_t {
  kBool,      ///< uint8 0/1
  kInt8,
  kInt16,
  kInt32,     ///< INTEGER, DATE
  kInt64,     ///< BIGINT, TIMESTAMP, DECIMAL up to 18 digits
  kInt128,    ///< DECIMAL from 19 digits
  kFloat,
  kDouble,
  kInterval,  ///< months, days, micros
  kTimestampTz,  ///< UTC micros and a zone key; equal, hashed and ordered by the micros only
  kString,    ///< VARCHAR, plain or dictionary-encoded
};

/// The physical kind of a storable logical type; InternalError for the NULL type.
PhysicalKind physical_kind(const LogicalType& type);

/// One host column seen through raw pointers. Valid while the column it was made from is alive.
struct ColumnView {
  PhysicalKind kind = PhysicalKind::kInt32;
  const uint8_t* validity = nullptr;      ///< null when the column has no nulls
  const uint8_t* values = nullptr;        ///< fixed-width values, or string bytes (the dictionary's if encoded)
  const int64_t* offsets = nullptr;       ///< string offsets (the dictionary's if encoded)
  const int32_t* dict_indices = nullptr;  ///< per-row dictionary index for dictionary-encoded strings

  bool is_null(size_t row) const { return validity != nullptr && !bits::get(validity, row); }

  template <typename T>
  T get(size_t row) const {
    return reinterpret_cast<const T*>(values)[row];
  }

  std::string_view string(size_t row) const {
    size_t i = dict_indices != nullptr ? static_cast<size_t>(dict_indices[row]) : row;
    return std::string_view(reinterpret_cast<const char*>(values) + offsets[i],
                            static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
};

/// The view of a host column (CHECKs that it is not on the device).
ColumnView make_view(const Column& column);

/// Views of `columns` of `batch`, in that order.
std::vector<ColumnView> make_views(const Batch& batch, const std::vector<size_t>& columns);
/// Views of every column in `columns`.
std::vector<ColumnView> make_views(const std::vector<ColumnPtr>& columns);

/// Calls `f(T{})` with the C++ type stored for a fixed-width kind (uint8_t for BOOLEAN, Interval, int128_t, ...).
/// Strings are not fixed-width; callers handle kString themselves.
template <typename F>
decltype(auto) visit_fixed(PhysicalKind kind, F&& f) {
  switch (kind) {
    case PhysicalKind::kBool: return f(uint8_t{});
    case PhysicalKind::kInt8: return f(int8_t{});
    case PhysicalKind::kInt16: return f(int16_t{});
    case PhysicalKind::kInt32: return f(int32_t{});
    case PhysicalKind::kInt64: return f(int64_t{});
    case PhysicalKind::kInt128: return f(int128_t{});
    case PhysicalKind::kFloat: return f(float{});
    case PhysicalKind::kDouble: return f(double{});
    case PhysicalKind::kInterval: return f(Interval{});
    case PhysicalKind::kTimestampTz: return f(TimestampTz{});
    case PhysicalKind::kString: break;
  }
  return f(int32_t{});  // unreachable for fixed kinds; keeps every path returning the same type
}

/// Indices of the columns `first`, `first + 1`, ..., `first + count - 1`.
std::vector<size_t> column_range(size_t first, size_t count);

}  // namespace kestrel::exec
