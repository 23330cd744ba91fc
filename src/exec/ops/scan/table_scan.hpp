#pragma once
/// Scan of a catalog table: one morsel per table morsel (row group, stored batch) after pruning, with the pushed-
/// down filters applied to each batch as it is read.

#include "catalog/table.hpp"
#include "exec/pipeline.hpp"
#include "planner/expression.hpp"

namespace kestrel::exec {

class TableScanCpu final : public Source {
 public:
  TableScanCpu(catalog::TablePtr table, catalog::ScanSpec spec, std::vector<plan::ExprPtr> filters, SchemaPtr schema);

  void prepare(ExecContext& ctx) override;
  size_t morsel_count() const override { return morsels_.size(); }
  void read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) override;
  std::string name() const override { return "Scan " + table_->name(); }

 private:
  catalog::TablePtr table_;
  catalog::ScanSpec spec_;
  std::vector<plan::ExprPtr> filters_;
  SchemaPtr schema_;
  std::vector<size_t> morsels_;
};

}  // namespace kestrel::exec
