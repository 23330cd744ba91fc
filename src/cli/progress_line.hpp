#pragma once
/// A progress line on stderr for statements that run longer than a second: the pipeline and the morsels done, redrawn
/// in place at most five times a second. Used where stderr is a terminal (the shell, `kestrel convert`).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace kestrel::cli {

class ProgressLine {
 public:
  /// Starts timing a statement; `label` prefixes the line ("lineitem" while converting it, empty in the shell).
  void start(std::string label = {});
  /// The callback of SessionState::progress: pipeline `pipeline` of `pipelines` has done `done` of `morsels`.
  void update(size_t pipeline, size_t done, size_t morsels, size_t pipelines);
  /// Erases the line if it was drawn.
  void clear();

 private:
  std::mutex mutex_;
  std::string label_;
  std::atomic<int64_t> start_ns_{0};
  std::atomic<int64_t> last_ns_{0};
  std::atomic<bool> shown_{false};
};

}  // namespace kestrel::cli
