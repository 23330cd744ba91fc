#pragma once
/// Scan of a catalog table onto the GPU: the twin of TableScanCpu (table_scan.hpp) whose batches come out in
/// device memory. Each morsel (row group, stored batch) is read on the host and copied to the device on the
/// driver's stream, or taken from the GPU table cache (device_table_cache.hpp) when the context has one and the
/// table is immutable (Parquet and CSV files). Pushed-down filters are not applied here: the plan puts them on the
/// GPU after the scan.

#include "catalog/table.hpp"
#include "exec/pipeline.hpp"

namespace kestrel::exec {

class TableScanGpu final : public Source {
 public:
  TableScanGpu(catalog::TablePtr table, catalog::ScanSpec spec, SchemaPtr schema)
      : table_(std::move(table)), spec_(std::move(spec)), schema_(std::move(schema)) {}

  void prepare(ExecContext& ctx) override { morsels_ = table_->plan_scan(spec_); }
  size_t morsel_count() const override { return morsels_.size(); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Scan " + table_->name() + " [GPU]"; }

 private:
  catalog::TablePtr table_;
  catalog::ScanSpec spec_;
  SchemaPtr schema_;
  std::vector<size_t> morsels_;
};

}  // namespace kestrel::exec
