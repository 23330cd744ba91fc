#include "exec/expr/predicate_gpu.hpp"

#include "exec/expr/evaluate_internal.hpp"

#include <cstring>
#include <optional>
#include <utility>

#include "common/check.hpp"
#include "exec/expr/evaluate_gpu.hpp"
#include "exec/expr/kernel_util.hpp"
#include "exec/expr/predicate_program.hpp"
#include "exec/ops/common/column_view.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "gpu/copy.hpp"

namespace kestrel::exec {

namespace {

using gpu_pred::Instruction;
using gpu_pred::Op;
using gpu_pred::Operand;
using gpu_pred::ValueClass;
using plan::ExprKind;
using plan::ScalarFunction;

/// How values of `type` are stored and compared in a program; nothing for types it does not compare.
std::optional<ValueClass> value_class(const LogicalType& type) {
  if (type.id() == TypeId::kNull) return std::nullopt;
  switch (physical_kind(type)) {
    case PhysicalKind::kBool:
    case PhysicalKind::kInt8: return ValueClass::kI8;
    case PhysicalKind::kInt16: return ValueClass::kI16;
    case PhysicalKind::kInt32: return ValueClass::kI32;
    case PhysicalKind::kInt64: return ValueClass::kI64;
    case PhysicalKind::kInt128: return ValueClass::kI128;
    case PhysicalKind::kFloat: return ValueClass::kF32;
    case PhysicalKind::kDouble: return ValueClass::kF64;
    default: return std::nullopt;
  }
}

/// True when values of `a` and `b` compare as stored (the same class; decimals of the same scale).
bool same_representation(const LogicalType& a, const LogicalType& b) {
  const std::optional<ValueClass> ca = value_class(a), cb = value_class(b);
  if (!ca || !cb || *ca != *cb) return false;
  if ((a.id() == TypeId::kDecimal) != (b.id() == TypeId::kDecimal)) return false;
  return a.id() != TypeId::kDecimal || a.scale() == b.scale();
}

std::optional<uint8_t> comparison_of(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kEqual: return gpu_pred::kEq;
    case ScalarFunction::kNotEqual: return gpu_pred::kNe;
    case ScalarFunction::kLess: return gpu_pred::kLt;
    case ScalarFunction::kLessEqual: return gpu_pred::kLe;
    case ScalarFunction::kGreater: return gpu_pred::kGt;
    case ScalarFunction::kGreaterEqual: return gpu_pred::kGe;
    default: return std::nullopt;
  }
}

Instruction instruction(Op op) {
  Instruction in;
  in.op = op;
  return in;
}

/// Where a column slot's data comes from: a column of the batch, or the result of a part evaluated first.
struct SlotSource {
  bool leaf = false;
  size_t index = 0;
};

/// Whether an operand of `e` from the `first`-th on may raise: the program evaluates every operand on every row,
/// so such an AND / OR / IN list is left to evaluate_gpu, which evaluates it only on the rows that need it.
bool later_operand_can_raise(const plan::Expr& e, size_t first) {
  for (size_t k = first; k < e.children.size(); ++k) {
    if (can_raise(*e.children[k])) return true;
  }
  return false;
}

class PredicateCompiler {
 public:
  explicit PredicateCompiler(const Batch& batch) : batch_(batch) {}

  /// Appends the instructions computing `e` (BOOLEAN); `self` is `e` as a shared pointer when the caller has one.
  void boolean(const plan::Expr& e, const plan::ExprPtr& self) {
    switch (e.kind) {
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        if (e.children.empty() || later_operand_can_raise(e, 1)) break;  // evaluate_gpu's lazy AND / OR
        boolean(*e.children[0], e.children[0]);
        for (size_t k = 1; k < e.children.size(); ++k) {
          boolean(*e.children[k], e.children[k]);
          emit(instruction(e.kind == ExprKind::kAnd ? Op::kAnd : Op::kOr));
          ++fused_;
        }
        return;
      }
      case ExprKind::kNot:
        boolean(*e.children[0], e.children[0]);
        emit(instruction(Op::kNot));
        ++fused_;
        return;
      case ExprKind::kConstant:
        if (e.constant.is_null() || e.constant.type().id() == TypeId::kBoolean) {
          Instruction in = instruction(Op::kPush);
          in.tri = e.constant.is_null() ? gpu_pred::kUnknown
                                        : (e.constant.as_bool() ? gpu_pred::kTrue : gpu_pred::kFalse);
          emit(in);
          return;
        }
        break;
      case ExprKind::kColumnRef:
        if (e.type.id() == TypeId::kBoolean && plain_column(e)) {
          Instruction in = instruction(Op::kTruth);
          in.a = column_operand(SlotSource{false, e.column_index});
          emit(in);
          return;
        }
        break;
      case ExprKind::kIsNull:
      case ExprKind::kIsNotNull:
        if (e.children[0]->kind == ExprKind::kColumnRef && e.children[0]->column_index < batch_.num_columns()) {
          Instruction in = instruction(e.kind == ExprKind::kIsNull ? Op::kIsNull : Op::kIsNotNull);
          in.a = column_operand(SlotSource{false, e.children[0]->column_index});
          emit(in);
          ++fused_;
          return;
        }
        break;
      case ExprKind::kFunction:
        if (compare(e)) return;
        break;
      case ExprKind::kInList:
        if (!later_operand_can_raise(e, 2) && in_list(e)) return;
        break;
      default: break;
    }
    // A part the program does not express: evaluated first, then read as a BOOLEAN column.
    if (!self) {
      ok_ = false;
      return;
    }
    Instruction in = instruction(Op::kTruth);
    in.a = leaf_operand(self);
    emit(in);
  }

  bool ok() const { return ok_ && length_ > 0; }
  /// True when the program does more than read one evaluated part.
  bool worth_it() const { return fused_ > 0; }

  /// Evaluates the parts, fills the column slots, and returns the program.
  gpu_pred::Program finish(gpu::Stream stream, gpu::MemoryResource& mr, std::vector<ColumnPtr>* keep) {
    std::vector<ColumnPtr> parts;
    if (!leaves_.empty()) parts = evaluate_gpu_all(leaves_, batch_, stream, mr);
    program_.length = length_;
    for (size_t s = 0; s < sources_.size(); ++s) {
      const ColumnPtr& c = sources_[s].leaf ? parts.at(sources_[s].index) : batch_.column(sources_[s].index);
      // A dictionary column only enters through IS [NOT] NULL, which reads its validity alone.
      program_.columns[s].values = c->values() ? c->values()->data() : nullptr;
      program_.columns[s].validity = validity_of(*c);
      keep->push_back(c);
    }
    return program_;
  }

 private:
  bool plain_column(const plan::Expr& e) const {
    if (e.column_index >= batch_.num_columns()) return false;
    const Column& c = *batch_.column(e.column_index);
    return !c.is_dictionary() && value_class(c.type()).has_value();
  }

  void emit(const Instruction& in) {
    depth_ += in.op == Op::kAnd || in.op == Op::kOr ? -1 : in.op == Op::kNot ? 0 : 1;
    if (length_ >= gpu_pred::kMaxInstructions || depth_ > gpu_pred::kMaxDepth) {
      ok_ = false;
      return;
    }
    program_.code[length_++] = in;
  }

  Operand column_operand(const SlotSource& source) {
    for (size_t s = 0; s < sources_.size(); ++s) {
      if (sources_[s].leaf == source.leaf && sources_[s].index == source.index) {
        return Operand{static_cast<int16_t>(s), 0};
      }
    }
    if (sources_.size() >= static_cast<size_t>(gpu_pred::kMaxColumns)) {
      ok_ = false;
      return Operand{0, 0};
    }
    sources_.push_back(source);
    return Operand{static_cast<int16_t>(sources_.size() - 1), 0};
  }

  Operand leaf_operand(const plan::ExprPtr& e) {
    leaves_.push_back(e);
    return column_operand(SlotSource{true, leaves_.size() - 1});
  }

  /// A non-NULL constant of `type`, stored as the device stores it.
  std::optional<Operand> constant_operand(const Value& value, const LogicalType& type) {
    if (constants_ >= gpu_pred::kMaxConstants) {
      ok_ = false;
      return std::nullopt;
    }
    ColumnPtr host = constant_column(value, type, gpu::host_memory_resource());
    const size_t width = type.physical_width();
    KESTREL_CHECK_LE(width, sizeof(program_.constants[0]));
    std::memcpy(program_.constants[constants_], host->values()->data(), width);
    return Operand{-1, static_cast<uint16_t>(constants_++)};
  }

  /// The operand for a value of a comparison: a plain column, a constant, or a fixed-width part evaluated first.
  /// Nothing for values the program cannot compare (strings, dictionary columns).
  std::optional<Operand> value_operand(const plan::ExprPtr& e) {
    if (!value_class(e->type)) return std::nullopt;
    if (e->kind == ExprKind::kConstant) return constant_operand(e->constant, e->type);
    if (e->kind == ExprKind::kColumnRef) {
      if (!plain_column(*e)) return std::nullopt;
      return column_operand(SlotSource{false, e->column_index});
    }
    return leaf_operand(e);
  }

  static bool null_constant(const plan::ExprPtr& e) { return e->kind == ExprKind::kConstant && e->constant.is_null(); }

  bool compare(const plan::Expr& e) {
    const std::optional<uint8_t> cmp = comparison_of(e.function);
    if (!cmp || e.children.size() != 2) return false;
    const plan::ExprPtr& a = e.children[0];
    const plan::ExprPtr& b = e.children[1];
    if (null_constant(a) || null_constant(b)) {
      Instruction in = instruction(Op::kPush);
      in.tri = gpu_pred::kUnknown;
      emit(in);
      ++fused_;
      return true;
    }
    if (!same_representation(a->type, b->type)) return false;
    if (a->kind == ExprKind::kColumnRef && !plain_column(*a)) return false;
    if (b->kind == ExprKind::kColumnRef && !plain_column(*b)) return false;
    Instruction in = instruction(Op::kCompare);
    in.cls = *value_class(a->type);
    in.cmp = *cmp;
    const std::optional<Operand> oa = value_operand(a);
    const std::optional<Operand> ob = value_operand(b);
    if (!oa || !ob) return false;
    in.a = *oa;
    in.b = *ob;
    emit(in);
    ++fused_;
    return true;
  }

  bool in_list(const plan::Expr& e) {
    const plan::ExprPtr& x = e.children[0];
    if (x->kind != ExprKind::kColumnRef || !plain_column(*x)) return false;
    for (size_t k = 1; k < e.children.size(); ++k) {
      const plan::ExprPtr& item = e.children[k];
      if (item->kind != ExprKind::kConstant) return false;
      if (!item->constant.is_null() && !same_representation(x->type, item->type)) return false;
    }
    Instruction in = instruction(Op::kIn);
    in.cls = *value_class(x->type);
    in.a = column_operand(SlotSource{false, x->column_index});
    in.first = static_cast<uint16_t>(constants_);
    for (size_t k = 1; k < e.children.size(); ++k) {
      const Value& v = e.children[k]->constant;
      if (v.is_null()) {
        in.tri = 1;
        continue;
      }
      if (!constant_operand(v, e.children[k]->type)) return true;  // too many constants: ok_ is false
      ++in.count;
    }
    emit(in);
    ++fused_;
    return true;
  }

  const Batch& batch_;
  gpu_pred::Program program_{};
  int length_ = 0;
  int constants_ = 0;
  int fused_ = 0;
  int depth_ = 0;  ///< values on the stack after the instructions emitted so far
  bool ok_ = true;
  std::vector<SlotSource> sources_;
  std::vector<plan::ExprPtr> leaves_;
};

}  // namespace

ColumnPtr evaluate_predicate_gpu(const plan::Expr& predicate, const Batch& device_batch, bool nulls_as_false,
                                 gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "evaluate_predicate_gpu");
  KESTREL_CHECK_MSG(device_batch.on_device(), "a fused GPU predicate needs a device batch");
  if (predicate.type.id() != TypeId::kBoolean) return nullptr;
  PredicateCompiler compiler(device_batch);
  compiler.boolean(predicate, nullptr);
  if (!compiler.ok() || !compiler.worth_it()) return nullptr;
  std::vector<ColumnPtr> keep;
  const gpu_pred::Program program = compiler.finish(stream, mr, &keep);
  const size_t rows = device_batch.num_rows();
  BufferPtr values = device_buffer(rows, stream, mr);
  if (nulls_as_false) {
    gpu_pred::launch_predicate(program, rows, values->as<uint8_t>(), nullptr, nullptr, stream);
    return Column::from_buffers(TypeId::kBoolean, ColumnEncoding::kPlain, rows, 0, nullptr, values, nullptr, nullptr);
  }
  BufferPtr validity = device_buffer((rows + 31) / 32 * 4, stream, mr);
  BufferPtr counter = device_buffer(sizeof(unsigned long long), stream, mr);
  gpu::fill_bytes(counter->data(), gpu::MemoryKind::kDevice, 0, sizeof(unsigned long long), stream);
  gpu_pred::launch_predicate(program, rows, values->as<uint8_t>(), validity->as<uint32_t>(),
                             counter->as<unsigned long long>(), stream);
  unsigned long long valid = 0;
  // The column's NULL count is part of its metadata.
  gpu::copy_bytes(&valid, gpu::MemoryKind::kHost, counter->data(), gpu::MemoryKind::kDevice, sizeof(valid), stream);
  const size_t nulls = rows - static_cast<size_t>(valid);
  return Column::from_buffers(TypeId::kBoolean, ColumnEncoding::kPlain, rows, nulls, nulls > 0 ? validity : nullptr,
                              values, nullptr, nullptr);
}

}  // namespace kestrel::exec
