#include "gpu/trace_range.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>

namespace kestrel::gpu {

namespace {

constexpr size_t kMaxNameBytes = 120;

/// The tracer's entry point: the CUPTI library of tools/cupti_trace, which CUDA loads from CUDA_INJECTION64_PATH
/// when the process first uses the GPU, exports `kestrel_trace_mark(name, begin)`.
using MarkFn = void (*)(const char*, int);

MarkFn find_mark() {
  static const char* path = std::getenv("CUDA_INJECTION64_PATH");
  static std::atomic<MarkFn> found{nullptr};
  if (path == nullptr || *path == '\0') return nullptr;
  MarkFn f = found.load(std::memory_order_acquire);
  if (f != nullptr) return f;
  // Not loaded until CUDA starts: look again at the next range.
  void* handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  f = reinterpret_cast<MarkFn>(dlsym(handle, "kestrel_trace_mark"));
  dlclose(handle);
  found.store(f, std::memory_order_release);
  return f;
}

std::string fold_name(std::string_view name) {
  std::string out;
  out.reserve(std::min(name.size(), kMaxNameBytes));
  bool space = false;
  for (char c : name) {
    if (out.size() >= kMaxNameBytes) break;
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c == '\t' ? ' ' : c);
  }
  return out;
}

}  // namespace

TraceRange::TraceRange(std::string_view name) {
  if (MarkFn mark = find_mark()) {
    mark(fold_name(name).c_str(), 1);
    open_ = true;
  }
}

TraceRange::~TraceRange() {
  if (!open_) return;
  if (MarkFn mark = find_mark()) mark(nullptr, 0);
}

}  // namespace kestrel::gpu
