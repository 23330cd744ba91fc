// CPU kernels of map_entries, map_concat, map_remove_null_values, map_subset, map_key_exists, map_normalize,
// multimap_from_entries, map_int_keys_to_array and array_to_map_int_keys.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// Presto's bound on the positions of map_int_keys_to_array and array_to_map_int_keys.
constexpr int64_t kMaxIntKey = 10000;

/// map_entries: the map's entry rows as an ARRAY of anonymous ROW(key, value).
Operand map_entries(const plan::Expr& e, const Operand& in) {
  const Column& map = *in.column;
  const Column& entries = *map.child(0);
  ColumnPtr rows = Column::make_row(e.type.element_type(), entries.length(), entries.validity(),
                                    entries.null_count(), entries.children());
  return Operand{Column::make_list(e.type, map.length(), map.offsets(), map.validity(), map.null_count(),
                                   std::move(rows)),
                 in.constant};
}

/// map_concat: every key of the maps once, in first-seen order, with its value from the last map that has it.
Operand map_concat(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  std::vector<const Column*> parts;
  std::vector<uint32_t> base;
  uint32_t total = 0;
  for (const Operand& a : args) {
    parts.push_back(a.column->child(0).get());
    base.push_back(total);
    total += static_cast<uint32_t>(a.column->child(0)->length());
  }
  ColumnPtr entries = concat_columns(parts, e.type.element_type(), ctx.memory());
  const std::vector<std::string> keys = row_keys(*entries->child(0));
  ListBuilder out(shape.rows);
  std::vector<uint32_t> picked;
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = std::all_of(args.begin(), args.end(), [&](const Operand& a) { return a.valid(r); });
    if (valid) {
      std::unordered_map<std::string_view, size_t> slot;
      picked.clear();
      for (size_t m = 0; m < args.size(); ++m) {
        const ListReader map(args[m]);
        for (int64_t i = map.begin(r); i < map.end(r); ++i) {
          const uint32_t k = base[m] + static_cast<uint32_t>(i);
          auto [it, added] = slot.emplace(keys[k], picked.size());
          if (added) {
            picked.push_back(k);
          } else {
            picked[it->second] = k;
          }
        }
      }
      for (uint32_t k : picked) out.add(k);
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *entries, ctx.memory()), shape);
}

/// map_remove_null_values, map_subset (the entries whose key is in the array) and the per-row filter they share.
Operand filter_entries(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader map(args[0]);
  const Column& entries = map.child();
  const bool subset = e.function == F::kMapSubset;
  const std::vector<std::string> keys = subset ? row_keys(*entries.child(0)) : std::vector<std::string>{};
  ListBuilder out(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = map.valid(r) && (!subset || args[1].valid(r));
    if (valid) {
      std::unordered_set<std::string> wanted;
      if (subset) {
        const ListReader list(args[1]);
        for (int64_t i = list.begin(r); i < list.end(r); ++i) {
          const auto k = static_cast<size_t>(i);
          if (list.child().is_valid(k)) wanted.insert(key_of(list.child(), k));
        }
      }
      for (int64_t i = map.begin(r); i < map.end(r); ++i) {
        const auto k = static_cast<size_t>(i);
        const bool keep = subset ? wanted.count(keys[k]) > 0 : entries.child(1)->is_valid(k);
        if (keep) out.add(static_cast<uint32_t>(k));
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, entries, ctx.memory()), shape);
}

Operand map_key_exists(const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader map(args[0]);
  const Column& keys = *map.child().child(0);
  std::vector<uint8_t> found(shape.rows, 0), valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (!map.valid(r) || !args[1].valid(r)) continue;
    valid[r] = 1;
    const std::string wanted = key_of(*args[1].column, args[1].index(r));
    for (int64_t i = map.begin(r); i < map.end(r) && !found[r]; ++i) {
      found[r] = key_of(keys, static_cast<size_t>(i)) == wanted ? 1 : 0;
    }
  }
  return as_operand(fixed_column<uint8_t>(TypeId::kBoolean, found, valid, ctx.memory()), shape);
}

/// map_normalize over MAP(K, DOUBLE): each non-NULL value divided by the sum of the non-NULL values.
Operand map_normalize(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader map(args[0]);
  const Column& entries = map.child();
  const Column& values = *entries.child(1);
  RowIndices rows;
  std::vector<double> scaled;
  std::vector<uint8_t> scaled_valid, valid(shape.rows, 0);
  std::vector<int64_t> offsets{0};
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = map.valid(r) ? 1 : 0;
    double sum = 0;
    for (int64_t i = valid[r] ? map.begin(r) : 0; valid[r] && i < map.end(r); ++i) {
      if (values.is_valid(static_cast<size_t>(i))) sum += values.data<double>()[i];
    }
    for (int64_t i = valid[r] ? map.begin(r) : 0; valid[r] && i < map.end(r); ++i) {
      const auto k = static_cast<size_t>(i);
      rows.push_back(static_cast<uint32_t>(k));
      scaled.push_back(values.is_valid(k) ? values.data<double>()[k] / sum : 0);
      scaled_valid.push_back(values.is_valid(k) ? 1 : 0);
    }
    offsets.push_back(static_cast<int64_t>(rows.size()));
  }
  std::vector<ColumnPtr> fields{gather_column(*entries.child(0), rows, ctx.memory()),
                                fixed_column<double>(TypeId::kDouble, scaled, scaled_valid, ctx.memory())};
  ColumnPtr out = Column::make_row(e.type.element_type(), rows.size(), nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, offsets, valid, std::move(out), ctx.memory()), shape);
}

/// multimap_from_entries: MAP(K, ARRAY(V)) of each key's values in order; NULL entries and keys are errors.
Operand multimap(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const ListReader list(args[0]);
  const Column& entries = list.child();
  const std::vector<std::string> keys = row_keys(*entries.child(0));
  RowIndices key_rows, value_rows;
  std::vector<int64_t> map_offsets{0}, value_offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = list.valid(r) ? 1 : 0;
    std::unordered_map<std::string_view, size_t> slot;
    std::vector<std::vector<uint32_t>> groups;
    for (int64_t i = valid[r] ? list.begin(r) : 0; valid[r] && i < list.end(r); ++i) {
      const auto k = static_cast<size_t>(i);
      if (!entries.is_valid(k)) raise_nested(e, "multimap_from_entries: a map entry is NULL", "22004");
      if (!entries.child(0)->is_valid(k)) raise_nested(e, "multimap_from_entries: map key is NULL", "22004");
      auto [it, added] = slot.emplace(keys[k], groups.size());
      if (added) {
        key_rows.push_back(static_cast<uint32_t>(k));
        groups.emplace_back();
      }
      groups[it->second].push_back(static_cast<uint32_t>(k));
    }
    for (const auto& g : groups) {
      value_rows.insert(value_rows.end(), g.begin(), g.end());
      value_offsets.push_back(static_cast<int64_t>(value_rows.size()));
    }
    map_offsets.push_back(static_cast<int64_t>(key_rows.size()));
  }
  const LogicalType& entry = e.type.element_type();
  ColumnPtr value_lists =
      make_list_column(entry.child(1), value_offsets, std::vector<uint8_t>(key_rows.size(), 1),
                       gather_column(*entries.child(1), value_rows, ctx.memory()), ctx.memory());
  std::vector<ColumnPtr> fields{gather_column(*entries.child(0), key_rows, ctx.memory()), std::move(value_lists)};
  ColumnPtr out = Column::make_row(entry, key_rows.size(), nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, map_offsets, valid, std::move(out), ctx.memory()), shape);
}

/// The integer key at row `k` of an integer column, as int64.
int64_t integer_at(const Column& keys, size_t k) {
  return dispatch_fixed(keys.type(), [&](auto tag) -> int64_t {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) {
      return static_cast<int64_t>(keys.data<T>()[k]);
    } else {
      throw InternalError("an integer map key of type " + keys.type().to_string());
    }
  });
}

/// map_int_keys_to_array: ARRAY(V) whose element i is the value of key i (NULL where there is none), up to the
/// largest key. As Presto: an empty map gives NULL; keys must be in 1..10000.
Operand int_keys_to_array(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape,
                          EvalContext& ctx) {
  const ListReader map(args[0]);
  const Column& keys = *map.child().child(0);
  ListBuilder out(shape.rows);
  std::vector<uint32_t> slots;
  for (size_t r = 0; r < shape.rows; ++r) {
    const bool valid = map.valid(r) && map.size(r) > 0;
    if (valid) {
      int64_t largest = 0;
      for (int64_t i = map.begin(r); i < map.end(r); ++i) {
        const int64_t key = integer_at(keys, static_cast<size_t>(i));
        if (key <= 0) {
          raise_nested(e, "map_int_keys_to_array: only positive keys are allowed, got " + std::to_string(key),
                       "22023");
        }
        if (key > kMaxIntKey) {
          raise_nested(e, "map_int_keys_to_array: keys must not exceed " + std::to_string(kMaxIntKey) + ", got " +
                              std::to_string(key),
                       "22023");
        }
        largest = std::max(largest, key);
      }
      slots.assign(static_cast<size_t>(largest), kNullRow);
      for (int64_t i = map.begin(r); i < map.end(r); ++i) {
        slots[static_cast<size_t>(integer_at(keys, static_cast<size_t>(i)) - 1)] = static_cast<uint32_t>(i);
      }
      for (uint32_t s : slots) {
        if (s == kNullRow) {
          out.add_null();
        } else {
          out.add(s);
        }
      }
    }
    out.finish_row(r, valid);
  }
  return as_operand(out.finish(e.type, *map.child().child(1), ctx.memory()), shape);
}

/// array_to_map_int_keys: MAP(INTEGER, V) of the non-NULL elements by their 1-based position (at most 10000).
Operand array_to_int_keys(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape,
                          EvalContext& ctx) {
  const ListReader list(args[0]);
  RowIndices value_rows;
  std::vector<int32_t> positions;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    valid[r] = list.valid(r) ? 1 : 0;
    if (valid[r] && list.size(r) > kMaxIntKey) {
      raise_nested(e, "array_to_map_int_keys: the array must not have more than " + std::to_string(kMaxIntKey) +
                          " elements, it has " + std::to_string(list.size(r)),
                   "22023");
    }
    for (int64_t i = valid[r] ? list.begin(r) : 0; valid[r] && i < list.end(r); ++i) {
      if (!list.child().is_valid(static_cast<size_t>(i))) continue;
      value_rows.push_back(static_cast<uint32_t>(i));
      positions.push_back(static_cast<int32_t>(i - list.begin(r) + 1));
    }
    offsets.push_back(static_cast<int64_t>(value_rows.size()));
  }
  std::vector<ColumnPtr> fields{
      fixed_column<int32_t>(TypeId::kInteger, positions, std::vector<uint8_t>(positions.size(), 1), ctx.memory()),
      gather_column(list.child(), value_rows, ctx.memory())};
  ColumnPtr out = Column::make_row(e.type.element_type(), value_rows.size(), nullptr, 0, std::move(fields));
  return as_operand(make_list_column(e.type, offsets, valid, std::move(out), ctx.memory()), shape);
}

}  // namespace

Operand map_more_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  switch (e.function) {
    case F::kMapEntries: return map_entries(e, args[0]);
    case F::kMapConcat: return map_concat(e, args, shape, ctx);
    case F::kMapRemoveNullValues:
    case F::kMapSubset: return filter_entries(e, args, shape, ctx);
    case F::kMapKeyExists: return map_key_exists(args, shape, ctx);
    case F::kMapNormalize: return map_normalize(e, args, shape, ctx);
    case F::kMultimapFromEntries: return multimap(e, args, shape, ctx);
    case F::kMapIntKeysToArray: return int_keys_to_array(e, args, shape, ctx);
    case F::kArrayToMapIntKeys: return array_to_int_keys(e, args, shape, ctx);
    default: break;
  }
  throw InternalError(std::string("no CPU kernel for ") + plan::scalar_function_name(e.function));
}

}  // namespace kestrel::exec
