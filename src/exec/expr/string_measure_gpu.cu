/// Presto's string functions with a fixed-width result on the GPU: codepoint, ends_with, strrpos, hamming_distance,
/// bit_length and levenshtein_distance, with the CPU's rules, invalid UTF-8 included (per row: presto_string_ops.hpp).

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/presto_string_ops.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

__device__ inline presto_ops::Text text_of(const DeviceArg& a, size_t i) {
  const DeviceString s = arg_string(a, i);
  return presto_ops::Text{s.data, s.size};
}

template <typename T, typename Fn>
__global__ void measure_kernel(DeviceArgs args, DeviceOut out, size_t rows, ErrorScope err, Fn fn) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = true;
    for (int a = 0; a < args.count; ++a) valid = valid && arg_valid(args.args[a], i);
    T r{};
    // Strings of NULL rows are not read: their offsets may be anything.
    if (valid) failed = fn(i, r) && row_active(err, i);
    static_cast<T*>(out.values)[i] = r;
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename T, typename Fn>
void launch_measure(const DeviceArgs& args, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Fn fn) {
  if (rows == 0) return;
  measure_kernel<T><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(args, out, rows, err, fn);
  KESTREL_CUDA_CHECK_LAUNCH();
}

__global__ void levenshtein_scratch_kernel(DeviceArg a, DeviceArg b, int64_t* offsets, size_t rows, ErrorScope err) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool failed = false;
  if (in) {
    int64_t need = 0;
    if (arg_valid(a, i) && arg_valid(b, i)) {
      const int64_t la = presto_ops::decoded_length(text_of(a, i)), lb = presto_ops::decoded_length(text_of(b, i));
      if (presto_ops::levenshtein_too_long(la, lb)) {
        failed = row_active(err, i);
      } else {
        need = (la < lb ? la : lb) + 1;
      }
    }
    offsets[i + 1] = need;
    if (i == 0) offsets[0] = 0;
  }
  report_error(err, failed);
}

__global__ void levenshtein_kernel(DeviceArg a, DeviceArg b, const int64_t* offsets, int32_t* scratch, DeviceOut out,
                                   size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    int64_t r = 0;
    // A failing row has no scratch (its value is never used: the evaluation raises).
    if (valid && offsets[i + 1] > offsets[i]) {
      const presto_ops::Text x = text_of(a, i), y = text_of(b, i);
      const int64_t lx = presto_ops::decoded_length(x), ly = presto_ops::decoded_length(y);
      int32_t* row = scratch + offsets[i];
      r = lx < ly ? presto_ops::levenshtein_row(y, x, lx, row) : presto_ops::levenshtein_row(x, y, ly, row);
    }
    static_cast<int64_t*>(out.values)[i] = r;
  }
  write_validity(out.validity, i, in, valid);
}

}  // namespace

void launch_string_measure(StringMeasureOp op, const DeviceArgs& args, DeviceOut out, size_t rows, ErrorScope err,
                           gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_string_measure");
  const DeviceArg x = args.args[0], y = args.args[1], z = args.args[2];
  const bool has_instance = args.count > 2;
  switch (op) {
    case StringMeasureOp::kCodepoint:
      return launch_measure<int32_t>(args, out, rows, err, stream, [=] __device__(size_t i, int32_t& r) {
        return presto_ops::codepoint_row(text_of(x, i), r);
      });
    case StringMeasureOp::kEndsWith:
      return launch_measure<uint8_t>(args, out, rows, err, stream, [=] __device__(size_t i, uint8_t& r) {
        r = presto_ops::ends_with_row(text_of(x, i), text_of(y, i)) ? 1 : 0;
        return false;
      });
    case StringMeasureOp::kStrrpos:
      return launch_measure<int64_t>(args, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
        return presto_ops::strrpos_row(text_of(x, i), text_of(y, i), has_instance ? arg_value<int64_t>(z, i) : 1, r);
      });
    case StringMeasureOp::kHammingDistance:
      return launch_measure<int64_t>(args, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
        return presto_ops::hamming_row(text_of(x, i), text_of(y, i), r);
      });
    case StringMeasureOp::kBitLength:
      return launch_measure<int64_t>(args, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
        r = arg_string(x, i).size * 8;
        return false;
      });
  }
  throw InternalError("unknown GPU string function");
}

void launch_levenshtein_scratch(DeviceArg a, DeviceArg b, int64_t* offsets, size_t rows, ErrorScope err,
                                gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_levenshtein_scratch");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  levenshtein_scratch_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, offsets, rows, err);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
}

void launch_levenshtein(DeviceArg a, DeviceArg b, const int64_t* offsets, int32_t* scratch, DeviceOut out,
                        size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_levenshtein");
  if (rows == 0) return;
  levenshtein_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, offsets, scratch, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
