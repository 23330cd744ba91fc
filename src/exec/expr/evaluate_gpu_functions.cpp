#include <algorithm>
#include <cstring>
#include <string>

#include "common/datetime_ops.hpp"
#include "exec/expr/evaluate_gpu_internal.hpp"

namespace kestrel::exec::gpu_eval {

DeviceOperand GpuEvaluator::double_math(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                        const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), e.type);
  }
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  const DeviceArg second = args.size() > 1 ? arg_of(args[1]) : DeviceArg{};
  launch_double_math(e.function, arg_of(args[0]), args.size() > 1 ? &second : nullptr, out_of(out), rows,
                     errors(scope, constant_shape), stream_);
  return DeviceOperand{out, constant_shape, false};
}

/// The unit of date_trunc, date_add or date_diff (their first operand; placement checked it).
static DatePart constant_unit(const plan::Expr& e) {
  const plan::Expr& unit = *e.children[0];
  std::optional<DatePart> part;
  if (unit.kind == ExprKind::kConstant && !unit.constant.is_null()) part = parse_date_part(unit.constant.as_string());
  if (!part) throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(e.function) + " of this unit");
  return *part;
}

DeviceOperand GpuEvaluator::presto_datetime(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                            const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), e.type);
  }
  const bool has_unit = e.function == ScalarFunction::kDateTrunc || e.function == ScalarFunction::kDateAdd ||
                        e.function == ScalarFunction::kDateDiff;
  const DatePart unit = has_unit ? constant_unit(e) : DatePart::kDay;
  // The values after the unit decide the shape, as for extract.
  const std::vector<DeviceOperand> values(args.begin() + (has_unit ? 1 : 0), args.end());
  bool constant_shape = false;
  const size_t rows = rows_of(values, &constant_shape);
  const TypeId x_type = values.back().column->type().id();
  ColumnPtr out = new_fixed(e.type, rows, any_validity(values));
  const DeviceArg x = arg_of(values[0]);
  switch (e.function) {
    case ScalarFunction::kYearOfWeek: launch_year_of_week(x_type, x, out_of(out), rows, stream_); break;
    case ScalarFunction::kLastDayOfMonth: launch_last_day_of_month(x_type, x, out_of(out), rows, stream_); break;
    case ScalarFunction::kDateTrunc: launch_date_trunc(unit, x_type, x, out_of(out), rows, stream_); break;
    case ScalarFunction::kDateAdd:
      launch_date_add(unit, x_type, x, arg_of(values[1]), out_of(out), rows, errors(scope, constant_shape), stream_);
      break;
    case ScalarFunction::kDateDiff:
      launch_date_diff(unit, x_type, x, arg_of(values[1]), out_of(out), rows, stream_);
      break;
    case ScalarFunction::kToUnixtime: launch_to_unixtime(x, out_of(out), rows, stream_); break;
    case ScalarFunction::kFromUnixtime:
      launch_from_unixtime(x, out_of(out), rows, errors(scope, constant_shape), stream_);
      break;
    default: throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(e.function));
  }
  return DeviceOperand{out, constant_shape, false};
}

/// The operands of a row-wise function, for its kernel.
static DeviceArgs device_args_of(const plan::Expr& e, const std::vector<DeviceOperand>& args) {
  if (args.size() > static_cast<size_t>(DeviceArgs::kMaxArgs)) {
    throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(e.function) + " of " +
                         std::to_string(args.size()) + " operands");
  }
  DeviceArgs operands;
  for (const DeviceOperand& a : args) operands.args[operands.count++] = arg_of(a);
  return operands;
}

static StringBuildOp string_build_op(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kReverse: return StringBuildOp::kReverse;
    case ScalarFunction::kLpad: return StringBuildOp::kLpad;
    case ScalarFunction::kRpad: return StringBuildOp::kRpad;
    case ScalarFunction::kChr: return StringBuildOp::kChr;
    case ScalarFunction::kSplitPart: return StringBuildOp::kSplitPart;
    case ScalarFunction::kReplaceFirst: return StringBuildOp::kReplaceFirst;
    case ScalarFunction::kTrail: return StringBuildOp::kTrail;
    case ScalarFunction::kLongestCommonPrefix: return StringBuildOp::kLongestCommonPrefix;
    default: throw NotImplemented(std::string("GPU string function ") + plan::scalar_function_name(f));
  }
}

DeviceOperand GpuEvaluator::string_build(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                         const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), TypeId::kVarchar);
  }
  const StringBuildOp op = string_build_op(e.function);
  const DeviceArgs operands = device_args_of(e, args);
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  const ErrorScope err = errors(scope, constant_shape);
  // Results may be longer than the inputs (lpad, chr): the total size is read back to size the bytes. Always
  // nullable: split_part is NULL past the last field.
  ColumnPtr out = two_pass_strings(
      rows, true,
      [&](int64_t* offsets, uint32_t* validity) {
        launch_string_build_offsets(op, operands, offsets, validity, rows, err, stream_, mr_);
      },
      [&](const int64_t* offsets, char* chars) {
        launch_string_build_copy(op, operands, offsets, chars, rows, stream_);
      });
  return DeviceOperand{out, constant_shape, false};
}

static StringMeasureOp string_measure_op(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kCodepoint: return StringMeasureOp::kCodepoint;
    case ScalarFunction::kEndsWith: return StringMeasureOp::kEndsWith;
    case ScalarFunction::kStrrpos: return StringMeasureOp::kStrrpos;
    case ScalarFunction::kHammingDistance: return StringMeasureOp::kHammingDistance;
    case ScalarFunction::kBitLength: return StringMeasureOp::kBitLength;
    default: throw NotImplemented(std::string("GPU string function ") + plan::scalar_function_name(f));
  }
}

DeviceOperand GpuEvaluator::string_measure(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                           const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), e.type);
  }
  const StringMeasureOp op = string_measure_op(e.function);
  const DeviceArgs operands = device_args_of(e, args);
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  launch_string_measure(op, operands, out_of(out), rows, errors(scope, constant_shape), stream_);
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::levenshtein(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                        const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), e.type);
  }
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  const DeviceArg a = arg_of(args[0]), b = arg_of(args[1]);
  BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr_, stream_);
  launch_levenshtein_scratch(a, b, offsets->as<int64_t>(), rows, errors(scope, constant_shape), stream_, mr_);
  // The host sizes the scratch of the dynamic programmes (one sync, as two_pass_strings does for bytes).
  int64_t cells = 0;
  gpu::copy_bytes(&cells, gpu::MemoryKind::kHost, offsets->as<int64_t>() + rows, gpu::MemoryKind::kDevice,
                  sizeof(cells), stream_);
  BufferPtr scratch = Buffer::allocate(std::max<size_t>(static_cast<size_t>(cells) * sizeof(int32_t), 8), mr_, stream_);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  launch_levenshtein(a, b, offsets->as<int64_t>(), scratch->as<int32_t>(), out_of(out), rows, stream_);
  return DeviceOperand{out, constant_shape, false};
}

static std::optional<InSetKind> in_set_kind(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt: return InSetKind::kInt8;
    case TypeId::kSmallInt: return InSetKind::kInt16;
    case TypeId::kInteger:
    case TypeId::kDate: return InSetKind::kInt32;
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return InSetKind::kInt64;
    case TypeId::kDecimal: return t.is_wide_decimal() ? InSetKind::kInt128 : InSetKind::kInt64;
    case TypeId::kVarchar: return InSetKind::kString;
    default: return std::nullopt;  // REAL and DOUBLE compare -0.0 and NaN by value, not by their bits
  }
}

/// A value of `width` bytes (a signed integer as stored), widened to 128 bits.
static int128_t widen(const void* bytes, size_t width) {
  switch (width) {
    case 1: { int8_t v; std::memcpy(&v, bytes, 1); return v; }
    case 2: { int16_t v; std::memcpy(&v, bytes, 2); return v; }
    case 4: { int32_t v; std::memcpy(&v, bytes, 4); return v; }
    case 8: { int64_t v; std::memcpy(&v, bytes, 8); return v; }
    default: { int128_t v; std::memcpy(&v, bytes, 16); return v; }
  }
}

std::optional<DeviceOperand> GpuEvaluator::in_set(const plan::Expr& e, const DeviceOperand& x) {
  const LogicalType& type = x.column->type();
  const std::optional<InSetKind> kind = in_set_kind(type);
  if (!kind || x.column->is_dictionary()) return std::nullopt;
  InSet set;
  std::vector<int128_t> keys;
  std::vector<std::string> strings;
  for (size_t i = 1; i < e.children.size(); ++i) {
    const plan::Expr& item = *e.children[i];
    if (item.constant.is_null()) {
      set.has_null = true;
    } else if (*kind == InSetKind::kString) {
      strings.push_back(item.constant.as_string());
    } else {
      if (!(item.type == type)) return std::nullopt;
      ColumnPtr host = constant_column(item.constant, type, gpu::host_memory_resource());
      keys.push_back(widen(host->values()->data(), type.physical_width()));
    }
  }
  // The items sorted and distinct, in the order the kernel searches (signed values; strings bytewise).
  std::vector<uint8_t> bytes;
  if (*kind == InSetKind::kString) {
    std::sort(strings.begin(), strings.end());
    strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
    std::vector<int64_t> offsets{0};
    for (const std::string& str : strings) offsets.push_back(offsets.back() + static_cast<int64_t>(str.size()));
    bytes.resize(offsets.size() * sizeof(int64_t) + static_cast<size_t>(offsets.back()));
    std::memcpy(bytes.data(), offsets.data(), offsets.size() * sizeof(int64_t));
    size_t at = offsets.size() * sizeof(int64_t);
    for (const std::string& str : strings) {
      std::memcpy(bytes.data() + at, str.data(), str.size());
      at += str.size();
    }
    set.count = static_cast<int>(strings.size());
  } else {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (*kind == InSetKind::kInt128) {
      bytes.resize(keys.size() * sizeof(int128_t));
      std::memcpy(bytes.data(), keys.data(), bytes.size());
    } else {
      std::vector<int64_t> narrow(keys.begin(), keys.end());
      bytes.resize(narrow.size() * sizeof(int64_t));
      std::memcpy(bytes.data(), narrow.data(), bytes.size());
    }
    set.count = static_cast<int>(keys.size());
  }
  BufferPtr device = Buffer::allocate(std::max<size_t>(bytes.size(), 16), mr_, stream_);
  gpu::copy_bytes(device->data(), gpu::MemoryKind::kDevice, bytes.data(), gpu::MemoryKind::kHost, bytes.size(),
                  stream_);
  if (*kind == InSetKind::kString) {
    set.offsets = device->as<int64_t>();
    set.chars = device->as<char>() + (strings.size() + 1) * sizeof(int64_t);
  } else {
    set.values = device->data();
  }
  const size_t rows = x.constant ? 1 : batch_.num_rows();
  ColumnPtr out = new_fixed(TypeId::kBoolean, rows, has_validity(x) || set.has_null);
  launch_in_set(*kind, arg_of(x), set, out_of(out), rows, stream_);
  return DeviceOperand{out, x.constant, false};
}

}  // namespace kestrel::exec::gpu_eval
