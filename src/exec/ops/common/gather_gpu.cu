#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/gather_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"

namespace kestrel::exec {

namespace {

constexpr int kThreads = 256;
/// Columns one launch handles (its specs travel as a kernel parameter).
constexpr int kMaxSpecs = 32;

unsigned blocks_for(size_t items) {
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 1 << 16)));
}

#define KESTREL_GRID_LOOP(i, n)                                                        \
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<size_t>(gridDim.x) * blockDim.x)

/// What one column's part of a fused launch does.
enum class SpecOp : uint32_t {
  kFixed1 = 1,
  kFixed2 = 2,
  kFixed4 = 4,
  kFixed8 = 8,
  kFixed16 = 16,
  kBits,     ///< validity words of the gathered rows, valid rows added to *counter
  kLengths,  ///< string lengths of the gathered rows into dst (int64, count + 1 values, the last 0)
  kRebase,   ///< dst offsets = scanned[0..count] - scanned[0]; *counter = the string bytes
  kChars,    ///< string bytes of the gathered rows at their new offsets
  kCount,    ///< over flagged rows: valid rows (validity given) or string bytes (offsets given) into *counter
};

struct Spec {
  const void* src = nullptr;         ///< values, validity, chars or scanned lengths
  void* dst = nullptr;               ///< gathered values, validity words, lengths, offsets or chars
  const uint32_t* indices = nullptr; ///< row numbers (kCount: the row flags, as bytes)
  const int64_t* offsets = nullptr;  ///< source string offsets (kLengths, kChars, kCount of strings)
  const int64_t* dst_offsets = nullptr;  ///< kChars: the new offsets
  unsigned long long* counter = nullptr;
  uint64_t count = 0;
  SpecOp op = SpecOp::kFixed8;
};

struct Specs {
  Spec spec[kMaxSpecs];
};

template <size_t Width>
struct alignas(Width) Bytes {
  unsigned char b[Width];
};

__device__ inline bool bit_at(const uint8_t* bitmap, size_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }

template <size_t Width>
__device__ void gather_fixed(const Spec& s) {
  using T = Bytes<Width>;
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  KESTREL_GRID_LOOP(i, s.count) { dst[i] = src[s.indices[i]]; }
}

/// Block-wide sum added to *counter once per block.
__device__ void add_to_counter(unsigned long long local, unsigned long long* counter) {
  __shared__ unsigned long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  if (local != 0) atomicAdd(&block_sum, local);
  __syncthreads();
  if (threadIdx.x == 0 && block_sum != 0) atomicAdd(counter, block_sum);
}

__global__ void specs_kernel(Specs specs) {
  const Spec& s = specs.spec[blockIdx.y];
  switch (s.op) {
    case SpecOp::kFixed1: return gather_fixed<1>(s);
    case SpecOp::kFixed2: return gather_fixed<2>(s);
    case SpecOp::kFixed4: return gather_fixed<4>(s);
    case SpecOp::kFixed8: return gather_fixed<8>(s);
    case SpecOp::kFixed16: return gather_fixed<16>(s);
    case SpecOp::kBits: {
      // One thread per output word: no two threads write the same word.
      const auto* src = static_cast<const uint8_t*>(s.src);
      auto* dst = static_cast<uint32_t*>(s.dst);
      const size_t words = (s.count + 31) / 32;
      unsigned long long local = 0;
      KESTREL_GRID_LOOP(w, words) {
        uint32_t word = 0;
        const size_t first = w * 32;
        const size_t last = first + 32 < s.count ? first + 32 : s.count;
        for (size_t i = first; i < last; ++i) {
          if (bit_at(src, s.indices[i])) word |= 1u << (i - first);
        }
        dst[w] = word;
        local += __popc(word);
      }
      return add_to_counter(local, s.counter);
    }
    case SpecOp::kLengths: {
      auto* lengths = static_cast<int64_t*>(s.dst);
      KESTREL_GRID_LOOP(i, s.count + 1) {
        lengths[i] = i < s.count ? s.offsets[s.indices[i] + 1] - s.offsets[s.indices[i]] : 0;
      }
      return;
    }
    case SpecOp::kRebase: {
      const auto* scanned = static_cast<const int64_t*>(s.src);
      auto* offsets = static_cast<int64_t*>(s.dst);
      const int64_t base = scanned[0];
      KESTREL_GRID_LOOP(i, s.count + 1) {
        offsets[i] = scanned[i] - base;
        if (i == s.count) *s.counter = static_cast<unsigned long long>(scanned[i] - base);
      }
      return;
    }
    case SpecOp::kChars: {
      const auto* chars = static_cast<const char*>(s.src);
      auto* out = static_cast<char*>(s.dst);
      KESTREL_GRID_LOOP(i, s.count) {
        const char* from = chars + s.offsets[s.indices[i]];
        char* to = out + s.dst_offsets[i];
        const int64_t n = s.dst_offsets[i + 1] - s.dst_offsets[i];
        for (int64_t k = 0; k < n; ++k) to[k] = from[k];
      }
      return;
    }
    case SpecOp::kCount: {
      const auto* flags = reinterpret_cast<const uint8_t*>(s.indices);
      const auto* validity = static_cast<const uint8_t*>(s.src);
      unsigned long long local = 0;
      KESTREL_GRID_LOOP(i, s.count) {
        if (flags[i] == 0) continue;
        local += validity != nullptr ? (bit_at(validity, i) ? 1 : 0)
                                     : static_cast<unsigned long long>(s.offsets[i + 1] - s.offsets[i]);
      }
      return add_to_counter(local, s.counter);
    }
  }
}

/// Launches `specs` kMaxSpecs at a time; the grid's x dimension covers the largest spec.
void launch_specs(const std::vector<Spec>& specs, gpu::Stream stream) {
  for (size_t first = 0; first < specs.size(); first += kMaxSpecs) {
    const size_t n = std::min<size_t>(kMaxSpecs, specs.size() - first);
    Specs block;
    size_t most = 0;
    for (size_t i = 0; i < n; ++i) {
      block.spec[i] = specs[first + i];
      const Spec& s = block.spec[i];
      most = std::max<size_t>(most, s.op == SpecOp::kBits ? (s.count + 31) / 32 : s.count + 1);
    }
    specs_kernel<<<dim3(blocks_for(most), static_cast<unsigned>(n)), kThreads, 0, stream.handle()>>>(block);
    KESTREL_CUDA_CHECK_LAUNCH();
  }
}

SpecOp fixed_op(size_t width) {
  switch (width) {
    case 1: return SpecOp::kFixed1;
    case 2: return SpecOp::kFixed2;
    case 4: return SpecOp::kFixed4;
    case 8: return SpecOp::kFixed8;
    case 16: return SpecOp::kFixed16;
    default: throw InternalError("gather: unsupported value width " + std::to_string(width));
  }
}

/// One column of one request on its way.
struct Pending {
  const Column* source = nullptr;
  const GatherRequest* request = nullptr;
  BufferPtr validity;
  BufferPtr values;
  BufferPtr offsets;
  size_t lengths_at = 0;  ///< where its lengths start in the concatenated lengths (plain VARCHAR)
};

bool is_plain_string(const Column& c) { return !c.is_dictionary() && c.type().id() == TypeId::kVarchar; }

}  // namespace

std::vector<Batch> gather_batches_gpu(std::span<const GatherRequest> requests, gpu::Stream stream,
                                      gpu::MemoryResource& mr, const GatherTotals* known) {
  gpu::require_explicit_stream(stream, "gather_batches_gpu");
  size_t n = 0;
  for (const GatherRequest& r : requests) {
    KESTREL_CHECK_MSG(r.batch != nullptr && r.batch->on_device(), "gather_batches_gpu needs device batches");
    n += r.batch->num_columns();
  }
  if (known != nullptr) KESTREL_CHECK(known->valid.size() == n && known->chars.size() == n);
  // Device counters, read back in one copy: [0, n) valid rows per column, [n, 2n) string bytes per column.
  BufferPtr counters;
  unsigned long long* counter = nullptr;
  bool need_counters = false;
  for (const GatherRequest& r : requests) {
    for (const ColumnPtr& c : r.batch->columns()) {
      need_counters = need_counters || (c->validity() && c->null_count() > 0) || is_plain_string(*c);
    }
  }
  if (need_counters) {
    counters = device_buffer(2 * n * sizeof(unsigned long long), stream, mr);
    counter = counters->as<unsigned long long>();
    if (known == nullptr) gpu::fill_bytes(counters->data(), gpu::MemoryKind::kDevice, 0, n * sizeof(unsigned long long), stream);
  }
  std::vector<Pending> pending(n);
  std::vector<Spec> specs;
  size_t lengths_total = 0;
  size_t j = 0;
  for (const GatherRequest& r : requests) {
    for (const ColumnPtr& column : r.batch->columns()) {
      const Column& c = *column;
      Pending& p = pending[j];
      p.source = &c;
      p.request = &r;
      const size_t count = r.count;
      if (c.validity() && c.null_count() > 0) {
        p.validity = device_buffer((count + 31) / 32 * 4, stream, mr);
        if (count > 0) {
          // With the totals known the counter is not read: the kernel still adds to it, into unused memory.
          specs.push_back(Spec{c.validity()->data(), p.validity->data(), r.indices, nullptr, nullptr, counter + j,
                               count, SpecOp::kBits});
        }
      }
      if (c.is_dictionary()) {
        p.values = device_buffer(count * sizeof(int32_t), stream, mr);
        if (count > 0) {
          specs.push_back(Spec{c.values()->data(), p.values->data(), r.indices, nullptr, nullptr, nullptr, count,
                               SpecOp::kFixed4});
        }
      } else if (c.type().id() == TypeId::kVarchar) {
        p.offsets = device_buffer((count + 1) * sizeof(int64_t), stream, mr);
        p.lengths_at = lengths_total;
        lengths_total += count + 1;
      } else if (c.type().id() == TypeId::kNull) {
        // An untyped NULL column has no values: every gathered row is NULL (0 valid rows).
        if (!p.validity) {
          p.validity = device_buffer((count + 31) / 32 * 4, stream, mr);
          gpu::fill_bytes(p.validity->data(), gpu::MemoryKind::kDevice, 0, p.validity->size(), stream);
        }
        p.values = device_buffer(0, stream, mr);
      } else {
        const size_t width = c.type().physical_width();
        p.values = device_buffer(count * width, stream, mr);
        if (count > 0) {
          specs.push_back(Spec{c.values()->data(), p.values->data(), r.indices, nullptr, nullptr, nullptr, count,
                               fixed_op(width)});
        }
      }
      ++j;
    }
  }
  // String offsets: the lengths of every string column into one array, one scan, then each column's offsets.
  BufferPtr lengths;
  BufferPtr scanned;
  if (lengths_total > 0) {
    if (lengths_total > static_cast<size_t>(INT32_MAX)) throw NotImplemented("GPU string gather of over 2^31 rows");
    lengths = device_buffer(lengths_total * sizeof(int64_t), stream, mr);
    scanned = device_buffer(lengths_total * sizeof(int64_t), stream, mr);
    for (size_t k = 0; k < n; ++k) {
      const Pending& p = pending[k];
      if (!p.offsets) continue;
      specs.push_back(Spec{nullptr, lengths->as<int64_t>() + p.lengths_at, p.request->indices,
                           p.source->offsets()->as<int64_t>(), nullptr, nullptr, p.request->count, SpecOp::kLengths});
    }
  }
  launch_specs(specs, stream);
  if (lengths_total > 0) {
    const int items = static_cast<int>(lengths_total);
    size_t temp_bytes = 0;
    KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, lengths->as<int64_t>(),
                                                     scanned->as<int64_t>(), items, stream.handle()));
    BufferPtr temp = device_buffer(temp_bytes, stream, mr);
    KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp->data(), temp_bytes, lengths->as<int64_t>(),
                                                     scanned->as<int64_t>(), items, stream.handle()));
    std::vector<Spec> rebase;
    for (size_t k = 0; k < n; ++k) {
      const Pending& p = pending[k];
      if (!p.offsets) continue;
      rebase.push_back(Spec{scanned->as<int64_t>() + p.lengths_at, p.offsets->data(), nullptr, nullptr, nullptr,
                            counter + n + k, p.request->count, SpecOp::kRebase});
    }
    launch_specs(rebase, stream);
  }
  std::vector<unsigned long long> totals(2 * n, 0);
  if (known != nullptr) {
    std::copy(known->valid.begin(), known->valid.end(), totals.begin());
    std::copy(known->chars.begin(), known->chars.end(), totals.begin() + static_cast<std::ptrdiff_t>(n));
  } else if (need_counters) {
    // The host needs the NULL counts (column metadata) and the string sizes (to allocate their bytes).
    gpu::copy_bytes(totals.data(), gpu::MemoryKind::kHost, counter, gpu::MemoryKind::kDevice,
                    totals.size() * sizeof(unsigned long long), stream);
  }
  std::vector<Spec> chars;
  for (size_t k = 0; k < n; ++k) {
    Pending& p = pending[k];
    if (!p.offsets) continue;
    p.values = device_buffer(static_cast<size_t>(totals[n + k]), stream, mr);
    if (p.request->count == 0 || totals[n + k] == 0) continue;
    chars.push_back(Spec{p.source->values() ? p.source->values()->data() : nullptr, p.values->data(),
                         p.request->indices, p.source->offsets()->as<int64_t>(), p.offsets->as<int64_t>(), nullptr,
                         p.request->count, SpecOp::kChars});
  }
  launch_specs(chars, stream);
  std::vector<Batch> out;
  out.reserve(requests.size());
  j = 0;
  for (const GatherRequest& r : requests) {
    std::vector<ColumnPtr> columns;
    columns.reserve(r.batch->num_columns());
    for (size_t k = 0; k < r.batch->num_columns(); ++k, ++j) {
      Pending& p = pending[j];
      const Column& c = *p.source;
      const size_t null_count = p.validity ? r.count - static_cast<size_t>(totals[j]) : 0;
      if (c.is_dictionary()) {
        columns.push_back(Column::make_dictionary(c.type(), r.count, p.values, p.validity, null_count, c.dictionary()));
      } else {
        columns.push_back(Column::from_buffers(c.type(), ColumnEncoding::kPlain, r.count, null_count, p.validity,
                                               p.values, p.offsets, nullptr));
      }
    }
    out.emplace_back(r.batch->schema(), std::move(columns), r.count, gpu::MemoryKind::kDevice, stream);
  }
  return out;
}

Batch gather_batch_gpu(const Batch& batch, const uint32_t* indices, size_t count, gpu::Stream stream,
                       gpu::MemoryResource& mr, const GatherTotals* known) {
  const GatherRequest request{&batch, indices, count};
  return std::move(gather_batches_gpu(std::span<const GatherRequest>(&request, 1), stream, mr, known).front());
}

void count_selected_gpu(const Batch& batch, const uint8_t* flags, unsigned long long* totals, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "count_selected_gpu");
  const size_t n = batch.num_columns();
  const size_t rows = batch.num_rows();
  if (rows == 0) return;
  std::vector<Spec> specs;
  for (size_t k = 0; k < n; ++k) {
    const Column& c = *batch.column(k);
    const auto* flag_bytes = reinterpret_cast<const uint32_t*>(flags);
    if (c.validity() && c.null_count() > 0) {
      specs.push_back(Spec{c.validity()->data(), nullptr, flag_bytes, nullptr, nullptr, totals + k, rows,
                           SpecOp::kCount});
    }
    if (is_plain_string(c)) {
      specs.push_back(Spec{nullptr, nullptr, flag_bytes, c.offsets()->as<int64_t>(), nullptr, totals + n + k, rows,
                           SpecOp::kCount});
    }
  }
  launch_specs(specs, stream);
}

}  // namespace kestrel::exec
