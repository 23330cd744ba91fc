#pragma once
/// Collects a pipeline's output in source order. It is the sink of the last pipeline (the query result) and the
/// bridge between pipelines: as a Source it hands the collected batches to the next pipeline, one morsel each.

#include <mutex>

#include "exec/pipeline.hpp"

namespace kestrel::exec {

/// Sink that keeps every batch, ordered by (source morsel, sequence); also a Source over the result. When several
/// pipelines feed it one after another, each one's batches follow those of the pipelines before it.
class BatchCollector final : public Sink, public Source {
 public:
  explicit BatchCollector(SchemaPtr schema) : schema_(std::move(schema)) {}

  // Sink
  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;

  // Source
  size_t morsel_count() const override { return batches_.size(); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override { out.push_back(batches_[morsel]); }
  std::string name() const override { return "Collect"; }

  const SchemaPtr& schema() const { return schema_; }
  /// The collected batches in order (after finalize).
  const std::vector<Batch>& batches() const { return batches_; }
  std::vector<Batch>& mutable_batches() { return batches_; }
  size_t row_count() const;

 private:
  struct Entry {
    size_t morsel;
    size_t sequence;
    Batch batch;
  };
  struct Local;

  SchemaPtr schema_;
  std::mutex mutex_;
  std::vector<Entry> entries_;
  std::vector<Batch> batches_;
};

}  // namespace kestrel::exec
