#pragma once
/// Discovery of CUDA devices. Never throws for a missing driver or device: a machine without a GPU simply has none.

#include <cstddef>
#include <optional>
#include <string>

namespace kestrel::gpu {

/// What Kestrel needs to know about one GPU.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  size_t total_memory = 0;
  size_t free_memory = 0;
  int multiprocessors = 0;
  int compute_major = 0;
  int compute_minor = 0;
  bool memory_pools = false;  ///< stream-ordered allocation supported
};

/// Whether this build has the GPU side at all.
bool built_with_cuda();

/// Number of usable CUDA devices (0 when there is no driver or no device).
int device_count();

/// The device to use, or nullopt with `reason` saying why there is none ("no CUDA driver", ...).
std::optional<DeviceInfo> usable_device(std::string* reason = nullptr);

/// Makes `ordinal` current for the calling thread.
void set_device(int ordinal);

/// Waits until all work queued on the current device, on every stream, has completed.
void synchronize_device();

}  // namespace kestrel::gpu
