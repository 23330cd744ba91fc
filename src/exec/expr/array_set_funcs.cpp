// CPU kernels of array_distinct, array_sort, array_max and array_min: elements compared by their key bytes.

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// Every element's key bytes (NULL elements sort after all values).
std::vector<std::string> element_keys(const Column& elements) {
  std::vector<std::string> keys(elements.length());
  for (size_t i = 0; i < keys.size(); ++i) append_key_bytes(elements, i, keys[i]);
  return keys;
}

}  // namespace

Operand array_set_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  const ListReader list(args[0]);
  const std::vector<std::string> keys = element_keys(list.child());
  if (e.function == F::kArrayMax || e.function == F::kArrayMin) {
    RowIndices picked(shape.rows, kNullRow);
    for (size_t r = 0; r < shape.rows; ++r) {
      if (!list.valid(r)) continue;
      for (int64_t i = list.begin(r); i < list.end(r); ++i) {
        const auto k = static_cast<uint32_t>(i);
        if (!list.child().is_valid(k)) {  // a NULL element makes the extreme unknown
          picked[r] = kNullRow;
          break;
        }
        const bool better = picked[r] == kNullRow ||
                            (e.function == F::kArrayMax ? keys[k] > keys[picked[r]] : keys[k] < keys[picked[r]]);
        if (better) picked[r] = k;
      }
    }
    return as_operand(gather_column(list.child(), picked, ctx.memory()), shape);
  }
  ListBuilder out(shape.rows);
  std::vector<uint32_t> order;
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = list.valid(r);
    if (valid) {
      order.resize(static_cast<size_t>(list.size(r)));
      std::iota(order.begin(), order.end(), static_cast<uint32_t>(list.begin(r)));
      if (e.function == F::kArraySort) {
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
        for (uint32_t k : order) out.add(k);
      } else {
        std::unordered_set<std::string_view> seen;
        for (uint32_t k : order) {
          if (seen.insert(keys[k]).second) out.add(k);
        }
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, list.child(), ctx.memory()), shape);
}

}  // namespace kestrel::exec
