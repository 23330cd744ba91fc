#include <cstdio>
#include <string>

#include "io/parquet/device/device_reader.hpp"

namespace kestrel::io {

namespace {

std::string mib(uint64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f MiB", static_cast<double>(bytes) / (1ull << 20));
  return buffer;
}

}  // namespace

std::string DeviceScanStats::describe() const {
  const double read_s = static_cast<double>(read_ns.load()) / 1e9;
  const double decode_s = static_cast<double>(decode_ns.load()) / 1e9;
  const uint64_t all = batches.load(), kcol = kcol_batches.load();
  const char* what = kcol == 0 ? "GPU Parquet scan: " : kcol == all ? "GPU kcol scan: " : "GPU Parquet and kcol scan: ";
  std::string s = what + std::to_string(all) + " batches, " + mib(bytes_read.load()) + " read (" +
                  mib(bytes_mapped.load()) + " by DMA from registered file mappings, " +
                  mib(bytes_read.load() - bytes_mapped.load()) + " in " + std::to_string(reads.load()) +
                  " reads through pinned staging; GPUDirect Storage not used)";
  if (read_s > 0) {
    s += " " + std::to_string(static_cast<int>(static_cast<double>(bytes_read.load()) / read_s / 1e6)) +
         " MB/s per batch";
  }
  s += ", " + mib(h2d_bytes.load()) + " to the device";
  if (kcol < all) {
    s += ", " + std::to_string(pages.load()) + " pages (" + std::to_string(pages_device_decompressed.load()) +
         " decompressed on the device, " + std::to_string(pages_snappy_literal.load()) +
         " snappy literals only read in place or gathered, " + std::to_string(pages_host_decompressed.load()) +
         " decompressed on the host), " +
         std::to_string(chunks_host_decoded.load()) + " column chunks decoded on the host";
  }
  s += ", " + std::to_string(uploaded_ahead.load()) + " batches copied ahead";
  if (decode_s > 0) s += ", device decode " + std::to_string(static_cast<int>(decode_s * 1000)) + " ms summed";
  if (const uint64_t wait = stage_wait_ns.load(); wait > 0) {
    s += ", drivers waited " + std::to_string(wait / 1000000) + " ms summed for staged reads";
  }
  if (const uint64_t copy = copy_gpu_ns.load(); copy > 0) {
    s += ", read-ahead copies " + std::to_string(copy / 1000000) + " ms summed on their stream";
  }
  if (const uint64_t gpu = decode_gpu_ns.load(); gpu > 0) {
    s += ", decode " + std::to_string(gpu / 1000000) + " ms summed on the device after the bytes arrived (" +
         std::to_string(decompress_gpu_ns.load() / 1000000) + " ms of it up to the end of decompression";
    if (const uint64_t gather = gather_gpu_ns.load(); gather > 0) {
      s += ", " + std::to_string(gather / 1000000) + " ms up to the end of the page tables and gathers before it";
    }
    if (const uint64_t host = tables_host_ns.load(); host > 0) {
      s += ", which includes " + std::to_string(host / 1000000) + " ms of page tables sent from the host";
    }
    s += ")";
  }
  return s;
}

}  // namespace kestrel::io
