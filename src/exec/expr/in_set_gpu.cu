/// x IN (constants) on the GPU in one launch: a binary search of each row's value in the sorted distinct items.

#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

/// The row's value widened to the set's key type (sign-extended: the items were widened the same way).
template <typename T, typename Key>
__device__ bool in_fixed(const DeviceArg& x, size_t i, const Key* keys, int count) {
  const Key v = static_cast<Key>(arg_value<T>(x, i));
  int lo = 0, hi = count;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (keys[mid] < v) lo = mid + 1; else hi = mid;
  }
  return lo < count && keys[lo] == v;
}

/// Bytewise order, a prefix first: the order the host sorted the items in.
__device__ int compare_bytes(const char* a, int64_t na, const char* b, int64_t nb) {
  const int64_t n = na < nb ? na : nb;
  for (int64_t k = 0; k < n; ++k) {
    const unsigned char ca = static_cast<unsigned char>(a[k]), cb = static_cast<unsigned char>(b[k]);
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return na == nb ? 0 : (na < nb ? -1 : 1);
}

__device__ bool in_strings(const DeviceArg& x, size_t i, const InSet& set) {
  const DeviceString s = arg_string(x, i);
  int lo = 0, hi = set.count;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    const int64_t begin = set.offsets[mid];
    if (compare_bytes(set.chars + begin, set.offsets[mid + 1] - begin, s.data, s.size) < 0) lo = mid + 1; else hi = mid;
  }
  if (lo >= set.count) return false;
  const int64_t begin = set.offsets[lo];
  return compare_bytes(set.chars + begin, set.offsets[lo + 1] - begin, s.data, s.size) == 0;
}

template <typename T, typename Key>
__global__ void in_set_kernel(DeviceArg x, InSet set, DeviceOut out, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    bool found = false;
    valid = arg_valid(x, i);
    if (valid) {
      if constexpr (std::is_same_v<T, void>) {
        found = in_strings(x, i, set);
      } else {
        found = in_fixed<T, Key>(x, i, static_cast<const Key*>(set.values), set.count);
      }
      // No match among the items, and one of them is NULL: unknown.
      valid = found || !set.has_null;
    }
    static_cast<uint8_t*>(out.values)[i] = found ? 1 : 0;
  }
  write_validity(out.validity, i, in, valid);
}

template <typename T, typename Key>
void launch(DeviceArg x, InSet set, DeviceOut out, size_t rows, gpu::Stream stream) {
  in_set_kernel<T, Key><<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(x, set, out, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_in_set(InSetKind kind, DeviceArg x, InSet set, DeviceOut out, size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_in_set");
  if (rows == 0) return;
  switch (kind) {
    case InSetKind::kInt8: return launch<int8_t, int64_t>(x, set, out, rows, stream);
    case InSetKind::kInt16: return launch<int16_t, int64_t>(x, set, out, rows, stream);
    case InSetKind::kInt32: return launch<int32_t, int64_t>(x, set, out, rows, stream);
    case InSetKind::kInt64: return launch<int64_t, int64_t>(x, set, out, rows, stream);
    case InSetKind::kInt128: return launch<int128_t, int128_t>(x, set, out, rows, stream);
    case InSetKind::kString: return launch<void, int64_t>(x, set, out, rows, stream);
  }
}

}  // namespace kestrel::exec::gpu_expr
