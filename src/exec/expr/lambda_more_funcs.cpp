// CPU evaluation of the lambda functions over arrays beyond transform, filter and reduce: all_match, any_match,
// none_match (and the map forms over keys or values), find_first, find_first_index, array_max_by, array_min_by and
// zip_with. Each evaluates its lambda's body once over all the elements of the batch (eval_lambda_body).

#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// Elements of a list column together with the input row each belongs to.
struct Elements {
  RowIndices row_of;
  RowIndices element;
  void add(size_t row, int64_t i) {
    row_of.push_back(static_cast<uint32_t>(row));
    element.push_back(static_cast<uint32_t>(i));
  }
};

/// Every element of the valid rows of `list`, in order.
Elements all_elements(const ListReader& list, size_t rows) {
  Elements el;
  for (size_t r = 0; r < rows; ++r) {
    for (int64_t i = list.valid(r) ? list.begin(r) : 0; list.valid(r) && i < list.end(r); ++i) el.add(r, i);
  }
  return el;
}

bool is_true(const Column& c, size_t k) { return c.is_valid(k) && c.data<uint8_t>()[k] != 0; }

/// all_match, any_match, none_match and the map forms: three-valued, over the elements (or a map's keys or values).
Operand match(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const Operand list_arg = eval_list_argument(*e.children[0], input, ctx);
  const ListReader list(list_arg);
  const bool on_values = e.function == F::kAnyValuesMatch || e.function == F::kNoValuesMatch;
  const bool on_keys = e.function == F::kAllKeysMatch || e.function == F::kAnyKeysMatch ||
                       e.function == F::kNoKeysMatch;
  const Column& elements = on_keys ? *list.child().child(0) : on_values ? *list.child().child(1) : list.child();
  const Elements el = all_elements(list, rows);
  const ColumnPtr result =
      eval_lambda_body(*e.children[1], input, el.row_of, {gather_column(elements, el.element, ctx.memory())}, ctx);
  std::vector<uint8_t> saw_true(rows, 0), saw_false(rows, 0), saw_null(rows, 0);
  for (size_t k = 0; k < el.row_of.size(); ++k) {
    const uint32_t r = el.row_of[k];
    if (!result->is_valid(k)) {
      saw_null[r] = 1;
    } else if (result->data<uint8_t>()[k] != 0) {
      saw_true[r] = 1;
    } else {
      saw_false[r] = 1;
    }
  }
  const bool all = e.function == F::kAllMatch || e.function == F::kAllKeysMatch;
  const bool any = e.function == F::kAnyMatch || e.function == F::kAnyKeysMatch || e.function == F::kAnyValuesMatch;
  std::vector<uint8_t> value(rows, 0), valid(rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    if (!list.valid(r)) continue;
    // The element that decides: a FALSE for all, a TRUE for any and none; otherwise a NULL makes it unknown.
    const bool decided = all ? saw_false[r] != 0 : saw_true[r] != 0;
    valid[r] = decided || !saw_null[r] ? 1 : 0;
    value[r] = any ? decided : !decided;
  }
  return Operand{fixed_column<uint8_t>(TypeId::kBoolean, value, valid, ctx.memory()), false};
}

/// find_first and find_first_index (array[, start], predicate): the first element, from position start (counted
/// from the end and searching backwards when negative), for which the predicate is TRUE. The predicate runs on the
/// searched elements only. find_first of a NULL element is an error, as in Presto.
Operand find_first(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const std::string name = plan::scalar_function_name(e.function);
  const Operand array = eval_list_argument(*e.children[0], input, ctx);
  const ListReader list(array);
  Operand start;
  if (e.children.size() == 3) start = plain(eval_operand(*e.children[1], input, ctx), ctx);
  Elements el;
  std::vector<uint8_t> searched(rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    if (!list.valid(r) || (start.column && !start.valid(r))) continue;
    searched[r] = 1;
    const int64_t s = start.column ? bigint_at(start, r) : 1;
    if (s == 0) raise_nested(e, name + ": the start index must not be 0 (array indices start at 1)", "22023");
    const int64_t size = list.size(r);
    if (s > 0) {
      for (int64_t i = s - 1; i < size; ++i) el.add(r, list.begin(r) + i);
    } else {
      for (int64_t i = size + s; i >= 0; --i) el.add(r, list.begin(r) + i);
    }
  }
  const ColumnPtr result = eval_lambda_body(*e.children.back(), input, el.row_of,
                                            {gather_column(list.child(), el.element, ctx.memory())}, ctx);
  RowIndices picked(rows, kNullRow);
  for (size_t k = 0; k < el.row_of.size(); ++k) {
    const uint32_t r = el.row_of[k];
    if (picked[r] == kNullRow && is_true(*result, k)) picked[r] = el.element[k];
  }
  if (e.function == F::kFindFirstIndex) {
    std::vector<int64_t> index(rows, 0);
    std::vector<uint8_t> valid(rows, 0);
    for (size_t r = 0; r < rows; ++r) {
      valid[r] = searched[r] && picked[r] != kNullRow ? 1 : 0;
      if (valid[r]) index[r] = picked[r] - list.begin(r) + 1;
    }
    return Operand{fixed_column<int64_t>(TypeId::kBigInt, index, valid, ctx.memory()), false};
  }
  for (size_t r = 0; r < rows; ++r) {
    if (picked[r] != kNullRow && !list.child().is_valid(picked[r])) {
      raise_nested(e, "find_first: the first element that matches is NULL", "22004");
    }
  }
  return Operand{gather_column(list.child(), picked, ctx.memory()), false};
}

/// array_max_by / array_min_by: the element whose lambda value is largest (the last such) / smallest (the first);
/// NULL when the array is empty or a lambda value is NULL (Presto's definition through array_max of rows).
Operand max_min_by(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const bool max = e.function == F::kArrayMaxBy;
  const Operand array = eval_list_argument(*e.children[0], input, ctx);
  const ListReader list(array);
  const Elements el = all_elements(list, rows);
  const ColumnPtr result = eval_lambda_body(*e.children[1], input, el.row_of,
                                            {gather_column(list.child(), el.element, ctx.memory())}, ctx);
  const std::vector<std::string> keys = row_keys(*result);
  std::vector<int64_t> best(rows, -1);
  std::vector<uint8_t> unknown(rows, 0);
  for (size_t k = 0; k < el.row_of.size(); ++k) {
    const uint32_t r = el.row_of[k];
    if (!result->is_valid(k)) unknown[r] = 1;
    const auto b = static_cast<size_t>(best[r]);
    if (best[r] < 0 || (max ? keys[k] >= keys[b] : keys[k] < keys[b])) best[r] = static_cast<int64_t>(k);
  }
  RowIndices picked(rows, kNullRow);
  for (size_t r = 0; r < rows; ++r) {
    if (best[r] >= 0 && !unknown[r]) picked[r] = el.element[static_cast<size_t>(best[r])];
  }
  return Operand{gather_column(list.child(), picked, ctx.memory()), false};
}

/// zip_with(a, b, (x, y) -> r): the lambda over the pairs of elements, the shorter array padded with NULLs.
Operand zip_with(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const Operand left_arg = eval_list_argument(*e.children[0], input, ctx);
  const Operand right_arg = eval_list_argument(*e.children[1], input, ctx);
  const ListReader left(left_arg), right(right_arg);
  RowIndices row_of, left_rows, right_rows;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    valid[r] = left.valid(r) && right.valid(r) ? 1 : 0;
    const int64_t n = valid[r] ? std::max(left.size(r), right.size(r)) : 0;
    for (int64_t i = 0; i < n; ++i) {
      row_of.push_back(static_cast<uint32_t>(r));
      left_rows.push_back(i < left.size(r) ? static_cast<uint32_t>(left.begin(r) + i) : kNullRow);
      right_rows.push_back(i < right.size(r) ? static_cast<uint32_t>(right.begin(r) + i) : kNullRow);
    }
    offsets.push_back(static_cast<int64_t>(row_of.size()));
  }
  ColumnPtr result = eval_lambda_body(
      *e.children[2], input, row_of,
      {gather_column(left.child(), left_rows, ctx.memory()), gather_column(right.child(), right_rows, ctx.memory())},
      ctx);
  return Operand{make_list_column(e.type, offsets, valid, std::move(result), ctx.memory()), false};
}

}  // namespace

Operand more_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  switch (e.function) {
    case F::kAllMatch:
    case F::kAnyMatch:
    case F::kNoneMatch:
    case F::kAllKeysMatch:
    case F::kAnyKeysMatch:
    case F::kNoKeysMatch:
    case F::kAnyValuesMatch:
    case F::kNoValuesMatch: return match(e, input, ctx);
    case F::kFindFirst:
    case F::kFindFirstIndex: return find_first(e, input, ctx);
    case F::kArrayMaxBy:
    case F::kArrayMinBy: return max_min_by(e, input, ctx);
    case F::kZipWith: return zip_with(e, input, ctx);
    default: return map_lambda_function(e, input, ctx);
  }
}

}  // namespace kestrel::exec
