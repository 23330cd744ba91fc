// CPU kernels of the array functions over numbers: array_sum, array_average, array_cum_sum and array_normalize.

#include <cmath>
#include <limits>
#include <type_traits>

#include "common/numeric_ops.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// array_sum over ARRAY(BIGINT) (an overflow is an error) or ARRAY(DOUBLE), and array_average over ARRAY(DOUBLE):
/// NULL elements are skipped; an array without others sums to 0 and averages to NULL.
Operand sum_or_average(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape,
                       EvalContext& ctx) {
  const ListReader list(args[0]);
  const Column& elements = list.child();
  std::vector<uint8_t> valid(shape.rows, 0);
  if (e.type.id() == TypeId::kBigInt) {
    std::vector<int64_t> sums(shape.rows, 0);
    for (size_t r = 0; r < shape.rows; ++r) {
      valid[r] = list.valid(r) ? 1 : 0;
      for (int64_t i = valid[r] ? list.begin(r) : 0; valid[r] && i < list.end(r); ++i) {
        const auto k = static_cast<size_t>(i);
        if (elements.is_valid(k) && numeric::add_overflow(sums[r], elements.data<int64_t>()[k], &sums[r])) {
          raise_nested(e, "array_sum: BIGINT overflow");
        }
      }
    }
    return as_operand(fixed_column<int64_t>(TypeId::kBigInt, sums, valid, ctx.memory()), shape);
  }
  std::vector<double> results(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!list.valid(r)) continue;
    double sum = 0;
    int64_t count = 0;
    for (int64_t i = list.begin(r); i < list.end(r); ++i) {
      const auto k = static_cast<size_t>(i);
      if (!elements.is_valid(k)) continue;
      sum += elements.data<double>()[k];
      ++count;
    }
    const bool average = e.function == F::kArrayAverage;
    valid[r] = !average || count > 0 ? 1 : 0;
    results[r] = average && count > 0 ? sum / static_cast<double>(count) : sum;
  }
  return as_operand(fixed_column<double>(TypeId::kDouble, results, valid, ctx.memory()), shape);
}

/// Adds `v` to `sum` in the element type `type` (T its storage); false when the result does not fit the type.
template <typename T>
bool add_in_type(const LogicalType& type, T& sum, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    sum += v;
    return true;
  } else {
    if (numeric::add_overflow(sum, v, &sum)) return false;
    return type.id() != TypeId::kDecimal || numeric::fits_precision(sum, type.precision());
  }
}

/// array_cum_sum: element i is the sum of elements 1..i, in the element type (an overflow is an error); NULL from
/// the first NULL element on.
Operand cum_sum(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const Column& elements = list.child();
  const LogicalType& type = e.type.element_type();
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0), element_valid;
  ColumnPtr child = dispatch_fixed(type, [&](auto tag) -> ColumnPtr {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, int128_t>) {
      std::vector<T> values;
      for (size_t r = 0; r < shape.rows; ++r) {
        valid[r] = list.valid(r) ? 1 : 0;
        T sum{};
        bool null = false;
        for (int64_t i = valid[r] ? list.begin(r) : 0; valid[r] && i < list.end(r); ++i) {
          const auto k = static_cast<size_t>(i);
          null = null || !elements.is_valid(k);
          if (!null && !add_in_type(type, sum, elements.data<T>()[k])) {
            raise_nested(e, "array_cum_sum: " + type.to_string() + " overflow");
          }
          values.push_back(null ? T{} : sum);
          element_valid.push_back(null ? 0 : 1);
        }
        offsets.push_back(static_cast<int64_t>(values.size()));
      }
      return fixed_column<T>(type, values, element_valid, ctx.memory());
    } else {
      throw InternalError("array_cum_sum of " + type.to_string());
    }
  });
  return as_operand(make_list_column(e.type, offsets, valid, std::move(child), ctx.memory()), shape);
}

/// array_normalize(x, p) over REAL or DOUBLE (T): x divided by its p-norm. As Presto: p = 0 and an all-zero x give
/// x unchanged, a NULL element gives NULL, a negative p is an error.
template <typename T>
Operand normalize(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const Column& elements = list.child();
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0), element_valid;
  std::vector<T> values;
  for (size_t r = 0; r < shape.rows; ++r) {
    if (list.valid(r) && args[1].valid(r)) {
      const double p = args[1].data<T>()[args[1].index(r)];
      if (!(p >= 0)) raise_nested(e, "array_normalize: p must not be negative, got " + value_text(args[1], r), "22023");
      bool has_null = false;
      double norm = 0;
      for (int64_t i = list.begin(r); i < list.end(r); ++i) {
        const auto k = static_cast<size_t>(i);
        has_null = has_null || !elements.is_valid(k);
        if (!has_null) norm += std::pow(std::abs(static_cast<double>(elements.data<T>()[k])), p);
      }
      valid[r] = p == 0 || !has_null ? 1 : 0;
      norm = p == 0 ? 0 : std::pow(norm, 1.0 / p);
      for (int64_t i = valid[r] ? list.begin(r) : 0; valid[r] && i < list.end(r); ++i) {
        const auto k = static_cast<size_t>(i);
        const T v = elements.is_valid(k) ? elements.data<T>()[k] : T{};
        values.push_back(norm == 0 ? v : static_cast<T>(static_cast<double>(v) / norm));
        element_valid.push_back(elements.is_valid(k) ? 1 : 0);
      }
    }
    offsets.push_back(static_cast<int64_t>(values.size()));
  }
  ColumnPtr child = fixed_column<T>(e.type.element_type(), values, element_valid, ctx.memory());
  return as_operand(make_list_column(e.type, offsets, valid, std::move(child), ctx.memory()), shape);
}

}  // namespace

Operand array_numeric_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kArraySum:
    case F::kArrayAverage: return sum_or_average(e, args, shape, ctx);
    case F::kArrayCumSum: return cum_sum(e, args, shape, ctx);
    case F::kArrayNormalize:
      if (e.type.element_type().id() == TypeId::kReal) return normalize<float>(e, args, shape, ctx);
      return normalize<double>(e, args, shape, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
