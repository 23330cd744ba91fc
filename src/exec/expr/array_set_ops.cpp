// CPU kernels of the array functions that treat arrays as sets or bags: array_except, array_intersect,
// array_union, arrays_overlap, array_remove, array_duplicates, array_has_duplicates, array_frequency,
// array_least_frequent and array_most_frequent. Elements are equal when their key bytes are (NULL equals NULL,
// as IS NOT DISTINCT FROM); results keep the order in which elements are first seen.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// The key bytes of the elements of two array operands, and the two child columns one after the other (so that
/// a result can take elements from either: element i of the second is row base + i).
struct TwoArrays {
  TwoArrays(const Operand& a, const Operand& b, const LogicalType& element, gpu::MemoryResource& mr)
      : left(a), right(b) {
    children = concat_columns({&left.child(), &right.child()}, element, mr);
    base = static_cast<uint32_t>(left.child().length());
    keys = row_keys(*children);
  }
  ListReader left, right;
  ColumnPtr children;
  uint32_t base = 0;
  std::vector<std::string> keys;
};

/// array_except, array_intersect and array_union of two arrays.
Operand set_operation(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const TwoArrays two(args[0], args[1], e.type.element_type(), ctx.memory());
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = two.left.valid(r) && two.right.valid(r);
    if (valid) {
      std::unordered_set<std::string_view> right, seen;
      for (int64_t i = two.right.begin(r); i < two.right.end(r); ++i) right.insert(two.keys[two.base + i]);
      for (int64_t i = two.left.begin(r); i < two.left.end(r); ++i) {
        const std::string_view key = two.keys[static_cast<size_t>(i)];
        const bool in_right = right.count(key) > 0;
        const bool keep = e.function == F::kArrayUnion || (e.function == F::kArrayIntersect) == in_right;
        if (keep && seen.insert(key).second) out.add(static_cast<uint32_t>(i));
      }
      for (int64_t i = two.right.begin(r); e.function == F::kArrayUnion && i < two.right.end(r); ++i) {
        if (seen.insert(two.keys[two.base + i]).second) out.add(two.base + static_cast<uint32_t>(i));
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *two.children, ctx.memory()), shape);
}

/// array_intersect(ARRAY(ARRAY(T))): the distinct elements of the first array found in every other one; NULL when
/// one of the arrays is NULL.
Operand intersect_all(const plan::Expr& e, const Operand& arg, const Shape& shape, EvalContext& ctx) {
  const ListReader outer(arg);
  const Column& arrays = outer.child();
  const int64_t* offsets = arrays.list_offsets();
  const Column& elements = *arrays.child(0);
  const std::vector<std::string> keys = row_keys(elements);
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    bool valid = outer.valid(r);
    for (int64_t a = valid ? outer.begin(r) : 0; valid && a < outer.end(r); ++a) {
      valid = arrays.is_valid(static_cast<size_t>(a));
    }
    if (valid && outer.size(r) > 0) {
      const auto first = static_cast<size_t>(outer.begin(r));
      std::unordered_map<std::string_view, size_t> hits;  // element key -> arrays holding it
      for (int64_t a = outer.begin(r); a < outer.end(r); ++a) {
        std::unordered_set<std::string_view> in_this;
        for (int64_t i = offsets[a]; i < offsets[a + 1]; ++i) {
          const std::string_view key = keys[static_cast<size_t>(i)];
          if (in_this.insert(key).second && (a == outer.begin(r) || hits.count(key))) ++hits[key];
        }
      }
      const auto needed = static_cast<size_t>(outer.size(r));
      std::unordered_set<std::string_view> seen;
      for (int64_t i = offsets[first]; i < offsets[first + 1]; ++i) {
        const std::string_view key = keys[static_cast<size_t>(i)];
        if (hits[key] == needed && seen.insert(key).second) out.add(static_cast<uint32_t>(i));
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, elements, ctx.memory()), shape);
}

/// arrays_overlap: TRUE when a non-NULL element is in both; else NULL when either has a NULL and neither is empty.
Operand arrays_overlap(const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const TwoArrays two(args[0], args[1], args[0].column->type().element_type(), ctx.memory());
  std::vector<uint8_t> value(shape.rows, 0), valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!two.left.valid(r) || !two.right.valid(r)) continue;
    valid[r] = 1;
    if (two.left.size(r) == 0 || two.right.size(r) == 0) continue;
    bool saw_null = false;
    std::unordered_set<std::string_view> left;
    for (int64_t i = two.left.begin(r); i < two.left.end(r); ++i) {
      if (two.children->is_valid(static_cast<size_t>(i))) {
        left.insert(two.keys[static_cast<size_t>(i)]);
      } else {
        saw_null = true;
      }
    }
    for (int64_t i = two.right.begin(r); i < two.right.end(r) && value[r] == 0; ++i) {
      const size_t k = two.base + static_cast<size_t>(i);
      if (!two.children->is_valid(k)) {
        saw_null = true;
      } else if (left.count(two.keys[k])) {
        value[r] = 1;
      }
    }
    if (value[r] == 0 && saw_null) valid[r] = 0;
  }
  return as_operand(fixed_column<uint8_t>(TypeId::kBoolean, value, valid, ctx.memory()), shape);
}

/// array_remove(x, v): x without the elements equal to v (NULL elements stay); NULL when v is NULL.
Operand array_remove(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r) && args[1].valid(r);
    if (valid) {
      const std::string removed = key_of(*args[1].column, args[1].index(r));
      for (int64_t i = list.begin(r); i < list.end(r); ++i) {
        const auto k = static_cast<size_t>(i);
        if (!list.child().is_valid(k) || key_of(list.child(), k) != removed) out.add(static_cast<uint32_t>(i));
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

/// The distinct elements of one array row with their counts, in first-seen order (NULLs counted unless skipped).
struct Counted {
  std::vector<uint32_t> first;  ///< child row of each distinct element's first occurrence
  std::vector<int64_t> count;
};
Counted count_elements(const ListReader& list, size_t r, const std::vector<std::string>& keys, bool skip_nulls) {
  Counted c;
  std::unordered_map<std::string_view, size_t> slot;
  for (int64_t i = list.begin(r); i < list.end(r); ++i) {
    const auto k = static_cast<size_t>(i);
    if (skip_nulls && !list.child().is_valid(k)) continue;
    auto [it, added] = slot.emplace(keys[k], c.first.size());
    if (added) {
      c.first.push_back(static_cast<uint32_t>(k));
      c.count.push_back(0);
    }
    ++c.count[it->second];
  }
  return c;
}

/// array_duplicates (the elements seen more than once, NULL included) and array_has_duplicates.
Operand duplicates(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const std::vector<std::string> keys = row_keys(list.child());
  ListBuilder out(shape.rows);
  std::vector<uint8_t> any(shape.rows, 0), valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = list.valid(r) ? 1 : 0;
    if (valid[r]) {
      const Counted c = count_elements(list, r, keys, false);
      for (size_t d = 0; d < c.first.size(); ++d) {
        if (c.count[d] < 2) continue;
        any[r] = 1;
        out.add(c.first[d]);
      }
    }
    out.finish_row(r, valid[r] != 0);
  }
  if (e.function == F::kArrayHasDuplicates) {
    return as_operand(fixed_column<uint8_t>(TypeId::kBoolean, any, valid, ctx.memory()), shape);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

/// array_frequency: MAP(T, INTEGER) of each non-NULL element's count, keys in first-seen order.
Operand frequency(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const std::vector<std::string> keys = row_keys(list.child());
  RowIndices key_rows;
  std::vector<int32_t> counts;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = list.valid(r) ? 1 : 0;
    if (valid[r]) {
      const Counted c = count_elements(list, r, keys, true);
      key_rows.insert(key_rows.end(), c.first.begin(), c.first.end());
      for (int64_t n : c.count) counts.push_back(static_cast<int32_t>(n));
    }
    offsets.push_back(static_cast<int64_t>(key_rows.size()));
  }
  std::vector<ColumnPtr> fields{
      gather_column(list.child(), key_rows, ctx.memory()),
      fixed_column<int32_t>(TypeId::kInteger, counts, std::vector<uint8_t>(counts.size(), 1), ctx.memory())};
  ColumnPtr entries = Column::make_row(e.type.element_type(), key_rows.size(), nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, offsets, valid, entries, ctx.memory()), shape);
}

/// array_least_frequent / array_most_frequent (x[, n]): the n (default 1) non-NULL elements of lowest / highest
/// count, ties broken by the smaller / larger element; NULL when x has no non-NULL element.
Operand by_frequency(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const bool least = e.function == F::kArrayLeastFrequent;
  const ListReader list(args[0]);
  const std::vector<std::string> keys = row_keys(list.child());
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    bool valid = list.valid(r) && (args.size() < 2 || args[1].valid(r));
    if (valid) {
      const int64_t n = args.size() < 2 ? 1 : bigint_at(args[1], r);
      if (n < 0) {
        raise_nested(e, std::string(plan::scalar_function_name(e.function)) + ": n must not be negative, got " +
                            std::to_string(n),
                     "22023");
      }
      const Counted c = count_elements(list, r, keys, true);
      valid = !c.first.empty();
      std::vector<size_t> order(c.first.size());
      for (size_t d = 0; d < order.size(); ++d) order[d] = d;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (c.count[a] != c.count[b]) return least ? c.count[a] < c.count[b] : c.count[a] > c.count[b];
        return least ? keys[c.first[a]] < keys[c.first[b]] : keys[c.first[a]] > keys[c.first[b]];
      });
      for (size_t k = 0; valid && k < order.size() && k < static_cast<size_t>(n); ++k) out.add(c.first[order[k]]);
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

}  // namespace

Operand array_set_ops_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kArrayIntersect:
      if (args.size() == 1) return intersect_all(e, args[0], shape, ctx);
      return set_operation(e, args, shape, ctx);
    case F::kArrayExcept:
    case F::kArrayUnion: return set_operation(e, args, shape, ctx);
    case F::kArraysOverlap: return arrays_overlap(args, shape, ctx);
    case F::kArrayRemove: return array_remove(e, args, shape, ctx);
    case F::kArrayDuplicates:
    case F::kArrayHasDuplicates: return duplicates(e, args, shape, ctx);
    case F::kArrayFrequency: return frequency(e, args, shape, ctx);
    case F::kArrayLeastFrequent:
    case F::kArrayMostFrequent: return by_frequency(e, args, shape, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
