#include "exec/pipeline.hpp"

#include <unordered_set>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "common/check.hpp"
#include "gpu/stream.hpp"

namespace kestrel::exec {

namespace {

uint64_t now_nanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

/// Calls `f(buffer)` for every buffer of `column` (its dictionary's included).
template <typename F>
void for_each_buffer(const Column& column, F&& f) {
  for (const BufferPtr* b : {&column.validity(), &column.values(), &column.offsets()}) {
    if (*b) f(**b);
  }
  if (column.dictionary()) for_each_buffer(*column.dictionary(), f);
}

/// The bytes of `batch`'s columns, each buffer once (two columns may share one); with `shared`, only buffers that
/// are not among them (an output's new bytes, not those it passes on from its input).
uint64_t batch_bytes(const Batch& batch, const std::unordered_set<const void*>* shared = nullptr) {
  uint64_t n = 0;
  std::unordered_set<const void*> seen;
  for (size_t c = 0; c < batch.num_columns(); ++c) {
    for_each_buffer(*batch.column(c), [&](const Buffer& b) {
      if ((shared == nullptr || !shared->contains(b.data())) && seen.insert(b.data()).second) n += b.size();
    });
  }
  return n;
}

/// The buffers of `batch`.
std::unordered_set<const void*> buffers_of(const Batch& batch) {
  std::unordered_set<const void*> out;
  for (size_t c = 0; c < batch.num_columns(); ++c) {
    for_each_buffer(*batch.column(c), [&](const Buffer& b) { out.insert(b.data()); });
  }
  return out;
}

/// Adds the time since `start` and `rows` to a step's statistics.
void record(StepStats* stats, uint64_t start, uint64_t rows) {
  if (stats == nullptr) return;
  stats->nanos.fetch_add(now_nanos() - start, std::memory_order_relaxed);
  stats->rows.fetch_add(rows, std::memory_order_relaxed);
}

/// Measures the GPU time of the work a step queues on a device batch's stream: an event before and one after,
/// waited for at the end (only when profiling).
class GpuStepTimer {
 public:
  GpuStepTimer(StepStats* stats, const Batch& batch)
      : stats_(stats != nullptr && batch.on_device() ? stats : nullptr), stream_(batch.stream()) {
    if (stats_ == nullptr) return;
    start_.emplace(true);
    start_->record(stream_);
  }
  void stop() {
    if (stats_ == nullptr) return;
    gpu::Event end(true);
    end.record(stream_);
    end.synchronize();
    stats_->gpu_nanos.fetch_add(static_cast<uint64_t>(end.elapsed_ms_since(*start_) * 1e6), std::memory_order_relaxed);
  }

 private:
  StepStats* stats_;
  gpu::Stream stream_;
  std::optional<gpu::Event> start_;
};

/// Runs one step's call; a memory budget it exhausts is reported with the step's name ("HashJoinBuild [GPU]: GPU
/// memory budget of ... exceeded"), so the user learns which operator's state did not fit.
template <typename Step, typename F>
void run_step(const Step& step, F call) {
  try {
    call();
  } catch (const ResourceExhausted& e) {
    throw ResourceExhausted(step.name() + ": " + e.message());
  }
}

/// Pushes `batch` through operators [op, end) and into the sink.
void push(Pipeline& p, size_t op, Batch batch, size_t morsel, size_t& sequence, Sink::LocalState& local,
          ExecContext& ctx) {
  PipelineStats* stats = p.stats.get();
  uint64_t start = stats ? now_nanos() : 0;
  if (op == p.operators.size()) {
    uint64_t rows = batch.num_rows();
    if (stats != nullptr) stats->sink.bytes_in.fetch_add(batch_bytes(batch), std::memory_order_relaxed);
    GpuStepTimer timer(stats ? &stats->sink : nullptr, batch);
    run_step(*p.sink, [&] { p.sink->consume(local, morsel, sequence++, std::move(batch), ctx); });
    timer.stop();
    record(stats ? &stats->sink : nullptr, start, rows);
    return;
  }
  std::vector<Batch> out;
  const uint64_t in_bytes = stats != nullptr ? batch_bytes(batch) : 0;
  std::unordered_set<const void*> in_buffers;
  if (stats != nullptr) in_buffers = buffers_of(batch);
  GpuStepTimer timer(stats ? stats->operators[op].get() : nullptr, batch);
  run_step(*p.operators[op], [&] { p.operators[op]->execute(batch, ctx, out); });
  timer.stop();
  if (stats != nullptr) {
    uint64_t rows = 0, out_bytes = 0;
    for (const auto& b : out) {
      rows += b.num_rows();
      out_bytes += batch_bytes(b, &in_buffers);
    }
    record(stats->operators[op].get(), start, rows);
    stats->operators[op]->bytes_in.fetch_add(in_bytes, std::memory_order_relaxed);
    stats->operators[op]->bytes_out.fetch_add(out_bytes, std::memory_order_relaxed);
  }
  for (auto& b : out) push(p, op + 1, std::move(b), morsel, sequence, local, ctx);
}

/// Whether a step of `p` runs on the GPU: GPU steps name themselves "... [GPU]", and transfers sit where CPU and
/// GPU steps meet.
bool has_gpu_steps(const Pipeline& p) {
  auto gpu = [](const std::string& name) {
    return name.find("[GPU]") != std::string::npos || name == "ToHost" || name == "ToDevice";
  };
  if (gpu(p.source->name()) || gpu(p.sink->name())) return true;
  for (const auto& op : p.operators) {
    if (gpu(op->name())) return true;
  }
  return false;
}

void run_one(Pipeline& p, ExecContext& ctx, size_t index, size_t count) {
  uint64_t pipeline_start = now_nanos();
  if (ctx.profile && !p.stats) {
    p.stats = std::make_shared<PipelineStats>();
    for (size_t i = 0; i < p.operators.size(); ++i) p.stats->operators.push_back(std::make_unique<StepStats>());
  }
  ctx.read_gate_taken = false;
  p.source->prepare(ctx);
  if (ctx.read_gate && !ctx.read_gate_taken) ctx.read_gate->open();  // the first pipeline reads no files ahead
  for (auto& op : p.operators) op->prepare(ctx);
  size_t morsels = p.source->morsel_count();
  const uint64_t drivers_start = p.stats ? now_nanos() : 0;
  std::atomic<size_t> next{0};
  std::mutex combine_mutex;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  auto driver = [&] {
    try {
      auto local = p.sink->make_local_state(ctx);
      while (!failed.load(std::memory_order_relaxed)) {
        if (p.sink->input_unneeded()) break;
        size_t m = next.fetch_add(1);
        if (m >= morsels) break;
        ctx.check_cancelled();
        std::vector<Batch> batches;
        uint64_t read_start = p.stats ? now_nanos() : 0;
        run_step(*p.source, [&] { p.source->read(m, ctx, batches); });
        if (p.stats) {
          uint64_t rows = 0, bytes = 0;
          for (const auto& b : batches) {
            rows += b.num_rows();
            bytes += batch_bytes(b);
          }
          record(&p.stats->source, read_start, rows);
          p.stats->source.bytes_out.fetch_add(bytes, std::memory_order_relaxed);
        }
        size_t sequence = 0;
        for (auto& b : batches) push(p, 0, std::move(b), m, sequence, *local, ctx);
        if (ctx.progress) ctx.progress(index, m + 1, morsels, count);
      }
      std::lock_guard lock(combine_mutex);
      if (!failed.load()) run_step(*p.sink, [&] { p.sink->combine(*local, ctx); });
    } catch (...) {
      std::lock_guard lock(combine_mutex);
      if (!error) error = std::current_exception();
      failed.store(true);
    }
  };
  const int limit = ctx.gpu_drivers > 0 && has_gpu_steps(p) ? ctx.gpu_drivers : ctx.threads;
  size_t drivers = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(limit, 1)), morsels));
  if (drivers == 1) {
    driver();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(drivers);
    for (size_t i = 0; i < drivers; ++i) threads.emplace_back(driver);
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);
  uint64_t finalize_start = p.stats ? now_nanos() : 0;
  run_step(*p.sink, [&] { p.sink->finalize(ctx); });
  if (p.stats) {
    record(&p.stats->sink, finalize_start, 0);
    const uint64_t end = now_nanos();
    p.stats->wall_nanos = end - pipeline_start;
    p.stats->prepare_nanos = drivers_start - pipeline_start;
    p.stats->drivers_nanos = finalize_start - drivers_start;
    p.stats->finalize_nanos = end - finalize_start;
    p.stats->drivers = drivers;
  }
}

std::string format_step(const std::string& name, const StepStats& s) {
  char buf[256];
  int n = std::snprintf(buf, sizeof(buf), "%-36s rows %12llu   time %10.3f ms", name.c_str(),
                        static_cast<unsigned long long>(s.rows.load()), static_cast<double>(s.nanos.load()) / 1e6);
  if (s.gpu_nanos.load() > 0 && n > 0 && static_cast<size_t>(n) < sizeof(buf)) {
    n += std::snprintf(buf + n, sizeof(buf) - n, "   gpu %10.3f ms", static_cast<double>(s.gpu_nanos.load()) / 1e6);
  }
  // Bytes in and out (MiB), for bench/roofline.py.
  if (n > 0 && static_cast<size_t>(n) < sizeof(buf)) {
    std::snprintf(buf + n, sizeof(buf) - n, "   in %10.3f MiB   out %10.3f MiB",
                  static_cast<double>(s.bytes_in.load()) / 1048576.0, static_cast<double>(s.bytes_out.load()) / 1048576.0);
  }
  return buf;
}

}  // namespace

void run_pipelines(std::vector<Pipeline>& pipelines, ExecContext& ctx) {
  // The order they run in: one at a time, the first ready in index order each time.
  std::vector<size_t> order;
  {
    std::vector<bool> done(pipelines.size(), false);
    while (order.size() < pipelines.size()) {
      bool progressed = false;
      for (size_t i = 0; i < pipelines.size(); ++i) {
        if (done[i]) continue;
        bool ready = true;
        for (size_t d : pipelines[i].dependencies) {
          KESTREL_CHECK_LT(d, pipelines.size());
          ready = ready && done[d];
        }
        if (!ready) continue;
        order.push_back(i);
        done[i] = true;
        progressed = true;
      }
      KESTREL_CHECK_MSG(progressed, "pipeline dependencies form a cycle");
    }
  }
  if (order.empty()) return;
  // Every gate settles when the pipelines are done at the latest, so no read waits forever: opened, or abandoned
  // after an error (the reads still waiting then give up instead of starting).
  std::vector<std::shared_ptr<ReadGate>> gates{std::make_shared<ReadGate>()};
  struct Settle {
    std::vector<std::shared_ptr<ReadGate>>& gates;
    bool ok = false;
    ~Settle() {
      for (auto& g : gates) ok ? g->open() : g->abandon();
    }
  } settle{gates};
  ctx.read_gate = gates.front();
  std::vector<std::shared_ptr<ReadGate>> own(order.size());  // the gate each pipeline's scan opens
  own[0] = gates.front();
  if (ctx.scan_prefetch) {
    for (size_t k = 1; k < order.size(); ++k) {
      std::shared_ptr<ReadGate> next = pipelines[order[k]].source->prefetch(ctx, gates.back());
      if (next != gates.back()) {
        own[k] = next;
        gates.push_back(std::move(next));
      }
    }
  }
  for (size_t k = 0; k < order.size(); ++k) {
    ctx.check_cancelled();
    run_one(pipelines[order[k]], ctx, k, pipelines.size());
    ctx.read_gate.reset();  // only the first pipeline's source opens it
    // A pipeline that ended before queuing all its scan's reads (it needed no more rows) lets the later ones read.
    if (own[k]) own[k]->open();
  }
  settle.ok = true;
  ctx.read_gate.reset();
}

}  // namespace kestrel::exec

namespace kestrel::exec {

std::string describe_pipelines(const std::vector<Pipeline>& pipelines) {
  std::string out;
  for (size_t i = 0; i < pipelines.size(); ++i) {
    const Pipeline& p = pipelines[i];
    out += "Pipeline " + std::to_string(i);
    if (!p.dependencies.empty()) {
      out += " (after";
      for (size_t d : p.dependencies) out += " " + std::to_string(d);
      out += ")";
    }
    if (p.stats) {
      char buf[160];
      const PipelineStats& st = *p.stats;
      std::snprintf(buf, sizeof(buf), ", %.3f ms (prepare %.3f, %zu driver%s %.3f, finalize %.3f)",
                    static_cast<double>(st.wall_nanos) / 1e6, static_cast<double>(st.prepare_nanos) / 1e6, st.drivers,
                    st.drivers == 1 ? "" : "s", static_cast<double>(st.drivers_nanos) / 1e6,
                    static_cast<double>(st.finalize_nanos) / 1e6);
      out += buf;
    }
    out += "\n";
    if (!p.stats) {
      // A plan not run (EXPLAIN): the steps and where they run.
      out += "  " + p.source->name() + "\n";
      for (const auto& op : p.operators) out += "  " + op->name() + "\n";
      out += "  " + p.sink->name() + "\n";
      continue;
    }
    out += "  " + format_step(p.source->name(), p.stats->source) + "\n";
    for (size_t o = 0; o < p.operators.size(); ++o) {
      out += "  " + format_step(p.operators[o]->name(), *p.stats->operators[o]) + "\n";
    }
    out += "  " + format_step(p.sink->name() + " (rows in)", p.stats->sink) + "\n";
  }
  return out;
}

}  // namespace kestrel::exec
