/// HashJoinBuildGpu: per-driver collection of device batches, concatenated and sorted into buckets in finalize.

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/hash_join/hash_join_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gather.hpp"
#include "gpu/stream_pool.hpp"

namespace kestrel::exec {

namespace {

constexpr int kThreads = 256;
/// Most build rows: bucket ids (up to 2^30 + 1) and CUB item counts stay within int.
constexpr size_t kMaxBuildRows = size_t{1} << 30;

int blocks_for(size_t items) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 65535)));
}

/// The bucket of each row (hash & mask, or `null_bucket` for a NULL key), counted per bucket.
__global__ void bucket_kernel(const uint64_t* hashes, const uint8_t* any_null, size_t rows, uint64_t mask,
                              uint32_t null_bucket, uint32_t* bucket_ids, uint32_t* counts, uint32_t* row_ids) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < rows;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t b = any_null[i] != 0 ? null_bucket : static_cast<uint32_t>(hashes[i] & mask);
    bucket_ids[i] = b;
    row_ids[i] = static_cast<uint32_t>(i);
    atomicAdd(&counts[b], 1u);
  }
}

}  // namespace

struct HashJoinBuildGpu::Local final : LocalState {
  std::vector<Batch> batches;
};

HashJoinBuildGpu::HashJoinBuildGpu(SchemaPtr schema, std::vector<size_t> key_columns)
    : schema_(std::move(schema)), key_columns_(std::move(key_columns)) {
  for (size_t c : key_columns_) KESTREL_CHECK_LT(c, schema_->size());
  if (key_columns_.size() > static_cast<size_t>(kMaxDeviceKeys)) {
    throw NotImplemented("GPU hash join: " + std::to_string(key_columns_.size()) + " key columns (at most " +
                         std::to_string(kMaxDeviceKeys) + ")");
  }
}

std::unique_ptr<Sink::LocalState> HashJoinBuildGpu::make_local_state(ExecContext&) {
  return std::make_unique<Local>();
}

void HashJoinBuildGpu::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext&) {
  if (batch.num_rows() == 0) return;
  KESTREL_CHECK_MSG(batch.on_device(), "HashJoinBuild [GPU] needs device batches");
  static_cast<Local&>(local).batches.push_back(std::move(batch));
}

void HashJoinBuildGpu::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  // finalize reads the batches on its own stream: their producers' work must be complete.
  gpu::Stream last;
  for (const Batch& b : l.batches) {
    if (b.stream() == last) continue;
    b.stream().synchronize();
    last = b.stream();
  }
  std::lock_guard lock(mutex_);
  for (auto& b : l.batches) batches_.push_back(std::move(b));
  l.batches.clear();
}

void HashJoinBuildGpu::finalize(ExecContext& ctx) {
  KESTREL_CHECK_MSG(ctx.device_mr != nullptr, "HashJoinBuild [GPU] needs a device memory resource");
  gpu::MemoryResource& mr = *ctx.device_mr;
  const gpu::Stream stream = gpu::driver_stream();
  rows_ = concat_batches_gpu(batches_, schema_, stream, mr);
  // The inputs are freed on their producers' streams, which do not wait for the concatenation on this one.
  stream.synchronize();
  batches_.clear();
  const size_t n = rows_.num_rows();
  if (n > kMaxBuildRows) {
    throw NotImplemented("GPU hash join: a build side of " + std::to_string(n) + " rows (at most 2^30)");
  }
  keys_ = device_keys(rows_, key_columns_);
  size_t buckets = 1;
  while (buckets < n) buckets <<= 1;  // about one row per bucket
  bucket_mask_ = buckets - 1;
  int end_bit = 0;
  while ((size_t{1} << end_bit) <= buckets) ++end_bit;  // bucket ids go up to `buckets` (the NULL bucket)
  const size_t entries = buckets + 2;                    // counts of buckets 0..buckets, plus the end
  bucket_offsets_ = device_buffer(entries * sizeof(uint32_t), stream, mr);
  sorted_rows_ = device_buffer(n * sizeof(uint32_t), stream, mr);
  sorted_hashes_ = device_buffer(n * sizeof(uint64_t), stream, mr);
  null_key_first_ = 0;
  if (n == 0) {
    gpu::fill_bytes(bucket_offsets_->data(), gpu::MemoryKind::kDevice, 0, bucket_offsets_->size(), stream);
    stream.synchronize();  // probes on other streams read the table
    return;
  }
  BufferPtr hashes = device_buffer(n * sizeof(uint64_t), stream, mr);
  BufferPtr any_null = device_buffer(n, stream, mr);
  hash_device_rows(keys_, n, hashes->as<uint64_t>(), any_null->as<uint8_t>(), stream);
  BufferPtr bucket_ids = device_buffer(n * sizeof(uint32_t), stream, mr);
  BufferPtr sorted_ids = device_buffer(n * sizeof(uint32_t), stream, mr);
  BufferPtr row_ids = device_buffer(n * sizeof(uint32_t), stream, mr);
  BufferPtr counts = device_buffer(entries * sizeof(uint32_t), stream, mr);
  gpu::fill_bytes(counts->data(), gpu::MemoryKind::kDevice, 0, counts->size(), stream);
  bucket_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(
      hashes->as<uint64_t>(), any_null->as<uint8_t>(), n, bucket_mask_, static_cast<uint32_t>(buckets),
      bucket_ids->as<uint32_t>(), counts->as<uint32_t>(), row_ids->as<uint32_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  size_t scan_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts->as<uint32_t>(),
                                                   bucket_offsets_->as<uint32_t>(), static_cast<int>(entries),
                                                   stream.handle()));
  BufferPtr scan_temp = device_buffer(scan_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp->data(), scan_bytes, counts->as<uint32_t>(),
                                                   bucket_offsets_->as<uint32_t>(), static_cast<int>(entries),
                                                   stream.handle()));
  size_t sort_bytes = 0;
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, bucket_ids->as<uint32_t>(),
                                                     sorted_ids->as<uint32_t>(), row_ids->as<uint32_t>(),
                                                     sorted_rows_->as<uint32_t>(), static_cast<int>(n), 0, end_bit,
                                                     stream.handle()));
  BufferPtr sort_temp = device_buffer(sort_bytes, stream, mr);
  KESTREL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp->data(), sort_bytes, bucket_ids->as<uint32_t>(),
                                                     sorted_ids->as<uint32_t>(), row_ids->as<uint32_t>(),
                                                     sorted_rows_->as<uint32_t>(), static_cast<int>(n), 0, end_bit,
                                                     stream.handle()));
  gpu::gather_fixed(sizeof(uint64_t), hashes->data(), sorted_rows_->as<uint32_t>(), n, sorted_hashes_->data(), stream);
  uint32_t null_first = 0;
  // The host keeps where the NULL-key rows start (null-aware probes read them); this also waits for the table, so
  // probes on other streams can read it.
  gpu::copy_bytes(&null_first, gpu::MemoryKind::kHost, bucket_offsets_->as<uint32_t>() + buckets,
                  gpu::MemoryKind::kDevice, sizeof(null_first), stream);
  stream.synchronize();
  null_key_first_ = null_first;
}

}  // namespace kestrel::exec
