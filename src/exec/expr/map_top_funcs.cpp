// CPU kernels of map_top_n, map_top_n_keys, map_top_n_values and map_keys_by_top_n_values: a map's entries in
// descending order (of values, keys breaking ties; NULL values last), the first n kept.

#include <algorithm>
#include <numeric>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// True when entry `a` goes before `b`: by value descending (NULLs last), then key descending. For
/// map_top_n_keys by key descending only, for map_top_n_values by value only.
struct Descending {
  const Column& values;
  const std::vector<std::string>& key_bytes;
  const std::vector<std::string>& value_bytes;
  F function;
  bool operator()(uint32_t a, uint32_t b) const {
    if (function == F::kMapTopNKeys) return key_bytes[a] > key_bytes[b];
    const bool va = values.is_valid(a), vb = values.is_valid(b);
    if (va != vb) return va;
    if (va && value_bytes[a] != value_bytes[b]) return value_bytes[a] > value_bytes[b];
    return function != F::kMapTopNValues && key_bytes[a] > key_bytes[b];
  }
};

}  // namespace

Operand map_top_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  const ListReader map(args[0]);
  const Column& entries = map.child();
  const std::vector<std::string> key_bytes =
      e.function == F::kMapTopNValues ? std::vector<std::string>{} : row_keys(*entries.child(0));
  const std::vector<std::string> value_bytes =
      e.function == F::kMapTopNKeys ? std::vector<std::string>{} : row_keys(*entries.child(1));
  const Descending before{*entries.child(1), key_bytes, value_bytes, e.function};
  ListBuilder out(shape.rows);
  std::vector<uint32_t> order;
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = map.valid(r) && args[1].valid(r);
    if (valid) {
      const int64_t n = bigint_at(args[1], r);
      if (n < 0) {
        raise_nested(e, std::string(plan::scalar_function_name(e.function)) + ": n must not be negative, got " +
                            std::to_string(n),
                     "22023");
      }
      order.resize(static_cast<size_t>(map.size(r)));
      std::iota(order.begin(), order.end(), static_cast<uint32_t>(map.begin(r)));
      std::stable_sort(order.begin(), order.end(), before);
      for (size_t k = 0; k < order.size() && k < static_cast<size_t>(n); ++k) out.add(order[k]);
    }
    out.finish_row(r, valid);
  }
  // The kept entries, or their keys or values.
  const Column& source = e.function == F::kMapTopN         ? entries
                         : e.function == F::kMapTopNValues ? *entries.child(1)
                                                           : *entries.child(0);
  return as_operand(out.finish(e.type, source, ctx.memory()), shape);
}

}  // namespace kestrel::exec
