// CPU evaluation of the lambda functions over maps that build maps: map_filter, transform_keys, transform_values
// and map_zip_with. The lambda's body runs once over all the entries of the batch (eval_lambda_body).

#include <unordered_map>

#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// The entries of the valid rows of a map operand: the row each belongs to, and its row in the entries column.
struct Entries {
  RowIndices row_of;
  RowIndices entry;
};

Entries all_entries(const ListReader& map, size_t rows) {
  Entries out;
  for (size_t r = 0; r < rows; ++r) {
    for (int64_t i = map.valid(r) ? map.begin(r) : 0; map.valid(r) && i < map.end(r); ++i) {
      out.row_of.push_back(static_cast<uint32_t>(r));
      out.entry.push_back(static_cast<uint32_t>(i));
    }
  }
  return out;
}

/// The offsets and validity of a map of `rows` rows whose entries are `row_of` (row of each entry, ascending).
void entry_offsets(const ListReader& map, const RowIndices& row_of, size_t rows, std::vector<int64_t>& offsets,
                   std::vector<uint8_t>& valid) {
  offsets.assign(1, 0);
  valid.assign(rows, 0);
  size_t k = 0;
  for (size_t r = 0; r < rows; ++r) {
    valid[r] = map.valid(r) ? 1 : 0;
    while (k < row_of.size() && row_of[k] == r) ++k;
    offsets.push_back(static_cast<int64_t>(k));
  }
}

/// map_filter: the entries for which the lambda (k, v) gives TRUE.
Operand map_filter(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const Operand map_arg = eval_list_argument(*e.children[0], input, ctx);
  const ListReader map(map_arg);
  const Column& entries = map.child();
  const Entries all = all_entries(map, rows);
  const ColumnPtr keep = eval_lambda_body(*e.children[1], input, all.row_of,
                                          {gather_column(*entries.child(0), all.entry, ctx.memory()),
                                           gather_column(*entries.child(1), all.entry, ctx.memory())},
                                          ctx);
  ListBuilder out(rows);
  size_t k = 0;
  for (size_t r = 0; r < rows; ++r) {
    for (; k < all.row_of.size() && all.row_of[k] == r; ++k) {
      if (keep->is_valid(k) && keep->data<uint8_t>()[k] != 0) out.add(all.entry[k]);
    }
    out.finish_row(r, map.valid(r));
  }
  return Operand{out.finish(e.type, entries, ctx.memory()), false};
}

/// transform_keys and transform_values: the lambda (k, v) gives each entry's new key or value. New keys must be
/// distinct and not NULL.
Operand transform_entries(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const Operand map_arg = eval_list_argument(*e.children[0], input, ctx);
  const ListReader map(map_arg);
  const Column& entries = map.child();
  const Entries all = all_entries(map, rows);
  ColumnPtr keys = gather_column(*entries.child(0), all.entry, ctx.memory());
  ColumnPtr values = gather_column(*entries.child(1), all.entry, ctx.memory());
  ColumnPtr result = eval_lambda_body(*e.children[1], input, all.row_of, {keys, values}, ctx);
  std::vector<int64_t> offsets;
  std::vector<uint8_t> valid;
  entry_offsets(map, all.row_of, rows, offsets, valid);
  if (e.function == F::kTransformKeys) {
    for (size_t r = 0; r < rows; ++r) check_map_keys(e, *result, offsets[r], offsets[r + 1]);
    keys = std::move(result);
  } else {
    values = std::move(result);
  }
  ColumnPtr out = Column::make_row(e.type.element_type(), all.entry.size(), nullptr, 0, {keys, values});
  return Operand{make_list_column(e.type, offsets, valid, std::move(out), ctx.memory()), false};
}

/// map_zip_with(m1, m2, (k, v1, v2) -> v3): every key of m1 (in its order), then those only in m2; a value a map
/// lacks is NULL. NULL when either map is NULL.
Operand map_zip_with(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t rows = input.num_rows();
  const Operand first_arg = eval_list_argument(*e.children[0], input, ctx);
  const Operand second_arg = eval_list_argument(*e.children[1], input, ctx);
  const ListReader first(first_arg), second(second_arg);
  const Column& keys1 = *first.child().child(0);
  const Column& keys2 = *second.child().child(0);
  // Both maps' keys one after the other: key i of the second map is row base + i.
  ColumnPtr all_keys = concat_columns({&keys1, &keys2}, keys1.type(), ctx.memory());
  const auto base = static_cast<uint32_t>(keys1.length());
  const std::vector<std::string> key_bytes = row_keys(*all_keys);
  RowIndices row_of, key_rows, rows1, rows2;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    valid[r] = first.valid(r) && second.valid(r) ? 1 : 0;
    if (valid[r]) {
      std::unordered_map<std::string_view, uint32_t> in_second;
      for (int64_t j = second.begin(r); j < second.end(r); ++j) {
        in_second.emplace(key_bytes[base + j], static_cast<uint32_t>(j));
      }
      for (int64_t i = first.begin(r); i < first.end(r); ++i) {
        auto it = in_second.find(key_bytes[static_cast<size_t>(i)]);
        row_of.push_back(static_cast<uint32_t>(r));
        key_rows.push_back(static_cast<uint32_t>(i));
        rows1.push_back(static_cast<uint32_t>(i));
        rows2.push_back(it == in_second.end() ? kNullRow : it->second);
        if (it != in_second.end()) in_second.erase(it);
      }
      for (int64_t j = second.begin(r); j < second.end(r); ++j) {
        if (!in_second.count(key_bytes[base + j])) continue;  // matched in the first map
        row_of.push_back(static_cast<uint32_t>(r));
        key_rows.push_back(base + static_cast<uint32_t>(j));
        rows1.push_back(kNullRow);
        rows2.push_back(static_cast<uint32_t>(j));
      }
    }
    offsets.push_back(static_cast<int64_t>(row_of.size()));
  }
  ColumnPtr keys = gather_column(*all_keys, key_rows, ctx.memory());
  ColumnPtr values = eval_lambda_body(*e.children[2], input, row_of,
                                      {keys, gather_column(*first.child().child(1), rows1, ctx.memory()),
                                       gather_column(*second.child().child(1), rows2, ctx.memory())},
                                      ctx);
  ColumnPtr out = Column::make_row(e.type.element_type(), row_of.size(), nullptr, 0, {keys, values});
  return Operand{make_list_column(e.type, offsets, valid, std::move(out), ctx.memory()), false};
}

}  // namespace

Operand map_lambda_function(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  switch (e.function) {
    case F::kMapFilter: return map_filter(e, input, ctx);
    case F::kTransformKeys:
    case F::kTransformValues: return transform_entries(e, input, ctx);
    case F::kMapZipWith: return map_zip_with(e, input, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU evaluation of ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
