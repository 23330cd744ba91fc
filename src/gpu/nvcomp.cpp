#include "gpu/nvcomp.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"

#if KESTREL_WITH_CUDA && KESTREL_WITH_NVCOMP
#include <nvcomp/gzip.h>
#include <nvcomp/lz4.h>
#include <nvcomp/snappy.h>
#include <nvcomp/zstd.h>
#endif

#ifndef KESTREL_NVCOMP_VENV_LIB
#define KESTREL_NVCOMP_VENV_LIB ""
#endif

namespace kestrel::gpu {

const char* device_codec_name(DeviceCodec codec) {
  switch (codec) {
    case DeviceCodec::kSnappy: return "SNAPPY";
    case DeviceCodec::kZstd: return "ZSTD";
    case DeviceCodec::kLz4: return "LZ4_RAW";
    case DeviceCodec::kGzip: return "GZIP";
  }
  return "?";
}

#if KESTREL_WITH_CUDA && KESTREL_WITH_NVCOMP

namespace {

/// The entry points Kestrel uses, resolved from the loaded library.
struct NvcompApi {
  decltype(&nvcompBatchedSnappyDecompressGetTempSize) snappy_temp = nullptr;
  decltype(&nvcompBatchedSnappyDecompressAsync) snappy = nullptr;
  decltype(&nvcompBatchedZstdDecompressGetTempSize) zstd_temp = nullptr;
  decltype(&nvcompBatchedZstdDecompressAsync) zstd = nullptr;
  decltype(&nvcompBatchedLZ4DecompressGetTempSize) lz4_temp = nullptr;
  decltype(&nvcompBatchedLZ4DecompressAsync) lz4 = nullptr;
  decltype(&nvcompBatchedGzipDecompressGetTempSize) gzip_temp = nullptr;
  decltype(&nvcompBatchedGzipDecompressAsync) gzip = nullptr;
  // Compression (optional: a library without it still decompresses).
  decltype(&nvcompBatchedSnappyCompressGetTempSize) snappy_compress_temp = nullptr;
  decltype(&nvcompBatchedSnappyCompressGetMaxOutputChunkSize) snappy_compress_bound = nullptr;
  decltype(&nvcompBatchedSnappyCompressAsync) snappy_compress = nullptr;
  std::string path;
  std::string error;  ///< why loading failed (empty when loaded)
};

std::string executable_dir() {
  char buffer[4096];
  ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return {};
  std::string path(buffer, static_cast<size_t>(n));
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

template <typename F>
bool resolve(void* handle, const char* name, F& out, std::string& error) {
  out = reinterpret_cast<F>(::dlsym(handle, name));
  if (out == nullptr) error = std::string("symbol ") + name + " missing";
  return out != nullptr;
}

const NvcompApi& api() {
  static NvcompApi loaded = [] {
    NvcompApi a;
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("KESTREL_NVCOMP_LIB"); env != nullptr && *env != '\0') candidates.push_back(env);
    std::string exe = executable_dir();
    if (!exe.empty()) {
      candidates.push_back(exe + "/libnvcomp.so.6");
      candidates.push_back(exe + "/../lib/libnvcomp.so.6");
    }
    if (std::strlen(KESTREL_NVCOMP_VENV_LIB) > 0) candidates.push_back(KESTREL_NVCOMP_VENV_LIB);
    candidates.push_back("libnvcomp.so.6");
    void* handle = nullptr;
    std::string tried;
    for (const std::string& c : candidates) {
      handle = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle != nullptr) {
        a.path = c;
        break;
      }
      const char* e = ::dlerror();
      tried += (tried.empty() ? "" : "; ") + (e ? std::string(e) : c);
    }
    if (handle == nullptr) {
      a.error = "nvCOMP not found (" + tried + ")";
      return a;
    }
    bool ok = resolve(handle, "nvcompBatchedSnappyDecompressGetTempSize", a.snappy_temp, a.error) &&
              resolve(handle, "nvcompBatchedSnappyDecompressAsync", a.snappy, a.error) &&
              resolve(handle, "nvcompBatchedZstdDecompressGetTempSize", a.zstd_temp, a.error) &&
              resolve(handle, "nvcompBatchedZstdDecompressAsync", a.zstd, a.error) &&
              resolve(handle, "nvcompBatchedLZ4DecompressGetTempSize", a.lz4_temp, a.error) &&
              resolve(handle, "nvcompBatchedLZ4DecompressAsync", a.lz4, a.error) &&
              resolve(handle, "nvcompBatchedGzipDecompressGetTempSize", a.gzip_temp, a.error) &&
              resolve(handle, "nvcompBatchedGzipDecompressAsync", a.gzip, a.error);
    if (!ok) {
      a.error = "nvCOMP at " + a.path + " is unusable: " + a.error;
      a.path.clear();
      return a;
    }
    std::string optional_error;
    if (!(resolve(handle, "nvcompBatchedSnappyCompressGetTempSize", a.snappy_compress_temp, optional_error) &&
          resolve(handle, "nvcompBatchedSnappyCompressGetMaxOutputChunkSize", a.snappy_compress_bound,
                  optional_error) &&
          resolve(handle, "nvcompBatchedSnappyCompressAsync", a.snappy_compress, optional_error))) {
      a.snappy_compress = nullptr;
    }
    return a;
  }();
  return loaded;
}

void check(nvcompStatus_t status, DeviceCodec codec, const char* what) {
  if (status != nvcompSuccess) {
    throw InternalError(std::string("nvCOMP ") + device_codec_name(codec) + " " + what + " failed with status " +
                    std::to_string(static_cast<int>(status)));
  }
}

/// Options structs: zeroed (their reserved bytes must be) with the default backend.
template <typename Opts>
Opts default_opts() {
  Opts o;
  std::memset(&o, 0, sizeof(o));
  return o;
}

/// One batched decompression: the scratch size for the batch, the call, the scratch freed in stream order.
template <typename TempFn, typename RunFn, typename Opts>
void run_batch(DeviceCodec codec, TempFn temp_size, RunFn run, Opts opts, const DeviceDecompressBatch& b,
               Stream stream, MemoryResource& mr) {
  auto* s = reinterpret_cast<cudaStream_t>(stream.handle());
  size_t temp = 0;
  check(temp_size(b.count, b.max_output_bytes, opts, &temp, b.total_output_bytes, s), codec, "temp size");
  void* scratch = temp > 0 ? mr.allocate(temp, stream) : nullptr;
  const nvcompStatus_t status = run(b.inputs, b.input_bytes, b.output_capacity, b.actual_bytes, b.count, scratch, temp,
                                    b.outputs, opts, reinterpret_cast<nvcompStatus_t*>(b.statuses), s);
  if (scratch != nullptr) mr.deallocate(scratch, temp, stream);
  check(status, codec, "decompression");
}

}  // namespace

bool device_codec_available(DeviceCodec, std::string* why) {
  const NvcompApi& a = api();
  if (!a.error.empty() && why != nullptr) *why = a.error;
  return a.error.empty();
}

std::string nvcomp_library_path() { return api().path; }

void decompress_on_device(DeviceCodec codec, const DeviceDecompressBatch& b, Stream stream, MemoryResource& mr) {
  require_explicit_stream(stream, "decompress_on_device");
  const NvcompApi& a = api();
  if (!a.error.empty()) throw NotImplemented(a.error);
  if (b.count == 0) return;
  switch (codec) {
    case DeviceCodec::kSnappy:
      return run_batch(codec, a.snappy_temp, a.snappy, default_opts<nvcompBatchedSnappyDecompressOpts_t>(), b, stream, mr);
    case DeviceCodec::kZstd:
      return run_batch(codec, a.zstd_temp, a.zstd, default_opts<nvcompBatchedZstdDecompressOpts_t>(), b, stream, mr);
    case DeviceCodec::kLz4: {
      auto o = default_opts<nvcompBatchedLZ4DecompressOpts_t>();
      o.data_type = NVCOMP_TYPE_CHAR;
      return run_batch(codec, a.lz4_temp, a.lz4, o, b, stream, mr);
    }
    case DeviceCodec::kGzip:
      return run_batch(codec, a.gzip_temp, a.gzip, default_opts<nvcompBatchedGzipDecompressOpts_t>(), b, stream, mr);
  }
}

bool device_compression_available(DeviceCodec codec) {
  const NvcompApi& a = api();
  return a.error.empty() && codec == DeviceCodec::kSnappy && a.snappy_compress != nullptr;
}

size_t max_compressed_bytes(DeviceCodec codec, size_t max_chunk_bytes) {
  if (!device_compression_available(codec)) throw NotImplemented("nvCOMP cannot compress this codec here");
  size_t bound = 0;
  check(api().snappy_compress_bound(std::max<size_t>(max_chunk_bytes, 1),
                                    default_opts<nvcompBatchedSnappyCompressOpts_t>(), &bound),
        codec, "output bound");
  return bound;
}

void compress_on_device(DeviceCodec codec, const DeviceCompressBatch& b, Stream stream, MemoryResource& mr) {
  require_explicit_stream(stream, "compress_on_device");
  if (!device_compression_available(codec)) throw NotImplemented("nvCOMP cannot compress this codec here");
  if (b.count == 0) return;
  const NvcompApi& a = api();
  auto* s = reinterpret_cast<cudaStream_t>(stream.handle());
  const auto opts = default_opts<nvcompBatchedSnappyCompressOpts_t>();
  size_t temp = 0;
  check(a.snappy_compress_temp(b.count, b.max_input_bytes, opts, &temp, b.total_input_bytes, s), codec,
        "compression temp size");
  void* scratch = temp > 0 ? mr.allocate(temp, stream) : nullptr;
  const nvcompStatus_t status =
      a.snappy_compress(b.inputs, b.input_bytes, b.max_input_bytes, b.count, scratch, temp, b.outputs,
                        b.compressed_bytes, opts, reinterpret_cast<nvcompStatus_t*>(b.statuses), s);
  if (scratch != nullptr) mr.deallocate(scratch, temp, stream);
  check(status, codec, "compression");
}

#else

bool device_codec_available(DeviceCodec, std::string* why) {
  if (why != nullptr) *why = "this build of Kestrel has no nvCOMP support";
  return false;
}

bool device_compression_available(DeviceCodec) { return false; }

size_t max_compressed_bytes(DeviceCodec, size_t) {
  throw NotImplemented("this build of Kestrel has no nvCOMP support");
}

void compress_on_device(DeviceCodec, const DeviceCompressBatch&, Stream, MemoryResource&) {
  throw NotImplemented("this build of Kestrel has no nvCOMP support");
}

std::string nvcomp_library_path() { return {}; }

void decompress_on_device(DeviceCodec, const DeviceDecompressBatch&, Stream, MemoryResource&) {
  throw NotImplemented("this build of Kestrel has no nvCOMP support");
}

#endif

}  // namespace kestrel::gpu
