#include "gpu/device.hpp"
#include "gpu/small_block_cache.hpp"

#include <cstdlib>
#include <string>

#include "gpu/cuda_check.hpp"

namespace kestrel::gpu {

#if KESTREL_WITH_CUDA

bool built_with_cuda() { return true; }

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

std::optional<DeviceInfo> usable_device(std::string* reason) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    if (reason != nullptr) {
      if (status == cudaSuccess || status == cudaErrorNoDevice) {
        *reason = "no CUDA device found";
      } else if (status == cudaErrorInsufficientDriver) {
        *reason = "no CUDA driver, or one too old for CUDA 13";
      } else {
        *reason = cudaGetErrorString(status);
      }
    }
    return std::nullopt;
  }
  DeviceInfo info;
  info.ordinal = 0;
  cudaDeviceProp prop{};
  KESTREL_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  info.name = prop.name;
  info.total_memory = prop.totalGlobalMem;
  info.multiprocessors = prop.multiProcessorCount;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  int pools = 0;
  KESTREL_CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0));
  info.memory_pools = pools != 0;
  // How host threads wait for the GPU (KESTREL_CUDA_SYNC=spin|yield|block; default: CUDA's choice, which spins
  // while there are fewer busy threads than cores). Set before the context exists; a later call is ignored.
  if (const char* sync = std::getenv("KESTREL_CUDA_SYNC"); sync != nullptr) {
    const std::string mode = sync;
    unsigned flags = mode == "spin" ? cudaDeviceScheduleSpin
                     : mode == "yield" ? cudaDeviceScheduleYield
                     : mode == "block" ? cudaDeviceScheduleBlockingSync
                                       : cudaDeviceScheduleAuto;
    if (cudaSetDeviceFlags(flags) != cudaSuccess) (void)cudaGetLastError();
  }
  KESTREL_CUDA_CHECK(cudaSetDevice(0));
  KESTREL_CUDA_CHECK(cudaMemGetInfo(&info.free_memory, &info.total_memory));
  if (info.compute_major < 7) {
    if (reason != nullptr) *reason = "GPU " + info.name + " is older than compute capability 7.0";
    return std::nullopt;
  }
  return info;
}

void set_device(int ordinal) { KESTREL_CUDA_CHECK(cudaSetDevice(ordinal)); }

void synchronize_device() {
  KESTREL_CUDA_CHECK(cudaDeviceSynchronize());
  detail::settle_small_blocks();  // every stream's work is done: cached blocks are free on every stream
}

#else

bool built_with_cuda() { return false; }
int device_count() { return 0; }
std::optional<DeviceInfo> usable_device(std::string* reason) {
  if (reason != nullptr) *reason = "this build of Kestrel has no GPU support";
  return std::nullopt;
}
void set_device(int) { throw NotImplemented("this build of Kestrel has no GPU support"); }
void synchronize_device() {}

#endif

}  // namespace kestrel::gpu
