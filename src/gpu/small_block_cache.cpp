#include "gpu/small_block_cache.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <vector>

namespace kestrel::gpu::detail {

namespace {

constexpr int kClasses = std::bit_width(kSmallBlockMax) - std::bit_width(kSmallBlockMin) + 1;

using Lists = std::array<std::vector<void*>, kClasses>;

struct Cache {
  std::map<CUstream_st*, Lists> by_stream;  ///< free on their stream
  Lists any;                                ///< free on every stream
  size_t bytes = 0;
};

std::mutex g_mutex;
std::map<const void*, Cache>& caches() {
  static std::map<const void*, Cache> all;
  return all;
}

/// KESTREL_GPU_SMALL_BLOCKS=0 turns the cache off (benchmarks compare with and without it).
bool enabled() {
  static const bool on = [] {
    const char* env = std::getenv("KESTREL_GPU_SMALL_BLOCKS");
    return env == nullptr || std::string_view(env) != "0";
  }();
  return on;
}

int class_of(size_t bytes) {
  const size_t b = small_block_bytes(bytes);
  return std::bit_width(b) - std::bit_width(kSmallBlockMin);
}

}  // namespace

size_t small_block_bytes(size_t bytes) { return std::bit_ceil(std::max(bytes, kSmallBlockMin)); }

void* take_small_block(const void* owner, size_t bytes, CUstream_st* stream) {
  if (!enabled()) return nullptr;
  const int c = class_of(bytes);
  std::lock_guard lock(g_mutex);
  auto it = caches().find(owner);
  if (it == caches().end()) return nullptr;
  Cache& cache = it->second;
  std::vector<void*>* list = nullptr;
  if (auto s = cache.by_stream.find(stream); s != cache.by_stream.end() && !s->second[c].empty()) {
    list = &s->second[c];
  } else if (!cache.any[c].empty()) {
    list = &cache.any[c];
  } else {
    return nullptr;
  }
  void* ptr = list->back();
  list->pop_back();
  cache.bytes -= small_block_bytes(bytes);
  return ptr;
}

bool keep_small_block(const void* owner, void* ptr, size_t bytes, CUstream_st* stream) {
  if (!enabled()) return false;
  const int c = class_of(bytes);
  const size_t size = small_block_bytes(bytes);
  std::lock_guard lock(g_mutex);
  Cache& cache = caches()[owner];
  if (cache.bytes + size > kSmallBlockCacheBytes) return false;
  cache.by_stream[stream][c].push_back(ptr);
  cache.bytes += size;
  return true;
}

void settle_small_blocks() {
  std::lock_guard lock(g_mutex);
  for (auto& [owner, cache] : caches()) {
    for (auto& [stream, lists] : cache.by_stream) {
      for (int c = 0; c < kClasses; ++c) {
        cache.any[c].insert(cache.any[c].end(), lists[c].begin(), lists[c].end());
      }
    }
    cache.by_stream.clear();
  }
}

void drop_small_blocks(const void* owner, void (*free_block)(void*)) {
  Cache cache;
  {
    std::lock_guard lock(g_mutex);
    auto it = caches().find(owner);
    if (it == caches().end()) return;
    cache = std::move(it->second);
    caches().erase(it);
  }
  for (auto& [stream, lists] : cache.by_stream) {
    for (auto& list : lists) {
      for (void* p : list) free_block(p);
    }
  }
  for (auto& list : cache.any) {
    for (void* p : list) free_block(p);
  }
}

}  // namespace kestrel::gpu::detail
