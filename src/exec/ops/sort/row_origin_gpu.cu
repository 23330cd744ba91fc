/// row_origin_column_gpu: the origin of each row of a batch as one DECIMAL(38,0) sort key (TopNSinkGpu).

#include <algorithm>

#include "common/check.hpp"
#include "exec/ops/sort/sort_gpu.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec {

namespace {

constexpr int kThreads = 256;

/// Row i's int128 as two little-endian 64-bit words: low = sequence << 32 | i, high = morsel.
__global__ void row_origin_kernel(uint64_t morsel, uint64_t sequence_high, size_t rows, uint64_t* out) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[2 * i] = sequence_high | static_cast<uint64_t>(i);
    out[2 * i + 1] = morsel;
  }
}

}  // namespace

ColumnPtr row_origin_column_gpu(size_t rows, uint64_t morsel, uint64_t sequence, gpu::Stream stream,
                                gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "row_origin_column_gpu");
  KESTREL_CHECK_LT(morsel, uint64_t{1} << 63);
  KESTREL_CHECK_LT(sequence, uint64_t{1} << 32);
  KESTREL_CHECK_LE(rows, size_t{1} << 32);
  ColumnPtr column = Column::make_fixed(LogicalType::decimal(kMaxDecimalPrecision, 0), rows, false, mr, stream);
  if (rows == 0) return column;
  const int blocks = static_cast<int>(std::min<size_t>((rows + kThreads - 1) / kThreads, 65535));
  row_origin_kernel<<<blocks, kThreads, 0, stream.handle()>>>(morsel, sequence << 32, rows,
                                                              column->mutable_data<uint64_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  return column;
}

}  // namespace kestrel::exec
