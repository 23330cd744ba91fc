// CPU kernels of sequence (integers, dates and timestamps) and split.

#include "common/datetime_ops.hpp"
#include "common/temporal.hpp"
#include "exec/expr/nested_util.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

constexpr int64_t kMaxSequence = 10000;

/// The elements of one sequence from `start` toward `stop`, `at(k)` giving element k; an error when `step` moves
/// away from stop (or does not move) or there would be more than kMaxSequence elements.
template <typename At>
void sequence_row(const plan::Expr& e, int64_t start, int64_t stop, At&& at, std::vector<int64_t>& out) {
  const int64_t second = at(1);
  if (second == start) raise_nested(e, "sequence: the step must not be zero", "22023");
  const bool up = second > start;
  if ((up && stop < start) || (!up && stop > start)) {
    raise_nested(e, std::string("sequence: stop is ") + (up ? "below" : "above") + " start but the step is " +
                        (up ? "positive" : "negative"),
                 "22023");
  }
  for (int64_t k = 0;; ++k) {
    const int64_t v = k == 0 ? start : at(k);
    if (up ? v > stop : v < stop) break;
    if (k >= kMaxSequence) {
      raise_nested(e, "sequence: the result would have more than " + std::to_string(kMaxSequence) + " elements",
                   "22023");
    }
    out.push_back(v);
  }
}

Operand sequence(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  const TypeId type = e.type.element_type().id();
  std::vector<int64_t> values, offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  for (size_t r = 0; r < shape.rows; ++r) {
    if (args[0].valid(r) && args[1].valid(r) && (args.size() < 3 || args[2].valid(r))) {
      valid[r] = 1;
      if (type == TypeId::kBigInt) {
        const int64_t start = args[0].data<int64_t>()[args[0].index(r)];
        const int64_t stop = args[1].data<int64_t>()[args[1].index(r)];
        // Without a step: 1, or -1 toward a lower stop.
        const int64_t step =
            args.size() < 3 ? (stop >= start ? 1 : -1) : args[2].data<int64_t>()[args[2].index(r)];
        const __int128 count = step == 0 ? 0 : (static_cast<__int128>(stop) - start) / step;
        if (count > kMaxSequence) {
          raise_nested(e, "sequence: the result would have more than " + std::to_string(kMaxSequence) + " elements",
                       "22023");
        }
        sequence_row(e, start, stop, [&](int64_t k) { return start + k * step; }, values);
      } else {
        const Interval step = args[2].data<Interval>()[args[2].index(r)];
        auto scaled = [&](int64_t k) {
          return Interval{static_cast<int32_t>(step.months * k), static_cast<int32_t>(step.days * k), step.micros * k};
        };
        if (type == TypeId::kDate && step.micros != 0) {
          raise_nested(e, "sequence: the step of a DATE sequence must be whole days or months, not " +
                              format_interval(step),
                       "22023");
        }
        if (type == TypeId::kDate) {
          const int32_t start = args[0].data<int32_t>()[args[0].index(r)];
          const int32_t stop = args[1].data<int32_t>()[args[1].index(r)];
          sequence_row(e, start, stop, [&](int64_t k) { return datetime::date_add_interval(start, scaled(k)); }, values);
        } else {
          const int64_t start = args[0].data<int64_t>()[args[0].index(r)];
          const int64_t stop = args[1].data<int64_t>()[args[1].index(r)];
          sequence_row(e, start, stop, [&](int64_t k) { return datetime::timestamp_add_interval(start, scaled(k)); }, values);
        }
      }
    }
    offsets.push_back(static_cast<int64_t>(values.size()));
  }
  const LogicalType element = e.type.element_type();
  ColumnPtr child = Column::make_fixed(element, values.size(), false, ctx.memory(), gpu::Stream::host());
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == TypeId::kDate) {
      child->mutable_data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      child->mutable_data<int64_t>()[i] = values[i];
    }
  }
  return as_operand(make_list_column(e.type, offsets, valid, child, ctx.memory()), shape);
}

Operand split(const plan::Expr& e, const std::vector<Operand>& args, const Shape& shape, EvalContext& ctx) {
  std::vector<std::string_view> pieces;
  std::vector<int64_t> offsets{0};
  std::vector<uint8_t> valid(shape.rows, 0);
  std::vector<std::string> row_pieces;
  for (size_t r = 0; r < shape.rows; ++r) {
    bool ok = args[0].valid(r) && args[1].valid(r) && (args.size() < 3 || args[2].valid(r));
    if (ok) {
      valid[r] = 1;
      const std::string_view s = args[0].string_at(r);
      const std::string_view delim = args[1].string_at(r);
      int64_t limit = args.size() < 3 ? INT64_MAX : args[2].data<int64_t>()[args[2].index(r)];
      if (limit <= 0) raise_nested(e, "split: the limit must be positive, got " + std::to_string(limit), "22023");
      if (delim.empty()) raise_nested(e, "split: the delimiter is empty", "22023");
      size_t from = 0;
      int64_t n = 0;
      while (true) {
        const size_t at = n + 1 < limit ? s.find(delim, from) : std::string_view::npos;
        pieces.push_back(s.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
        ++n;
        if (at == std::string_view::npos) break;
        from = at + delim.size();
      }
    }
    offsets.push_back(static_cast<int64_t>(pieces.size()));
  }
  StringColumnBuilder builder(pieces.size(), 0);
  for (std::string_view p : pieces) builder.append(p);
  ColumnPtr child = builder.finish(Validity{}, ctx.memory());
  return as_operand(make_list_column(e.type, offsets, valid, child, ctx.memory()), shape);
}

}  // namespace

Operand sequence_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Shape shape = shape_of(args, rows);
  if (e.function == F::kSplit) return split(e, args, shape, ctx);
  return sequence(e, args, shape, ctx);
}

}  // namespace kestrel::exec
