#pragma once
/// kcol read straight into GPU memory, the GPU twin of KcolFile::read_row_group. A batch of row groups is staged:
/// the projected chunks come by DMA from the files' registered mappings (gpu/file_mapping.hpp) or through pinned
/// staging, and go to the device in one pass (ahead of the decode when a StageUpload is given). Decoding then runs
/// on the device: every PACKED block of the batch (values and dictionary codes) is unpacked by one launch, a warp per
/// block (lane l reads words l, 32 + l, ... and writes values l, 32 + l, ...); zstd string sections are decompressed
/// by nvCOMP, frame by frame in one batch; the rest is copied as it lies. Row groups are written side by side into
/// the batch's columns (dictionaries concatenated, codes shifted). Section bounds are checked on the host; what only
/// the data can tell (dictionary codes, string offsets, booleans, frames) is checked on the device, and a failed check
/// lets the CPU reader report the error.

#include <memory>
#include <utility>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"
#include "io/kcol/kcol_file.hpp"
#include "io/parquet/device/device_reader.hpp"

namespace kestrel::io {

/// One row group of a kcol batch.
using KcolPart = std::pair<const KcolFile*, size_t>;

struct StagedKcol;
/// The chunks of columns `columns` (file column numbers, the same schema in every file) of row groups `parts`,
/// staged for decode_staged_kcol; with `upload`, also copied to the device on its stream.
std::shared_ptr<StagedKcol> stage_kcol(const std::vector<KcolPart>& parts, const std::vector<size_t>& columns,
                                       const StageUpload* upload = nullptr);
/// The staged row groups as one device batch named by `schema`, ordered on `stream` (synchronized once, for the
/// checks), buffers from `mr`. `stats` may be null.
Batch decode_staged_kcol(StagedKcol& staged, const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr,
                         DeviceScanStats* stats);
/// Both steps.
Batch read_kcol_to_device(const std::vector<KcolPart>& parts, const std::vector<size_t>& columns,
                          const SchemaPtr& schema, gpu::Stream stream, gpu::MemoryResource& mr,
                          DeviceScanStats* stats = nullptr);

namespace kcol {

/// One chunk's PACKED blocks to unpack: `rows` values into `out` (`out_width` bytes each: 1, 2, 4 or 8). With
/// `limit` > 0 every value must be below it (dictionary codes), with `boolean` 0 or 1; `code_base` is added to each
/// value after the checks (dictionary codes of a row group whose dictionary follows others).
struct UnpackJob {
  const BlockHeader* blocks = nullptr;
  const uint32_t* words = nullptr;
  void* out = nullptr;
  uint64_t block_count = 0, word_count = 0, rows = 0, limit = 0, code_base = 0;
  int32_t out_width = 8;
  int32_t boolean = 0;
};

/// Unpacks the blocks of `job_count` jobs (device array) in one launch; `starts` (device, job_count + 1) holds each
/// job's first block in the combined numbering, the last entry `total_blocks`. A violation sets *error.
void unpack_jobs_gpu(const UnpackJob* jobs, const uint64_t* starts, size_t job_count, size_t total_blocks,
                     uint32_t* error, gpu::Stream stream);
/// Checks `count + 1` u64 string offsets at `src` (from 0, non-decreasing, ending at `bytes`; a violation sets
/// *error) and, when `dst` is given, writes them plus `shift` to `dst` (the last one only when `write_last`).
void copy_offsets_gpu(const int64_t* src, size_t count, uint64_t bytes, int64_t shift, bool write_last, int64_t* dst,
                      uint32_t* error, gpu::Stream stream);
/// ORs validity bits [0, bits) of `src` (null: all set) into bitmap `dst` (32-bit aligned, zeroed before) at bit
/// `offset`.
void copy_bits_gpu(const uint8_t* src, size_t bits, uint8_t* dst, size_t offset, gpu::Stream stream);

}  // namespace kcol

}  // namespace kestrel::io
