#pragma once
/// ORDER BY on the CPU: a full sort and a top-N (ORDER BY ... LIMIT n OFFSET m), both stable with respect to the
/// input order (source morsel, batch sequence, row), so the output does not depend on the number of drivers.
///
/// Wiring: pipeline A = input -> SortSink (or TopNSink); pipeline B = SortSource(sink) -> ... -> BatchCollector,
/// B depending on A. The source's morsels are consecutive slices of the sorted output, so an order-preserving
/// collector downstream (it orders by morsel index) keeps the order. Sort keys are input column indices: the plan
/// projects key expressions into columns before the sort and drops them after it.

#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/common/output_rows.hpp"
#include "exec/ops/common/row_compare.hpp"
#include "exec/pipeline.hpp"

namespace kestrel::exec {

/// One ORDER BY key over an input column.
struct SortKeySpec {
  size_t column = 0;
  bool descending = false;
  bool nulls_first = false;
};

/// Where a row came from in the pipeline's input; the tie-breaker that makes the sorts stable.
struct RowOrigin {
  uint64_t morsel = 0;
  uint64_t sequence = 0;
  uint64_t row = 0;
  friend auto operator<=>(const RowOrigin&, const RowOrigin&) = default;
};

/// Sorted rows a SortSource reads after the sink finished.
class SortedOutput {
 public:
  virtual ~SortedOutput() = default;
  virtual size_t output_rows() const = 0;
  /// Rows [first, first + count) of the sorted output; callable concurrently.
  virtual Batch read_rows(size_t first, size_t count) const = 0;
};

/// Full sort. Each driver cuts its input into runs (sorted on the driver's thread), finalize merges the runs.
class SortSink final : public Sink, public SortedOutput {
 public:
  /// `run_rows`: rows a driver gathers before it sorts them into a run.
  SortSink(SchemaPtr schema, std::vector<SortKeySpec> keys, size_t run_rows = size_t{1} << 16);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "Sort"; }

  size_t output_rows() const override { return order_.size(); }
  Batch read_rows(size_t first, size_t count) const override;

  /// A sorted run: the rows in input order, the sorting permutation and where each input batch starts.
  struct Run {
    Batch data;
    std::vector<uint32_t> order;         ///< data rows in sorted order
    std::vector<size_t> batch_first;     ///< first data row of each input batch
    std::vector<RowOrigin> batch_origin; ///< origin of that first row
    RowOrigin origin(uint32_t row) const;
  };

 private:
  struct Local;
  void make_run(Local& local) const;
  void merge_runs();

  SchemaPtr schema_;
  std::vector<SortKeySpec> keys_;
  RowComparator comparator_;
  size_t run_rows_;
  std::mutex mutex_;
  std::vector<Run> runs_;
  Batch all_;                   ///< every run's data, concatenated (after finalize)
  std::vector<uint32_t> order_; ///< rows of all_ in sorted order
};

/// ORDER BY ... LIMIT `limit` OFFSET `offset`: each driver keeps only its best limit + offset rows.
class TopNSink final : public Sink, public SortedOutput {
 public:
  TopNSink(SchemaPtr schema, std::vector<SortKeySpec> keys, uint64_t limit, uint64_t offset = 0);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "TopN"; }

  size_t output_rows() const override { return output_.num_rows(); }
  Batch read_rows(size_t first, size_t count) const override;

  /// The best rows seen so far, sorted, with their origins.
  struct Candidates {
    std::vector<Batch> batches;  ///< batches[0] is the sorted best set; the rest are unreduced input
    std::vector<std::vector<RowOrigin>> origins;
    size_t rows = 0;
    bool reduced = false;  ///< batches is exactly the sorted best set
  };

 private:
  struct Local;
  /// Keeps the best keep_ rows of `c` in c.batches[0], sorted.
  void reduce(Candidates& c) const;

  SchemaPtr schema_;
  std::vector<SortKeySpec> keys_;
  RowComparator comparator_;
  uint64_t limit_;
  uint64_t offset_;
  size_t keep_;
  Candidates global_;
  Batch output_;
};

/// Reads a finished sort's output in order, `morsel_rows` rows per morsel.
class SortSource final : public Source {
 public:
  explicit SortSource(std::shared_ptr<const SortedOutput> sorted, size_t morsel_rows = kCpuOutputRows)
      : sorted_(std::move(sorted)), morsel_rows_(morsel_rows) {}
  size_t morsel_count() const override { return morsels_for(sorted_->output_rows(), morsel_rows_); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "SortScan"; }

 private:
  std::shared_ptr<const SortedOutput> sorted_;
  size_t morsel_rows_;
};

/// The comparator of `keys` (their columns are passed as views in key order).
RowComparator make_row_comparator(const std::vector<SortKeySpec>& keys);
/// The column indices of `keys`.
std::vector<size_t> key_columns(const std::vector<SortKeySpec>& keys);

}  // namespace kestrel::exec
