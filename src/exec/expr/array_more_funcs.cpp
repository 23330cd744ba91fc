// CPU kernels of remove_nulls, array_sort_desc, array_top_n, trim_array and shuffle, and the dispatch of the other
// array and map functions of issue 15 that take no lambda.

#include <algorithm>
#include <numeric>
#include <random>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

Operand remove_nulls(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r);
    for (int64_t i = valid ? list.begin(r) : 0; valid && i < list.end(r); ++i) {
      if (list.child().is_valid(static_cast<size_t>(i))) out.add(static_cast<uint32_t>(i));
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

/// array_sort_desc and array_top_n: the elements in descending order, NULLs last; top_n keeps the first n.
Operand sort_desc(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const bool top_n = e.function == F::kArrayTopN;
  const ListReader list(args[0]);
  const std::vector<std::string> keys = row_keys(list.child());
  ListBuilder out(shape.rows);
  std::vector<uint32_t> order;
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && (!top_n || args[1].valid(r));
    if (valid) {
      size_t keep = static_cast<size_t>(list.size(r));
      if (top_n) {
        const int64_t n = bigint_at(args[1], r);
        if (n < 0) raise_nested(e, "array_top_n: n must not be negative, got " + std::to_string(n), "22023");
        keep = std::min(keep, static_cast<size_t>(n));
      }
      order.resize(static_cast<size_t>(list.size(r)));
      std::iota(order.begin(), order.end(), static_cast<uint32_t>(list.begin(r)));
      const Column& elements = list.child();
      // Values descending; NULLs (whose key bytes sort last) stay last.
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const bool va = elements.is_valid(a), vb = elements.is_valid(b);
        if (va != vb) return va;
        return va && keys[a] > keys[b];
      });
      for (size_t k = 0; k < keep; ++k) out.add(order[k]);
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

Operand trim_array(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r);
    if (valid) {
      const int64_t n = bigint_at(args[1], r);
      if (n < 0) raise_nested(e, "trim_array: n must not be negative, got " + std::to_string(n), "22023");
      if (n > list.size(r)) {
        raise_nested(e, "trim_array: n (" + std::to_string(n) + ") must not exceed the array's cardinality (" +
                            std::to_string(list.size(r)) + ")",
                     "22023");
      }
      for (int64_t i = list.begin(r); i < list.end(r) - n; ++i) out.add(static_cast<uint32_t>(i));
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

std::mt19937_64& shuffle_engine() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

/// shuffle: a new random order for every row, even of a constant array (it is not deterministic).
Operand shuffle(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListBuilder out(rows);
  std::vector<uint32_t> order;
  for (size_t r = 0; r < rows; ++r) {
    const bool valid = list.valid(r);
    if (valid) {
      order.resize(static_cast<size_t>(list.size(r)));
      std::iota(order.begin(), order.end(), static_cast<uint32_t>(list.begin(r)));
      std::shuffle(order.begin(), order.end(), shuffle_engine());
      for (uint32_t k : order) out.add(k);
    }
    out.finish_row(r, valid);
  }
  return Operand{out.finish(e.type, list.child(), ctx.memory()), false};
}

}  // namespace

Operand more_nested_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kRemoveNulls: return remove_nulls(e, args, shape, ctx);
    case F::kArraySortDesc:
    case F::kArrayTopN: return sort_desc(e, args, shape, ctx);
    case F::kTrimArray: return trim_array(e, args, shape, ctx);
    case F::kShuffle: return shuffle(e, args, rows, ctx);
    case F::kArrayExcept:
    case F::kArrayIntersect:
    case F::kArrayUnion:
    case F::kArraysOverlap:
    case F::kArrayRemove:
    case F::kArrayDuplicates:
    case F::kArrayHasDuplicates:
    case F::kArrayFrequency:
    case F::kArrayLeastFrequent:
    case F::kArrayMostFrequent: return array_set_ops_kernel(e, args, rows, ctx);
    case F::kArraySum:
    case F::kArrayAverage:
    case F::kArrayCumSum:
    case F::kArrayNormalize: return array_numeric_kernel(e, args, rows, ctx);
    case F::kFlatten:
    case F::kNgrams:
    case F::kCombinations:
    case F::kRepeat:
    case F::kZip:
    case F::kArraySplitIntoChunks:
    case F::kArrayTranspose: return array_shape_kernel(e, args, rows, ctx);
    case F::kMapTopNKeys:
    case F::kMapKeysByTopNValues:
    case F::kMapTopN:
    case F::kMapTopNValues: return map_top_kernel(e, args, rows, ctx);
    default: return map_more_kernel(e, args, rows, ctx);
  }
}

}  // namespace kestrel::exec
