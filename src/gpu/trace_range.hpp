#pragma once
/// Named ranges of host time for the kernel tracer (tools/cupti_trace, loaded through CUDA_INJECTION64_PATH): each
/// statement a connection runs is one, so its timeline (bench/kernel_timeline.py --ranges) can be cut per query.
/// Without the tracer a range costs one environment check.

#include <string_view>

namespace kestrel::gpu {

class TraceRange {
 public:
  /// Opens a range named by the first characters of `name` (whitespace runs folded to one space).
  explicit TraceRange(std::string_view name);
  ~TraceRange();
  TraceRange(const TraceRange&) = delete;
  TraceRange& operator=(const TraceRange&) = delete;

 private:
  bool open_ = false;
};

}  // namespace kestrel::gpu
