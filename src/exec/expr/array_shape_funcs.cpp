// CPU kernels of the array functions that reshape arrays: flatten, ngrams, combinations, repeat, zip,
// array_split_into_chunks and array_transpose.

#include <algorithm>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// Presto's limits: combinations of at most 5 elements and 100000 elements in all; repeat and chunks up to 10000.
constexpr int64_t kMaxCombinationSize = 5;
constexpr int64_t kMaxCombinationElements = 100000;
constexpr int64_t kMaxRepeat = 10000;
constexpr int64_t kMaxChunks = 10000;

std::string fn_name(const plan::Expr& e) { return plan::scalar_function_name(e.function); }

/// flatten: the elements of the inner arrays one after the other; NULL inner arrays are skipped.
Operand flatten(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader outer(args[0]);
  const Column& arrays = outer.child();
  const int64_t* offsets = arrays.list_offsets();
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = outer.valid(r);
    for (int64_t a = valid ? outer.begin(r) : 0; valid && a < outer.end(r); ++a) {
      if (!arrays.is_valid(static_cast<size_t>(a))) continue;
      for (int64_t i = offsets[a]; i < offsets[a + 1]; ++i) out.add(static_cast<uint32_t>(i));
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *arrays.child(0), ctx.memory()), shape);
}

/// ngrams(x, n): the runs of n consecutive elements; x itself when it has n elements or fewer.
/// array_split_into_chunks(x, n): x cut into runs of n elements, the last one shorter.
Operand runs(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const bool chunks = e.function == F::kArraySplitIntoChunks;
  const ListReader list(args[0]);
  ListOfListsBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r);
    if (valid) {
      const int64_t n = bigint_at(args[1], r);
      if (n <= 0) raise_nested(e, fn_name(e) + ": the size must be positive, got " + std::to_string(n), "22023");
      const int64_t size = list.size(r);
      if (chunks && (size + n - 1) / n > kMaxChunks) {
        raise_nested(e, fn_name(e) + ": cannot split an array of " + std::to_string(size) +
                            " elements into more than " + std::to_string(kMaxChunks) + " chunks",
                     "22023");
      }
      const int64_t step = chunks ? n : 1;
      const int64_t count = chunks ? (size + n - 1) / n : std::max<int64_t>(1, size - n + 1);
      for (int64_t g = 0; g < count; ++g) {
        const int64_t from = list.begin(r) + g * step;
        for (int64_t i = from; i < std::min(from + n, list.end(r)); ++i) out.add(static_cast<uint32_t>(i));
        out.finish_inner();
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

/// combinations(x, n): the n-element combinations of x's positions, in Presto's order (colexicographic: by the
/// last position, then the one before...). n = 0 gives one empty combination, n above x's length none.
Operand combinations(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListOfListsBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r);
    if (valid) {
      const int64_t n = bigint_at(args[1], r);
      if (n < 0) raise_nested(e, "combinations: n must not be negative, got " + std::to_string(n), "22023");
      if (n > kMaxCombinationSize) {
        raise_nested(e, "combinations: n must not exceed " + std::to_string(kMaxCombinationSize) + ", got " +
                            std::to_string(n),
                     "22023");
      }
      const int64_t size = list.size(r);
      if (n <= size) {
        // C(size, n) * n elements; C(size, k) grows with k up to n (n <= 5, and size >= 2n unless size < 10), so
        // the product can stop as soon as it passes the limit.
        int128_t count = 1;
        for (int64_t k = 0; k < n && count * n <= kMaxCombinationElements; ++k) count = count * (size - k) / (k + 1);
        if (count * n > kMaxCombinationElements) {
          raise_nested(e, "combinations: the result would hold more than " +
                              std::to_string(kMaxCombinationElements) + " elements",
                       "22023");
        }
        std::vector<int64_t> pick(static_cast<size_t>(n));
        for (size_t k = 0; k < pick.size(); ++k) pick[k] = static_cast<int64_t>(k);
        while (true) {
          for (int64_t p : pick) out.add(static_cast<uint32_t>(list.begin(r) + p));
          out.finish_inner();
          // The next combination: raise the first position that can move up, reset the ones before it.
          size_t k = 0;
          while (k < pick.size() && pick[k] + 1 >= (k + 1 < pick.size() ? pick[k + 1] : size)) ++k;
          if (k == pick.size()) break;
          ++pick[k];
          for (size_t j = 0; j < k; ++j) pick[j] = static_cast<int64_t>(j);
        }
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

/// repeat(x, count): count copies of x (NULL x repeats as NULL elements).
Operand repeat(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = args[1].valid(r);
    if (valid) {
      const int64_t count = bigint_at(args[1], r);
      if (count < 0) raise_nested(e, "repeat: count must not be negative, got " + std::to_string(count), "22023");
      if (count > kMaxRepeat) {
        raise_nested(e, "repeat: count must not exceed " + std::to_string(kMaxRepeat) + ", got " +
                            std::to_string(count),
                     "22023");
      }
      for (int64_t k = 0; k < count; ++k) {
        if (args[0].valid(r)) {
          out.add(static_cast<uint32_t>(args[0].index(r)));
        } else {
          out.add_null();
        }
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *args[0].column, ctx.memory()), shape);
}

/// zip(a1, a2, ...): rows of the i-th elements, shorter arrays padded with NULLs; NULL when an array is NULL.
Operand zip(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  std::vector<ListReader> lists(args.begin(), args.end());
  std::vector<RowIndices> picks(args.size());
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  size_t total = 0;
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = std::all_of(lists.begin(), lists.end(), [&](const ListReader& l) { return l.valid(r); }) ? 1 : 0;
    int64_t longest = 0;
    for (const ListReader& l : lists) longest = valid[r] ? std::max(longest, l.size(r)) : 0;
    for (int64_t i = 0; i < longest; ++i) {
      for (size_t a = 0; a < lists.size(); ++a) {
        picks[a].push_back(i < lists[a].size(r) ? static_cast<uint32_t>(lists[a].begin(r) + i) : kNullRow);
      }
    }
    total += static_cast<size_t>(longest);
    offsets.push_back(static_cast<int64_t>(total));
  }
  std::vector<ColumnPtr> fields;
  for (size_t a = 0; a < lists.size(); ++a) fields.push_back(gather_column(lists[a].child(), picks[a], ctx.memory()));
  ColumnPtr rows = Column::make_row(e.type.element_type(), total, nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, offsets, valid, std::move(rows), ctx.memory()), shape);
}

/// array_transpose(x): element [j][i] of the result is x[i][j]; the inner arrays must be of one length and not NULL.
Operand transpose(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader outer(args[0]);
  const Column& arrays = outer.child();
  const int64_t* offsets = arrays.list_offsets();
  ListOfListsBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = outer.valid(r);
    if (valid && outer.size(r) > 0) {
      const int64_t first = outer.begin(r);
      const int64_t width = offsets[first + 1] - offsets[first];
      for (int64_t a = first; a < outer.end(r); ++a) {
        if (!arrays.is_valid(static_cast<size_t>(a))) {
          raise_nested(e, "array_transpose: row " + std::to_string(a - first + 1) + " is NULL", "22023");
        }
        if (offsets[a + 1] - offsets[a] != width) {
          raise_nested(e, "array_transpose: all rows must have the same length; row 1 has " + std::to_string(width) +
                              " elements, row " + std::to_string(a - first + 1) + " has " +
                              std::to_string(offsets[a + 1] - offsets[a]),
                       "22023");
        }
      }
      for (int64_t j = 0; j < width; ++j) {
        for (int64_t a = first; a < outer.end(r); ++a) out.add(static_cast<uint32_t>(offsets[a] + j));
        out.finish_inner();
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *arrays.child(0), ctx.memory()), shape);
}

}  // namespace

ColumnPtr ListOfListsBuilder::finish(const LogicalType& type, const Column& child, gpu::MemoryResource& mr) {
  ColumnPtr inner = make_list_column(type.element_type(), inner_offsets_,
                                     std::vector<uint8_t>(static_cast<size_t>(inner_count_), 1),
                                     gather_column(child, child_rows_, mr), mr);
  return make_list_column(type, outer_offsets_, valid_, std::move(inner), mr);
}

Operand array_shape_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kFlatten: return flatten(e, args, shape, ctx);
    case F::kNgrams:
    case F::kArraySplitIntoChunks: return runs(e, args, shape, ctx);
    case F::kCombinations: return combinations(e, args, shape, ctx);
    case F::kRepeat: return repeat(e, args, shape, ctx);
    case F::kZip: return zip(e, args, shape, ctx);
    case F::kArrayTranspose: return transpose(e, args, shape, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
