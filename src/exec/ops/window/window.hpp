#pragma once
/// Window functions on the CPU: row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead,
/// first_value, last_value, nth_value and the aggregates (count, sum, avg, min, max, ...)
/// over PARTITION BY / ORDER BY, with the frames from the partition's start to the current row (ROWS), to the
/// current row's last peer (RANGE, the default with ORDER BY), or the whole partition.
///
/// Wiring: a projection computes [passed columns..., partition keys, order keys and arguments of every function]
/// into columns; the WindowSink gathers every row, and in finalize sorts the rows once per function (by partition,
/// then order keys, ties in input order) and computes each function in that order. A SortSource reads the result:
/// the passed columns (in input order) followed by one column per function.

#include <memory>
#include <mutex>
#include <vector>

#include "exec/ops/hash_aggregate/aggregate_state.hpp"
#include "exec/ops/sort/sort.hpp"

namespace kestrel::exec {

/// One window function over the sink's input columns.
struct WindowFunctionSpec {
  using Kind = plan::WindowCall::Kind;
  /// The rows an aggregate (or last_value) sees: the whole partition, the partition up to the current row's last
  /// peer (rows equal in the ORDER BY keys), or up to the current row.
  using Frame = plan::WindowCall::Frame;
  Kind kind = Kind::kRowNumber;
  AggregateSpec aggregate;  ///< kAggregate: the function, its argument column and type
  std::optional<size_t> value;     ///< lag, lead, first_value, last_value, nth_value: the column read from another row
  std::optional<size_t> fallback;  ///< lag, lead: the column used outside the partition (none: NULL)
  LogicalType value_type = TypeId::kBigInt;
  int64_t offset = 1;              ///< lag, lead: rows back or ahead; ntile: buckets; nth_value: the row
  std::vector<size_t> partition;
  std::vector<SortKeySpec> order;
  Frame frame = Frame::kPartition;
};

/// The result type of `spec` (BIGINT for the ranking functions).
LogicalType window_result_type(const WindowFunctionSpec& spec);

class WindowSink final : public Sink, public SortedOutput {
 public:
  /// `passed`: the leading input columns that reach the output.
  WindowSink(SchemaPtr input, size_t passed, std::vector<WindowFunctionSpec> functions);

  std::unique_ptr<LocalState> make_local_state(ExecContext& ctx) override;
  void consume(LocalState& local, size_t morsel, size_t sequence, Batch batch, ExecContext& ctx) override;
  void combine(LocalState& local, ExecContext& ctx) override;
  void finalize(ExecContext& ctx) override;
  std::string name() const override { return "Window"; }

  size_t output_rows() const override { return output_.num_rows(); }
  Batch read_rows(size_t first, size_t count) const override;
  const SchemaPtr& output_schema() const { return output_schema_; }

 private:
  struct Local;
  /// The values of function `f` for every row of `all` (in its row order).
  ColumnPtr compute(const WindowFunctionSpec& f, const Batch& all) const;

  SchemaPtr input_;
  size_t passed_;
  std::vector<WindowFunctionSpec> functions_;
  SchemaPtr output_schema_;
  std::mutex mutex_;
  /// Input batches by (morsel, sequence), so ties keep the input order whatever the drivers did.
  std::vector<std::pair<RowOrigin, Batch>> batches_;
  Batch output_;
};

}  // namespace kestrel::exec
