#pragma once
/// Columns in Arrow's layout, on the host or the device: an optional validity bitmap (absent when there are no
/// nulls), a values buffer for fixed-width types, int64 offsets plus bytes for VARCHAR (UTF-8) and VARBINARY, or
/// int32 indices into a dictionary column for dictionary-encoded strings. ARRAY and MAP hold int64 offsets into one
/// child column (a MAP's child is a ROW(key, value) column), ROW one child column per field (Arrow's large list,
/// map and struct); nested columns are host-only for now.

#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "common/types.hpp"
#include "common/value.hpp"
#include "vector/buffer.hpp"

namespace kestrel {

/// How a column's values are stored.
enum class ColumnEncoding : uint8_t {
  kPlain,       ///< values (or offsets + chars) directly
  kDictionary,  ///< int32 indices in `values`, the distinct values in `dictionary`
};

class Column;
using ColumnPtr = std::shared_ptr<Column>;

/// One column of a batch. Immutable once built and shared between batches through shared_ptr.
class Column {
 public:
  /// A fixed-width column of `length` values, uninitialized; with `nullable` a validity bitmap is allocated with
  /// every row valid.
  static ColumnPtr make_fixed(LogicalType type, size_t length, bool nullable, gpu::MemoryResource& mr,
                              gpu::Stream stream);
  /// A VARCHAR column with room for `char_bytes` bytes; offsets and chars are uninitialized.
  static ColumnPtr make_string(size_t length, size_t char_bytes, bool nullable, gpu::MemoryResource& mr,
                               gpu::Stream stream);
  /// A dictionary-encoded column over `dictionary` (plain), with int32 `indices` (its values buffer) and
  /// the given validity.
  static ColumnPtr make_dictionary(LogicalType type, size_t length, BufferPtr indices, BufferPtr validity,
                                   size_t null_count, ColumnPtr dictionary);
  /// `column` (VARCHAR or VARBINARY, plain or dictionary) as `type` of the same layout, sharing its buffers: how
  /// to_utf8 / from_utf8 and the casts between the two types reinterpret bytes without copying them.
  static ColumnPtr retyped(const ColumnPtr& column, LogicalType type);
  /// Assembles a column from existing buffers (used by transfers and readers).
  static ColumnPtr from_buffers(LogicalType type, ColumnEncoding encoding, size_t length, size_t null_count,
                                BufferPtr validity, BufferPtr values, BufferPtr offsets, ColumnPtr dictionary);
  /// An ARRAY or MAP column: `offsets` (int64, length + 1) into `child`, with the given validity.
  static ColumnPtr make_list(LogicalType type, size_t length, BufferPtr offsets, BufferPtr validity,
                             size_t null_count, ColumnPtr child);
  /// A ROW column over one child per field (each `length` rows), with the given validity.
  static ColumnPtr make_row(LogicalType type, size_t length, BufferPtr validity, size_t null_count,
                            std::vector<ColumnPtr> children);
  /// A host column holding `values`, each NULL or of type `type`.
  static ColumnPtr from_values(LogicalType type, const std::vector<Value>& values,
                               gpu::MemoryResource& mr = gpu::host_memory_resource());

  const LogicalType& type() const { return type_; }
  ColumnEncoding encoding() const { return encoding_; }
  bool is_dictionary() const { return encoding_ == ColumnEncoding::kDictionary; }
  size_t length() const { return length_; }
  size_t null_count() const { return null_count_; }
  gpu::MemoryKind kind() const;
  bool on_device() const { return kind() == gpu::MemoryKind::kDevice; }

  /// Buffers; validity is null when the column has no nulls, offsets only for plain strings.
  const BufferPtr& validity() const { return validity_; }
  const BufferPtr& values() const { return values_; }
  const BufferPtr& offsets() const { return offsets_; }
  const ColumnPtr& dictionary() const { return dictionary_; }
  /// Child columns of ARRAY and MAP (one) and ROW (one per field); empty for flat types.
  const std::vector<ColumnPtr>& children() const { return children_; }
  const ColumnPtr& child(size_t i) const { return children_[i]; }
  /// ARRAY and MAP: the int64 offsets into the child (host).
  const int64_t* list_offsets() const { return offsets_->as<int64_t>(); }

  /// A nested column's values as order-preserving bytes, one VARBINARY row per row (NULL rows empty), made once
  /// and kept with the column: hashing, key equality and sorting read nested values through it as they read
  /// strings (vector/nested_keys.hpp says how the bytes order).
  const Column& nested_keys() const;

  /// Typed access to the values buffer (host or device pointer alike).
  template <typename T>
  const T* data() const {
    return values_ ? values_->as<T>() : nullptr;
  }
  template <typename T>
  T* mutable_data() {
    return values_ ? values_->as<T>() : nullptr;
  }
  uint8_t* mutable_validity() { return validity_ ? validity_->as<uint8_t>() : nullptr; }
  int64_t* mutable_offsets() { return offsets_ ? offsets_->as<int64_t>() : nullptr; }

  /// Host-only accessors (slow path: printing, tests, constant folding).
  bool is_valid(size_t row) const;
  std::string_view string_at(size_t row) const;
  Value value_at(size_t row) const;

  /// Recomputes null_count from the validity bitmap (host columns); call after writing validity by hand.
  void recount_nulls();
  void set_null_count(size_t n) { null_count_ = n; }
  /// Replaces the chars buffer of a string column after its final size is known.
  void set_values(BufferPtr values) { values_ = std::move(values); }

  /// Bytes held by this column's buffers (dictionary included).
  size_t byte_size() const;

 private:
  Column() = default;

  LogicalType type_;
  ColumnEncoding encoding_ = ColumnEncoding::kPlain;
  size_t length_ = 0;
  size_t null_count_ = 0;
  BufferPtr validity_;
  BufferPtr values_;   ///< fixed-width values, string chars, or dictionary indices
  BufferPtr offsets_;  ///< int64 offsets (length + 1) of plain strings
  ColumnPtr dictionary_;
  std::vector<ColumnPtr> children_;
  mutable std::once_flag nested_keys_once_;
  mutable ColumnPtr nested_keys_;
};

}  // namespace kestrel
