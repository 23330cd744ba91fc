/// length, upper / lower, ||, trim, position, starts_with and replace on the GPU, with the CPU's rules
/// (string_funcs.cpp): lengths and positions count UTF-8 code points (bytes that are not continuation bytes), case
/// mapping changes ASCII letters only, || is NULL when an operand is, trim removes characters of an ASCII set from
/// either end, replace substitutes non-overlapping occurrences from left to right (an empty pattern changes
/// nothing).

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

__global__ void length_kernel(DeviceArg s, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(s, i);
    int64_t count = 0;
    if (valid) {
      const DeviceString str = arg_string(s, i);
      for (int64_t k = 0; k < str.size; ++k) count += utf8::is_lead(static_cast<uint8_t>(str.data[k]));
    }
    static_cast<int64_t*>(out.values)[i] = count;
  }
  write_validity(out.validity, i, in, valid);
}

/// Eight bytes per thread (utf8::map_case_bytes: the thread holding a two-byte sequence's lead writes both bytes).
__global__ void case_map_kernel(const char* in, char* out, size_t bytes, bool upper) {
  const size_t k = row_index();
  if (k * 8 >= bytes) return;
  utf8::map_case_bytes(in, out, k * 8, k * 8 + 8 < bytes ? k * 8 + 8 : bytes, bytes, upper);
}

__global__ void concat_lengths_kernel(ConcatArgs args, int64_t* offsets, uint32_t* validity, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = true;
  if (in) {
    int64_t total = 0;
    for (int a = 0; a < args.count; ++a) {
      valid = valid && arg_valid(args.args[a], i);
      if (valid) total += arg_string(args.args[a], i).size;
    }
    offsets[i + 1] = valid ? total : 0;
    if (i == 0) offsets[0] = 0;
  }
  write_validity(validity, i, in, valid);
}

__global__ void concat_copy_kernel(ConcatArgs args, const int64_t* offsets, char* chars, size_t rows) {
  const size_t i = row_index();
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  char* to = chars + offsets[i];
  for (int a = 0; a < args.count; ++a) {
    const DeviceString str = arg_string(args.args[a], i);
    for (int64_t k = 0; k < str.size; ++k) *to++ = str.data[k];
  }
}

__device__ inline bool in_trim_set(const TrimSet& set, uint32_t code_point) {
  for (int k = 0; k < set.count; ++k) {
    if (static_cast<uint8_t>(set.bytes[k]) == code_point) return true;
  }
  return false;
}

/// The trimmed range [*b, *e) of a string, decoding characters exactly as the CPU's trim_chars does (so invalid
/// UTF-8 trims the same way).
__device__ inline void trim_range(const DeviceString& s, const TrimSet& set, bool left, bool right, int64_t* b,
                                  int64_t* e) {
  size_t begin = 0, end = static_cast<size_t>(s.size);
  if (left) {
    while (begin < end) {
      size_t next = begin;
      if (!in_trim_set(set, utf8::decode(s.data, end, next))) break;
      begin = next;
    }
  }
  if (right) {
    while (end > begin) {
      size_t lead = end - 1;
      while (lead > begin && !utf8::is_lead(static_cast<uint8_t>(s.data[lead]))) --lead;
      size_t next = lead;
      if (!in_trim_set(set, utf8::decode(s.data, end, next))) break;
      end = lead;
    }
  }
  *b = static_cast<int64_t>(begin);
  *e = static_cast<int64_t>(end);
}

__global__ void trim_lengths_kernel(DeviceArg s, TrimSet set, bool left, bool right, int64_t* offsets,
                                    size_t rows) {
  const size_t i = row_index();
  if (i >= rows) return;
  int64_t b = 0, e = 0;
  if (arg_valid(s, i)) trim_range(arg_string(s, i), set, left, right, &b, &e);
  offsets[i + 1] = e - b;
  if (i == 0) offsets[0] = 0;
}

__global__ void trim_copy_kernel(DeviceArg s, TrimSet set, bool left, bool right, const int64_t* offsets,
                                 char* chars, size_t rows) {
  const size_t i = row_index();
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  const DeviceString str = arg_string(s, i);
  int64_t b = 0, e = 0;
  trim_range(str, set, left, right, &b, &e);
  for (int64_t k = b; k < e; ++k) chars[offsets[i] + (k - b)] = str.data[k];
}

/// The byte index of the first occurrence of `needle` in `hay` at or after `from`, or -1.
__device__ inline int64_t find_bytes(const DeviceString& hay, const DeviceString& needle, int64_t from) {
  for (int64_t at = from; at + needle.size <= hay.size; ++at) {
    int64_t k = 0;
    while (k < needle.size && hay.data[at + k] == needle.data[k]) ++k;
    if (k == needle.size) return at;
  }
  return -1;
}

/// position(needle, haystack) -> BIGINT (0 when absent), or starts_with(s, prefix) -> BOOLEAN.
__global__ void search_kernel(DeviceArg a, DeviceArg b, bool starts_with, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i) && arg_valid(b, i);
    if (starts_with) {
      bool r = false;
      if (valid) {
        const DeviceString s = arg_string(a, i), prefix = arg_string(b, i);
        r = prefix.size <= s.size;
        for (int64_t k = 0; r && k < prefix.size; ++k) r = s.data[k] == prefix.data[k];
      }
      static_cast<uint8_t*>(out.values)[i] = r ? 1 : 0;
    } else {
      int64_t r = 0;
      if (valid) {
        const DeviceString hay = arg_string(b, i);
        const int64_t at = find_bytes(hay, arg_string(a, i), 0);
        if (at >= 0) {
          for (int64_t k = 0; k < at; ++k) r += utf8::is_lead(static_cast<uint8_t>(hay.data[k]));
          ++r;
        }
      }
      static_cast<int64_t*>(out.values)[i] = r;
    }
  }
  write_validity(out.validity, i, in, valid);
}

/// replace(s, from, to): writes the result to `to_chars` when it is not null; returns its length.
__device__ inline int64_t replace_row(const DeviceString& s, const DeviceString& from, const DeviceString& to,
                                      char* to_chars) {
  if (from.size == 0) {
    if (to_chars != nullptr) {
      for (int64_t k = 0; k < s.size; ++k) to_chars[k] = s.data[k];
    }
    return s.size;
  }
  int64_t length = 0, pos = 0;
  while (true) {
    const int64_t at = find_bytes(s, from, pos);
    const int64_t piece_end = at < 0 ? s.size : at;
    if (to_chars != nullptr) {
      for (int64_t k = pos; k < piece_end; ++k) to_chars[length + k - pos] = s.data[k];
    }
    length += piece_end - pos;
    if (at < 0) return length;
    if (to_chars != nullptr) {
      for (int64_t k = 0; k < to.size; ++k) to_chars[length + k] = to.data[k];
    }
    length += to.size;
    pos = at + from.size;
  }
}

__global__ void replace_lengths_kernel(DeviceArg s, DeviceArg from, DeviceArg to, int64_t* offsets,
                                       uint32_t* validity, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(s, i) && arg_valid(from, i) && arg_valid(to, i);
    offsets[i + 1] =
        valid ? replace_row(arg_string(s, i), arg_string(from, i), arg_string(to, i), nullptr) : 0;
    if (i == 0) offsets[0] = 0;
  }
  write_validity(validity, i, in, valid);
}

__global__ void replace_copy_kernel(DeviceArg s, DeviceArg from, DeviceArg to, const int64_t* offsets, char* chars,
                                    size_t rows) {
  const size_t i = row_index();
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  replace_row(arg_string(s, i), arg_string(from, i), arg_string(to, i), chars + offsets[i]);
}

}  // namespace

void launch_string_search(bool starts_with, DeviceArg a, DeviceArg b, DeviceOut out, size_t rows,
                          gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_string_search");
  if (rows == 0) return;
  search_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, b, starts_with, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_replace_offsets(DeviceArg s, DeviceArg from, DeviceArg to, int64_t* offsets, uint32_t* validity,
                            size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_replace_offsets");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  replace_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, from, to, offsets, validity,
                                                                                  rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
}

void launch_replace_copy(DeviceArg s, DeviceArg from, DeviceArg to, const int64_t* offsets, char* chars, size_t rows,
                         gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_replace_copy");
  if (rows == 0) return;
  replace_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, from, to, offsets, chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_trim(DeviceArg s, const TrimSet& set, bool left, bool right, int64_t* offsets, char* chars, size_t rows,
                 gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_trim");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  trim_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, set, left, right, offsets, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
  trim_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, set, left, right, offsets, chars,
                                                                            rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_length(DeviceArg s, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_length");
  if (rows == 0) return;
  length_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_case_map(const char* in, char* out, size_t bytes, bool upper, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_case_map");
  if (bytes == 0) return;
  case_map_kernel<<<blocks_for((bytes + 7) / 8), kBlockThreads, 0, stream.handle()>>>(in, out, bytes, upper);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_concat_offsets(const ConcatArgs& args, int64_t* offsets, uint32_t* validity, size_t rows,
                           gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_concat_offsets");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  concat_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(args, offsets, validity, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
}

void launch_concat_copy(const ConcatArgs& args, const int64_t* offsets, char* chars, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_concat_copy");
  if (rows == 0) return;
  concat_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(args, offsets, chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
