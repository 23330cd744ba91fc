// Comparisons of ARRAY, MAP and ROW values: element by element and field by field, with SQL's NULL rules (a
// comparison that a NULL element decides is NULL).

#include <optional>

#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// -1, 0 or 1 as a orders before, equal to or after b; nullopt when a NULL decides it. With `equality` only
/// equal (0) or not (1) is asked: lists of different lengths are unequal whatever their elements, and maps
/// compare by key.
std::optional<int> compare(const Column& a, size_t i, const Column& b, size_t j, bool equality) {
  if (!a.is_valid(i) || !b.is_valid(j)) return std::nullopt;
  const LogicalType& type = a.type();
  if (type.id() == TypeId::kRow) {
    std::optional<int> result = 0;
    for (size_t f = 0; f < a.children().size(); ++f) {
      const std::optional<int> c = compare(*a.child(f), i, *b.child(f), j, equality);
      if (c && *c != 0) return c;
      if (!c) {
        if (!equality) return std::nullopt;
        result = std::nullopt;  // unless a later field differs
      }
    }
    return result;
  }
  if (type.id() == TypeId::kArray || type.id() == TypeId::kMap) {
    const int64_t* ao = a.list_offsets();
    const int64_t* bo = b.list_offsets();
    const int64_t na = ao[i + 1] - ao[i], nb = bo[j + 1] - bo[j];
    if (equality && na != nb) return 1;
    if (type.id() == TypeId::kMap) {
      // Every key of a in b with an equal value.
      std::optional<int> result = 0;
      const Column& ak = *a.child(0)->child(0);
      const Column& bk = *b.child(0)->child(0);
      for (int64_t x = ao[i]; x < ao[i + 1]; ++x) {
        const std::string key = key_of(ak, static_cast<size_t>(x));
        int64_t match = -1;
        for (int64_t y = bo[j]; y < bo[j + 1] && match < 0; ++y) {
          if (key_of(bk, static_cast<size_t>(y)) == key) match = y;
        }
        if (match < 0) return 1;
        const auto c = compare(*a.child(0)->child(1), static_cast<size_t>(x), *b.child(0)->child(1),
                               static_cast<size_t>(match), true);
        if (c && *c != 0) return 1;
        if (!c) result = std::nullopt;
      }
      return result;
    }
    std::optional<int> result = 0;
    for (int64_t k = 0; k < std::min(na, nb); ++k) {
      const auto c = compare(*a.child(0), static_cast<size_t>(ao[i] + k), *b.child(0), static_cast<size_t>(bo[j] + k),
                             equality);
      if (c && *c != 0) return c;
      if (!c) {
        if (!equality) return std::nullopt;
        result = std::nullopt;
      }
    }
    if (!result) return result;
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  const std::string x = key_of(a, i), y = key_of(b, j);
  return x < y ? -1 : x > y ? 1 : 0;
}

}  // namespace

Operand nested_compare(F f, const Operand& a, const Operand& b, size_t rows, EvalContext& ctx) {
  const Shape shape{a.constant && b.constant ? 1 : rows, a.constant && b.constant};
  const bool distinct = f == F::kIsDistinctFrom || f == F::kIsNotDistinctFrom;
  const bool equality = f == F::kEqual || f == F::kNotEqual;
  std::vector<uint8_t> valid(shape.rows, 1);
  ColumnPtr out = Column::make_fixed(TypeId::kBoolean, shape.rows, false, ctx.memory(), gpu::Stream::host());
  uint8_t* result = out->mutable_data<uint8_t>();
  for (size_t r = 0; r < shape.rows; ++r) {
    const size_t i = a.index(r), j = b.index(r);
    if (distinct) {
      // NULLs are values here: equal key bytes (NULL elements included) are not distinct.
      const bool same = a.valid(r) == b.valid(r) && (!a.valid(r) || key_of(*a.column, i) == key_of(*b.column, j));
      result[r] = (f == F::kIsDistinctFrom) != same;
      continue;
    }
    const std::optional<int> c = compare(*a.column, i, *b.column, j, equality);
    if (!c) {
      valid[r] = 0;
      result[r] = 0;
      continue;
    }
    switch (f) {
      case F::kEqual: result[r] = *c == 0; break;
      case F::kNotEqual: result[r] = *c != 0; break;
      case F::kLess: result[r] = *c < 0; break;
      case F::kLessEqual: result[r] = *c <= 0; break;
      case F::kGreater: result[r] = *c > 0; break;
      default: result[r] = *c >= 0; break;
    }
  }
  Validity validity = validity_from_bytes(valid.data(), shape.rows, ctx.memory());
  return as_operand(Column::from_buffers(TypeId::kBoolean, ColumnEncoding::kPlain, shape.rows, validity.null_count,
                                         std::move(validity.bitmap), out->values(), nullptr, nullptr),
                    shape);
}

Operand nested_cast_kernel(const Operand& in, const LogicalType& target, EvalContext& ctx) {
  const Column& c = *in.column;
  const LogicalType& source = c.type();
  if (source.id() != target.id() || source.child_count() != target.child_count()) {
    throw NotImplemented("CAST from " + source.to_string() + " to " + target.to_string());
  }
  std::vector<ColumnPtr> children;
  for (size_t k = 0; k < c.children().size(); ++k) {
    const ColumnPtr& child = c.child(k);
    const Operand cast = cast_kernel(plain(Operand{child, false}, ctx), target.child(k), child->length(), ctx);
    children.push_back(materialize(cast, child->length(), ctx.memory()));
  }
  if (target.id() == TypeId::kRow) {
    return Operand{Column::make_row(target, c.length(), c.validity(), c.null_count(), std::move(children)),
                   in.constant};
  }
  return Operand{Column::make_list(target, c.length(), c.offsets(), c.validity(), c.null_count(),
                                   std::move(children[0])),
                 in.constant};
}

}  // namespace kestrel::exec
