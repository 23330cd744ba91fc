// A CUDA injection library: CUDA calls InitializeInjection() when the process first uses the driver with
// CUDA_INJECTION64_PATH naming this file. From then on CUPTI's activity buffers collect every kernel, copy and
// memset, every CUDA runtime call (unless KESTREL_CUPTI_API=0) and the statements' ranges (Kestrel calls
// kestrel_trace_mark, found with dlsym, at each statement's start and end); at exit the records go to
// KESTREL_CUPTI_OUT as tab-separated lines:
//   kind  start_ns  end_ns  stream  name_or_bytes  grid  block
// where kind is K (kernel), C<copy kind> (copy), S (memset), R (runtime call; stream holds the thread id), MS / ME
// (a range's start with its name / end; stream holds the range id).
// Times are CUPTI's timestamps (one clock for all records). Kernels are recorded with
// CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, which does not serialize them.
#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr size_t kBufferBytes = 8u << 20;

std::mutex g_mutex;
std::FILE* g_out = nullptr;

void write_record(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      std::fprintf(g_out, "K\t%llu\t%llu\t%u\t%s\t%d,%d,%d\t%d,%d,%d\n", (unsigned long long)k->start,
                   (unsigned long long)k->end, k->streamId, k->name ? k->name : "?", k->gridX, k->gridY, k->gridZ,
                   k->blockX, k->blockY, k->blockZ);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      std::fprintf(g_out, "C%u\t%llu\t%llu\t%u\t%llu\t\t\n", (unsigned)m->copyKind, (unsigned long long)m->start,
                   (unsigned long long)m->end, m->streamId, (unsigned long long)m->bytes);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      std::fprintf(g_out, "S\t%llu\t%llu\t%u\t%llu\t\t\n", (unsigned long long)m->start, (unsigned long long)m->end,
                   m->streamId, (unsigned long long)m->bytes);
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
      // Host-side CUDA calls: their names tell launches from synchronizations and allocations.
      auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      const char* name = nullptr;
      if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name) != CUPTI_SUCCESS || !name) name = "?";
      std::fprintf(g_out, "R\t%llu\t%llu\t%u\t%s\t\t\n", (unsigned long long)a->start, (unsigned long long)a->end,
                   a->threadId, name);
      break;
    }
    default:
      break;
  }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CUpti_Activity* record = nullptr;
  while (g_out && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) write_record(record);
  std::free(buffer);
}

void at_exit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_out) return;
  std::fclose(g_out);
  g_out = nullptr;
}

}  // namespace

/// A range of host time on CUPTI's clock: begin != 0 opens one named `name` on this thread, begin == 0 closes the
/// thread's innermost.
extern "C" __attribute__((visibility("default"))) void kestrel_trace_mark(const char* name, int begin) {
  static std::atomic<unsigned> next_id{1};
  thread_local std::vector<unsigned> open;
  uint64_t now = 0;
  cuptiGetTimestamp(&now);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_out) return;
  if (begin != 0) {
    open.push_back(next_id.fetch_add(1));
    std::fprintf(g_out, "MS\t%llu\t%llu\t%u\t%s\t\t\n", (unsigned long long)now, (unsigned long long)now, open.back(),
                 name ? name : "");
  } else if (!open.empty()) {
    std::fprintf(g_out, "ME\t%llu\t%llu\t%u\t\t\t\n", (unsigned long long)now, (unsigned long long)now, open.back());
    open.pop_back();
  }
}

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  const char* path = std::getenv("KESTREL_CUPTI_OUT");
  if (!path || !*path) return 1;
  g_out = std::fopen(path, "w");
  if (!g_out) return 0;
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) return 0;
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  // Host-side CUDA calls.
  if (const char* api = std::getenv("KESTREL_CUPTI_API"); !api || std::strcmp(api, "0") != 0) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  }
  std::atexit(at_exit);
  return 1;
}
