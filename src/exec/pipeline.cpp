#include "exec/pipeline.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include "common/check.hpp"

namespace kestrel::exec {

namespace {

/// Pushes `batch` through operators [op, end) and into the sink.
void push(Pipeline& p, size_t op, Batch batch, size_t morsel, size_t& sequence, Sink::LocalState& local,
          ExecContext& ctx) {
  if (op == p.operators.size()) {
    p.sink->consume(local, morsel, sequence++, std::move(batch), ctx);
    return;
  }
  std::vector<Batch> out;
  p.operators[op]->execute(batch, ctx, out);
  for (auto& b : out) push(p, op + 1, std::move(b), morsel, sequence, local, ctx);
}

void run_one(Pipeline& p, ExecContext& ctx) {
  p.source->prepare(ctx);
  for (auto& op : p.operators) op->prepare(ctx);
  size_t morsels = p.source->morsel_count();
  std::atomic<size_t> next{0};
  std::mutex combine_mutex;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  auto driver = [&] {
    try {
      auto local = p.sink->make_local_state(ctx);
      while (!failed.load(std::memory_order_relaxed)) {
        size_t m = next.fetch_add(1);
        if (m >= morsels) break;
        ctx.check_cancelled();
        std::vector<Batch> batches;
        p.source->read(m, ctx, batches);
        size_t sequence = 0;
        for (auto& b : batches) push(p, 0, std::move(b), m, sequence, *local, ctx);
      }
      std::lock_guard lock(combine_mutex);
      if (!failed.load()) p.sink->combine(*local, ctx);
    } catch (...) {
      std::lock_guard lock(combine_mutex);
      if (!error) error = std::current_exception();
      failed.store(true);
    }
  };
  size_t drivers = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(ctx.threads, 1)), morsels));
  if (drivers == 1) {
    driver();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(drivers);
    for (size_t i = 0; i < drivers; ++i) threads.emplace_back(driver);
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);
  p.sink->finalize(ctx);
}

}  // namespace

void run_pipelines(std::vector<Pipeline>& pipelines, ExecContext& ctx) {
  std::vector<bool> done(pipelines.size(), false);
  size_t finished = 0;
  while (finished < pipelines.size()) {
    bool progressed = false;
    for (size_t i = 0; i < pipelines.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (size_t d : pipelines[i].dependencies) {
        KESTREL_CHECK_LT(d, pipelines.size());
        ready &= done[d];
      }
      if (!ready) continue;
      ctx.check_cancelled();
      run_one(pipelines[i], ctx);
      done[i] = true;
      ++finished;
      progressed = true;
    }
    KESTREL_CHECK_MSG(progressed, "pipeline dependencies form a cycle");
  }
}

}  // namespace kestrel::exec
