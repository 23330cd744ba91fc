#pragma once
/// Checked CUDA calls. Only sources that talk to the CUDA runtime include this.

#include <string>

#include "common/error.hpp"

#if KESTREL_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kestrel::gpu {

/// A failed CUDA call: an internal error naming the call, the CUDA error and the source place.
class CudaError : public InternalError {
 public:
  CudaError(const std::string& call, int code, const std::string& cuda_message, const char* file, int line);
  int cuda_code() const { return cuda_code_; }

 private:
  int cuda_code_;
};

#if KESTREL_WITH_CUDA
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);
#endif

}  // namespace kestrel::gpu

/// Wraps every CUDA runtime call: throws CudaError with file and line when the call fails.
#define KESTREL_CUDA_CHECK(call)                                                      \
  do {                                                                                \
    cudaError_t kestrel_status_ = (call);                                             \
    if (kestrel_status_ != cudaSuccess)                                               \
      ::kestrel::gpu::throw_cuda_error(kestrel_status_, #call, __FILE__, __LINE__);   \
  } while (0)

/// Checks the launch of the kernel just enqueued.
#define KESTREL_CUDA_CHECK_LAUNCH() KESTREL_CUDA_CHECK(cudaPeekAtLastError())
