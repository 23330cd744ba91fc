#pragma once
/// The GPU expression evaluator's class (internal to exec/expr): evaluate_gpu.cpp holds its core (operands, scopes,
/// arithmetic, comparisons, strings, casts, logic, CASE, IN lists), evaluate_gpu_functions.cpp the members for
/// Presto's DOUBLE, date and string functions and the IN search over constants.

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/expr/expr_kernels_gpu.hpp"
#include "exec/expr/kernel_util.hpp"
#include "gpu/copy.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec::gpu_eval {

using namespace gpu_expr;  // NOLINT: the launchers of this evaluator
using plan::ExprKind;
using plan::ScalarFunction;

/// An evaluated device operand: a column, or (`constant`) a one-row column standing for every row.
struct DeviceOperand {
  ColumnPtr column;
  bool constant = false;
  bool null_constant = false;  ///< a constant known on the host to be NULL
};

/// Which rows of the current evaluation may raise errors (the rows a CASE branch takes).
struct Scope {
  const uint8_t* active = nullptr;
  const int* active_any = nullptr;
};

/// Device memory laid out for the host read-back at the end of an evaluation.
struct StatusBlock {
  int error;
  int reserved;
  unsigned long long valid_count;
};

inline DeviceArg arg_of(const DeviceOperand& o) {
  const Column& c = *o.column;
  DeviceArg a;
  a.constant = o.constant;
  a.validity = c.validity() ? c.validity()->as<uint8_t>() : nullptr;
  if (c.is_dictionary()) {
    a.indices = c.data<int32_t>();
    a.values = c.dictionary()->values() ? c.dictionary()->values()->data() : nullptr;
    a.offsets = c.dictionary()->offsets()->as<int64_t>();
  } else {
    a.values = c.values() ? c.values()->data() : nullptr;
    a.offsets = c.offsets() ? c.offsets()->as<int64_t>() : nullptr;
  }
  return a;
}

inline bool has_validity(const DeviceOperand& o) { return o.column->validity() != nullptr; }

/// x IN (constants) with more items than this searches the sorted items (one launch) instead of comparing each.
inline constexpr size_t kMinInSetItems = 3;

class GpuEvaluator {
 public:
  GpuEvaluator(const Batch& batch, gpu::Stream stream, gpu::MemoryResource& mr, int* status)
      : batch_(batch), stream_(stream), mr_(mr), status_(status) {}

  /// The operand of `e`. Outside CASE branches (no active-row scope) a subtree computed before in this
  /// evaluation (the same expression twice in one projection, a shared sub-expression) is reused.
  DeviceOperand eval(const plan::Expr& e, const Scope& scope);

  /// A plain device column of `rows` rows of `type`, with a word-aligned validity bitmap when `nullable`.
  ColumnPtr new_fixed(const LogicalType& type, size_t rows, bool nullable) {
    BufferPtr values = Buffer::allocate(std::max<size_t>(rows * type.physical_width(), 8), mr_, stream_);
    BufferPtr validity;
    if (nullable) validity = Buffer::allocate(std::max<size_t>((rows + 31) / 32 * 4, 8), mr_, stream_);
    // The NULL count is not known without a sync; only the final result gets its exact count.
    return Column::from_buffers(type, ColumnEncoding::kPlain, rows, 0, std::move(validity), std::move(values), nullptr,
                                nullptr);
  }
  static DeviceOut out_of(const ColumnPtr& c) {
    DeviceOut out;
    out.values = c->values()->data();
    out.validity = c->validity() ? c->validity()->as<uint32_t>() : nullptr;
    return out;
  }
  ErrorScope errors(const Scope& scope, bool one_row) const {
    return ErrorScope{status_, scope.active, scope.active_any, one_row};
  }
  /// Rows a node computes: 1 when every operand is constant (the result is constant too).
  size_t rows_of(const std::vector<DeviceOperand>& args, bool* constant) const {
    *constant = std::all_of(args.begin(), args.end(), [](const DeviceOperand& a) { return a.constant; });
    return *constant ? 1 : batch_.num_rows();
  }
  static bool any_validity(const std::vector<DeviceOperand>& args) {
    return std::any_of(args.begin(), args.end(), has_validity);
  }

  DeviceOperand constant(const Value& value, const LogicalType& type) {
    const LogicalType t = type.id() == TypeId::kNull && !value.is_null() ? value.type() : type;
    ColumnPtr host = constant_column(value, t, gpu::host_memory_resource());
    return DeviceOperand{copy_column(*host, mr_, stream_), true, value.is_null()};
  }
  /// Repeats a constant operand to every row.
  ColumnPtr materialize(const DeviceOperand& o);

  /// A VARCHAR column of `rows` rows built in two passes: `offsets_pass(offsets, validity)` writes the offsets (and
  /// the validity, null unless `nullable`), the total size is read back (one sync), then `copy_pass(offsets, chars)`
  /// writes the bytes.
  template <typename OffsetsPass, typename CopyPass>
  ColumnPtr two_pass_strings(size_t rows, bool nullable, OffsetsPass&& offsets_pass, CopyPass&& copy_pass) {
    BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr_, stream_);
    BufferPtr validity;
    if (nullable) validity = Buffer::allocate(std::max<size_t>((rows + 31) / 32 * 4, 8), mr_, stream_);
    offsets_pass(offsets->as<int64_t>(), validity ? validity->as<uint32_t>() : nullptr);
    int64_t total = 0;
    gpu::copy_bytes(&total, gpu::MemoryKind::kHost, offsets->as<int64_t>() + rows, gpu::MemoryKind::kDevice,
                    sizeof(total), stream_);
    BufferPtr chars = Buffer::allocate(std::max<size_t>(static_cast<size_t>(total), 8), mr_, stream_);
    copy_pass(static_cast<const int64_t*>(offsets->as<int64_t>()), chars->as<char>());
    return Column::from_buffers(TypeId::kVarchar, ColumnEncoding::kPlain, rows, 0, validity, chars, offsets, nullptr);
  }

  gpu::Stream stream() const { return stream_; }
  gpu::MemoryResource& mr() { return mr_; }

 private:
  DeviceOperand eval_node(const plan::Expr& e, const Scope& scope);
  DeviceOperand eval_function(const plan::Expr& e, const Scope& scope);
  DeviceOperand dispatch(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand arithmetic(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand compare(ScalarFunction f, const DeviceOperand& a, const DeviceOperand& b);
  DeviceOperand like(const plan::Expr& e, const std::vector<DeviceOperand>& args);
  DeviceOperand substring(const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand string_map(const plan::Expr& e, const DeviceOperand& s);
  DeviceOperand concat(const std::vector<DeviceOperand>& args);
  DeviceOperand trim(const plan::Expr& e, const std::vector<DeviceOperand>& args);
  DeviceOperand string_search(const plan::Expr& e, const std::vector<DeviceOperand>& args);
  DeviceOperand replace(const std::vector<DeviceOperand>& args);
  DeviceOperand math(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand double_math(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand datetime(const plan::Expr& e, const std::vector<DeviceOperand>& args);
  /// Presto's date functions: year_of_week, last_day_of_month, date_trunc, date_add, date_diff, to_unixtime,
  /// from_unixtime.
  DeviceOperand presto_datetime(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  /// Presto's string functions with a VARCHAR result (two passes) and with a fixed-width one.
  DeviceOperand string_build(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand string_measure(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand levenshtein(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope);
  DeviceOperand cast(const plan::Expr& e, const Scope& scope);
  DeviceOperand logic(bool is_and, const std::vector<DeviceOperand>& args);
  /// AND / OR left to right: an operand that may raise runs in the scope of the rows it can still change (AND:
  /// not yet FALSE; OR: not yet TRUE), so other rows raise nothing, as on the CPU.
  DeviceOperand logic_lazy(const plan::Expr& e, const Scope& scope);
  DeviceOperand case_when(const plan::Expr& e, const Scope& scope);
  /// The VARCHAR result of a CASE: row i takes the string (or NULL) of pieces[branch_of[i]], as a plain column.
  ColumnPtr select_strings(std::vector<DeviceOperand>& pieces, const uint8_t* branch_of, size_t rows);
  DeviceOperand in_list(const plan::Expr& e, const Scope& scope);
  /// x IN (constants) by one search of the sorted items; nothing when x's type has no such search (floats).
  std::optional<DeviceOperand> in_set(const plan::Expr& e, const DeviceOperand& x);
  DeviceOperand spread(const Column& encoded, const DeviceOperand& per_entry);
  DeviceOperand device_flags(size_t count, int** flags);

  const Batch& batch_;
  gpu::Stream stream_;
  gpu::MemoryResource& mr_;
  int* status_;
  std::unordered_map<std::string, DeviceOperand> memo_;
};

}  // namespace kestrel::exec::gpu_eval
