#pragma once
/// Batched device decompression through nvCOMP, loaded at run time (dlopen): a machine without the library, or a
/// build without its headers, still runs, and callers decompress on the host instead. The library is searched as
/// $KESTREL_NVCOMP_LIB, then libnvcomp.so.6 beside the executable (and in ../lib), then the copy the build found in
/// the project's .venv, then the loader's default path.

#include <cstddef>
#include <string>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// Codecs nvCOMP decompresses in device memory. kLz4 is the raw LZ4 block format; kGzip a gzip member.
enum class DeviceCodec : uint8_t { kSnappy, kZstd, kLz4, kGzip };
const char* device_codec_name(DeviceCodec codec);

/// Whether `codec` can be decompressed on the device; when not, `why` (if given) says why ("nvCOMP not found: ...").
bool device_codec_available(DeviceCodec codec, std::string* why = nullptr);

/// The loaded library's path, or empty when it could not be loaded.
std::string nvcomp_library_path();

/// One batch of independent chunks, every array in device memory with `count` entries: chunk i is decompressed
/// from inputs[i] (input_bytes[i] bytes) into outputs[i] (room for output_capacity[i] bytes); actual_bytes[i]
/// receives its decompressed size and statuses[i] 0 on success, nvCOMP's nonzero status otherwise. Nothing is
/// checked on the host: the caller reads statuses (and compares sizes) once it synchronizes anyway.
struct DeviceDecompressBatch {
  const void* const* inputs = nullptr;
  const size_t* input_bytes = nullptr;
  void* const* outputs = nullptr;
  const size_t* output_capacity = nullptr;
  size_t* actual_bytes = nullptr;
  int* statuses = nullptr;
  size_t count = 0;
  size_t max_output_bytes = 0;    ///< the largest output_capacity (host value)
  size_t total_output_bytes = 0;  ///< their sum (host value)
};

/// Queues the decompression of `batch` on `stream`; scratch comes from `mr` and is freed on `stream`. Throws
/// NotImplemented when the codec is unavailable and CudaError when nvCOMP refuses the call itself.
void decompress_on_device(DeviceCodec codec, const DeviceDecompressBatch& batch, Stream stream, MemoryResource& mr);

}  // namespace kestrel::gpu
