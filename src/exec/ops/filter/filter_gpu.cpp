#include "exec/ops/filter/filter_gpu.hpp"

#include <algorithm>

#include "common/check.hpp"
#include "exec/expr/evaluate_gpu.hpp"
#include "exec/expr/predicate_gpu.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "gpu/copy.hpp"
#include "gpu/gather.hpp"

namespace kestrel::exec {

namespace {

/// A gathered column waiting for its NULL count and (strings) the size of its chars.
struct PendingColumn {
  const Column* source = nullptr;
  BufferPtr validity;
  BufferPtr values;
  BufferPtr offsets;
};

}  // namespace

Batch gather_batch_gpu(const Batch& batch, const uint32_t* indices, size_t count, gpu::Stream stream,
                       gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "gather_batch_gpu");
  KESTREL_CHECK_MSG(batch.on_device(), "gather_batch_gpu needs a device batch");
  const size_t n = batch.num_columns();
  // Device counters read back in one copy: [0, n) valid rows per column, [n, 2n) chars bytes per string column.
  BufferPtr counters = device_buffer(2 * n * sizeof(unsigned long long), stream, mr);
  auto* counter = counters->as<unsigned long long>();
  gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0, counters->size(), stream);
  bool need_readback = false;
  std::vector<PendingColumn> pending(n);
  for (size_t k = 0; k < n; ++k) {
    const Column& c = *batch.column(k);
    PendingColumn& p = pending[k];
    p.source = &c;
    if (c.validity() && c.null_count() > 0) {
      p.validity = device_buffer((count + 31) / 32 * 4, stream, mr);
      gpu::gather_bits(c.validity()->as<uint8_t>(), indices, count, p.validity->as<uint32_t>(), counter + k, stream);
      need_readback = true;
    }
    if (c.is_dictionary()) {
      p.values = device_buffer(count * sizeof(int32_t), stream, mr);
      gpu::gather_fixed(sizeof(int32_t), c.values()->data(), indices, count, p.values->data(), stream);
    } else if (c.type().id() == TypeId::kVarchar) {
      p.offsets = device_buffer((count + 1) * sizeof(int64_t), stream, mr);
      gpu::gather_string_offsets(c.offsets()->as<int64_t>(), indices, count, p.offsets->as<int64_t>(), stream, mr);
      gpu::copy_bytes(counter + n + k, gpu::MemoryKind::kDevice, p.offsets->as<int64_t>() + count,
                      gpu::MemoryKind::kDevice, sizeof(int64_t), stream);
      need_readback = true;
    } else if (c.type().id() == TypeId::kNull) {
      // An untyped NULL column has no values: every gathered row is NULL (the counter stays 0 valid rows).
      if (!p.validity) {
        p.validity = device_buffer((count + 31) / 32 * 4, stream, mr);
        gpu::fill_bytes(p.validity->data(), gpu::MemoryKind::kDevice, 0, p.validity->size(), stream);
      }
      p.values = device_buffer(0, stream, mr);
    } else {
      const size_t width = c.type().physical_width();
      p.values = device_buffer(count * width, stream, mr);
      gpu::gather_fixed(width, c.values()->data(), indices, count, p.values->data(), stream);
    }
  }
  std::vector<unsigned long long> host_counters(2 * n, 0);
  if (need_readback) {
    // The host needs the NULL counts (column metadata) and the string sizes (to allocate their chars).
    gpu::copy_bytes(host_counters.data(), gpu::MemoryKind::kHost, counter, gpu::MemoryKind::kDevice,
                    host_counters.size() * sizeof(unsigned long long), stream);
  }
  std::vector<ColumnPtr> columns;
  columns.reserve(n);
  for (size_t k = 0; k < n; ++k) {
    PendingColumn& p = pending[k];
    const Column& c = *p.source;
    const size_t null_count = p.validity ? count - static_cast<size_t>(host_counters[k]) : 0;
    if (c.is_dictionary()) {
      columns.push_back(Column::make_dictionary(c.type(), count, p.values, p.validity, null_count, c.dictionary()));
      continue;
    }
    if (p.offsets) {
      const size_t bytes = static_cast<size_t>(host_counters[n + k]);
      p.values = device_buffer(bytes, stream, mr);
      gpu::gather_string_chars(c.offsets()->as<int64_t>(), c.values() ? c.values()->as<char>() : nullptr, indices,
                               count, p.offsets->as<int64_t>(), p.values->as<char>(), stream);
    }
    columns.push_back(Column::from_buffers(c.type(), ColumnEncoding::kPlain, count, null_count, p.validity, p.values,
                                           p.offsets, nullptr));
  }
  return Batch(batch.schema(), std::move(columns), count, gpu::MemoryKind::kDevice, stream);
}

Batch apply_filter_gpu(const plan::Expr& predicate, const Batch& batch, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "apply_filter_gpu");
  if (batch.num_rows() == 0) return batch;
  // The fused kernel where the predicate has a skeleton of comparisons and logic; node by node otherwise.
  ColumnPtr mask = evaluate_predicate_gpu(predicate, batch, /*nulls_as_false=*/true, stream, mr);
  if (!mask) mask = evaluate_gpu(predicate, batch, stream, mr);
  KESTREL_CHECK_MSG(mask->type().id() == TypeId::kBoolean && !mask->is_dictionary(),
                    "a filter predicate must evaluate to a plain BOOLEAN column");
  BufferPtr indices = device_buffer(batch.num_rows() * sizeof(uint32_t), stream, mr);
  const uint8_t* validity = validity_of(*mask);
  const size_t count =
      gpu::select_true_rows(mask->data<uint8_t>(), validity, batch.num_rows(), indices->as<uint32_t>(), stream, mr);
  if (count == batch.num_rows()) return batch;
  return gather_batch_gpu(batch, indices->as<uint32_t>(), count, stream, mr);
}

void FilterGpu::execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) {
  KESTREL_CHECK_MSG(input.on_device() && ctx.device_mr != nullptr, "Filter [GPU] needs a device batch");
  Batch result = apply_filter_gpu(*predicate_, input, input.stream(), *ctx.device_mr);
  if (result.num_rows() > 0) out.push_back(std::move(result));
}

}  // namespace kestrel::exec
