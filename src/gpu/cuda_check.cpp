#include "gpu/cuda_check.hpp"

namespace kestrel::gpu {

CudaError::CudaError(const std::string& call, int code, const std::string& cuda_message, const char* file,
                     int line)
    : InternalError("CUDA call " + call + " failed: " + cuda_message + " (" + std::to_string(code) + ") at " +
                    file + ":" + std::to_string(line)),
      cuda_code_(code) {}

#if KESTREL_WITH_CUDA
void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  // Clear a sticky-free error so later calls are not blamed for this one.
  (void)cudaGetLastError();
  throw CudaError(call, static_cast<int>(status), std::string(cudaGetErrorName(status)) + ": " +
                                                      cudaGetErrorString(status),
                  file, line);
}
#endif

}  // namespace kestrel::gpu
