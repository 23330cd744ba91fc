#pragma once
/// Building blocks of the CPU kernels over ARRAY, MAP and ROW operands (internal to exec/expr): reading a list
/// operand row by row, and building list columns from chosen child rows.

#include <cstring>
#include <string>
#include <vector>

#include "exec/expr/kernel_util.hpp"
#include "planner/expression.hpp"
#include "vector/nested_column.hpp"

namespace kestrel::exec {

/// Row-by-row access to a plain ARRAY or MAP operand (a constant reads its one value for every row).
class ListReader {
 public:
  explicit ListReader(const Operand& o)
      : column_(o.column.get()), offsets_(o.column->list_offsets()), constant_(o.constant) {}
  bool valid(size_t row) const { return column_->is_valid(at(row)); }
  int64_t begin(size_t row) const { return offsets_[at(row)]; }
  int64_t end(size_t row) const { return offsets_[at(row) + 1]; }
  int64_t size(size_t row) const { return end(row) - begin(row); }
  /// The elements (a map's ROW(key, value) entries).
  const Column& child() const { return *column_->child(0); }

 private:
  size_t at(size_t row) const { return constant_ ? 0 : row; }

  const Column* column_;
  const int64_t* offsets_;
  bool constant_;
};

/// Builds a list column (ARRAY or MAP) row by row from rows of one child column.
class ListBuilder {
 public:
  explicit ListBuilder(size_t rows) : valid_(rows, 1) { offsets_.reserve(rows + 1), offsets_.push_back(0); }
  /// Appends child row `r` to the current row.
  void add(uint32_t r) { child_rows_.push_back(r); }
  /// Appends a NULL child value (kNullRow) to the current row.
  void add_null() { child_rows_.push_back(kNullRow); }
  /// Ends row `row`; a NULL row holds no elements.
  void finish_row(size_t row, bool valid) {
    valid_[row] = valid ? 1 : 0;
    offsets_.push_back(static_cast<int64_t>(child_rows_.size()));
  }
  /// The list column of `type` whose elements are gathered from `child`.
  ColumnPtr finish(const LogicalType& type, const Column& child, gpu::MemoryResource& mr);

 private:
  std::vector<int64_t> offsets_;
  RowIndices child_rows_;
  std::vector<uint8_t> valid_;
};

/// Builds a column of ARRAY(ARRAY(T)) row by row: each row holds inner arrays whose elements are rows of one
/// child column (ngrams, combinations, array_split_into_chunks, array_transpose).
class ListOfListsBuilder {
 public:
  explicit ListOfListsBuilder(size_t rows) : valid_(rows, 1) {
    inner_offsets_.push_back(0);
    outer_offsets_.reserve(rows + 1);
    outer_offsets_.push_back(0);
  }
  /// Appends child row `r` to the current inner array.
  void add(uint32_t r) { child_rows_.push_back(r); }
  /// Ends the current inner array (a valid one, possibly empty).
  void finish_inner() {
    inner_offsets_.push_back(static_cast<int64_t>(child_rows_.size()));
    ++inner_count_;
  }
  /// Ends row `row`; a NULL row holds no inner arrays.
  void finish_row(size_t row, bool valid) {
    valid_[row] = valid ? 1 : 0;
    outer_offsets_.push_back(inner_count_);
  }
  /// The ARRAY(ARRAY(T)) column of `type` whose innermost elements are gathered from `child`.
  ColumnPtr finish(const LogicalType& type, const Column& child, gpu::MemoryResource& mr);

 private:
  std::vector<int64_t> inner_offsets_;
  std::vector<int64_t> outer_offsets_;
  int64_t inner_count_ = 0;
  RowIndices child_rows_;
  std::vector<uint8_t> valid_;
};

/// A plain fixed-width column of `type` (physical values T) from one value and one validity byte per row.
template <typename T>
ColumnPtr fixed_column(const LogicalType& type, const std::vector<T>& values, const std::vector<uint8_t>& valid,
                       gpu::MemoryResource& mr) {
  ColumnPtr out = make_output(type, values.size(), validity_from_bytes(valid.data(), values.size(), mr), mr);
  if (!values.empty()) std::memcpy(out->template mutable_data<T>(), values.data(), values.size() * sizeof(T));
  return out;
}

/// The BIGINT value of row `row` of a plain BIGINT operand (valid at that row).
inline int64_t bigint_at(const Operand& o, size_t row) { return o.data<int64_t>()[o.index(row)]; }

/// The key bytes of every row of `column`, for equality and order of elements (NULL after every value).
inline std::vector<std::string> row_keys(const Column& column) {
  std::vector<std::string> keys(column.length());
  for (size_t i = 0; i < keys.size(); ++i) append_key_bytes(column, i, keys[i]);
  return keys;
}

/// Checks that the keys keys[begin, end) of one map are not NULL and distinct; errors name `e`'s function.
void check_map_keys(const plan::Expr& e, const Column& keys, int64_t begin, int64_t end);

/// A list column of `type` over `child` with the given offsets and per-row validity bytes.
ColumnPtr make_list_column(const LogicalType& type, const std::vector<int64_t>& offsets,
                           const std::vector<uint8_t>& valid, ColumnPtr child, gpu::MemoryResource& mr);

/// The key bytes of row `r` of `column` (append_key_bytes, for equality and order of elements).
inline std::string key_of(const Column& column, size_t r) {
  std::string out;
  append_key_bytes(column, r, out);
  return out;
}

/// Throws InvalidInput with `message` at the position of `e`.
[[noreturn]] void raise_nested(const plan::Expr& e, const std::string& message, const char* code = "22003");

/// The CPU kernels of the array, map and row functions (array_funcs.cpp, array_set_funcs.cpp, map_funcs.cpp,
/// sequence_funcs.cpp); each as the kernels of kernels.hpp.
Operand nested_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand array_set_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand map_row_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
/// CAST between nested types of one kind, child by child (ROW fields by position).
Operand nested_cast_kernel(const Operand& in, const LogicalType& target, EvalContext& ctx);
/// CAST of a nested operand to JSON (nested_json.cpp).
Operand nested_to_json(const Operand& in, size_t rows, EvalContext& ctx);
/// = <> < <= > >= and IS [NOT] DISTINCT FROM over nested operands (compare.cpp's compare_operands calls it).
Operand nested_compare(plan::ScalarFunction f, const Operand& a, const Operand& b, size_t rows, EvalContext& ctx);
Operand sequence_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);

/// The array and map functions of issue 15 without lambdas: more_nested_kernel (array_more_funcs.cpp) dispatches
/// to the others (array_set_ops.cpp, array_numeric_funcs.cpp, array_shape_funcs.cpp, map_more_funcs.cpp,
/// map_top_funcs.cpp).
Operand more_nested_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand array_set_ops_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand array_numeric_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand array_shape_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand map_more_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);
Operand map_top_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx);

}  // namespace kestrel::exec
