#include "io/parquet/parallel_decode.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace kestrel::io {

size_t default_decode_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

void parallel_for(size_t count, size_t threads, const std::function<void(size_t)>& task) {
  if (threads == 0) threads = default_decode_threads();
  threads = std::min(threads, count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    while (!failed.load(std::memory_order_relaxed)) {
      size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 0; t + 1 < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

std::vector<ColumnPtr> run_decode_tasks(const std::vector<ParquetDecodeTask>& tasks, const ParquetReadOptions& options) {
  std::vector<ColumnPtr> results(tasks.size());
  ParquetReadOptions single = options;
  single.num_threads = 1;
  parallel_for(tasks.size(), options.num_threads, [&](size_t i) { results[i] = tasks[i].run(single); });
  return results;
}

}  // namespace kestrel::io
