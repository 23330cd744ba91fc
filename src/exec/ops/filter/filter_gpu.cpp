#include "exec/ops/filter/filter_gpu.hpp"

#include <algorithm>

#include "common/check.hpp"
#include "exec/expr/evaluate_gpu.hpp"
#include "exec/expr/predicate_gpu.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/gather_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/gather.hpp"

namespace kestrel::exec {

Batch apply_filter_gpu(const plan::Expr& predicate, const Batch& batch, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "apply_filter_gpu");
  if (batch.num_rows() == 0) return batch;
  // The fused kernel where the predicate has a skeleton of comparisons and logic; node by node otherwise.
  ColumnPtr mask = evaluate_predicate_gpu(predicate, batch, /*nulls_as_false=*/true, stream, mr);
  if (!mask) mask = evaluate_gpu(predicate, batch, stream, mr);
  KESTREL_CHECK_MSG(mask->type().id() == TypeId::kBoolean && !mask->is_dictionary(),
                    "a filter predicate must evaluate to a plain BOOLEAN column");
  const size_t rows = batch.num_rows();
  const size_t n = batch.num_columns();
  BufferPtr indices = device_buffer(rows * sizeof(uint32_t), stream, mr);
  BufferPtr flags = device_buffer(rows, stream, mr);
  // One read back for the number of passing rows and what their gather needs to know (NULL counts, string
  // sizes): [0] the count, [1, 1 + n) valid rows per column, [1 + n, 1 + 2n) string bytes per column.
  BufferPtr figures = device_buffer((1 + 2 * n) * sizeof(unsigned long long), stream, mr);
  auto* figure = figures->as<unsigned long long>();
  gpu::fill_bytes(figures->data(), gpu::MemoryKind::kDevice, 0, figures->size(), stream);
  gpu::select_true_rows_async(mask->data<uint8_t>(), validity_of(*mask), rows, flags->as<uint8_t>(),
                              indices->as<uint32_t>(), reinterpret_cast<int*>(figure), stream, mr);
  count_selected_gpu(batch, flags->as<uint8_t>(), figure + 1, stream);
  std::vector<unsigned long long> host(1 + 2 * n);
  gpu::copy_bytes(host.data(), gpu::MemoryKind::kHost, figure, gpu::MemoryKind::kDevice,
                  host.size() * sizeof(unsigned long long), stream);
  const size_t count = static_cast<size_t>(host[0]);
  if (count == rows) return batch;
  GatherTotals known;
  known.valid.assign(host.begin() + 1, host.begin() + 1 + static_cast<std::ptrdiff_t>(n));
  known.chars.assign(host.begin() + 1 + static_cast<std::ptrdiff_t>(n), host.end());
  return gather_batch_gpu(batch, indices->as<uint32_t>(), count, stream, mr, &known);
}

void FilterGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(input.on_device() && ctx.device_mr != nullptr, "Filter [GPU] needs a device batch");
  Batch result = apply_filter_gpu(*predicate_, input, input.stream(), *ctx.device_mr);
  if (result.num_rows() > 0) out.push_back(std::move(result));
}

}  // namespace kestrel::exec
