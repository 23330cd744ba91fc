#pragma once
/// Helpers of the CPU operator tests: a source over prepared batches, pipeline runners, random values of every
/// type, dictionary-encoded columns, and row-level comparison against references computed with plain loops.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "exec/ops/collect/collect.hpp"
#include "exec/pipeline.hpp"
#include "vector/batch.hpp"

namespace kestrel::exec::test {

/// A row of values, the unit the references work on.
using Row = std::vector<Value>;

/// One morsel per prepared batch.
class BatchSource final : public Source {
 public:
  explicit BatchSource(std::vector<Batch> batches) : batches_(std::move(batches)) {}
  size_t morsel_count() const override { return batches_.size(); }
  void read(size_t morsel, ExecContext&, std::vector<Batch>& out) override { out.push_back(batches_[morsel]); }
  std::string name() const override { return "TestBatches"; }

 private:
  std::vector<Batch> batches_;
};

/// A schema of unnamed columns c0, c1, ... of `types`.
SchemaPtr make_schema(const std::vector<LogicalType>& types);

/// `rows` (all of `types`) cut into batches of `batch_rows` rows (at least one batch, maybe empty); with
/// `dictionary`, VARCHAR columns are dictionary-encoded.
std::vector<Batch> make_batches(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                                size_t batch_rows, bool dictionary = false);

/// A dictionary-encoded VARCHAR column holding `values`.
ColumnPtr dictionary_column(const std::vector<Value>& values);

/// Every row of `batches`, in order.
std::vector<Row> rows_of(const std::vector<Batch>& batches);

/// A random value of `type` from a small domain (so keys repeat); NULL with probability `null_rate`.
Value random_value(const LogicalType& type, std::mt19937_64& rng, double null_rate, int domain = 6);

/// A total order on values of one type (NULL first), for references and for sorting results.
int compare_values(const Value& a, const Value& b);
bool rows_less(const Row& a, const Row& b);
/// Equality where doubles may differ by a relative 1e-9 (sums in another order).
bool values_close(const Value& a, const Value& b);

/// Expects the same rows in any order.
void expect_same_rows(std::vector<Row> actual, std::vector<Row> expected, const std::string& what);
/// Expects the same rows in the same order.
void expect_same_rows_ordered(const std::vector<Row>& actual, const std::vector<Row>& expected,
                              const std::string& what);

/// Runs `pipelines` with `threads` drivers and returns the rows of `collector`.
std::vector<Row> run_and_collect(std::vector<Pipeline> pipelines, const std::shared_ptr<BatchCollector>& collector,
                                 int threads);

/// The storable types the tests iterate over (all_storable_types).
std::vector<LogicalType> storable_types();

}  // namespace kestrel::exec::test
