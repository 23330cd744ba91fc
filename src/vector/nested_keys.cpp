// Order-preserving key bytes of column values (nested_column.hpp): how hashing, key equality and sorting see
// ARRAY, MAP and ROW values.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "vector/nested_column.hpp"

namespace kestrel {

namespace {

constexpr char kPresent = 0x01;   // a value follows
constexpr char kAbsent = 0x02;    // NULL: after every value
constexpr char kEndOfList = 0x00; // before any element, so a prefix sorts first

template <typename U>
void put_big_endian(U bits, std::string& out) {
  for (int shift = static_cast<int>(sizeof(U) * 8) - 8; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>(static_cast<uint8_t>(bits >> shift)));
  }
}

template <typename S>
void put_signed(S v, std::string& out) {
  using U = std::make_unsigned_t<S>;
  put_big_endian(static_cast<U>(static_cast<U>(v) ^ (U{1} << (sizeof(S) * 8 - 1))), out);
}

void put_signed128(int128_t v, std::string& out) {
  using U = unsigned __int128;
  put_big_endian(static_cast<U>(static_cast<U>(v) ^ (U{1} << 127)), out);
}

template <typename F, typename U>
void put_float(F v, std::string& out) {
  if (v == 0) v = 0;  // -0.0 is 0.0
  U bits;
  if (std::isnan(v)) {
    bits = ~U{0};  // every NaN alike, above +Infinity
  } else {
    std::memcpy(&bits, &v, sizeof(U));
    bits = (bits >> (sizeof(U) * 8 - 1)) != 0 ? ~bits : bits | (U{1} << (sizeof(U) * 8 - 1));
  }
  put_big_endian(bits, out);
}

/// Bytes with 0x00 escaped as 0x00 0xff, ended by 0x00 0x00: a prefix sorts before its extensions.
void put_bytes(std::string_view s, std::string& out) {
  for (char c : s) {
    out.push_back(c);
    if (c == 0) out.push_back(static_cast<char>(0xff));
  }
  out.push_back(0);
  out.push_back(0);
}

void put_value(const Column& column, size_t row, std::string& out);

void put_list(const Column& column, size_t row, std::string& out) {
  const int64_t* off = column.list_offsets();
  const Column& child = *column.child(0);
  if (column.type().id() == TypeId::kArray) {
    for (int64_t i = off[row]; i < off[row + 1]; ++i) {
      out.push_back(kPresent);
      append_key_bytes(child, static_cast<size_t>(i), out);
    }
    out.push_back(kEndOfList);
    return;
  }
  // A map: its entries in the order of their bytes, so that equal maps encode alike whatever their entry order.
  std::vector<std::string> entries;
  for (int64_t i = off[row]; i < off[row + 1]; ++i) {
    entries.emplace_back();
    append_key_bytes(child, static_cast<size_t>(i), entries.back());
  }
  std::sort(entries.begin(), entries.end());
  for (const std::string& e : entries) {
    out.push_back(kPresent);
    out += e;
  }
  out.push_back(kEndOfList);
}

void put_value(const Column& column, size_t row, std::string& out) {
  const LogicalType& type = column.type();
  if (type.is_variable_width()) return put_bytes(column.string_at(row), out);
  switch (type.id()) {
    case TypeId::kArray:
    case TypeId::kMap: return put_list(column, row, out);
    case TypeId::kRow:
      for (const ColumnPtr& c : column.children()) append_key_bytes(*c, row, out);
      return;
    case TypeId::kBoolean: out.push_back(static_cast<char>(column.data<uint8_t>()[row] != 0)); return;
    case TypeId::kTinyInt: return put_signed(column.data<int8_t>()[row], out);
    case TypeId::kSmallInt: return put_signed(column.data<int16_t>()[row], out);
    case TypeId::kInteger:
    case TypeId::kDate: return put_signed(column.data<int32_t>()[row], out);
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return put_signed(column.data<int64_t>()[row], out);
    case TypeId::kDecimal:
      if (type.is_wide_decimal()) return put_signed128(column.data<int128_t>()[row], out);
      return put_signed(column.data<int64_t>()[row], out);
    case TypeId::kReal: return put_float<float, uint32_t>(column.data<float>()[row], out);
    case TypeId::kDouble: return put_float<double, uint64_t>(column.data<double>()[row], out);
    case TypeId::kTimestampTz:  // the instant: values of one instant in other zones are equal
      return put_signed(column.data<TimestampTz>()[row].micros, out);
    case TypeId::kInterval: {
      const Interval& iv = column.data<Interval>()[row];
      put_signed(iv.months, out);
      put_signed(iv.days, out);
      put_signed(iv.micros, out);
      return;
    }
    default: break;
  }
  throw InternalError("no key bytes for " + type.to_string());
}

}  // namespace

void append_key_bytes(const Column& column, size_t row, std::string& out) {
  if (!column.is_valid(row)) {
    out.push_back(kAbsent);
    return;
  }
  out.push_back(kPresent);
  put_value(column, row, out);
}

ColumnPtr encode_nested_keys(const Column& column) {
  KESTREL_CHECK(!column.on_device());
  const size_t rows = column.length();
  std::vector<int64_t> offsets{0};
  offsets.reserve(rows + 1);
  std::string bytes;
  for (size_t r = 0; r < rows; ++r) {
    if (column.is_valid(r)) put_value(column, r, bytes);
    offsets.push_back(static_cast<int64_t>(bytes.size()));
  }
  auto& mr = gpu::host_memory_resource();
  auto off = Buffer::allocate(offsets.size() * sizeof(int64_t), mr, gpu::Stream::host());
  std::memcpy(off->data(), offsets.data(), offsets.size() * sizeof(int64_t));
  auto chars = Buffer::allocate(bytes.size(), mr, gpu::Stream::host());
  if (!bytes.empty()) std::memcpy(chars->data(), bytes.data(), bytes.size());
  return Column::from_buffers(TypeId::kVarbinary, ColumnEncoding::kPlain, rows, column.null_count(),
                              column.validity(), std::move(chars), std::move(off), nullptr);
}

}  // namespace kestrel
