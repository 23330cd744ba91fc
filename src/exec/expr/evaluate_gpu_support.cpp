#include "exec/expr/evaluate_gpu_support.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "common/datetime_ops.hpp"
#include "exec/expr/expr_kernels_gpu.hpp"

namespace kestrel::exec {

#if KESTREL_WITH_CUDA

namespace {

using plan::Expr;
using plan::ExprKind;
using plan::ScalarFunction;

/// Types a device column may hold for the GPU evaluator (INTERVAL only as a constant operand, checked apart).
bool column_type_ok(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kReal:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kVarchar: return true;
    default: return false;
  }
}

bool is_constant(const Expr& e) { return e.kind == ExprKind::kConstant; }
bool is_null_constant(const Expr& e) { return is_constant(e) && e.constant.is_null(); }
bool has_type(const Expr& e, TypeId id) { return e.type.id() == id; }

bool supported(const Expr& e);

bool children_supported(const Expr& e) {
  return std::all_of(e.children.begin(), e.children.end(), [](const plan::ExprPtr& c) { return supported(*c); });
}

bool arithmetic_supported(const Expr& e) {
  if (e.function == ScalarFunction::kNegate) {
    if (e.children.size() != 1 || !(e.children[0]->type == e.type)) return false;
    return e.type.is_numeric();
  }
  if (e.children.size() != 2) return false;
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  if (has_type(e, TypeId::kDecimal)) return has_type(a, TypeId::kDecimal) && has_type(b, TypeId::kDecimal);
  switch (e.type.id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kReal:
    case TypeId::kDouble: return a.type == e.type && b.type == e.type;
    default: return false;
  }
}

bool comparison_supported(const Expr& e) {
  return e.children.size() == 2 && e.children[0]->type == e.children[1]->type && column_type_ok(e.children[0]->type);
}

bool like_supported(const Expr& e) {
  if (e.children.size() < 2 || e.children.size() > 3 || !has_type(*e.children[0], TypeId::kVarchar)) return false;
  for (size_t i = 1; i < e.children.size(); ++i) {
    if (!is_constant(*e.children[i])) return false;
    if (!is_null_constant(*e.children[i]) && !has_type(*e.children[i], TypeId::kVarchar)) return false;
  }
  if (e.children.size() == 3 && !is_null_constant(*e.children[2])) {
    const std::string& escape = e.children[2]->constant.as_string();
    if (!escape.empty() && static_cast<uint8_t>(escape[0]) >= 0x80) return false;
  }
  return true;
}

bool substring_supported(const Expr& e) {
  if (e.children.size() < 2 || e.children.size() > 3 || !has_type(*e.children[0], TypeId::kVarchar)) return false;
  // Column bounds over a dictionary column are not supported; constant bounds always are.
  for (size_t i = 1; i < e.children.size(); ++i) {
    const Expr& bound = *e.children[i];
    if (!is_constant(bound) || bound.constant.is_null() || !has_type(bound, TypeId::kBigInt)) return false;
  }
  return true;
}

bool extract_supported(const Expr& e) {
  if (e.children.size() != 2 || !has_type(e, TypeId::kBigInt)) return false;
  const Expr& field = *e.children[0];
  if (!is_constant(field) || field.constant.is_null() || !has_type(field, TypeId::kVarchar)) return false;
  // Every field: extract_from_date / extract_from_timestamp run on the device as on the host.
  if (!parse_date_part(field.constant.as_string())) return false;
  return has_type(*e.children[1], TypeId::kDate) || has_type(*e.children[1], TypeId::kTimestamp);
}

bool is_date_or_timestamp(const Expr& x) { return has_type(x, TypeId::kDate) || has_type(x, TypeId::kTimestamp); }

/// The unit of date_trunc, date_add or date_diff: a non-NULL VARCHAR constant naming a date part.
std::optional<DatePart> constant_unit(const Expr& unit) {
  if (!is_constant(unit) || unit.constant.is_null() || !has_type(unit, TypeId::kVarchar)) return std::nullopt;
  return parse_date_part(unit.constant.as_string());
}

/// True when `e` has the result type `result` and exactly the operand types `operands`.
bool signature_is(const Expr& e, std::initializer_list<TypeId> operands, TypeId result) {
  if (e.children.size() != operands.size() || !has_type(e, result)) return false;
  size_t k = 0;
  for (TypeId t : operands) {
    if (!has_type(*e.children[k++], t)) return false;
  }
  return true;
}

/// Presto's date functions on DATE and TIMESTAMP (TIMESTAMP WITH TIME ZONE stays on the CPU: the binder wraps it in
/// conversions that are not GPU functions), with the units the CPU accepts.
bool presto_datetime_supported(const Expr& e) {
  constexpr TypeId kDate = TypeId::kDate, kTimestamp = TypeId::kTimestamp;
  switch (e.function) {
    case ScalarFunction::kYearOfWeek:
      return e.children.size() == 1 && is_date_or_timestamp(*e.children[0]) && has_type(e, TypeId::kBigInt);
    case ScalarFunction::kLastDayOfMonth:
      return e.children.size() == 1 && is_date_or_timestamp(*e.children[0]) && has_type(e, kDate);
    case ScalarFunction::kToUnixtime: return signature_is(e, {kTimestamp}, TypeId::kDouble);
    case ScalarFunction::kFromUnixtime: return signature_is(e, {TypeId::kDouble}, kTimestamp);
    case ScalarFunction::kDateTrunc: {
      if (e.children.size() != 2 || !is_date_or_timestamp(*e.children[1]) || !(e.type == e.children[1]->type)) {
        return false;
      }
      const std::optional<DatePart> unit = constant_unit(*e.children[0]);
      return unit && is_trunc_unit(*unit);
    }
    case ScalarFunction::kDateAdd: {
      if (e.children.size() != 3 || !has_type(*e.children[1], TypeId::kBigInt) ||
          !is_date_or_timestamp(*e.children[2]) || !(e.type == e.children[2]->type)) {
        return false;
      }
      const std::optional<DatePart> unit = constant_unit(*e.children[0]);
      return unit && is_date_add_unit(*unit, has_type(e, kTimestamp));
    }
    case ScalarFunction::kDateDiff: {
      if (e.children.size() != 3 || !has_type(e, TypeId::kBigInt) || !is_date_or_timestamp(*e.children[1]) ||
          !(e.children[1]->type == e.children[2]->type)) {
        return false;
      }
      const std::optional<DatePart> unit = constant_unit(*e.children[0]);
      return unit && is_date_add_unit(*unit, has_type(*e.children[1], kTimestamp));
    }
    default: return false;
  }
}

/// Presto's string functions on VARCHAR (not VARBINARY) with their bound argument types.
bool presto_string_supported(const Expr& e) {
  constexpr TypeId V = TypeId::kVarchar, B = TypeId::kBigInt;
  switch (e.function) {
    case ScalarFunction::kReverse: return signature_is(e, {V}, V);
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad: return signature_is(e, {V, B, V}, V);
    case ScalarFunction::kChr: return signature_is(e, {B}, V);
    case ScalarFunction::kSplitPart: return signature_is(e, {V, V, B}, V);
    case ScalarFunction::kReplaceFirst: return signature_is(e, {V, V, V}, V);
    case ScalarFunction::kTrail: return signature_is(e, {V, B}, V);
    case ScalarFunction::kLongestCommonPrefix: return signature_is(e, {V, V}, V);
    case ScalarFunction::kCodepoint: return signature_is(e, {V}, TypeId::kInteger);
    case ScalarFunction::kEndsWith: return signature_is(e, {V, V}, TypeId::kBoolean);
    case ScalarFunction::kStrrpos: return signature_is(e, {V, V}, B) || signature_is(e, {V, V, B}, B);
    case ScalarFunction::kHammingDistance:
    case ScalarFunction::kLevenshteinDistance: return signature_is(e, {V, V}, B);
    case ScalarFunction::kBitLength: return signature_is(e, {V}, B);
    default: return false;
  }
}

bool datetime_supported(const Expr& e) {
  if (e.children.size() != 2) return false;
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  switch (e.function) {
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval: {
      const bool interval_first = has_type(a, TypeId::kInterval);
      const Expr& x = interval_first ? b : a;
      const Expr& interval = interval_first ? a : b;
      // The interval is a constant (device INTERVAL columns are not supported); the result keeps x's type.
      if (!has_type(interval, TypeId::kInterval) || !is_constant(interval) || interval.constant.is_null()) return false;
      if (!(has_type(x, TypeId::kDate) || has_type(x, TypeId::kTimestamp))) return false;
      return e.type == x.type && supported(x);
    }
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays: {
      const bool days_first = !has_type(a, TypeId::kDate);
      const Expr& date = days_first ? b : a;
      const Expr& days = days_first ? a : b;
      return has_type(date, TypeId::kDate) && has_type(days, TypeId::kInteger) && has_type(e, TypeId::kDate);
    }
    case ScalarFunction::kDateDiffDays:
      return has_type(a, TypeId::kDate) && has_type(b, TypeId::kDate) && has_type(e, TypeId::kInteger);
    default: return false;
  }
}

bool function_supported(const Expr& e) {
  if (gpu_expr::is_double_math(e.function)) {
    if (e.children.empty() || e.children.size() > 2) return false;
    const LogicalType* y = e.children.size() == 2 ? &e.children[1]->type : nullptr;
    return gpu_expr::double_math_supported(e.function, e.children[0]->type, y, e.type) && children_supported(e);
  }
  switch (e.function) {
    case ScalarFunction::kAdd:
    case ScalarFunction::kSubtract:
    case ScalarFunction::kMultiply:
    case ScalarFunction::kDivide:
    case ScalarFunction::kModulo:
    case ScalarFunction::kNegate: return arithmetic_supported(e) && children_supported(e);
    case ScalarFunction::kEqual:
    case ScalarFunction::kNotEqual:
    case ScalarFunction::kLess:
    case ScalarFunction::kLessEqual:
    case ScalarFunction::kGreater:
    case ScalarFunction::kGreaterEqual:
    case ScalarFunction::kIsDistinctFrom:
    case ScalarFunction::kIsNotDistinctFrom: return comparison_supported(e) && children_supported(e);
    case ScalarFunction::kLike:
    case ScalarFunction::kNotLike: return like_supported(e) && supported(*e.children[0]);
    case ScalarFunction::kSubstring: return substring_supported(e) && supported(*e.children[0]);
    case ScalarFunction::kExtract: return extract_supported(e) && supported(*e.children[1]);
    case ScalarFunction::kDateAddInterval:
    case ScalarFunction::kDateSubtractInterval: return datetime_supported(e);
    case ScalarFunction::kDateAddDays:
    case ScalarFunction::kDateSubtractDays:
    case ScalarFunction::kDateDiffDays: return datetime_supported(e) && children_supported(e);
    case ScalarFunction::kCoalesce:
    case ScalarFunction::kNullIf: {
      const plan::ExprPtr as_case = conditional_as_case(e);
      return as_case != nullptr && supported(*as_case);
    }
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast: {
      // Floats stay on the CPU (its NaN order). Strings compare by their bytes on both sides.
      if (!(e.type.is_fixed_width() || e.type.id() == TypeId::kVarchar) || e.type.id() == TypeId::kReal ||
          e.type.id() == TypeId::kDouble || e.type.id() == TypeId::kBoolean) {
        return false;
      }
      for (const plan::ExprPtr& c : e.children) {
        if (!(c->type == e.type)) return false;
      }
      const plan::ExprPtr as_case = conditional_as_case(e);
      return as_case != nullptr && supported(*as_case);
    }
    case ScalarFunction::kLength:
    case ScalarFunction::kUpper:
    case ScalarFunction::kLower:
      return e.children.size() == 1 && has_type(*e.children[0], TypeId::kVarchar) &&
             has_type(e, e.function == ScalarFunction::kLength ? TypeId::kBigInt : TypeId::kVarchar) &&
             children_supported(e);
    case ScalarFunction::kTrim:
    case ScalarFunction::kLTrim:
    case ScalarFunction::kRTrim: {
      if (e.children.empty() || e.children.size() > 2 || !has_type(*e.children[0], TypeId::kVarchar) ||
          !has_type(e, TypeId::kVarchar)) {
        return false;
      }
      if (e.children.size() == 2) {
        const Expr& set = *e.children[1];
        if (!is_constant(set)) return false;
        if (!set.constant.is_null() && (!has_type(set, TypeId::kVarchar) ||
                                        !gpu_expr::trim_set_supported(set.constant.as_string()))) {
          return false;
        }
      }
      return children_supported(e);
    }
    case ScalarFunction::kPosition:
    case ScalarFunction::kStartsWith:
    case ScalarFunction::kReplace: {
      const size_t arity = e.function == ScalarFunction::kReplace ? 3 : 2;
      const TypeId result = e.function == ScalarFunction::kPosition     ? TypeId::kBigInt
                            : e.function == ScalarFunction::kStartsWith ? TypeId::kBoolean
                                                                        : TypeId::kVarchar;
      if (e.children.size() != arity || !has_type(e, result)) return false;
      for (const plan::ExprPtr& c : e.children) {
        if (!has_type(*c, TypeId::kVarchar)) return false;
      }
      return children_supported(e);
    }
    case ScalarFunction::kConcat:
      if (e.children.empty() || e.children.size() > static_cast<size_t>(gpu_expr::ConcatArgs::kMaxArgs) ||
          !has_type(e, TypeId::kVarchar)) {
        return false;
      }
      for (const plan::ExprPtr& c : e.children) {
        if (!has_type(*c, TypeId::kVarchar)) return false;
      }
      return children_supported(e);
    case ScalarFunction::kAbs:
    case ScalarFunction::kSign:
    case ScalarFunction::kRound:
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil:
    case ScalarFunction::kTruncate:
    case ScalarFunction::kSqrt: {
      if (e.children.empty() || e.children.size() > 2) return false;
      const bool digits = e.children.size() == 2;
      if (digits && !has_type(*e.children[1], TypeId::kInteger)) return false;
      return gpu_expr::math_supported_types(e.function, e.children[0]->type, e.type, digits) && children_supported(e);
    }
    case ScalarFunction::kYearOfWeek:
    case ScalarFunction::kLastDayOfMonth:
    case ScalarFunction::kDateTrunc:
    case ScalarFunction::kDateAdd:
    case ScalarFunction::kDateDiff:
    case ScalarFunction::kToUnixtime:
    case ScalarFunction::kFromUnixtime: return presto_datetime_supported(e) && children_supported(e);
    case ScalarFunction::kReverse:
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad:
    case ScalarFunction::kChr:
    case ScalarFunction::kSplitPart:
    case ScalarFunction::kReplaceFirst:
    case ScalarFunction::kTrail:
    case ScalarFunction::kLongestCommonPrefix:
    case ScalarFunction::kCodepoint:
    case ScalarFunction::kEndsWith:
    case ScalarFunction::kStrrpos:
    case ScalarFunction::kHammingDistance:
    case ScalarFunction::kLevenshteinDistance:
    case ScalarFunction::kBitLength: return presto_string_supported(e) && children_supported(e);
    default: return false;
  }
}

bool case_supported(const Expr& e) {
  // Any column type: fixed-width values are selected in place, strings assembled into a plain VARCHAR column.
  if (!column_type_ok(e.type) || e.children.size() < 3 || e.children.size() % 2 == 0) {
    return false;
  }
  const size_t whens = (e.children.size() - 1) / 2;
  if (whens > 250) return false;
  for (size_t b = 0; b < whens; ++b) {
    if (!has_type(*e.children[2 * b], TypeId::kBoolean)) return false;
  }
  for (size_t b = 0; b <= whens; ++b) {
    const Expr& piece = *e.children[b == whens ? e.children.size() - 1 : 2 * b + 1];
    if (!(piece.type == e.type) && !is_null_constant(piece)) return false;
  }
  return children_supported(e);
}

bool in_list_supported(const Expr& e) {
  if (e.children.size() < 2 || !column_type_ok(e.children[0]->type)) return false;
  for (const plan::ExprPtr& item : e.children) {
    if (!(item->type == e.children[0]->type)) return false;
  }
  return children_supported(e);
}

bool supported(const Expr& e) {
  switch (e.kind) {
    // An untyped NULL (constant or column) is all NULL, stored as the CPU stores it; it may be projected, gathered
    // and tested with IS [NOT] NULL, while operators that compute on values check their operands' types apart.
    case ExprKind::kConstant: return column_type_ok(e.type) || has_type(e, TypeId::kNull);
    case ExprKind::kColumnRef: return e.outer_depth == 0 && (column_type_ok(e.type) || has_type(e, TypeId::kNull));
    case ExprKind::kFunction: return function_supported(e);
    case ExprKind::kCast: {
      if (e.children.size() != 1 || !column_type_ok(e.type)) return false;
      const Expr& in = *e.children[0];
      // An untyped NULL (constant or column) casts to NULLs of any type, as on the CPU.
      if (!(in.type == e.type) && !is_null_constant(in) && !has_type(in, TypeId::kNull) &&
          !gpu_expr::cast_supported(in.type, e.type)) {
        return false;
      }
      return supported(in);
    }
    case ExprKind::kCase: return case_supported(e);
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      if (e.children.empty()) return false;
      for (const plan::ExprPtr& c : e.children) {
        if (!has_type(*c, TypeId::kBoolean)) return false;
      }
      return children_supported(e);
    }
    case ExprKind::kNot: return e.children.size() == 1 && has_type(*e.children[0], TypeId::kBoolean) && children_supported(e);
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull: return e.children.size() == 1 && children_supported(e);
    case ExprKind::kInList: return in_list_supported(e);
    case ExprKind::kSubquery:
    case ExprKind::kLambda:
    case ExprKind::kLambdaParam: return false;  // lambdas run on the CPU only
  }
  return false;
}

}  // namespace

bool can_evaluate_gpu(const plan::Expr& expr) { return supported(expr); }

#else

bool can_evaluate_gpu(const plan::Expr&) { return false; }

#endif

namespace {

plan::ExprPtr coalesce_as_case(const plan::Expr& coalesce) {
  std::vector<plan::ExprPtr> children;
  for (size_t i = 0; i + 1 < coalesce.children.size(); ++i) {
    const plan::ExprPtr& arg = coalesce.children[i];
    children.push_back(plan::make_node(plan::ExprKind::kIsNotNull, TypeId::kBoolean, {arg}));
    children.push_back(arg);
  }
  children.push_back(coalesce.children.back());
  if (children.size() == 1) {
    // COALESCE(x) is x: a CASE needs one WHEN, so one that is always taken.
    children.insert(children.begin(), {plan::make_constant(Value::boolean(true)), children.front()});
  }
  return plan::make_node(plan::ExprKind::kCase, coalesce.type, std::move(children));
}

/// GREATEST / LEAST with more arguments stay on the CPU (the CASE grows with the square of their number).
constexpr size_t kMaxExtremeArguments = 8;

plan::ExprPtr is_null(const plan::ExprPtr& e) { return plan::make_node(plan::ExprKind::kIsNull, TypeId::kBoolean, {e}); }

}  // namespace

plan::ExprPtr conditional_as_case(const plan::Expr& e) {
  using plan::ScalarFunction;
  if (e.kind != plan::ExprKind::kFunction || e.children.empty()) return nullptr;
  switch (e.function) {
    case ScalarFunction::kCoalesce: return coalesce_as_case(e);
    case ScalarFunction::kNullIf: {
      if (e.children.size() != 2) return nullptr;
      const plan::ExprPtr& a = e.children[0];
      return plan::make_node(plan::ExprKind::kCase, e.type,
                             {plan::make_function(ScalarFunction::kEqual, TypeId::kBoolean, {a, e.children[1]}),
                              plan::make_constant(Value()), a});
    }
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast: {
      // CASE WHEN a IS NOT NULL AND (b IS NULL OR a >= b) AND ... THEN a WHEN b ... ELSE NULL END: the first
      // argument that is not NULL and not beaten by any other (equal values are equal, so ties do not matter).
      // Each argument appears O(n) times, so only a few arguments are rewritten.
      const size_t n = e.children.size();
      if (n < 2 || n > kMaxExtremeArguments) return nullptr;
      const ScalarFunction at_least =
          e.function == ScalarFunction::kGreatest ? ScalarFunction::kGreaterEqual : ScalarFunction::kLessEqual;
      std::vector<plan::ExprPtr> children;
      for (size_t i = 0; i < n; ++i) {
        std::vector<plan::ExprPtr> terms{
            plan::make_node(plan::ExprKind::kIsNotNull, TypeId::kBoolean, {e.children[i]})};
        for (size_t j = 0; j < n; ++j) {
          if (j == i) continue;
          terms.push_back(plan::make_node(
              plan::ExprKind::kOr, TypeId::kBoolean,
              {is_null(e.children[j]),
               plan::make_function(at_least, TypeId::kBoolean, {e.children[i], e.children[j]})}));
        }
        children.push_back(plan::make_node(plan::ExprKind::kAnd, TypeId::kBoolean, std::move(terms)));
        children.push_back(e.children[i]);
      }
      children.push_back(plan::make_constant(Value()));
      return plan::make_node(plan::ExprKind::kCase, e.type, std::move(children));
    }
    default: return nullptr;
  }
}

}  // namespace kestrel::exec
