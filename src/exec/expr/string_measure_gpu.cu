/// Presto's string functions with a fixed-width result on the GPU: codepoint, ends_with, strrpos, hamming_distance,
/// bit_length and levenshtein_distance, with the CPU's rules (presto_string_funcs.cpp, presto_more_funcs.cpp,
/// string_extra_funcs.cpp): characters are decoded as utf8::decode does (a byte that starts no valid sequence is
/// one character), distances compare code points, strrpos counts characters by their lead bytes.

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

/// levenshtein_distance's limit on the product of the two lengths in code points (presto_string_funcs.cpp).
constexpr uint64_t kMaxLevenshteinCells = 1'000'000;

/// The number of characters of s, stepping as utf8::decode does.
__device__ inline int64_t decoded_length(const DeviceString& s) {
  int64_t count = 0;
  for (size_t at = 0; at < static_cast<size_t>(s.size); ++count) utf8::decode(s.data, static_cast<size_t>(s.size), at);
  return count;
}

/// codepoint: the code point of the only character of c; fails unless c is exactly one character.
__device__ inline bool codepoint_row(const DeviceString& c, int32_t& r) {
  if (c.size == 0) return true;
  size_t at = 0;
  const uint32_t cp = utf8::decode(c.data, static_cast<size_t>(c.size), at);
  r = static_cast<int32_t>(cp);
  return at != static_cast<size_t>(c.size);
}

/// The byte index of the last occurrence of `needle` starting at or before `pos`, or -1 (std::string_view::rfind;
/// the needle is not empty and pos + needle.size <= hay.size).
__device__ inline int64_t rfind_bytes(const DeviceString& hay, const DeviceString& needle, int64_t pos) {
  for (int64_t at = pos; at >= 0; --at) {
    int64_t k = 0;
    while (k < needle.size && hay.data[at + k] == needle.data[k]) ++k;
    if (k == needle.size) return at;
  }
  return -1;
}

/// strrpos: the character position of the n-th occurrence of `sub` from the end (occurrences may overlap), 0 when
/// there is none, 1 for an empty `sub`; fails for n <= 0.
__device__ inline bool strrpos_row(const DeviceString& s, const DeviceString& sub, int64_t n, int64_t& r) {
  if (n <= 0) return true;
  if (sub.size == 0) {
    r = 1;
    return false;
  }
  int64_t end = s.size, at = -1;
  for (int64_t k = 0; k < n; ++k) {
    if (end < sub.size) {
      at = -1;
      break;
    }
    at = rfind_bytes(s, sub, end - sub.size);
    if (at < 0) break;
    end = at + sub.size - 1;  // the next match may overlap this one
  }
  r = at < 0 ? 0 : static_cast<int64_t>(utf8::length(s.data, static_cast<size_t>(at))) + 1;
  return false;
}

/// hamming_distance: code points that differ; fails when the lengths in code points differ.
__device__ inline bool hamming_row(const DeviceString& a, const DeviceString& b, int64_t& r) {
  size_t i = 0, j = 0;
  const auto na = static_cast<size_t>(a.size), nb = static_cast<size_t>(b.size);
  int64_t distance = 0;
  while (i < na && j < nb) distance += utf8::decode(a.data, na, i) != utf8::decode(b.data, nb, j) ? 1 : 0;
  r = distance;
  return i < na || j < nb;
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
      const int64_t la = decoded_length(arg_string(a, i)), lb = decoded_length(arg_string(b, i));
      if (static_cast<uint64_t>(la) * static_cast<uint64_t>(lb) > kMaxLevenshteinCells) {
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

/// Edits from `outer` to `inner` in code points, one row of the dynamic programme (inner's length + 1 cells) in
/// `row`. The distance is symmetric, so the caller makes `inner` the shorter string.
__device__ inline int64_t levenshtein_row(const DeviceString& outer, const DeviceString& inner, int64_t inner_length,
                                          int32_t* row) {
  const auto no = static_cast<size_t>(outer.size), ni = static_cast<size_t>(inner.size);
  for (int64_t j = 0; j <= inner_length; ++j) row[j] = static_cast<int32_t>(j);
  int32_t line = 0;
  for (size_t p = 0; p < no;) {
    const uint32_t c = utf8::decode(outer.data, no, p);
    ++line;
    int32_t diagonal = row[0];
    row[0] = line;
    int64_t j = 1;
    for (size_t q = 0; q < ni; ++j) {
      const uint32_t d = utf8::decode(inner.data, ni, q);
      const int32_t above = row[j];
      int32_t best = above + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (diagonal + (c == d ? 0 : 1) < best) best = diagonal + (c == d ? 0 : 1);
      row[j] = best;
      diagonal = above;
    }
  }
  return row[inner_length];
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
      const DeviceString x = arg_string(a, i), y = arg_string(b, i);
      const int64_t lx = decoded_length(x), ly = decoded_length(y);
      r = lx < ly ? levenshtein_row(y, x, lx, scratch + offsets[i]) : levenshtein_row(x, y, ly, scratch + offsets[i]);
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
        return codepoint_row(arg_string(x, i), r);
      });
    case StringMeasureOp::kEndsWith:
      return launch_measure<uint8_t>(args, out, rows, err, stream, [=] __device__(size_t i, uint8_t& r) {
        const DeviceString s = arg_string(x, i), suffix = arg_string(y, i);
        bool match = suffix.size <= s.size;
        for (int64_t k = 0; match && k < suffix.size; ++k) match = s.data[s.size - suffix.size + k] == suffix.data[k];
        r = match ? 1 : 0;
        return false;
      });
    case StringMeasureOp::kStrrpos:
      return launch_measure<int64_t>(args, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
        return strrpos_row(arg_string(x, i), arg_string(y, i), has_instance ? arg_value<int64_t>(z, i) : 1, r);
      });
    case StringMeasureOp::kHammingDistance:
      return launch_measure<int64_t>(args, out, rows, err, stream, [=] __device__(size_t i, int64_t& r) {
        return hamming_row(arg_string(x, i), arg_string(y, i), r);
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
