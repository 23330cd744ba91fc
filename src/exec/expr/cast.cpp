#include <cmath>
#include <cstring>
#include <vector>

#include "exec/expr/cast_internal.hpp"
#include "exec/expr/cast_ops.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <typename S, typename T, typename Conv>
Operand convert(const Operand& in, const LogicalType& target, size_t rows, const Conv& conv, EvalContext& ctx) {
  Validity validity = and_validity({&in}, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(target, rows, std::move(validity), ctx.memory());
  const S* src = in.data<S>();
  T* dst = out->mutable_data<T>();
  bool ok = true;
  for (size_t i = 0; i < rows; ++i) ok &= conv(src[i], dst[i]);
  if (!ok && ctx.cast_failures_to_null) {
    std::vector<uint8_t> failed(rows);
    for (size_t i = 0; i < rows; ++i) {
      T r;
      failed[i] = !conv(src[i], r);
    }
    return Operand{null_failed_rows(out, in, failed, ctx), in.constant};
  }
  if (!ok) {
    raise_first_error(
        rows, valid,
        [&](size_t i) {
          T r;
          return !conv(src[i], r);
        },
        [&](size_t i) { raise_cast_error(value_text(in, i), in.column->type(), target); });
  }
  return Operand{out, in.constant};
}

/// Casts between numeric types (integers, REAL, DOUBLE, DECIMAL) and from BOOLEAN to integers.
template <typename S, typename T>
Operand numeric_cast(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  const LogicalType& source = in.column->type();
  const bool from_decimal = source.id() == TypeId::kDecimal;
  const bool to_decimal = target.id() == TypeId::kDecimal;
  if constexpr (is_float_v<T>) {
    if (from_decimal) {
      return convert<S, T>(in, target, rows, ops::DecimalToFloat<S, T>{std::pow(10.0, source.scale())}, ctx);
    }
    return convert<S, T>(in, target, rows, ops::ToFloat<S, T>{}, ctx);
  } else if constexpr (is_float_v<S>) {
    if (to_decimal) {
      ops::FloatToDecimal<S, T> conv{target.precision(), std::pow(10.0, target.scale()),
                                     std::pow(10.0, target.precision())};
      return convert<S, T>(in, target, rows, conv, ctx);
    }
    return convert<S, T>(in, target, rows, ops::FloatToInt<S, T>{}, ctx);
  } else {
    if (from_decimal && to_decimal) {
      ops::DecimalToDecimal<S, T> conv{target.scale() - source.scale(), target.precision()};
      return convert<S, T>(in, target, rows, conv, ctx);
    }
    if (from_decimal) {
      return convert<S, T>(in, target, rows, ops::DecimalToInt<S, T>{numeric::pow10<S>(source.scale())}, ctx);
    }
    if (to_decimal) {
      ops::IntToDecimal<S, T> conv{target.precision(), numeric::pow10<T>(target.scale())};
      return convert<S, T>(in, target, rows, conv, ctx);
    }
    return convert<S, T>(in, target, rows, ops::IntToInt<S, T>{}, ctx);
  }
}

}  // namespace

ColumnPtr null_failed_rows(const ColumnPtr& out, const Operand& in, const std::vector<uint8_t>& failed,
                           EvalContext& ctx) {
  const size_t rows = failed.size();
  std::vector<uint8_t> valid(rows);
  for (size_t i = 0; i < rows; ++i) valid[i] = in.valid(i) && !failed[i];
  ColumnPtr result =
      make_output(out->type(), rows, validity_from_bytes(valid.data(), rows, ctx.memory()), ctx.memory());
  dispatch_fixed(out->type(), [&](auto tag) {
    using T = decltype(tag);
    std::memcpy(result->mutable_data<T>(), out->data<T>(), rows * sizeof(T));
  });
  return result;
}

void raise_cast_error(const std::string& value_text, const LogicalType& source, const LogicalType& target) {
  if (source.id() == TypeId::kVarchar) {
    throw InvalidInput("cannot cast '" + value_text + "' to " + target.to_string(), "22018");
  }
  throw InvalidInput("cannot cast " + source.to_string() + " " + value_text + " to " + target.to_string() +
                         ": out of range",
                     "22003");
}

Operand cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  const LogicalType& source = in.column->type();
  if (source == target) return in;
  // Only NULLs (a NULL column of a UNION's other side, stored as BOOLEAN): NULLs of any type, whatever the pair.
  if (in.is_null_constant() || in.column->null_count() == in.column->length()) {  // also: no rows at all
    return null_operand(target, ctx.memory());
  }
  if (source.is_nested() && target.id() == TypeId::kJson) return nested_to_json(in, rows, ctx);
  if (source.is_nested() || target.is_nested()) return nested_cast_kernel(in, target, ctx);
  if (source.id() == TypeId::kJson || target.id() == TypeId::kJson) return json_cast_kernel(in, target, rows, ctx);
  if (source.id() == TypeId::kTimestampTz || target.id() == TypeId::kTimestampTz) {
    return timestamp_tz_cast_kernel(in, target, rows, ctx);
  }
  if (source.is_variable_width() && target.is_variable_width()) {
    // VARCHAR to VARBINARY: the UTF-8 bytes of the text, the same buffers under the new type. VARBINARY to VARCHAR
    // only comes from the binder, which runs VARCHAR aggregate states over bytes (SQL cannot write this cast).
    return Operand{Column::retyped(in.column, target), in.constant};
  }
  if (target.id() == TypeId::kVarchar) return cast_to_string(in, rows, ctx);
  if (source.id() == TypeId::kVarchar) return cast_from_string(in, target, rows, ctx);
  const TypeId s = source.id(), t = target.id();
  if (s == TypeId::kDecimal && t == TypeId::kDecimal && source.scale() == target.scale() &&
      source.precision() <= target.precision() && source.physical_width() == target.physical_width()) {
    // Only the declared precision grows: the same buffers under the new type.
    const Column& c = *in.column;
    return Operand{Column::from_buffers(target, ColumnEncoding::kPlain, c.length(), c.null_count(), c.validity(),
                                        c.values(), nullptr, nullptr),
                   in.constant};
  }
  if (s == TypeId::kDate && t == TypeId::kTimestamp) {
    return convert<int32_t, int64_t>(in, target, rows, ops::DateToTimestamp{}, ctx);
  }
  if (s == TypeId::kTimestamp && t == TypeId::kDate) {
    return convert<int64_t, int32_t>(in, target, rows, ops::TimestampToDate{}, ctx);
  }
  if (t == TypeId::kBoolean && source.is_integral()) {
    return dispatch_fixed(source, [&](auto tag) -> Operand {
      using S = decltype(tag);
      if constexpr (std::is_integral_v<S>) {
        return convert<S, uint8_t>(in, target, rows, ops::IntToBool<S>{}, ctx);
      } else {
        throw InternalError("cast to BOOLEAN");
      }
    });
  }
  const bool bool_to_int = s == TypeId::kBoolean && target.is_integral();
  if ((source.is_numeric() && target.is_numeric()) || bool_to_int) {
    return dispatch_fixed(source, [&](auto s_tag) -> Operand {
      return dispatch_fixed(target, [&](auto t_tag) -> Operand {
        using S = decltype(s_tag);
        using T = decltype(t_tag);
        if constexpr (std::is_same_v<S, Interval> || std::is_same_v<T, Interval> || std::is_same_v<S, TimestampTz> ||
                      std::is_same_v<T, TimestampTz> || std::is_same_v<T, uint8_t>) {
          throw InternalError("numeric cast on " + source.to_string());
        } else {
          return numeric_cast<S, T>(in, target, rows, ctx);
        }
      });
    });
  }
  throw NotImplemented("CAST from " + source.to_string() + " to " + target.to_string());
}

}  // namespace kestrel::exec
