#pragma once
/// Push-based, morsel-driven pipelines (ARCHITECTURE.md, Execution). A pipeline is a source cut into morsels, a
/// chain of streaming operators and a sink. Several drivers (threads) run one pipeline, each claiming morsels;
/// pipelines run in dependency order (a hash-join probe after its build, a parent after an aggregation).

#include <memory>
#include <string>
#include <vector>

#include "exec/context.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec {

/// Produces the input of a pipeline in independent pieces (morsels).
class Source {
 public:
  virtual ~Source() = default;
  /// Called once, on one thread, when every pipeline this one depends on has finished.
  virtual void prepare(ExecContext& ctx) {}
  /// Called when the statement starts, for every pipeline but the first, in the order they will run: a source
  /// that reads files may prepare itself now (prepare() is still called, and may then do nothing) and start
  /// reading, within the context's read-ahead budget, once `after` opens (the scans before it have queued all their
  /// reads). Returns the gate the next source's reads wait for: its own, opened once all its reads are queued,
  /// or `after` when it reads nothing ahead.
  virtual std::shared_ptr<ReadGate> prefetch(ExecContext& ctx, const std::shared_ptr<ReadGate>& after) {
    return after;
  }
  virtual size_t morsel_count() const = 0;
  /// Reads morsel `morsel` into zero or more batches. Called concurrently for different morsels.
  virtual void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) = 0;
  /// A name for EXPLAIN ANALYZE and errors.
  virtual std::string name() const = 0;
};

/// Transforms batches one at a time (filter, project, hash-join probe). Must be safe to call concurrently:
/// shared state is read-only while the pipeline runs.
class StreamOperator {
 public:
  virtual ~StreamOperator() = default;
  virtual void prepare(ExecContext& ctx) {}
  /// Appends the output for `input` (zero or more batches) to `out`.
  virtual void execute(const Batch& input, ExecContext& ctx, std::vector<Batch>& out) = 0;
  virtual std::string name() const = 0;
};

/// Consumes a pipeline's output. Each driver has its own local state; local states are combined into the sink's
/// global state one at a time, then the sink is finalized once.
class Sink {
 public:
  /// A driver's private accumulation.
  struct LocalState {
    virtual ~LocalState() = default;
  };
  virtual ~Sink() = default;
  virtual std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) = 0;
  /// `morsel` is the index of the source morsel the batch came from and `sequence` its position among that
  /// morsel's output batches, so order-preserving sinks can restore the source order.
  virtual void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) = 0;
  /// Merges one driver's state; calls are serialized.
  virtual void combine(LocalState& local, ExecContext& ctx) = 0;
  /// Called once after all local states were combined.
  virtual void finalize(ExecContext& ctx) {}
  /// True once the sink's result cannot depend on more input (the other side of an INTERSECT finished empty):
  /// drivers then read no further morsels. Checked before each morsel.
  virtual bool input_unneeded() const { return false; }
  virtual std::string name() const = 0;
};

/// What one step of a pipeline did (EXPLAIN ANALYZE): output rows and time spent, summed over drivers; for steps
/// over device batches also the GPU time between CUDA events recorded around the step (profiling waits for them).
struct StepStats {
  std::atomic<uint64_t> rows{0};
  std::atomic<uint64_t> nanos{0};
  /// Bytes of the batches the step took in (operators, the sink) and gave out (the source, operators): the sum of
  /// their columns' distinct buffers (a dictionary counted with every batch that carries it). An operator's bytes out count
  /// only buffers it made, not those it passed on from its input (a projection that drops columns writes nothing).
  std::atomic<uint64_t> bytes_in{0};
  std::atomic<uint64_t> bytes_out{0};
  /// For device batches: GPU time of the work the step queued on the batch's stream (CUDA events).
  std::atomic<uint64_t> gpu_nanos{0};
};

/// Per-pipeline statistics: the source, each operator, the sink (rows in, time).
struct PipelineStats {
  StepStats source;
  std::vector<std::unique_ptr<StepStats>> operators;
  StepStats sink;
  uint64_t wall_nanos = 0;
  uint64_t prepare_nanos = 0;   ///< source and operator prepare, before the drivers start
  uint64_t drivers_nanos = 0;   ///< from the drivers' start until the last one ended
  uint64_t finalize_nanos = 0;  ///< the sink's finalize
  size_t drivers = 0;
};

/// One pipeline of a query.
struct Pipeline {
  std::shared_ptr<Source> source;
  std::vector<std::shared_ptr<StreamOperator>> operators;
  std::shared_ptr<Sink> sink;
  /// Indices (into the query's pipeline list) of the pipelines that must finish before this one starts.
  std::vector<size_t> dependencies;
  /// Filled while the pipeline runs when the context asks for profiling.
  std::shared_ptr<PipelineStats> stats;
};

/// The pipelines with their statistics as text, one line per step (EXPLAIN ANALYZE).
std::string describe_pipelines(const std::vector<Pipeline>& pipelines);

/// Runs `pipelines` in dependency order, each on up to ctx.threads drivers (ctx.gpu_drivers when it has GPU
/// steps). The first error (or cancellation) stops the query and is rethrown here.
void run_pipelines(std::vector<Pipeline>& pipelines, ExecContext& ctx);

}  // namespace kestrel::exec
