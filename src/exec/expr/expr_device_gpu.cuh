#pragma once
/// Device helpers shared by the GPU expression kernels (internal to exec/expr): row access to DeviceArg
/// operands, validity written one warp ballot per 32 rows, error flags and the launch shape.

#include <algorithm>
#include <cstdint>

#include "exec/expr/expr_kernels_gpu.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec::gpu_expr {

inline constexpr int kBlockThreads = 256;  // a multiple of 32: every warp covers 32 rows of one bitmap word

/// Blocks covering `rows` threads (at least one, so that one-row launches work).
inline unsigned blocks_for(size_t rows) {
  return static_cast<unsigned>(std::max<size_t>(1, (rows + kBlockThreads - 1) / kBlockThreads));
}

__device__ inline size_t row_index() { return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; }

__device__ inline bool arg_valid(const DeviceArg& a, size_t i) {
  const size_t r = a.constant ? 0 : i;
  return a.validity == nullptr || ((a.validity[r >> 3] >> (r & 7)) & 1) != 0;
}

template <typename T>
__device__ inline T arg_value(const DeviceArg& a, size_t i) {
  return static_cast<const T*>(a.values)[a.constant ? 0 : i];
}

/// The bytes of string row i (through the dictionary when indexed).
struct DeviceString {
  const char* data;
  int64_t size;
};
__device__ inline DeviceString arg_string(const DeviceArg& a, size_t i) {
  size_t r = a.constant ? 0 : i;
  if (a.indices != nullptr) r = static_cast<size_t>(a.indices[r]);
  const int64_t begin = a.offsets[r];
  return DeviceString{static_cast<const char*>(a.values) + begin, a.offsets[r + 1] - begin};
}

/// Writes the validity bit of this thread's row: lane 0 of each warp stores the warp's 32-bit word. Every thread of
/// the warp must call it (rows past the end pass in_range = false).
__device__ inline void write_validity(uint32_t* validity, size_t i, bool in_range, bool valid) {
  const unsigned word = __ballot_sync(0xffffffffu, in_range && valid);
  // The warp's first row decides whether the word exists at all.
  if (validity != nullptr && (threadIdx.x & 31) == 0 && in_range) validity[i >> 5] = word;
}

/// The comparison `op` of two values: 0 =, 1 <>, 2 <, 3 <=, 4 >, 5 >= (the order of the comparison enums of
/// compare_gpu.cu and predicate_program.hpp).
template <typename T>
__device__ inline bool compare_values(int op, T a, T b) {
  switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}

/// Whether a failing row i counts: one-row (constant) evaluations count when any row is active.
__device__ inline bool row_active(const ErrorScope& err, size_t i) {
  if (err.one_row) return err.active_any == nullptr || *err.active_any != 0;
  return err.active == nullptr || err.active[i] != 0;
}

/// Raises the error flag once per warp when some lane failed.
__device__ inline void report_error(const ErrorScope& err, bool failed) {
  if (__any_sync(0xffffffffu, failed) && (threadIdx.x & 31) == 0) atomicOr(err.status, 1);
}

/// out[i] = op(a[i]) over one operand, where op(value, result) returns true when the row fails; a failing, valid and
/// active row raises the error flag.
template <typename In, typename Out, typename Op>
__global__ void map_kernel(DeviceArg a, DeviceOut out, size_t rows, ErrorScope err, Op op) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(a, i);
    Out r{};
    const bool bad = op(arg_value<In>(a, i), r);
    static_cast<Out*>(out.values)[i] = r;
    failed = bad && valid && row_active(err, i);
  }
  report_error(err, failed);
  write_validity(out.validity, i, in, valid);
}

template <typename In, typename Out, typename Op>
void launch_map(DeviceArg a, DeviceOut out, size_t rows, ErrorScope err, gpu::Stream stream, Op op) {
  if (rows == 0) return;
  map_kernel<In, Out><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, out, rows, err, op);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
