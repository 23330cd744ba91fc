#include "vector/transfer.hpp"

#include "gpu/copy.hpp"

namespace kestrel {

namespace {

BufferPtr copy_buffer(const BufferPtr& src, gpu::MemoryResource& mr, gpu::Stream stream) {
  if (!src) return nullptr;
  auto dst = Buffer::allocate(src->size(), mr, stream);
  gpu::copy_bytes(dst->data(), mr.kind(), src->data(), src->kind(), src->size(), stream);
  return dst;
}

}  // namespace

ColumnPtr copy_column(const Column& column, gpu::MemoryResource& mr, gpu::Stream stream) {
  ColumnPtr dictionary = column.dictionary() ? copy_column(*column.dictionary(), mr, stream) : nullptr;
  return Column::from_buffers(column.type(), column.encoding(), column.length(), column.null_count(),
                              copy_buffer(column.validity(), mr, stream), copy_buffer(column.values(), mr, stream),
                              copy_buffer(column.offsets(), mr, stream), std::move(dictionary));
}

Batch copy_batch(const Batch& batch, gpu::MemoryResource& mr, gpu::Stream stream) {
  // A device source must be complete before another stream reads it.
  if (batch.on_device() && batch.stream() != stream && !batch.stream().is_host()) {
    gpu::Event ready;
    ready.record(batch.stream());
    ready.wait(stream);
  }
  std::vector<ColumnPtr> columns;
  columns.reserve(batch.num_columns());
  for (const auto& column : batch.columns()) columns.push_back(copy_column(*column, mr, stream));
  gpu::MemoryKind residency = mr.kind();
  return Batch(batch.schema(), std::move(columns), batch.num_rows(), residency,
               residency == gpu::MemoryKind::kDevice ? stream : gpu::Stream::host());
}

}  // namespace kestrel
