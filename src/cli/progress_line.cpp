#include "cli/progress_line.hpp"

#include <chrono>
#include <cstdio>

namespace kestrel::cli {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void ProgressLine::start(std::string label) {
  std::lock_guard lock(mutex_);
  label_ = label.empty() ? std::string() : label + ": ";
  start_ns_.store(now_ns());
  last_ns_.store(0);
  shown_.store(false);
}

void ProgressLine::update(size_t pipeline, size_t done, size_t morsels, size_t pipelines) {
  const int64_t now = now_ns();
  if (now - start_ns_.load() < 1'000'000'000 || now - last_ns_.load() < 200'000'000) return;
  std::lock_guard lock(mutex_);
  if (now - last_ns_.load() < 200'000'000) return;
  last_ns_.store(now);
  shown_.store(true);
  std::fprintf(stderr, "\r%s[%.1f s] pipeline %zu/%zu: %zu/%zu morsels   ", label_.c_str(),
               static_cast<double>(now - start_ns_.load()) / 1e9, pipeline + 1, pipelines, done, morsels);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  std::lock_guard lock(mutex_);
  if (shown_.exchange(false)) std::fprintf(stderr, "\r%*s\r", static_cast<int>(label_.size()) + 60, "");
}

}  // namespace kestrel::cli
