/// Presto's string functions with a VARCHAR result on the GPU: reverse, lpad, rpad, chr, split_part, replace_first,
/// trail and longest_common_prefix, with the CPU's rules, invalid UTF-8 included (per row: presto_string_ops.hpp).
/// One row function serves both passes, measuring (no output) and writing, so the two always agree.

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/presto_string_ops.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

using presto_ops::kFailedRow;

__device__ inline presto_ops::Text text_of(const DeviceArg& a, size_t i) {
  const DeviceString s = arg_string(a, i);
  return presto_ops::Text{s.data, s.size};
}

/// Row i's result: its byte length (written to `out` when not null), kNullRow or kFailedRow. The operands are valid.
__device__ inline int64_t build_row(StringBuildOp op, const DeviceArgs& args, size_t i, char* out) {
  const DeviceArg* a = args.args;
  switch (op) {
    case StringBuildOp::kReverse: return presto_ops::reverse_row(text_of(a[0], i), out);
    case StringBuildOp::kLpad:
    case StringBuildOp::kRpad:
      return presto_ops::pad_row(text_of(a[0], i), arg_value<int64_t>(a[1], i), text_of(a[2], i),
                                 op == StringBuildOp::kLpad, out);
    case StringBuildOp::kChr: return presto_ops::chr_row(arg_value<int64_t>(a[0], i), out);
    case StringBuildOp::kSplitPart:
      return presto_ops::split_part_row(text_of(a[0], i), text_of(a[1], i), arg_value<int64_t>(a[2], i), out);
    case StringBuildOp::kReplaceFirst:
      return presto_ops::replace_first_row(text_of(a[0], i), text_of(a[1], i), text_of(a[2], i), out);
    case StringBuildOp::kTrail: return presto_ops::trail_row(text_of(a[0], i), arg_value<int64_t>(a[1], i), out);
    case StringBuildOp::kLongestCommonPrefix:
      return presto_ops::common_prefix_row(text_of(a[0], i), text_of(a[1], i), out);
  }
  return kFailedRow;
}

__global__ void build_lengths_kernel(StringBuildOp op, DeviceArgs args, int64_t* offsets, uint32_t* validity,
                                     size_t rows, ErrorScope err) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    bool inputs = true;
    for (int a = 0; a < args.count; ++a) inputs = inputs && arg_valid(args.args[a], i);
    int64_t length = 0;
    if (inputs) {
      const int64_t r = build_row(op, args, i, nullptr);
      failed = r == kFailedRow && row_active(err, i);
      valid = r >= 0;
      length = valid ? r : 0;
    }
    offsets[i + 1] = length;
    if (i == 0) offsets[0] = 0;
  }
  report_error(err, failed);
  write_validity(validity, i, in, valid);
}

__global__ void build_copy_kernel(StringBuildOp op, DeviceArgs args, const int64_t* offsets, char* chars,
                                  size_t rows) {
  const size_t i = row_index();
  // Rows of no bytes (NULL, failing or empty) write nothing.
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  build_row(op, args, i, chars + offsets[i]);
}

}  // namespace

void launch_string_build_offsets(StringBuildOp op, const DeviceArgs& args, int64_t* offsets, uint32_t* validity,
                                 size_t rows, ErrorScope err, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_string_build_offsets");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  build_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(op, args, offsets, validity, rows,
                                                                                err);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
}

void launch_string_build_copy(StringBuildOp op, const DeviceArgs& args, const int64_t* offsets, char* chars,
                              size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_string_build_copy");
  if (rows == 0) return;
  build_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(op, args, offsets, chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
