/// VARCHAR functions on the GPU: LIKE (a per-row matcher for % and _), SUBSTRING in code points (two passes:
/// lengths, scan, copy) and broadcasting a string constant.

#include <algorithm>

#include <cub/device/device_scan.cuh>

#include "common/error.hpp"
#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec::gpu_expr {

namespace {

__device__ inline int64_t char_len(const char* s, int64_t at) {
  return static_cast<int64_t>(utf8::char_bytes(static_cast<uint8_t>(s[at])));
}

/// Greedy wildcard matching with one backtrack point (the last %): `_` consumes one UTF-8 character, the escape
/// byte makes the next pattern byte literal. Linear in practice, quadratic at worst.
__device__ bool like_match(DeviceString s, const char* p, int64_t m, int escape) {
  int64_t si = 0, pi = 0, star_p = -1, star_s = 0;
  while (si < s.size) {
    if (pi < m) {
      const char c = p[pi];
      const bool escaped = escape >= 0 && static_cast<uint8_t>(c) == escape && pi + 1 < m;
      if (!escaped && c == '%') {
        star_p = ++pi;
        star_s = si;
        continue;
      }
      if (!escaped && c == '_') {
        si += char_len(s.data, si);
        ++pi;
        continue;
      }
      const char literal = escaped ? p[pi + 1] : c;
      if (s.data[si] == literal) {
        ++si;
        pi += escaped ? 2 : 1;
        continue;
      }
    }
    if (star_p < 0) return false;
    star_s += char_len(s.data, star_s);
    si = star_s;
    pi = star_p;
  }
  while (pi < m && p[pi] == '%' ) ++pi;
  return pi == m;
}

/// Bytes of a block's strings that like_kernel stages in shared memory.
constexpr int kLikeWindow = 16 << 10;

/// LIKE (`negate`: NOT LIKE) of every row of `s` with `Matcher::match(string)`. Over a plain string column each
/// block first copies its rows' bytes into shared memory with coalesced 8-byte loads when they fit kLikeWindow (one
/// thread per row then reads its string there instead of striding through global memory on its own); the copy
/// keeps each byte's address modulo 8, which the matchers' word loads rely on.
template <typename Matcher>
__global__ void like_kernel(DeviceArg s, const __grid_constant__ Matcher matcher, bool negate, DeviceOut out,
                            size_t rows) {
  __shared__ alignas(16) char window[kLikeWindow];
  const size_t i = row_index();
  const bool in = i < rows;
  const char* staged_from = nullptr;  // the global address window[0] holds, when staged
  if (!s.constant && s.indices == nullptr) {  // uniform over the grid
    const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x;
    const size_t last = first + blockDim.x < rows ? first + blockDim.x : rows;
    const char* values = static_cast<const char*>(s.values);
    // The aligned words holding the block's bytes: a word holding a valid byte never leaves the allocation.
    const uintptr_t from = reinterpret_cast<uintptr_t>(values + s.offsets[first]) & ~uintptr_t{7};
    const uintptr_t to = (reinterpret_cast<uintptr_t>(values + s.offsets[last]) + 7) & ~uintptr_t{7};
    if (to - from <= static_cast<uintptr_t>(kLikeWindow)) {
      const auto* src = reinterpret_cast<const uint64_t*>(from);
      auto* dst = reinterpret_cast<uint64_t*>(window);
      for (size_t w = threadIdx.x; w < (to - from) / 8; w += blockDim.x) dst[w] = src[w];
      staged_from = reinterpret_cast<const char*>(from);
    }
    __syncthreads();
  }
  bool valid = false;
  if (in) {
    valid = arg_valid(s, i);
    if (valid) {
      DeviceString str = arg_string(s, i);
      if (staged_from != nullptr) str.data = window + (str.data - staged_from);
      static_cast<uint8_t*>(out.values)[i] = matcher.match(str) != negate;
    } else {
      static_cast<uint8_t*>(out.values)[i] = 0;
    }
  }
  write_validity(out.validity, i, in, valid);
}

/// The general matcher: % and _, escapes.
struct GeneralLike {
  const char* pattern;
  int64_t length;
  int escape;
  __device__ bool match(DeviceString s) const { return like_match(s, pattern, length, escape); }
};

/// Where `seg[0..len)` first occurs in s[from, n) (a start at most n - len), or -1. Scans 8 bytes per load: a SWAR
/// test flags the bytes equal to the segment's first byte, and only those are compared further. The aligned word
/// holding a byte of the string may reach past its end, never past the allocation's 8-byte granule.
__device__ inline int64_t find_segment(const char* s, int64_t from, int64_t n, const char* seg, int len) {
  if (len == 0) return from <= n ? from : -1;
  const int64_t last = n - len;
  const auto first = static_cast<uint8_t>(seg[0]);
  const uint64_t ones = 0x0101010101010101ULL;
  const uint64_t spread = ones * first;
  int64_t pos = from;
  while (pos <= last) {
    const auto addr = reinterpret_cast<uintptr_t>(s + pos);
    const int skip = static_cast<int>(addr & 7);
    const uint64_t word = *reinterpret_cast<const uint64_t*>(addr - skip) >> (8 * skip);
    const uint64_t x = word ^ spread;
    // Bytes past the word's end shift in as zeros; they are never candidates (b < 8 - skip below).
    uint64_t hits = (x - ones) & ~x & 0x8080808080808080ULL;
    while (hits != 0) {
      const int b = (__ffsll(static_cast<long long>(hits)) - 1) >> 3;
      hits &= hits - 1;
      if (b >= 8 - skip) break;
      const int64_t at = pos + b;
      if (at > last) return -1;
      int k = 0;
      while (k < len && s[at + k] == seg[k]) ++k;
      if (k == len) return at;
    }
    pos += 8 - skip;
  }
  return -1;
}

/// LIKE of a pattern of literal segments between `%`s (no `_`, no escapes): the first segment anchored at the start
/// unless the pattern starts with `%`, the last at the end unless it ends with `%`, the others found leftmost in order.
__device__ bool segments_match(DeviceString str, const LikeSegments& p) {
  const char* s = str.data;
  const int64_t n = str.size;
  int64_t pos = 0;
  int k = 0;
  int end = p.count;
  if (p.anchored_start) {
    if (p.count == 0) return n == 0;
    const int len = p.length[0];
    if (n < len || (p.anchored_end && p.count == 1 && n != len)) return false;
    for (int j = 0; j < len; ++j) {
      if (s[j] != p.bytes[j]) return false;
    }
    pos = len;
    k = 1;
  }
  int64_t suffix_at = n;
  if (p.anchored_end && end > k) {
    const int len = p.length[end - 1];
    suffix_at = n - len;
    if (suffix_at < pos) return false;
    const char* seg = p.bytes + p.offset[end - 1];
    for (int j = 0; j < len; ++j) {
      if (s[suffix_at + j] != seg[j]) return false;
    }
    --end;
  }
  for (; k < end; ++k) {
    const int64_t at = find_segment(s, pos, suffix_at, p.bytes + p.offset[k], p.length[k]);
    if (at < 0) return false;
    pos = at + p.length[k];
  }
  return true;
}

/// The matcher of patterns of literal segments.
struct SegmentsLike {
  LikeSegments segments;
  __device__ bool match(DeviceString s) const { return segments_match(s, segments); }
};

/// The byte range [begin, end) of substring(s, start[, length]) (PostgreSQL rules, as the CPU's string_funcs).
__device__ inline void substring_range(DeviceString s, int64_t start, bool has_length, int64_t length,
                                       int64_t* begin, int64_t* end) {
  // start + length saturates; it cannot overflow for start <= 0 (length >= 0 here).
  const int64_t last =
      has_length ? (start > 0 && length > INT64_MAX - start ? INT64_MAX : start + length) : INT64_MAX;
  const int64_t from = start > 1 ? start : 1;
  *begin = *end = 0;
  if (last <= from || length < 0) return;
  const auto b = static_cast<int64_t>(utf8::offset_of(s.data, static_cast<size_t>(s.size), static_cast<size_t>(from - 1)));
  *begin = b;
  if (last == INT64_MAX) {
    *end = s.size;
    return;
  }
  *end = b + static_cast<int64_t>(utf8::offset_of(s.data + b, static_cast<size_t>(s.size - b),
                                                  static_cast<size_t>(last - from)));
}

__global__ void substring_lengths_kernel(DeviceArg s, DeviceArg start, DeviceArg length, bool has_length,
                                         int64_t* offsets, uint32_t* validity, size_t rows, ErrorScope err) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false, failed = false;
  if (in) {
    valid = arg_valid(s, i) && arg_valid(start, i) && (!has_length || arg_valid(length, i));
    int64_t b = 0, e = 0;
    if (valid) {
      const int64_t len = has_length ? arg_value<int64_t>(length, i) : 0;
      failed = has_length && len < 0 && row_active(err, i);
      substring_range(arg_string(s, i), arg_value<int64_t>(start, i), has_length, len, &b, &e);
    }
    offsets[i + 1] = e - b;
    if (i == 0) offsets[0] = 0;
  }
  report_error(err, failed);
  write_validity(validity, i, in, valid);
}

__global__ void substring_copy_kernel(DeviceArg s, DeviceArg start, DeviceArg length, bool has_length,
                                      const int64_t* offsets, char* chars, size_t rows) {
  const size_t i = row_index();
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  const DeviceString str = arg_string(s, i);
  int64_t b = 0, e = 0;
  substring_range(str, arg_value<int64_t>(start, i), has_length, has_length ? arg_value<int64_t>(length, i) : 0, &b,
                  &e);
  for (int64_t k = b; k < e; ++k) chars[offsets[i] + (k - b)] = str.data[k];
}

__global__ void broadcast_string_kernel(const char* value, size_t len, int64_t* offsets, char* chars, size_t rows) {
  const size_t i = row_index();
  if (i > rows) return;
  offsets[i] = static_cast<int64_t>(i * len);
  if (i < rows) {
    for (size_t k = 0; k < len; ++k) chars[i * len + k] = value[k];
  }
}

}  // namespace

void launch_like(DeviceArg s, const char* pattern, size_t pattern_len, int escape, bool negate, DeviceOut out,
                 size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_like");
  if (rows == 0) return;
  const GeneralLike matcher{pattern, static_cast<int64_t>(pattern_len), escape};
  like_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, matcher, negate, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

std::optional<LikeSegments> like_segments(std::string_view pattern, int escape) {
  LikeSegments p;
  if (pattern.find('_') != std::string_view::npos) return std::nullopt;
  if (escape >= 0 && pattern.find(static_cast<char>(escape)) != std::string_view::npos) return std::nullopt;
  if (pattern.size() > sizeof(p.bytes)) return std::nullopt;
  p.anchored_start = pattern.empty() || pattern.front() != '%';
  p.anchored_end = pattern.empty() || pattern.back() != '%';
  int used = 0;
  size_t at = 0;
  while (at <= pattern.size()) {
    const size_t next = std::min(pattern.find('%', at), pattern.size());
    const size_t len = next - at;
    // Empty pieces between %s match nothing; an empty anchored pattern ('') is the one segment of length 0.
    if (len > 0 || (p.count == 0 && p.anchored_start && p.anchored_end)) {
      if (p.count == LikeSegments::kMaxSegments) return std::nullopt;
      p.offset[p.count] = static_cast<int16_t>(used);
      p.length[p.count] = static_cast<int16_t>(len);
      for (size_t j = 0; j < len; ++j) p.bytes[used++] = pattern[at + j];
      ++p.count;
    }
    at = next + 1;
  }
  return p;
}

void launch_like_segments(DeviceArg s, const LikeSegments& pattern, bool negate, DeviceOut out, size_t rows,
                          gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_like_segments");
  if (rows == 0) return;
  like_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(s, SegmentsLike{pattern}, negate, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_substring_lengths(DeviceArg s, DeviceArg start, const DeviceArg* length, int64_t* offsets,
                              uint32_t* validity, size_t rows, ErrorScope err, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_substring_lengths");
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  substring_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(
      s, start, length ? *length : DeviceArg{}, length != nullptr, offsets, validity, rows, err);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_substring_copy(DeviceArg s, DeviceArg start, const DeviceArg* length, int64_t* offsets, char* chars,
                           size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_substring_copy");
  if (rows == 0) return;
  launch_lengths_to_offsets(offsets, rows, stream, mr);
  substring_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(
      s, start, length ? *length : DeviceArg{}, length != nullptr, offsets, chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

void launch_lengths_to_offsets(int64_t* offsets, size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_lengths_to_offsets");
  if (rows == 0) return;
  size_t temp_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, offsets + 1, offsets + 1,
                                                   static_cast<int64_t>(rows), stream.handle()));
  void* temp = mr.allocate(temp_bytes, stream);
  KESTREL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, offsets + 1, offsets + 1,
                                                   static_cast<int64_t>(rows), stream.handle()));
  mr.deallocate(temp, temp_bytes, stream);
}

void launch_broadcast_string(const char* value, size_t len, int64_t* offsets, char* chars, size_t rows,
                             gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_broadcast_string");
  broadcast_string_kernel<<<blocks_for(rows + 1), kBlockThreads, 0, stream.handle()>>>(value, len, offsets, chars,
                                                                                      rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
