#pragma once
/// A minimal fork-join helper for the CSV reader's parse threads (until the engine's scheduler offers one).

#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace kestrel::csv {

/// Runs `task(i)` for i in [0, count) on up to `threads` threads (the caller's included) and waits for all.
/// Rethrows the exception of the lowest-numbered task that threw, after every thread has finished.
template <typename Task>
void run_parallel(size_t count, size_t threads, Task&& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const size_t extra = threads > 1 && count > 1 ? std::min(threads, count) - 1 : 0;
  std::vector<std::thread> pool;
  pool.reserve(extra);
  for (size_t t = 0; t < extra; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace kestrel::csv
