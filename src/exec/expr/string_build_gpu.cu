/// Presto's string functions with a VARCHAR result on the GPU: reverse, lpad, rpad, chr, split_part, replace_first,
/// trail and longest_common_prefix, with the CPU's rules (presto_string_funcs.cpp, presto_more_funcs.cpp,
/// string_extra_funcs.cpp), invalid UTF-8 included: each function steps through characters as its CPU twin does
/// (utf8::decode, utf8::length and utf8::offset_of treat a byte that starts no valid sequence as one character).
/// One row function serves both passes: measuring (no output) and writing, so the two always agree.

#include <limits>

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

constexpr int64_t kNullRow = -1;    ///< the row's result is NULL (split_part past the last field)
constexpr int64_t kFailedRow = -2;  ///< the row raises an error

/// Appends bytes to a row's result, or only counts them when there is no output.
struct RowWriter {
  char* out;
  int64_t size = 0;

  __device__ void append(const char* bytes, int64_t n) {
    if (out != nullptr) {
      for (int64_t k = 0; k < n; ++k) out[size + k] = bytes[k];
    }
    size += n;
  }
  __device__ void append(const DeviceString& s) { append(s.data, s.size); }
};

/// The byte offset after the character starting at s[i] (presto_string_funcs.cpp's char_starts step).
__device__ inline int64_t next_char(const DeviceString& s, int64_t i) {
  size_t next = static_cast<size_t>(i);
  utf8::decode(s.data, static_cast<size_t>(s.size), next);
  return static_cast<int64_t>(next);
}

/// The byte offset where character number `chars` (0-based, by next_char steps) starts, or s.size.
__device__ inline int64_t char_start(const DeviceString& s, int64_t chars) {
  int64_t at = 0;
  for (; chars > 0 && at < s.size; --chars) at = next_char(s, at);
  return at;
}

__device__ inline int64_t reverse_row(const DeviceString& s, char* out) {
  if (out != nullptr) {
    // The character at [at, next) lands at s.size - next.
    for (int64_t at = 0; at < s.size;) {
      const int64_t next = next_char(s, at);
      for (int64_t k = at; k < next; ++k) out[s.size - next + (k - at)] = s.data[k];
      at = next;
    }
  }
  return s.size;
}

/// lpad / rpad in code points: a longer string is cut to `size` characters, else padding repeats (cut where the
/// size is reached) on the left or the right.
__device__ inline int64_t pad_row(const DeviceString& s, int64_t size, const DeviceString& padding, bool left,
                                  char* out) {
  if (size < 0 || size > std::numeric_limits<int32_t>::max() || padding.size == 0) return kFailedRow;
  const auto target = static_cast<size_t>(size);
  const size_t length = utf8::length(s.data, static_cast<size_t>(s.size));
  RowWriter w{out};
  if (target <= length) {
    w.append(s.data, static_cast<int64_t>(utf8::offset_of(s.data, static_cast<size_t>(s.size), target)));
    return w.size;
  }
  int64_t pad_chars = 0;
  for (int64_t at = 0; at < padding.size; at = next_char(padding, at)) ++pad_chars;
  const auto fill = static_cast<int64_t>(target - length);
  const int64_t repeats = fill / pad_chars;
  const int64_t rest_bytes = char_start(padding, fill % pad_chars);
  if (out == nullptr) return s.size + repeats * padding.size + rest_bytes;
  if (!left) w.append(s);
  for (int64_t k = 0; k < repeats; ++k) w.append(padding);
  w.append(padding.data, rest_bytes);
  if (left) w.append(s);
  return w.size;
}

__device__ inline int64_t chr_row(int64_t cp, char* out) {
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return kFailedRow;
  char bytes[4];
  int n = 0;
  const auto c = static_cast<uint32_t>(cp);
  if (c < 0x80) {
    bytes[n++] = static_cast<char>(c);
  } else if (c < 0x800) {
    bytes[n++] = static_cast<char>(0xC0 | (c >> 6));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    bytes[n++] = static_cast<char>(0xE0 | (c >> 12));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  } else {
    bytes[n++] = static_cast<char>(0xF0 | (c >> 18));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  }
  RowWriter w{out};
  w.append(bytes, n);
  return w.size;
}

/// split_part: the index-th field (1-based); an empty delimiter makes the whole string the only field.
__device__ inline int64_t split_part_row(const DeviceString& s, const DeviceString& delimiter, int64_t index,
                                         char* out) {
  if (index <= 0) return kFailedRow;
  RowWriter w{out};
  if (delimiter.size == 0) {
    if (index != 1) return kNullRow;
    w.append(s);
    return w.size;
  }
  int64_t begin = 0;
  for (int64_t field = 1; field < index; ++field) {
    const int64_t at = find_bytes(s, delimiter, begin);
    if (at < 0) return kNullRow;
    begin = at + delimiter.size;
  }
  int64_t end = find_bytes(s, delimiter, begin);
  if (end < 0) end = s.size;
  w.append(s.data + begin, end - begin);
  return w.size;
}

/// replace_first: the first occurrence of `search` replaced (an empty search puts the replacement in front).
__device__ inline int64_t replace_first_row(const DeviceString& s, const DeviceString& search,
                                            const DeviceString& replacement, char* out) {
  RowWriter w{out};
  const int64_t at = find_bytes(s, search, 0);
  if (at < 0) {
    w.append(s);
    return w.size;
  }
  w.append(s.data, at);
  w.append(replacement);
  w.append(s.data + at + search.size, s.size - at - search.size);
  return w.size;
}

/// trail: the last n code points (continuation bytes not counted), all of s when shorter, empty for n <= 0.
__device__ inline int64_t trail_row(const DeviceString& s, int64_t n, char* out) {
  RowWriter w{out};
  if (n <= 0) return 0;
  int64_t i = s.size;
  while (n > 0 && i > 0) {
    --i;
    if (utf8::is_lead(static_cast<uint8_t>(s.data[i]))) --n;
  }
  w.append(s.data + i, s.size - i);
  return w.size;
}

/// longest_common_prefix: whole characters (by their lead byte's length) equal in both strings.
__device__ inline int64_t common_prefix_row(const DeviceString& a, const DeviceString& b, char* out) {
  int64_t i = 0;
  while (i < a.size && i < b.size) {
    const auto n = static_cast<int64_t>(utf8::char_bytes(static_cast<uint8_t>(a.data[i])));
    if (i + n > a.size || i + n > b.size) break;
    bool same = true;
    for (int64_t k = 0; k < n && same; ++k) same = a.data[i + k] == b.data[i + k];
    if (!same) break;
    i += n;
  }
  RowWriter w{out};
  w.append(a.data, i);
  return w.size;
}

/// Row i's result: its byte length (written to `out` when not null), kNullRow or kFailedRow. The operands are valid.
__device__ inline int64_t build_row(StringBuildOp op, const DeviceArgs& args, size_t i, char* out) {
  switch (op) {
    case StringBuildOp::kReverse: return reverse_row(arg_string(args.args[0], i), out);
    case StringBuildOp::kLpad:
    case StringBuildOp::kRpad:
      return pad_row(arg_string(args.args[0], i), arg_value<int64_t>(args.args[1], i), arg_string(args.args[2], i),
                     op == StringBuildOp::kLpad, out);
    case StringBuildOp::kChr: return chr_row(arg_value<int64_t>(args.args[0], i), out);
    case StringBuildOp::kSplitPart:
      return split_part_row(arg_string(args.args[0], i), arg_string(args.args[1], i),
                            arg_value<int64_t>(args.args[2], i), out);
    case StringBuildOp::kReplaceFirst:
      return replace_first_row(arg_string(args.args[0], i), arg_string(args.args[1], i), arg_string(args.args[2], i),
                               out);
    case StringBuildOp::kTrail: return trail_row(arg_string(args.args[0], i), arg_value<int64_t>(args.args[1], i), out);
    case StringBuildOp::kLongestCommonPrefix:
      return common_prefix_row(arg_string(args.args[0], i), arg_string(args.args[1], i), out);
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
