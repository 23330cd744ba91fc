#pragma once
/// Building blocks of the CPU expression kernels (internal to exec/expr): evaluated operands that may stand for
/// a whole column or one broadcast value, validity bitmap arithmetic, output columns and physical-type dispatch.

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "common/types.hpp"
#include "exec/expr/eval_context.hpp"
#include "vector/column.hpp"

namespace kestrel::exec {

/// An evaluated argument: a column with one value per row, or (`constant`) a one-row column whose value stands
/// for every row. Plain or dictionary encoded; kernels that need plain values call `plain()` first.
struct Operand {
  ColumnPtr column;
  bool constant = false;

  size_t index(size_t row) const { return constant ? 0 : row; }
  /// The validity bitmap, or null when every value is valid.
  const uint8_t* validity() const { return column->validity() ? column->validity()->as<uint8_t>() : nullptr; }
  bool valid(size_t row) const {
    const uint8_t* v = validity();
    return v == nullptr || bits::get(v, index(row));
  }
  bool is_null_constant() const { return constant && !valid(0); }
  template <typename T>
  const T* data() const {
    return column->data<T>();
  }
  std::string_view string_at(size_t row) const { return column->string_at(index(row)); }
};

/// Fast access to the strings of a plain VARCHAR or VARBINARY operand (a constant reads its one value for every row).
class StringReader {
 public:
  /// A reader over `o`; for a non-VARCHAR operand the reader is empty and must not be read.
  explicit StringReader(const Operand& o)
      : offsets_(o.column->offsets() ? o.column->offsets()->as<int64_t>() : nullptr),
        chars_(o.column->data<char>()),
        stride_(o.constant ? 0 : 1) {}
  std::string_view operator[](size_t row) const {
    const size_t r = row * stride_;
    return std::string_view(chars_ + offsets_[r], static_cast<size_t>(offsets_[r + 1] - offsets_[r]));
  }

 private:
  const int64_t* offsets_;
  const char* chars_;
  size_t stride_;
};

/// Rows a kernel computes: 1 when every operand is constant (the result is then constant too), else `rows`.
struct Shape {
  size_t rows = 0;
  bool constant = false;
};
Shape shape_of(const std::vector<Operand>& args, size_t batch_rows);

/// A validity bitmap together with its null count; `bitmap` null means all valid.
struct Validity {
  BufferPtr bitmap;
  size_t null_count = 0;
};

/// The AND of the operands' validity over `rows` rows (a NULL constant makes every row NULL).
Validity and_validity(const std::vector<const Operand*>& args, size_t rows, gpu::MemoryResource& mr);
Validity and_validity_all(const std::vector<Operand>& args, size_t rows, gpu::MemoryResource& mr);

/// A validity bitmap from one byte per row (non-zero = valid); null bitmap when all are valid.
Validity validity_from_bytes(const uint8_t* valid, size_t rows, gpu::MemoryResource& mr);

/// A new plain fixed-width column of `rows` values (uninitialized) with the given validity.
ColumnPtr make_output(const LogicalType& type, size_t rows, Validity validity, gpu::MemoryResource& mr);

/// Wraps a result column as an operand of `shape`.
inline Operand as_operand(ColumnPtr column, const Shape& shape) { return Operand{std::move(column), shape.constant}; }

/// An operand whose every row is NULL, of `type`.
Operand null_operand(const LogicalType& type, gpu::MemoryResource& mr);

/// The one-row column holding `value` (of `type`; untyped NULL becomes a NULL of `type`).
ColumnPtr constant_column(const Value& value, const LogicalType& type, gpu::MemoryResource& mr);

/// Repeats a constant operand to `rows` rows; a non-constant operand is returned as is.
ColumnPtr materialize(const Operand& operand, size_t rows, gpu::MemoryResource& mr);

/// Builds a plain VARCHAR (or VARBINARY) column row by row.
class StringColumnBuilder {
 public:
  StringColumnBuilder(size_t rows, size_t reserve_bytes);
  void append(std::string_view s) {
    chars_.append(s.data(), s.size());
    offsets_.push_back(static_cast<int64_t>(chars_.size()));
  }
  /// Appends an empty string for a NULL row (the caller supplies the validity).
  void append_null() { offsets_.push_back(static_cast<int64_t>(chars_.size())); }
  /// Access to the chars for in-place writers: append bytes, then `finish_row()`.
  std::string& chars() { return chars_; }
  void finish_row() { offsets_.push_back(static_cast<int64_t>(chars_.size())); }
  ColumnPtr finish(Validity validity, gpu::MemoryResource& mr, const LogicalType& type = TypeId::kVarchar);

 private:
  size_t rows_;
  std::vector<int64_t> offsets_;
  std::string chars_;
};

/// Calls `fn(T{})` with T the physical value type of `type` (uint8_t for BOOLEAN, int8..int64, float, double,
/// int64/int128 for DECIMAL, int32 for DATE, int64 for TIMESTAMP, Interval, TimestampTz). VARCHAR and NULL are not
/// fixed-width: the caller handles them first.
template <typename Fn>
decltype(auto) dispatch_fixed(const LogicalType& type, Fn&& fn) {
  switch (type.id()) {
    case TypeId::kBoolean: return fn(uint8_t{});
    case TypeId::kTinyInt: return fn(int8_t{});
    case TypeId::kSmallInt: return fn(int16_t{});
    case TypeId::kInteger:
    case TypeId::kDate: return fn(int32_t{});
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return fn(int64_t{});
    case TypeId::kReal: return fn(float{});
    case TypeId::kDouble: return fn(double{});
    case TypeId::kDecimal:
      if (type.is_wide_decimal()) return fn(int128_t{});
      return fn(int64_t{});
    case TypeId::kInterval: return fn(Interval{});
    case TypeId::kTimestampTz: return fn(TimestampTz{});
    default: throw InternalError("no fixed-width layout for " + type.to_string());
  }
}

/// Calls `fn(T{})` with T the storage of a DECIMAL type (int64 or int128).
template <typename Fn>
decltype(auto) dispatch_decimal(const LogicalType& type, Fn&& fn) {
  if (type.is_wide_decimal()) return fn(int128_t{});
  return fn(int64_t{});
}

/// Finds the first row below `rows` that is valid in `validity` (null = all valid) and for which `bad(row)` is
/// true, and calls `raise(row)` on it (which throws). Kernels flag errors in a cheap pass and call this only when
/// a flag was set, so NULL rows with garbage values never raise.
template <typename Bad, typename Raise>
void raise_first_error(size_t rows, const uint8_t* validity, Bad&& bad, Raise&& raise) {
  for (size_t i = 0; i < rows; ++i) {
    if ((validity == nullptr || bits::get(validity, i)) && bad(i)) raise(i);
  }
}

/// Where a result row takes its value from: operand `piece` at row `pos` of that operand (constants read their
/// one value whatever `pos`); `piece == kNullPiece` makes the row NULL.
struct RowSource {
  uint32_t piece;
  uint32_t pos;
};
inline constexpr uint32_t kNullPiece = 0xffffffffu;

/// A plain column of `type` whose row i is taken from `src[i]` (plain operands of `type`).
ColumnPtr assemble_rows(const LogicalType& type, const std::vector<Operand>& pieces, const std::vector<RowSource>& src,
                        gpu::MemoryResource& mr);

/// The text of the value at `row` of a plain host column, as Value::to_string prints it (for error messages).
std::string value_text(const Operand& operand, size_t row);

}  // namespace kestrel::exec
