#include "exec/ops/filter/filter.hpp"
#include "exec/ops/scan/table_scan.hpp"

namespace kestrel::exec {

TableScanCpu::TableScanCpu(catalog::TablePtr table, catalog::ScanSpec spec, std::vector<plan::ExprPtr> filters,
                           SchemaPtr schema)
    : table_(std::move(table)), spec_(std::move(spec)), filters_(std::move(filters)), schema_(std::move(schema)) {}

void TableScanCpu::prepare(ExecContext&) { morsels_ = table_->plan_scan(spec_); }

void TableScanCpu::read(size_t morsel, ExecContext& ctx, std::vector<Batch>& out) {
  Batch batch = table_->read_morsel(morsels_[morsel], spec_);
  Batch renamed(schema_, batch.columns(), batch.num_rows(), batch.residency(), batch.stream());
  for (const auto& filter : filters_) {
    if (renamed.num_rows() == 0) break;
    renamed = apply_filter(*filter, renamed, ctx);
  }
  out.push_back(std::move(renamed));
}

}  // namespace kestrel::exec
