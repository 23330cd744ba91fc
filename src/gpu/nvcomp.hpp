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

/// Whether `codec` can be compressed on the device (SNAPPY only, for now).
bool device_compression_available(DeviceCodec codec);

/// The room each compressed chunk of at most `max_chunk_bytes` input bytes needs (host value). Chunks of more than
/// kMaxDeviceCompressChunk bytes cannot be compressed on the device.
size_t max_compressed_bytes(DeviceCodec codec, size_t max_chunk_bytes);
inline constexpr size_t kMaxDeviceCompressChunk = size_t{1} << 24;

/// One batch of independent chunks to compress, every array in device memory with `count` entries: chunk i is
/// compressed from inputs[i] (input_bytes[i] bytes, at most max_input_bytes) into outputs[i] (8-byte aligned, room
/// for max_compressed_bytes of its size); compressed_bytes[i] receives its size and statuses[i] 0 on success.
struct DeviceCompressBatch {
  const void* const* inputs = nullptr;
  const size_t* input_bytes = nullptr;
  void* const* outputs = nullptr;
  size_t* compressed_bytes = nullptr;
  int* statuses = nullptr;
  size_t count = 0;
  size_t max_input_bytes = 0;    ///< host value
  size_t total_input_bytes = 0;  ///< host value: an upper bound of their sum
};

/// Queues the compression of `batch` on `stream`; scratch from `mr`, freed on `stream`. Throws NotImplemented when
/// the codec cannot be compressed here.
void compress_on_device(DeviceCodec codec, const DeviceCompressBatch& batch, Stream stream, MemoryResource& mr);

}  // namespace kestrel::gpu
