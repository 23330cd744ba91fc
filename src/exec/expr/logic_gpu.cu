/// Boolean logic, NULL tests, CASE assembly (fixed-width and VARCHAR), broadcasts and dictionary spreads on the GPU.
/// The fixed-width data-movement kernels are templated on the value width only, so one instantiation serves every
/// type of that width.

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

struct alignas(16) Bytes16 {
  uint64_t lo, hi;
};

/// Calls fn(T{}) with an unsigned type of `width` bytes.
template <typename Fn>
void dispatch_width(size_t width, Fn&& fn) {
  switch (width) {
    case 1: return fn(uint8_t{});
    case 2: return fn(uint16_t{});
    case 4: return fn(uint32_t{});
    case 8: return fn(uint64_t{});
    case 16: return fn(Bytes16{});
    default: throw InternalError("GPU expression: no layout of width " + std::to_string(width));
  }
}

/// AND: FALSE wins over NULL, NULL over TRUE; OR: TRUE wins over NULL, NULL over FALSE (as the CPU's logic_kernel).
__global__ void logic_kernel(bool is_and, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    const bool va = arg_valid(a, i), vb = arg_valid(b, i);
    const bool ta = arg_value<uint8_t>(a, i) != 0, tb = arg_value<uint8_t>(b, i) != 0;
    const bool winner = !is_and;
    const bool decided = (va && ta == winner) || (vb && tb == winner);
    valid = decided || (va && vb);
    static_cast<uint8_t*>(out.values)[i] = decided ? winner : !winner;
  }
  write_validity(out.validity, i, in, valid);
}

__global__ void not_kernel(DeviceArg a, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i);
    static_cast<uint8_t*>(out.values)[i] = arg_value<uint8_t>(a, i) == 0;
  }
  write_validity(out.validity, i, in, valid);
}

__global__ void is_null_kernel(DeviceArg a, bool want_null, uint8_t* out, size_t rows) {
  const size_t i = row_index();
  if (i < rows) out[i] = arg_valid(a, i) != want_null;
}

template <typename T>
__global__ void broadcast_kernel(DeviceArg a, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i);
    static_cast<T*>(out.values)[i] = arg_value<T>(a, i);
  }
  write_validity(out.validity, i, in, valid);
}

template <typename T>
__global__ void spread_kernel(DeviceArg per_entry, const int32_t* indices, const uint8_t* row_validity,
                              DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    // NULL rows may hold any index: they read nothing.
    valid = row_validity == nullptr || ((row_validity[i >> 3] >> (i & 7)) & 1) != 0;
    if (valid) {
      const auto entry = static_cast<size_t>(indices[i]);
      valid = arg_valid(per_entry, entry);
      static_cast<T*>(out.values)[i] = arg_value<T>(per_entry, entry);
    }
  }
  write_validity(out.validity, i, in, valid);
}

__global__ void case_take_kernel(DeviceArg cond, uint8_t* remaining, uint8_t* branch_of, uint8_t b,
                                 int* remaining_any, size_t rows) {
  const size_t i = row_index();
  bool left = false;
  if (i < rows && remaining[i] != 0) {
    if (arg_valid(cond, i) && arg_value<uint8_t>(cond, i) != 0) {
      branch_of[i] = b;
      remaining[i] = 0;
    } else {
      left = true;
    }
  }
  if (__any_sync(0xffffffffu, left) && (threadIdx.x & 31) == 0) atomicOr(remaining_any, 1);
}

__global__ void branch_mask_kernel(const uint8_t* branch_of, uint8_t b, const uint8_t* active, uint8_t* mask, int* any,
                                   size_t rows) {
  const size_t i = row_index();
  bool m = false;
  if (i < rows) {
    m = branch_of[i] == b && (active == nullptr || active[i] != 0);
    mask[i] = m;
  }
  if (__any_sync(0xffffffffu, m) && (threadIdx.x & 31) == 0) atomicOr(any, 1);
}

template <typename T>
__global__ void select_into_kernel(DeviceArg piece, const uint8_t* branch_of, uint8_t b, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    const uint32_t old_word = out.validity[i >> 5];
    if (branch_of[i] == b) {
      valid = arg_valid(piece, i);
      static_cast<T*>(out.values)[i] = arg_value<T>(piece, i);
    } else {
      valid = ((old_word >> (i & 31)) & 1) != 0;
    }
  }
  // Every lane read the word before lane 0 rewrites it: the ballot orders the read before the write.
  write_validity(out.validity, i, in, valid);
}

__global__ void select_string_lengths_kernel(DeviceArg piece, const uint8_t* branch_of, uint8_t b, int64_t* offsets,
                                             uint32_t* validity, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    const uint32_t old_word = validity[i >> 5];
    if (branch_of[i] == b) {
      valid = arg_valid(piece, i);
      offsets[i + 1] = valid ? arg_string(piece, i).size : 0;
    } else {
      valid = ((old_word >> (i & 31)) & 1) != 0;
    }
  }
  // As in select_into_kernel: the ballot orders every lane's read of the word before lane 0 rewrites it.
  write_validity(validity, i, in, valid);
}

__global__ void select_string_copy_kernel(DeviceArg piece, const uint8_t* branch_of, uint8_t b,
                                          const int64_t* offsets, char* chars, size_t rows) {
  const size_t i = row_index();
  if (i >= rows || branch_of[i] != b) return;
  const int64_t length = offsets[i + 1] - offsets[i];
  if (length == 0) return;  // also every NULL row: its string is not read
  const DeviceString s = arg_string(piece, i);
  char* to = chars + offsets[i];
  for (int64_t k = 0; k < length; ++k) to[k] = s.data[k];
}

__global__ void count_valid_kernel(const uint8_t* validity, size_t rows, unsigned long long* count) {
  const size_t i = row_index();
  const bool bit = i < rows && ((validity[i >> 3] >> (i & 7)) & 1) != 0;
  const unsigned word = __ballot_sync(0xffffffffu, bit);
  if ((threadIdx.x & 31) == 0 && word != 0) atomicAdd(count, static_cast<unsigned long long>(__popc(word)));
}

}  // namespace

void launch_logic(bool is_and, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_logic");
  if (rows == 0) return;
  logic_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(is_and, a, b, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_not(DeviceArg a, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_not");
  if (rows == 0) return;
  not_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_is_null(DeviceArg a, bool want_null, uint8_t* out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_is_null");
  if (rows == 0) return;
  is_null_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, want_null, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_broadcast(size_t width, DeviceArg a, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_broadcast");
  if (rows == 0) return;
  dispatch_width(width, [&](auto tag) {
    broadcast_kernel<decltype(tag)><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, out, rows);
  });
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_spread(size_t width, DeviceArg per_entry, const int32_t* indices, const uint8_t* row_validity,
                   DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_spread");
  if (rows == 0) return;
  dispatch_width(width, [&](auto tag) {
    spread_kernel<decltype(tag)>
        <<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(per_entry, indices, row_validity, out, rows);
  });
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_case_take(DeviceArg cond, uint8_t* remaining, uint8_t* branch_of, uint8_t b, int* remaining_any,
                      size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_case_take");
  if (rows == 0) return;
  case_take_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(cond, remaining, branch_of, b,
                                                                              remaining_any, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_branch_mask(const uint8_t* branch_of, uint8_t b, const uint8_t* active, uint8_t* mask, int* any,
                        size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_branch_mask");
  if (rows == 0) return;
  branch_mask_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(branch_of, b, active, mask, any, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_select_into(size_t width, DeviceArg piece, const uint8_t* branch_of, uint8_t b, DeviceOut out,
                        size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_select_into");
  if (rows == 0) return;
  dispatch_width(width, [&](auto tag) {
    select_into_kernel<decltype(tag)>
        <<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(piece, branch_of, b, out, rows);
  });
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_select_string_lengths(DeviceArg piece, const uint8_t* branch_of, uint8_t b, int64_t* offsets,
                                  uint32_t* validity, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_select_string_lengths");
  if (rows == 0) return;
  select_string_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(piece, branch_of, b, offsets,
                                                                                         validity, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_select_string_copy(DeviceArg piece, const uint8_t* branch_of, uint8_t b, const int64_t* offsets,
                               char* chars, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_select_string_copy");
  if (rows == 0) return;
  select_string_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(piece, branch_of, b, offsets,
                                                                                      chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_count_valid(const uint8_t* validity, size_t rows, unsigned long long* count, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_count_valid");
  if (rows == 0) return;
  count_valid_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(validity, rows, count);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
