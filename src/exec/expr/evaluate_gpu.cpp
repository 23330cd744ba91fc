#include "exec/expr/evaluate_gpu.hpp"
#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/evaluate_gpu_support.hpp"
#include "exec/expr/evaluate_gpu_internal.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <string>

#include "common/check.hpp"
#include "common/datetime_ops.hpp"
#include "exec/expr/evaluate.hpp"
#include "exec/expr/expr_kernels_gpu.hpp"
#include "exec/expr/kernel_util.hpp"
#include "exec/expr/like_matcher.hpp"
#include "gpu/copy.hpp"
#include "vector/transfer.hpp"

namespace kestrel::exec {

namespace gpu_eval {


static ArithOp arith_op(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kAdd: return ArithOp::kAdd;
    case ScalarFunction::kSubtract: return ArithOp::kSubtract;
    case ScalarFunction::kMultiply: return ArithOp::kMultiply;
    case ScalarFunction::kDivide: return ArithOp::kDivide;
    default: return ArithOp::kModulo;
  }
}

static bool is_comparison(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kEqual:
    case ScalarFunction::kNotEqual:
    case ScalarFunction::kLess:
    case ScalarFunction::kLessEqual:
    case ScalarFunction::kGreater:
    case ScalarFunction::kGreaterEqual:
    case ScalarFunction::kIsDistinctFrom:
    case ScalarFunction::kIsNotDistinctFrom: return true;
    default: return false;
  }
}

/// Functions computed once per dictionary entry when their only column argument is dictionary-encoded (they never
/// raise on the entries, or raise on them exactly as on the rows).
static bool per_entry(ScalarFunction f) {
  return (is_comparison(f) && f != ScalarFunction::kIsDistinctFrom && f != ScalarFunction::kIsNotDistinctFrom) ||
         f == ScalarFunction::kLike || f == ScalarFunction::kNotLike || f == ScalarFunction::kSubstring ||
         f == ScalarFunction::kLength || f == ScalarFunction::kUpper || f == ScalarFunction::kLower ||
         f == ScalarFunction::kTrim || f == ScalarFunction::kLTrim || f == ScalarFunction::kRTrim ||
         f == ScalarFunction::kPosition || f == ScalarFunction::kStartsWith || f == ScalarFunction::kReplace;
}

/// The index of the only non-constant argument when it is dictionary-encoded.
static std::optional<size_t> dictionary_argument(const std::vector<DeviceOperand>& args) {
  std::optional<size_t> found;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].constant) continue;
    if (found || !args[i].column->is_dictionary()) return std::nullopt;
    found = i;
  }
  return found;
}

ColumnPtr GpuEvaluator::materialize(const DeviceOperand& o) {
  if (!o.constant) return o.column;
  const size_t rows = batch_.num_rows();
  const LogicalType& type = o.column->type();
  if (type.id() == TypeId::kVarchar) {
    // A string constant computed on the device: its length is needed on the host to size the chars (rare).
    ColumnPtr host = copy_column(*o.column, gpu::host_memory_resource(), stream_);
    const bool valid = host->is_valid(0);
    const std::string_view s = valid ? host->string_at(0) : std::string_view();
    BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr_, stream_);
    BufferPtr chars = Buffer::allocate(std::max<size_t>(s.size() * rows, 8), mr_, stream_);
    BufferPtr value = Buffer::allocate(std::max<size_t>(s.size(), 8), mr_, stream_);
    if (!s.empty()) gpu::copy_bytes(value->data(), gpu::MemoryKind::kDevice, s.data(), gpu::MemoryKind::kHost, s.size(), stream_);
    launch_broadcast_string(value->as<char>(), s.size(), offsets->as<int64_t>(), chars->as<char>(), rows, stream_);
    BufferPtr validity;
    if (!valid) {
      validity = Buffer::allocate(std::max<size_t>((rows + 7) / 8, 8), mr_, stream_);
      gpu::fill_bytes(validity->data(), gpu::MemoryKind::kDevice, 0, validity->size(), stream_);
    }
    return Column::from_buffers(type, ColumnEncoding::kPlain, rows, valid ? 0 : rows, validity, chars, offsets,
                                nullptr);
  }
  ColumnPtr out = new_fixed(type, rows, has_validity(o));
  launch_broadcast(type.physical_width(), arg_of(o), out_of(out), rows, stream_);
  return out;
}

/// A key identifying what an expression computes: its kinds, functions, types, constants and columns, recursively.
static void append_key(const plan::Expr& e, std::string& key) {
  key += std::to_string(static_cast<int>(e.kind));
  key += ':';
  key += std::to_string(static_cast<int>(e.function));
  key += ':';
  key += e.type.to_string();
  key += ':';
  if (e.kind == ExprKind::kConstant) key += e.constant.is_null() ? std::string("NULL") : e.constant.to_string();
  if (e.kind == ExprKind::kColumnRef) {
    key += '#';
    key += std::to_string(e.column_index);
  }
  key += '(';
  for (const plan::ExprPtr& c : e.children) {
    append_key(*c, key);
    key += ',';
  }
  key += ')';
}

DeviceOperand GpuEvaluator::eval(const plan::Expr& e, const Scope& scope) {
  const bool memoize = scope.active == nullptr && scope.active_any == nullptr && !e.children.empty();
  std::string key;
  if (memoize) {
    append_key(e, key);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  DeviceOperand result = eval_node(e, scope);
  if (memoize) memo_.emplace(std::move(key), result);
  return result;
}

DeviceOperand GpuEvaluator::eval_node(const plan::Expr& e, const Scope& scope) {
  switch (e.kind) {
    case ExprKind::kConstant: return constant(e.constant, e.type);
    case ExprKind::kColumnRef: {
      KESTREL_CHECK_LT(e.column_index, batch_.num_columns());
      return DeviceOperand{batch_.column(e.column_index), false, false};
    }
    case ExprKind::kFunction: return eval_function(e, scope);
    case ExprKind::kCast: return cast(e, scope);
    case ExprKind::kCase: return case_when(e, scope);
    case ExprKind::kAnd:
    case ExprKind::kOr: return logic_lazy(e, scope);
    case ExprKind::kNot: {
      DeviceOperand in = eval(*e.children[0], scope);
      const size_t rows = in.constant ? 1 : batch_.num_rows();
      ColumnPtr out = new_fixed(TypeId::kBoolean, rows, has_validity(in));
      launch_not(arg_of(in), out_of(out), rows, stream_);
      return DeviceOperand{out, in.constant, in.null_constant};
    }
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull: {
      DeviceOperand in = eval(*e.children[0], scope);
      const size_t rows = in.constant ? 1 : batch_.num_rows();
      ColumnPtr out = new_fixed(TypeId::kBoolean, rows, false);
      launch_is_null(arg_of(in), e.kind == ExprKind::kIsNull, out->mutable_data<uint8_t>(), rows, stream_);
      return DeviceOperand{out, in.constant, false};
    }
    case ExprKind::kInList: return in_list(e, scope);
    case ExprKind::kSubquery:
      throw InternalError("a scalar sub-query reached expression evaluation; it must be computed before the query");
    case ExprKind::kLambda:
    case ExprKind::kLambdaParam: throw InternalError("a lambda reached GPU expression evaluation");
  }
  throw InternalError("unknown expression kind");
}

DeviceOperand GpuEvaluator::eval_function(const plan::Expr& e, const Scope& scope) {
  if (plan::ExprPtr as_case = conditional_as_case(e)) return case_when(*as_case, scope);
  std::vector<DeviceOperand> args;
  for (const plan::ExprPtr& c : e.children) args.push_back(eval(*c, scope));
  if (per_entry(e.function)) {
    if (std::optional<size_t> k = dictionary_argument(args)) {
      const Column& encoded = *args[*k].column;
      std::vector<DeviceOperand> entry_args = args;
      entry_args[*k] = DeviceOperand{encoded.dictionary(), false, false};
      // The dictionary is a batch of its own: every entry counts, whatever rows use it.
      const Batch dictionary_batch(std::make_shared<Schema>(), {}, encoded.dictionary()->length(), gpu::MemoryKind::kDevice,
                                   stream_);
      GpuEvaluator entries(dictionary_batch, stream_, mr_, status_);
      return spread(encoded, entries.dispatch(e, entry_args, Scope{}));
    }
  }
  return dispatch(e, args, scope);
}

DeviceOperand GpuEvaluator::spread(const Column& encoded, const DeviceOperand& per_entry) {
  const size_t rows = encoded.length();
  const LogicalType& type = per_entry.column->type();
  if (type.id() == TypeId::kVarchar) {
    if (per_entry.null_constant || per_entry.constant) return per_entry;
    if (per_entry.column->validity() != nullptr) throw NotImplemented("GPU string function with NULL entries");
    return DeviceOperand{Column::make_dictionary(type, rows, encoded.values(), encoded.validity(), encoded.null_count(),
                                                 per_entry.column),
                         false, false};
  }
  ColumnPtr out = new_fixed(type, rows, true);
  launch_spread(type.physical_width(), arg_of(per_entry), encoded.data<int32_t>(),
                encoded.validity() ? encoded.validity()->as<uint8_t>() : nullptr, out_of(out), rows, stream_);
  return DeviceOperand{out, false, false};
}

DeviceOperand GpuEvaluator::dispatch(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                     const Scope& scope) {
  if (is_double_math(e.function)) return double_math(e, args, scope);
  switch (e.function) {
    case ScalarFunction::kAdd:
    case ScalarFunction::kSubtract:
    case ScalarFunction::kMultiply:
    case ScalarFunction::kDivide:
    case ScalarFunction::kModulo:
    case ScalarFunction::kNegate: return arithmetic(e, args, scope);
    case ScalarFunction::kLike:
    case ScalarFunction::kNotLike: return like(e, args);
    case ScalarFunction::kSubstring: return substring(args, scope);
    case ScalarFunction::kLength:
    case ScalarFunction::kUpper:
    case ScalarFunction::kLower: return string_map(e, args[0]);
    case ScalarFunction::kConcat: return concat(args);
    case ScalarFunction::kTrim:
    case ScalarFunction::kLTrim:
    case ScalarFunction::kRTrim: return trim(e, args);
    case ScalarFunction::kPosition:
    case ScalarFunction::kStartsWith: return string_search(e, args);
    case ScalarFunction::kReplace: return replace(args);
    case ScalarFunction::kAbs:
    case ScalarFunction::kSign:
    case ScalarFunction::kRound:
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil:
    case ScalarFunction::kSqrt:
    case ScalarFunction::kTruncate: return math(e, args, scope);
    case ScalarFunction::kExtract:
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval:
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays:
    case ScalarFunction::kDateDiffDays: return datetime(e, args);
    case ScalarFunction::kYearOfWeek:
    case ScalarFunction::kLastDayOfMonth:
    case ScalarFunction::kDateTrunc:
    case ScalarFunction::kDateAdd:
    case ScalarFunction::kDateDiff:
    case ScalarFunction::kToUnixtime:
    case ScalarFunction::kFromUnixtime: return presto_datetime(e, args, scope);
    case ScalarFunction::kReverse:
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad:
    case ScalarFunction::kChr:
    case ScalarFunction::kSplitPart:
    case ScalarFunction::kReplaceFirst:
    case ScalarFunction::kTrail:
    case ScalarFunction::kLongestCommonPrefix: return string_build(e, args, scope);
    case ScalarFunction::kCodepoint:
    case ScalarFunction::kEndsWith:
    case ScalarFunction::kStrrpos:
    case ScalarFunction::kHammingDistance:
    case ScalarFunction::kBitLength: return string_measure(e, args, scope);
    case ScalarFunction::kLevenshteinDistance: return levenshtein(e, args, scope);
    default:
      if (is_comparison(e.function)) return compare(e.function, args[0], args[1]);
      throw NotImplemented(std::string("GPU expression function ") + plan::scalar_function_name(e.function));
  }
}

DeviceOperand GpuEvaluator::arithmetic(const plan::Expr& e, const std::vector<DeviceOperand>& args,
                                       const Scope& scope) {
  bool constant = false;
  const size_t rows = rows_of(args, &constant);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  if (e.function == ScalarFunction::kNegate) {
    launch_negate(e.type, arg_of(args[0]), out_of(out), rows, errors(scope, constant), stream_);
  } else if (e.type.id() == TypeId::kDecimal) {
    launch_decimal_arith(args[0].column->type(), args[1].column->type(), e.type, arith_op(e.function),
                         arg_of(args[0]), arg_of(args[1]), out_of(out), rows, errors(scope, constant), stream_);
  } else {
    if (!(args[0].column->type() == e.type) || !(args[1].column->type() == e.type)) {
      throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(e.function) + " on mixed types");
    }
    launch_numeric_arith(e.type.id(), arith_op(e.function), arg_of(args[0]), arg_of(args[1]), out_of(out), rows,
                         errors(scope, constant), stream_);
  }
  return DeviceOperand{out, constant, false};
}

DeviceOperand GpuEvaluator::compare(ScalarFunction f, const DeviceOperand& a, const DeviceOperand& b) {
  bool constant = false;
  const size_t rows = rows_of({a, b}, &constant);
  const bool distinct = f == ScalarFunction::kIsDistinctFrom || f == ScalarFunction::kIsNotDistinctFrom;
  ColumnPtr out = new_fixed(TypeId::kBoolean, rows, !distinct && (has_validity(a) || has_validity(b)));
  launch_compare(a.column->type(), f, arg_of(a), arg_of(b), out_of(out), rows, stream_);
  return DeviceOperand{out, constant, false};
}

DeviceOperand GpuEvaluator::like(const plan::Expr& e, const std::vector<DeviceOperand>& args) {
  for (size_t i = 1; i < e.children.size(); ++i) {
    if (e.children[i]->kind != ExprKind::kConstant) throw NotImplemented("GPU LIKE with a non-constant pattern");
  }
  const Value& pattern = e.children[1]->constant;
  std::optional<std::string> escape;
  if (e.children.size() > 2) {
    if (e.children[2]->constant.is_null()) return constant(Value(), TypeId::kBoolean);
    escape = e.children[2]->constant.as_string();
  }
  if (pattern.is_null()) return constant(Value(), TypeId::kBoolean);
  // Same validation (and errors) as the CPU's matcher.
  (void)LikeMatcher::compile(pattern.as_string(), escape ? std::optional<std::string_view>(*escape) : std::nullopt);
  int escape_byte = '\\';
  if (escape) {
    if (escape->empty()) {
      escape_byte = -1;
    } else if (static_cast<uint8_t>((*escape)[0]) >= 0x80) {
      throw NotImplemented("GPU LIKE with a non-ASCII escape character");
    } else {
      escape_byte = static_cast<uint8_t>((*escape)[0]);
    }
  }
  const std::string& p = pattern.as_string();
  const DeviceOperand& s = args[0];
  const size_t rows = s.constant ? 1 : batch_.num_rows();
  if (std::optional<LikeSegments> segments = like_segments(p, escape_byte)) {
    ColumnPtr out = new_fixed(TypeId::kBoolean, rows, has_validity(s));
    launch_like_segments(arg_of(s), *segments, e.function == ScalarFunction::kNotLike, out_of(out), rows, stream_);
    return DeviceOperand{out, s.constant, false};
  }
  BufferPtr device_pattern = Buffer::allocate(std::max<size_t>(p.size(), 8), mr_, stream_);
  if (!p.empty()) {
    gpu::copy_bytes(device_pattern->data(), gpu::MemoryKind::kDevice, p.data(), gpu::MemoryKind::kHost, p.size(),
                    stream_);
  }
  ColumnPtr out = new_fixed(TypeId::kBoolean, rows, has_validity(s));
  launch_like(arg_of(s), device_pattern->as<char>(), p.size(), escape_byte, e.function == ScalarFunction::kNotLike,
              out_of(out), rows, stream_);
  return DeviceOperand{out, s.constant, false};
}

DeviceOperand GpuEvaluator::substring(const std::vector<DeviceOperand>& args, const Scope& scope) {
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].column->type().id() != TypeId::kBigInt) throw NotImplemented("GPU substring with non-BIGINT bounds");
    if (args[i].null_constant) return constant(Value(), TypeId::kVarchar);
  }
  const DeviceOperand& s = args[0];
  if (s.null_constant) return constant(Value(), TypeId::kVarchar);
  if (s.column->is_dictionary()) throw NotImplemented("GPU substring of a dictionary column with column bounds");
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  // Every result is a piece of its input: the input's bytes bound the output's (no sync for the size).
  const size_t bound = s.constant ? s.column->values()->size() : s.column->values() ? s.column->values()->size() : 0;
  BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr_, stream_);
  BufferPtr chars = Buffer::allocate(std::max<size_t>(bound, 8), mr_, stream_);
  BufferPtr validity;
  if (any_validity(args)) validity = Buffer::allocate(std::max<size_t>((rows + 31) / 32 * 4, 8), mr_, stream_);
  const DeviceArg length = args.size() > 2 ? arg_of(args[2]) : DeviceArg{};
  const DeviceArg* length_ptr = args.size() > 2 ? &length : nullptr;
  launch_substring_lengths(arg_of(s), arg_of(args[1]), length_ptr, offsets->as<int64_t>(),
                           validity ? validity->as<uint32_t>() : nullptr, rows, errors(scope, constant_shape), stream_);
  launch_substring_copy(arg_of(s), arg_of(args[1]), length_ptr, offsets->as<int64_t>(), chars->as<char>(), rows,
                        stream_, mr_);
  return DeviceOperand{Column::from_buffers(TypeId::kVarchar, ColumnEncoding::kPlain, rows, 0, validity, chars, offsets,
                                            nullptr),
                       constant_shape, false};
}

DeviceOperand GpuEvaluator::string_map(const plan::Expr& e, const DeviceOperand& s) {
  if (s.null_constant) return constant(Value(), e.type);
  const Column& c = *s.column;
  if (c.is_dictionary()) throw NotImplemented(std::string("GPU ") + plan::scalar_function_name(e.function) +
                                              " of a dictionary constant");
  const size_t rows = c.length();
  if (e.function == ScalarFunction::kLength) {
    ColumnPtr out = new_fixed(e.type, rows, has_validity(s));
    launch_length(arg_of(s), out_of(out), rows, stream_);
    return DeviceOperand{out, s.constant, false};
  }
  // Case mapping keeps every byte's position: the result shares the input's offsets and validity.
  const size_t bytes = c.values() ? c.values()->size() : 0;
  BufferPtr chars = Buffer::allocate(std::max<size_t>(bytes, 8), mr_, stream_);
  launch_case_map(bytes ? c.values()->as<char>() : nullptr, chars->as<char>(), bytes,
                  e.function == ScalarFunction::kUpper, stream_);
  return DeviceOperand{Column::from_buffers(TypeId::kVarchar, ColumnEncoding::kPlain, rows, c.null_count(),
                                            c.validity(), chars, c.offsets(), nullptr),
                       s.constant, false};
}

DeviceOperand GpuEvaluator::concat(const std::vector<DeviceOperand>& args) {
  if (args.size() > static_cast<size_t>(ConcatArgs::kMaxArgs)) {
    throw NotImplemented("GPU || of more than " + std::to_string(ConcatArgs::kMaxArgs) + " operands");
  }
  ConcatArgs operands;
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), TypeId::kVarchar);
    operands.args[operands.count++] = arg_of(a);
  }
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  // Dictionary operands may repeat long entries: the result's size is read back to size its bytes.
  ColumnPtr out = two_pass_strings(
      rows, any_validity(args),
      [&](int64_t* offsets, uint32_t* validity) {
        launch_concat_offsets(operands, offsets, validity, rows, stream_, mr_);
      },
      [&](const int64_t* offsets, char* chars) { launch_concat_copy(operands, offsets, chars, rows, stream_); });
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::trim(const plan::Expr& e, const std::vector<DeviceOperand>& args) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), TypeId::kVarchar);
  }
  std::string set_text = " ";
  if (e.children.size() > 1) {
    if (e.children[1]->kind != ExprKind::kConstant) throw NotImplemented("GPU trim with a non-constant character set");
    set_text = e.children[1]->constant.as_string();
  }
  if (!trim_set_supported(set_text)) throw NotImplemented("GPU trim of characters '" + set_text + "'");
  TrimSet set;
  for (char c : set_text) set.bytes[set.count++] = c;
  const DeviceOperand& s = args[0];
  const Column& c = *s.column;
  if (c.is_dictionary()) throw NotImplemented("GPU trim of a dictionary constant");
  const size_t rows = c.length();
  // Every result is a piece of its input: the input's bytes bound the output's (no sync for the size).
  BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr_, stream_);
  BufferPtr chars = Buffer::allocate(std::max<size_t>(c.values() ? c.values()->size() : 0, 8), mr_, stream_);
  launch_trim(arg_of(s), set, e.function != ScalarFunction::kRTrim, e.function != ScalarFunction::kLTrim,
              offsets->as<int64_t>(), chars->as<char>(), rows, stream_, mr_);
  return DeviceOperand{Column::from_buffers(TypeId::kVarchar, ColumnEncoding::kPlain, rows, c.null_count(),
                                            c.validity(), chars, offsets, nullptr),
                       s.constant, false};
}

DeviceOperand GpuEvaluator::string_search(const plan::Expr& e, const std::vector<DeviceOperand>& args) {
  if (args[0].null_constant || args[1].null_constant) return constant(Value(), e.type);
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  launch_string_search(e.function == ScalarFunction::kStartsWith, arg_of(args[0]), arg_of(args[1]), out_of(out), rows,
                       stream_);
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::replace(const std::vector<DeviceOperand>& args) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), TypeId::kVarchar);
  }
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  const DeviceArg s = arg_of(args[0]), from = arg_of(args[1]), to = arg_of(args[2]);
  ColumnPtr out = two_pass_strings(
      rows, any_validity(args),
      [&](int64_t* offsets, uint32_t* validity) {
        launch_replace_offsets(s, from, to, offsets, validity, rows, stream_, mr_);
      },
      [&](const int64_t* offsets, char* chars) { launch_replace_copy(s, from, to, offsets, chars, rows, stream_); });
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::math(const plan::Expr& e, const std::vector<DeviceOperand>& args, const Scope& scope) {
  for (const DeviceOperand& a : args) {
    if (a.null_constant) return constant(Value(), e.type);
  }
  const LogicalType& x_type = args[0].column->type();
  const bool rounding = e.function == ScalarFunction::kRound || e.function == ScalarFunction::kFloor ||
                        e.function == ScalarFunction::kCeil || e.function == ScalarFunction::kTruncate;
  // Integers are their own round, floor and ceil (as on the CPU).
  if (rounding && args.size() == 1 && x_type.is_integral()) return args[0];
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  ColumnPtr out = new_fixed(e.type, rows, any_validity(args));
  const DeviceArg digits = args.size() > 1 ? arg_of(args[1]) : DeviceArg{};
  launch_math(e.function, x_type, e.type, arg_of(args[0]), args.size() > 1 ? &digits : nullptr, out_of(out), rows,
              errors(scope, constant_shape), stream_);
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::datetime(const plan::Expr& e, const std::vector<DeviceOperand>& args) {
  bool constant_shape = false;
  const size_t rows = rows_of(args, &constant_shape);
  ColumnPtr out;
  auto output = [&] { out = new_fixed(e.type, rows, any_validity(args)); };
  switch (e.function) {
    case ScalarFunction::kExtract: {
      const plan::Expr& field = *e.children[0];
      if (field.kind != ExprKind::kConstant || field.constant.is_null()) {
        throw NotImplemented("GPU extract with a non-constant field");
      }
      const std::optional<DatePart> part = parse_date_part(field.constant.as_string());
      if (!part) throw InvalidInput("unknown date part '" + field.constant.as_string() + "'", "22023");
      if (e.type.id() != TypeId::kBigInt) throw NotImplemented("GPU extract returning " + e.type.to_string());
      std::vector<DeviceOperand> value_only{args[1]};
      const size_t value_rows = rows_of(value_only, &constant_shape);
      out = new_fixed(e.type, value_rows, has_validity(args[1]));
      launch_extract(*part, args[1].column->type().id(), arg_of(args[1]), out_of(out), value_rows, stream_);
      return DeviceOperand{out, constant_shape, false};
    }
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval: {
      const bool interval_first = args[0].column->type().id() == TypeId::kInterval;
      const DeviceOperand& x = args[interval_first ? 1 : 0];
      output();
      launch_add_interval(x.column->type().id(), e.function == ScalarFunction::kDateSubtractInterval, arg_of(x),
                          arg_of(args[interval_first ? 0 : 1]), out_of(out), rows, stream_);
      break;
    }
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays: {
      const bool days_first = args[0].column->type().id() != TypeId::kDate;
      const DeviceOperand& days = args[days_first ? 0 : 1];
      if (days.column->type().physical_width() != 4) throw NotImplemented("GPU date + days of " + days.column->type().to_string());
      output();
      launch_add_days(e.function == ScalarFunction::kDateSubtractDays ? -1 : 1, arg_of(args[days_first ? 1 : 0]),
                      arg_of(days), out_of(out), rows, stream_);
      break;
    }
    default:
      output();
      launch_diff_days(arg_of(args[0]), arg_of(args[1]), out_of(out), rows, stream_);
      break;
  }
  return DeviceOperand{out, constant_shape, false};
}

DeviceOperand GpuEvaluator::cast(const plan::Expr& e, const Scope& scope) {
  DeviceOperand in = eval(*e.children[0], scope);
  const LogicalType& source = in.column->type();
  const LogicalType& target = e.type;
  if (source == target) return in;
  // Only NULLs (a NULL constant, or a column of the NULL type whatever its storage): NULLs of the target type, as
  // the CPU's cast_kernel gives them.
  if (in.null_constant || source.id() == TypeId::kNull || e.children[0]->type.id() == TypeId::kNull) {
    return constant(Value(), target);
  }
  if (!cast_supported(source, target) || in.column->is_dictionary()) {
    throw NotImplemented("GPU CAST from " + source.to_string() + " to " + target.to_string());
  }
  if (source.id() == TypeId::kDecimal && target.id() == TypeId::kDecimal && source.scale() == target.scale() &&
      source.precision() <= target.precision() && source.physical_width() == target.physical_width()) {
    // Only the declared precision grows: the same buffers under the new type (as on the CPU).
    const Column& c = *in.column;
    return DeviceOperand{Column::from_buffers(target, ColumnEncoding::kPlain, c.length(), c.null_count(), c.validity(),
                                              c.values(), nullptr, nullptr),
                         in.constant, false};
  }
  const size_t rows = in.constant ? 1 : batch_.num_rows();
  if (target.id() == TypeId::kVarchar) {
    ColumnPtr out = two_pass_strings(
        rows, has_validity(in),
        [&](int64_t* offsets, uint32_t* validity) {
          launch_cast_to_string_offsets(source, arg_of(in), offsets, validity, rows, stream_, mr_);
        },
        [&](const int64_t* offsets, char* chars) {
          launch_cast_to_string_copy(source, arg_of(in), offsets, chars, rows, stream_);
        });
    return DeviceOperand{out, in.constant, false};
  }
  ColumnPtr out = new_fixed(target, rows, has_validity(in));
  launch_cast(source, target, arg_of(in), out_of(out), rows, errors(scope, in.constant), stream_);
  return DeviceOperand{out, in.constant, false};
}

DeviceOperand GpuEvaluator::logic(bool is_and, const std::vector<DeviceOperand>& args) {
  DeviceOperand acc = args[0];
  for (size_t k = 1; k < args.size(); ++k) {
    bool constant = false;
    const size_t rows = rows_of({acc, args[k]}, &constant);
    ColumnPtr out = new_fixed(TypeId::kBoolean, rows, has_validity(acc) || has_validity(args[k]));
    launch_logic(is_and, arg_of(acc), arg_of(args[k]), out_of(out), rows, stream_);
    acc = DeviceOperand{out, constant, false};
  }
  return acc;
}

DeviceOperand GpuEvaluator::logic_lazy(const plan::Expr& e, const Scope& scope) {
  const bool is_and = e.kind == ExprKind::kAnd;
  DeviceOperand acc = eval(*e.children[0], scope);
  const size_t n = batch_.num_rows();
  ColumnPtr open_col;  // rows of the scope whose result is still open, once an operand may raise
  ColumnPtr branch_col;
  int* flags = nullptr;
  DeviceOperand flag_holder;
  for (size_t k = 1; k < e.children.size(); ++k) {
    const plan::Expr& child = *e.children[k];
    if (!can_raise(child)) {
      acc = logic(is_and, {acc, eval(child, scope)});
      continue;
    }
    if (!open_col) {
      open_col = new_fixed(TypeId::kBoolean, n, false);
      branch_col = new_fixed(TypeId::kTinyInt, n, false);
      if (scope.active != nullptr) {
        gpu::copy_bytes(open_col->mutable_data<uint8_t>(), gpu::MemoryKind::kDevice, scope.active,
                        gpu::MemoryKind::kDevice, n, stream_);
      } else {
        gpu::fill_bytes(open_col->mutable_data<uint8_t>(), gpu::MemoryKind::kDevice, 1, n, stream_);
      }
      flag_holder = device_flags(e.children.size(), &flags);
    }
    // Rows the result so far decides (AND: FALSE, i.e. NOT acc is TRUE; OR: TRUE) leave the open rows.
    DeviceOperand decided = acc;
    if (is_and) {
      const size_t rows = acc.constant ? 1 : n;
      ColumnPtr negated = new_fixed(TypeId::kBoolean, rows, has_validity(acc));
      launch_not(arg_of(acc), out_of(negated), rows, stream_);
      decided = DeviceOperand{negated, acc.constant, false};
    }
    launch_case_take(arg_of(decided), open_col->mutable_data<uint8_t>(), branch_col->mutable_data<uint8_t>(), 0,
                     flags + k, n, stream_);
    // Decided rows keep their result whatever the operand holds there (FALSE AND x, TRUE OR x).
    acc = logic(is_and, {acc, eval(child, Scope{open_col->data<uint8_t>(), flags + k})});
  }
  return acc;
}

DeviceOperand GpuEvaluator::in_list(const plan::Expr& e, const Scope& scope) {
  // An item that may raise runs only on the rows not matched yet (the IN as its OR).
  if (const plan::ExprPtr as_or = lazy_in_list(e)) return logic_lazy(*as_or, scope);
  DeviceOperand x = eval(*e.children[0], scope);
  const bool items_constant = std::all_of(e.children.begin() + 1, e.children.end(),
                                          [](const plan::ExprPtr& c) { return c->kind == ExprKind::kConstant; });
  std::vector<DeviceOperand> items;  // evaluated when the search does not apply
  // x IN (a, b) is x = a OR x = b, which gives exactly SQL's NULL rules. Constant items: one search instead.
  auto matches = [&](GpuEvaluator& on, const DeviceOperand& value) {
    if (items_constant && e.children.size() > kMinInSetItems) {
      if (std::optional<DeviceOperand> found = on.in_set(e, value)) return *found;
    }
    if (items.empty()) {
      for (size_t i = 1; i < e.children.size(); ++i) items.push_back(eval(*e.children[i], scope));
    }
    std::vector<DeviceOperand> equal;
    for (const DeviceOperand& item : items) equal.push_back(on.compare(ScalarFunction::kEqual, value, item));
    return on.logic(false, equal);
  };
  if (!x.constant && x.column->is_dictionary() && items_constant) {
    const Column& encoded = *x.column;
    const Batch dictionary_batch(std::make_shared<Schema>(), {}, encoded.dictionary()->length(), gpu::MemoryKind::kDevice,
                                 stream_);
    GpuEvaluator entries(dictionary_batch, stream_, mr_, status_);
    return spread(encoded, matches(entries, DeviceOperand{encoded.dictionary(), false, false}));
  }
  return matches(*this, x);
}

DeviceOperand GpuEvaluator::device_flags(size_t count, int** flags) {
  ColumnPtr c = new_fixed(TypeId::kInteger, count, false);
  gpu::fill_bytes(c->values()->data(), gpu::MemoryKind::kDevice, 0, count * sizeof(int), stream_);
  *flags = c->mutable_data<int>();
  return DeviceOperand{c, false, false};
}

DeviceOperand GpuEvaluator::case_when(const plan::Expr& e, const Scope& scope) {
  const size_t whens = (e.children.size() - 1) / 2;
  if (e.type.id() != TypeId::kVarchar && !e.type.is_fixed_width()) {
    throw NotImplemented("GPU CASE returning " + e.type.to_string());
  }
  if (whens > 250) throw NotImplemented("GPU CASE with more than 250 branches");
  const size_t n = batch_.num_rows();
  ColumnPtr remaining_col = new_fixed(TypeId::kBoolean, n, false);
  ColumnPtr branch_col = new_fixed(TypeId::kTinyInt, n, false);
  uint8_t* remaining = remaining_col->mutable_data<uint8_t>();
  uint8_t* branch_of = branch_col->mutable_data<uint8_t>();
  if (scope.active != nullptr) {
    gpu::copy_bytes(remaining, gpu::MemoryKind::kDevice, scope.active, gpu::MemoryKind::kDevice, n, stream_);
  } else {
    gpu::fill_bytes(remaining, gpu::MemoryKind::kDevice, 1, n, stream_);
  }
  gpu::fill_bytes(branch_of, gpu::MemoryKind::kDevice, static_cast<int>(whens), n, stream_);
  int* flags = nullptr;  // [0, whens): rows remain after WHEN b; [whens, 2 * whens): branch b has rows
  DeviceOperand flag_holder = device_flags(2 * whens + 1, &flags);
  // WHEN b runs on the rows no earlier WHEN took; only their errors count.
  Scope remaining_scope{remaining, scope.active_any};
  for (size_t b = 0; b < whens; ++b) {
    DeviceOperand cond = eval(*e.children[2 * b], remaining_scope);
    launch_case_take(arg_of(cond), remaining, branch_of, static_cast<uint8_t>(b), flags + b, n, stream_);
    remaining_scope.active_any = flags + b;
  }
  std::vector<DeviceOperand> pieces;
  std::vector<ColumnPtr> masks;
  for (size_t b = 0; b < whens; ++b) {
    masks.push_back(new_fixed(TypeId::kBoolean, n, false));
    uint8_t* mask = masks.back()->mutable_data<uint8_t>();
    launch_branch_mask(branch_of, static_cast<uint8_t>(b), nullptr, mask, flags + whens + b, n, stream_);
    pieces.push_back(eval(*e.children[2 * b + 1], Scope{mask, flags + whens + b}));
  }
  // ELSE takes the rows still remaining.
  pieces.push_back(eval(*e.children.back(), remaining_scope));
  if (e.type.id() == TypeId::kVarchar) return DeviceOperand{select_strings(pieces, branch_of, n), false, false};
  ColumnPtr out = new_fixed(e.type, n, true);
  for (size_t b = 0; b <= whens; ++b) {
    if (!(pieces[b].column->type() == e.type) && !pieces[b].null_constant) {
      throw NotImplemented("GPU CASE branch of type " + pieces[b].column->type().to_string());
    }
    if (pieces[b].null_constant && pieces[b].column->type().physical_width() != e.type.physical_width()) {
      pieces[b] = constant(Value(), e.type);
    }
    launch_select_into(e.type.physical_width(), arg_of(pieces[b]), branch_of, static_cast<uint8_t>(b), out_of(out), n,
                       stream_);
  }
  return DeviceOperand{out, false, false};
}

ColumnPtr GpuEvaluator::select_strings(std::vector<DeviceOperand>& pieces, const uint8_t* branch_of, size_t rows) {
  for (DeviceOperand& piece : pieces) {
    if (piece.null_constant && piece.column->type().id() != TypeId::kVarchar) {
      piece = constant(Value(), TypeId::kVarchar);  // an untyped NULL, stored as a NULL BOOLEAN
    }
    if (piece.column->type().id() != TypeId::kVarchar) {
      throw NotImplemented("GPU CASE branch of type " + piece.column->type().to_string());
    }
  }
  const auto branches = static_cast<uint8_t>(pieces.size());
  // Plain, dictionary and constant branches may repeat long strings: the result's size is read back to size its
  // bytes.
  return two_pass_strings(
      rows, true,
      [&](int64_t* offsets, uint32_t* validity) {
        gpu::fill_bytes(offsets, gpu::MemoryKind::kDevice, 0, sizeof(int64_t), stream_);
        for (uint8_t b = 0; b < branches; ++b) {
          launch_select_string_lengths(arg_of(pieces[b]), branch_of, b, offsets, validity, rows, stream_);
        }
        launch_lengths_to_offsets(offsets, rows, stream_, mr_);
      },
      [&](const int64_t* offsets, char* chars) {
        for (uint8_t b = 0; b < branches; ++b) {
          launch_select_string_copy(arg_of(pieces[b]), branch_of, b, offsets, chars, rows, stream_);
        }
      });
}

/// True when the column's null count is exact (it was not computed by this evaluation).
static bool null_count_known(const ColumnPtr& result, const Batch& batch) {
  if (result->validity() == nullptr || result->is_dictionary()) return true;
  for (const ColumnPtr& c : batch.columns()) {
    if (c == result) return true;
  }
  return false;
}

}  // namespace gpu_eval

using namespace gpu_eval;  // NOLINT: the evaluator above

std::vector<ColumnPtr> evaluate_gpu_all(const std::vector<plan::ExprPtr>& exprs, const Batch& device_batch,
                                        gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "evaluate_gpu");
  KESTREL_CHECK_MSG(device_batch.on_device(), "GPU expression evaluation needs a device batch");
  // Column references only (a projection that keeps or reorders columns): no device work, no sync.
  if (std::all_of(exprs.begin(), exprs.end(), [&](const plan::ExprPtr& e) {
        return e->kind == ExprKind::kColumnRef && e->column_index < device_batch.num_columns();
      })) {
    std::vector<ColumnPtr> columns;
    for (const plan::ExprPtr& e : exprs) columns.push_back(device_batch.column(e->column_index));
    return columns;
  }
  // [error flag, padding, one valid-row counter per result], read back in one copy.
  const size_t status_bytes = sizeof(StatusBlock) + exprs.size() * sizeof(unsigned long long);
  BufferPtr status = Buffer::allocate(status_bytes, mr, stream);
  gpu::fill_bytes(status->data(), gpu::MemoryKind::kDevice, 0, status_bytes, stream);
  auto* block = status->as<StatusBlock>();
  auto* counters = reinterpret_cast<unsigned long long*>(status->as<uint8_t>() + sizeof(StatusBlock));
  GpuEvaluator evaluator(device_batch, stream, mr, &block->error);
  std::vector<ColumnPtr> results;
  std::vector<uint8_t> count_nulls;
  for (size_t i = 0; i < exprs.size(); ++i) {
    results.push_back(evaluator.materialize(evaluator.eval(*exprs[i], Scope{})));
    count_nulls.push_back(null_count_known(results.back(), device_batch) ? 0 : 1);
    if (count_nulls.back()) {
      launch_count_valid(results.back()->validity()->as<uint8_t>(), device_batch.num_rows(), counters + i, stream);
    }
  }
  // The one sync of an evaluation: the host needs the error flag (to raise) and the results' NULL counts.
  std::vector<uint8_t> host(status_bytes);
  gpu::copy_bytes(host.data(), gpu::MemoryKind::kHost, status->data(), gpu::MemoryKind::kDevice, status_bytes, stream);
  StatusBlock host_block;
  std::memcpy(&host_block, host.data(), sizeof(StatusBlock));
  if (host_block.error != 0) {
    // Rare path: the CPU twin finds the failing row and raises its exact error message.
    Batch host_batch = copy_batch(device_batch, gpu::host_memory_resource(), stream);
    EvalContext ctx;
    for (const plan::ExprPtr& e : exprs) (void)evaluate(*e, host_batch, ctx);
    throw InvalidInput("arithmetic error in " + exprs.front()->to_string() + " (flagged on the GPU)", "22000");
  }
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (!count_nulls[i]) continue;
    unsigned long long valid = 0;
    std::memcpy(&valid, host.data() + sizeof(StatusBlock) + i * sizeof(unsigned long long), sizeof(valid));
    results[i]->set_null_count(device_batch.num_rows() - static_cast<size_t>(valid));
  }
  return results;
}

ColumnPtr evaluate_gpu(const plan::Expr& expr, const Batch& device_batch, gpu::Stream stream,
                       gpu::MemoryResource& mr) {
  // A view of `expr` without owning it: the evaluation ends before this returns.
  std::vector<plan::ExprPtr> one{plan::ExprPtr(plan::ExprPtr(), &expr)};
  return evaluate_gpu_all(one, device_batch, stream, mr).front();
}

}  // namespace kestrel::exec
