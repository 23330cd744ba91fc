#include "exec/ops/unnest/unnest.hpp"

#include <algorithm>

#include "exec/expr/evaluate.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

void UnnestCpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  EvalContext eval;
  eval.mr = ctx.host_mr;
  std::vector<ColumnPtr> lists;
  for (const auto& e : arrays_) lists.push_back(evaluate(*e, input, eval));
  // Each input row repeated once per element of its longest list.
  RowIndices row_of;
  std::vector<int64_t> position;  // the element number (0-based) of each output row
  for (size_t r = 0; r < input.num_rows(); ++r) {
    int64_t longest = 0;
    for (const ColumnPtr& l : lists) {
      if (l->is_valid(r)) longest = std::max(longest, l->list_offsets()[r + 1] - l->list_offsets()[r]);
    }
    for (int64_t k = 0; k < longest; ++k) {
      row_of.push_back(static_cast<uint32_t>(r));
      position.push_back(k);
    }
  }
  std::vector<ColumnPtr> columns;
  for (const ColumnPtr& c : input.columns()) columns.push_back(gather_column(*c, row_of, *ctx.host_mr));
  for (const ColumnPtr& l : lists) {
    const int64_t* off = l->list_offsets();
    RowIndices elements(row_of.size());
    for (size_t i = 0; i < row_of.size(); ++i) {
      const uint32_t r = row_of[i];
      const bool has = l->is_valid(r) && off[r] + position[i] < off[r + 1];
      elements[i] = has ? static_cast<uint32_t>(off[r] + position[i]) : kNullRow;
    }
    const Column& child = *l->child(0);
    if (l->type().id() == TypeId::kMap) {
      columns.push_back(gather_column(*child.child(0), elements, *ctx.host_mr));
      columns.push_back(gather_column(*child.child(1), elements, *ctx.host_mr));
    } else {
      columns.push_back(gather_column(child, elements, *ctx.host_mr));
    }
  }
  if (ordinality_) {
    ColumnPtr n = Column::make_fixed(TypeId::kBigInt, row_of.size(), false, *ctx.host_mr, gpu::Stream::host());
    for (size_t i = 0; i < row_of.size(); ++i) n->mutable_data<int64_t>()[i] = position[i] + 1;
    columns.push_back(std::move(n));
  }
  out.push_back(Batch(schema_, std::move(columns), row_of.size(), gpu::MemoryKind::kHost));
}

}  // namespace kestrel::exec
