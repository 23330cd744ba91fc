#pragma once
/// Tables as the planner and the scan operators see them: a schema, statistics, and a scan cut into morsels
/// (independent pieces such as Parquet row groups or stored batches) that drivers read in parallel.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "vector/batch.hpp"

namespace kestrel::catalog {

/// Comparison of a column with constants that a scan can use to skip morsels (min/max pruning).
enum class PruneOp : uint8_t { kEqual, kLess, kLessEqual, kGreater, kGreaterEqual, kBetween, kIn, kIsNull };

/// `column op values` on a table column (values already of the column's type).
struct PrunePredicate {
  size_t column = 0;
  PruneOp op = PruneOp::kEqual;
  std::vector<Value> values;  ///< one value; two for BETWEEN; the list for IN; none for IS NULL
};

/// What a scan reads: which columns (table column indices, in output order) and the predicates it may prune with.
/// Pruning only skips whole morsels; the rows of a read morsel still need the filter.
struct ScanSpec {
  std::vector<size_t> columns;
  std::vector<PrunePredicate> predicates;
};

/// Per-column statistics for the optimizer; every field may be unknown.
struct ColumnStatistics {
  std::optional<Value> min;
  std::optional<Value> max;
  std::optional<uint64_t> null_count;
  std::optional<uint64_t> distinct_count;  ///< an estimate
};

struct TableStatistics {
  std::optional<uint64_t> row_count;
  std::vector<ColumnStatistics> columns;  ///< one per schema column (may be empty when nothing is known)
};

/// Where a table's data comes from.
enum class TableKind : uint8_t { kMemory, kParquet, kCsv, kKcol };

/// A table. Thread-safe for concurrent scans; writers (INSERT) take the table's lock.
class Table {
 public:
  Table(std::string name, SchemaPtr schema) : name_(std::move(name)), schema_(std::move(schema)) {}
  virtual ~Table() = default;

  const std::string& name() const { return name_; }
  const SchemaPtr& schema() const { return schema_; }
  virtual TableKind kind() const = 0;
  /// A description for DESCRIBE/EXPLAIN: "memory", "parquet: 3 files", ...
  virtual std::string source_description() const = 0;

  /// The morsels of a scan after pruning by `spec.predicates`; each is an opaque index for `read_morsel`.
  virtual std::vector<size_t> plan_scan(const ScanSpec& spec) const = 0;
  /// Reads one morsel's `spec.columns` into a host batch whose schema lists those columns.
  virtual Batch read_morsel(size_t morsel, const ScanSpec& spec) const = 0;
  virtual TableStatistics statistics() const = 0;
  /// Columns the source has but Kestrel cannot read (nested Parquet columns, ...): (name, reason). Naming one in a
  /// query, or `*` over the table, is a NotImplemented error with the reason.
  virtual std::vector<std::pair<std::string, std::string>> unreadable_columns() const { return {}; }
  /// Device bytes a GPU scan of `columns` holds per row while it reads (file bytes plus decoded values); 0 when
  /// the table cannot tell. Scans size their batches under a memory budget from it.
  virtual double scan_bytes_per_row(const std::vector<size_t>& columns) const {
    (void)columns;
    return 0;
  }
  /// Device bytes a GPU scan of `columns` holds per row for a batch read ahead, before its decode (the stored column
  /// chunks, and for Parquet their decompressed pages too); 0 when the table cannot tell.
  virtual double read_ahead_bytes_per_row(const std::vector<size_t>& columns) const {
    (void)columns;
    return 0;
  }

 protected:
  /// The output schema of a scan of `columns`.
  SchemaPtr projected_schema(const std::vector<size_t>& columns) const;

 private:
  std::string name_;
  SchemaPtr schema_;
};

using TablePtr = std::shared_ptr<Table>;

/// A table held in host memory as a list of batches (CREATE TABLE, INSERT, UPDATE, DELETE, CREATE TABLE AS into
/// memory). The GPU table cache does not hold these tables' columns, so a scan after a change reads the new rows.
class MemoryTable final : public Table {
 public:
  MemoryTable(std::string name, SchemaPtr schema) : Table(std::move(name), std::move(schema)) {}

  TableKind kind() const override { return TableKind::kMemory; }
  std::string source_description() const override { return "memory"; }
  std::vector<size_t> plan_scan(const ScanSpec& spec) const override;
  Batch read_morsel(size_t morsel, const ScanSpec& spec) const override;
  TableStatistics statistics() const override;

  /// Appends rows; the batch's schema must match the table's types. Returns the rows added.
  size_t append(const Batch& batch);
  size_t row_count() const;

  /// Counts the changes made so far (appends and replacements): a statement that computed new rows from the table
  /// can tell whether someone changed it meanwhile.
  uint64_t version() const;
  /// Replaces every row with `batches` (of the table's types) at once, unless the table is no longer at
  /// `expected_version`: then it keeps its rows and returns false. UPDATE and DELETE put their results in place
  /// through it, so a statement that fails part way leaves the table unchanged.
  bool replace(std::vector<Batch> batches, uint64_t expected_version);

 private:
  void check_types(const Batch& batch) const;

  mutable std::mutex mutex_;
  std::vector<Batch> batches_;
  uint64_t version_ = 0;
};

}  // namespace kestrel::catalog
