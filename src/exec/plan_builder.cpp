#include "exec/plan_builder.hpp"

#include <algorithm>

#include "exec/expr/evaluate.hpp"
#include "exec/expr/evaluate_gpu_support.hpp"
#include "exec/ops/filter/filter.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "exec/ops/limit/limit.hpp"
#if KESTREL_WITH_CUDA
#include "exec/ops/limit/limit_gpu.hpp"
#include "gpu/stream_pool.hpp"
#endif
#include "exec/ops/project/project.hpp"
#include "exec/ops/project/project_gpu.hpp"
#include "exec/ops/scan/table_scan.hpp"
#include "exec/ops/scan/table_scan_gpu.hpp"
#include "exec/ops/transfer/transfer.hpp"
#include "exec/ops/values/values.hpp"

namespace kestrel::exec {

namespace {

/// Source over a collector's batches after LIMIT/OFFSET (applied once in prepare).
class LimitSource final : public Source {
 public:
  LimitSource(std::shared_ptr<BatchCollector> input, std::optional<uint64_t> limit, uint64_t offset)
      : input_(std::move(input)), limit_(limit), offset_(offset) {}
  void prepare(ExecContext& ctx) override {
    batches_ = input_->batches();
#if KESTREL_WITH_CUDA
    if (!batches_.empty() && batches_.front().on_device()) {
      // Each slice is made on its batch's own stream, which the operators reading it follow.
      apply_limit_gpu(batches_, limit_, offset_, gpu::driver_stream(), *ctx.device_mr);
      return;
    }
#endif
    apply_limit(batches_, limit_, offset_);
  }
  size_t morsel_count() const override { return batches_.size(); }
  void read(size_t morsel, ExecContext&, std::vector<Batch>& out) override { out.push_back(batches_[morsel]); }
  std::string name() const override { return "Limit"; }

 private:
  std::shared_ptr<BatchCollector> input_;
  std::optional<uint64_t> limit_;
  uint64_t offset_;
  std::vector<Batch> batches_;
};

/// Whether evaluating `e` can never raise an error (no arithmetic, casts or functions that may fail): such
/// filters can be evaluated together over all rows, where others must see only the rows earlier filters kept.
bool cannot_fail(const plan::Expr& e) {
  using plan::ExprKind;
  using plan::ScalarFunction;
  switch (e.kind) {
    case ExprKind::kConstant:
    case ExprKind::kColumnRef: return true;
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot:
    case ExprKind::kIsNull:
    case ExprKind::kIsNotNull:
    case ExprKind::kInList: break;
    case ExprKind::kFunction:
      switch (e.function) {
        case ScalarFunction::kEqual:
        case ScalarFunction::kNotEqual:
        case ScalarFunction::kLess:
        case ScalarFunction::kLessEqual:
        case ScalarFunction::kGreater:
        case ScalarFunction::kGreaterEqual:
        case ScalarFunction::kIsDistinctFrom:
        case ScalarFunction::kIsNotDistinctFrom:
        case ScalarFunction::kLike:
        case ScalarFunction::kNotLike: break;
        default: return false;
      }
      break;
    default: return false;
  }
  return std::all_of(e.children.begin(), e.children.end(), [](const plan::ExprPtr& c) { return cannot_fail(*c); });
}

/// The scan filters `filters` for the GPU: runs of consecutive filters that cannot fail become one conjunction,
/// so the rows are compacted once per run instead of once per filter.
std::vector<plan::ExprPtr> merge_safe_filters(const std::vector<plan::ExprPtr>& filters) {
  std::vector<plan::ExprPtr> out;
  std::vector<plan::ExprPtr> run;
  auto flush = [&] {
    if (run.size() == 1) out.push_back(run.front());
    if (run.size() > 1) out.push_back(plan::make_node(plan::ExprKind::kAnd, TypeId::kBoolean, run));
    run.clear();
  };
  for (const plan::ExprPtr& f : filters) {
    if (cannot_fail(*f)) {
      run.push_back(f);
    } else {
      flush();
      out.push_back(f);
    }
  }
  flush();
  return out;
}
}  // namespace

std::shared_ptr<StreamOperator> PlanBuilder::project(bool gpu, std::vector<plan::ExprPtr> exprs, SchemaPtr schema) {
#if KESTREL_WITH_CUDA
  if (gpu) return std::make_shared<ProjectGpu>(std::move(exprs), std::move(schema));
#endif
  return std::make_shared<ProjectCpu>(std::move(exprs), std::move(schema));
}

bool PlanBuilder::gpu_exprs(const std::vector<plan::ExprPtr>& exprs) const {
  return gpu_placement() &&
         std::all_of(exprs.begin(), exprs.end(), [](const plan::ExprPtr& e) { return can_evaluate_gpu(*e); });
}

SchemaPtr schema_of(const plan::LogicalNode& node) { return std::make_shared<Schema>(node.output); }

SchemaPtr schema_of_exprs(const std::vector<plan::ExprPtr>& exprs) {
  std::vector<Field> fields;
  for (size_t i = 0; i < exprs.size(); ++i) {
    std::string name = "#";
    name += std::to_string(i);
    fields.push_back({std::move(name), exprs[i]->type});
  }
  return std::make_shared<Schema>(fields);
}

void PlanBuilder::count_references(const plan::LogicalNode& node) {
  if (++references_[&node] > 1) return;
  for (const auto& child : node.children) count_references(*child);
}

namespace {

/// Whether `node` or a node below it outputs (or scans) a column of type `type` (VARBINARY, JSON; ARRAY stands for
/// every nested type, and a nested type holding `type` counts).
bool carries_type(const plan::LogicalNode& node, TypeId type) {
  auto has = [type](const std::vector<Field>& fields) {
    return std::any_of(fields.begin(), fields.end(), [type](const Field& f) {
      return type == TypeId::kArray ? f.type.is_nested() : f.type.contains(type);
    });
  };
  if (has(node.output)) return true;
  if (node.kind == plan::NodeKind::kGet && has(node.as<plan::LogicalGet>().scan_fields())) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [type](const plan::LogicalPtr& child) { return carries_type(*child, type); });
}

bool has_unnest(const plan::LogicalNode& node) {
  if (node.kind == plan::NodeKind::kUnnest) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [](const plan::LogicalPtr& child) { return has_unnest(*child); });
}

}  // namespace

std::shared_ptr<BatchCollector> PlanBuilder::build_result(const plan::LogicalPtr& root, bool device_rows) {
  // No device operator takes VARBINARY, JSON or TIMESTAMP WITH TIME ZONE values: such plans run on the CPU as a
  // whole.
  if (gpu_placement() && carries_type(*root, TypeId::kVarbinary)) {
    cpu_operators_.push_back("VARBINARY values");
    cpu_only_ = true;
  }
  if (gpu_placement() && carries_type(*root, TypeId::kJson)) {
    cpu_operators_.push_back("JSON values");
    cpu_only_ = true;
  }
  if (gpu_placement() && carries_type(*root, TypeId::kTimestampTz)) {
    cpu_operators_.push_back("TIMESTAMP WITH TIME ZONE values");
    cpu_only_ = true;
  }
  // Nor ARRAY, MAP or ROW values (nor UNNEST, which makes rows of them).
  if (gpu_placement() && (carries_type(*root, TypeId::kArray) || has_unnest(*root))) {
    cpu_operators_.push_back("ARRAY, MAP and ROW values");
    cpu_only_ = true;
  }
  count_references(*root);
  auto collector = std::make_shared<BatchCollector>(schema_of(*root));
  finish(device_rows && gpu_placement() ? build_placed(root) : build(root), collector);
  return collector;
}

size_t PlanBuilder::finish(Open open, std::shared_ptr<Sink> sink) {
  Pipeline p;
  p.source = std::move(open.source);
  p.operators = std::move(open.operators);
  p.sink = std::move(sink);
  p.dependencies = std::move(open.dependencies);
  pipelines_.push_back(std::move(p));
  return pipelines_.size() - 1;
}

const PlanBuilder::Materialized& PlanBuilder::materialize(const plan::LogicalPtr& node) {
  auto it = materialized_.find(node.get());
  if (it != materialized_.end()) return it->second;
  auto collector = std::make_shared<BatchCollector>(schema_of(*node));
  // With GPU placement the rows stay where the sub-plan produced them (no round trip through the host).
  Open open = gpu_placement() ? build_placed(node) : build(node);
  const bool on_device = open.on_device;
  size_t index = finish(std::move(open), collector);
  return materialized_[node.get()] = Materialized{collector, index, on_device};
}

PlanBuilder::Open PlanBuilder::build(const plan::LogicalPtr& node) { return to_host(build_placed(node)); }

PlanBuilder::Open PlanBuilder::to_host(Open open) {
  if (!open.on_device) return open;
  open.operators.push_back(std::make_shared<ToHostGpu>());
  open.on_device = false;
  return open;
}

PlanBuilder::Open PlanBuilder::to_device(Open open) {
  if (open.on_device) return open;
  open.operators.push_back(std::make_shared<ToDeviceGpu>());
  open.on_device = true;
  return open;
}

PlanBuilder::Open PlanBuilder::build_placed(const plan::LogicalPtr& node) {
  if (references_[node.get()] > 1 && !materialized_.count(node.get())) {
    // A sub-plan used several times (a CTE) is computed once and read by each user.
    references_[node.get()] = 1;
    Open open = read(materialize(node));
    references_[node.get()] = 2;
    return open;
  }
  if (auto it = materialized_.find(node.get()); it != materialized_.end()) return read(it->second);
  using plan::NodeKind;
  switch (node->kind) {
    case NodeKind::kGet: {
      const auto& get = node->as<plan::LogicalGet>();
      const SchemaPtr scan_schema = std::make_shared<Schema>(get.scan_fields());
      // Columns only the filters read are dropped right after them.
      std::vector<plan::ExprPtr> kept;
      for (size_t p : get.projection) {
        kept.push_back(plan::make_column_ref(p, get.scan_fields()[p].type, get.scan_fields()[p].name));
      }
#if KESTREL_WITH_CUDA
      if (gpu_placement() && (get.filters.empty() || gpu_exprs(get.filters))) {
        // The scan still prunes by its spec and reads onto the device (through the table cache); the row filters
        // run on the GPU one after the other as on the CPU (a later filter only sees, and only raises errors for,
        // the rows the earlier ones kept).
        Open open{std::make_shared<TableScanGpu>(get.table, get.spec, scan_schema), {}, {}, true};
        for (const plan::ExprPtr& filter : merge_safe_filters(get.filters)) {
          open.operators.push_back(std::make_shared<FilterGpu>(filter));
        }
        if (!kept.empty()) open.operators.push_back(project(true, kept, schema_of(get)));
        return open;
      }
#endif
      if (gpu_placement() && !get.filters.empty()) cpu_operators_.push_back("filters of " + node->label());
      Open open{std::make_shared<TableScanCpu>(get.table, get.spec, get.filters, scan_schema), {}, {}};
      if (!kept.empty()) open.operators.push_back(project(false, kept, schema_of(get)));
      return open;
    }
    case NodeKind::kValues: return build_values(node->as<plan::LogicalValues>());
    case NodeKind::kFilter: {
      const plan::ExprPtr& predicate = node->as<plan::LogicalFilter>().predicate;
#if KESTREL_WITH_CUDA
      if (gpu_exprs({predicate})) {
        Open open = input(node->children[0], true);
        open.operators.push_back(std::make_shared<FilterGpu>(predicate));
        return open;
      }
#endif
      note_cpu(*node);
      Open open = build(node->children[0]);
      open.operators.push_back(std::make_shared<FilterCpu>(predicate));
      return open;
    }
    case NodeKind::kProject: {
      const auto& exprs = node->as<plan::LogicalProject>().exprs;
      const bool gpu = gpu_exprs(exprs);
      if (!gpu) note_cpu(*node);
      Open open = input(node->children[0], gpu);
      open.operators.push_back(project(gpu, exprs, schema_of(*node)));
      return open;
    }
    case NodeKind::kLimit: return build_limit(node);
    default: return build_breaker(node);
  }
}

PlanBuilder::Open PlanBuilder::build_values(const plan::LogicalValues& node) {
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < node.output.size(); ++c) {
    std::vector<Value> values;
    for (const auto& row : node.rows) {
      Value v = evaluate_constant(*row[c]);
      values.push_back(v.is_null() ? Value::null(node.output[c].type) : v);
    }
    columns.push_back(Column::from_values(node.output[c].type, values, *ctx_.host_mr));
  }
  Batch batch(schema_of(node), std::move(columns), node.rows.size(), gpu::MemoryKind::kHost);
  return Open{std::make_shared<ValuesCpu>(std::move(batch)), {}, {}};
}

PlanBuilder::Open PlanBuilder::build_limit(const plan::LogicalPtr& node) {
  const auto& limit = node->as<plan::LogicalLimit>();
  const auto& child = node->children[0];
  // On the GPU the limit slices device batches: the rows stay on the device.
  const bool gpu = gpu_placement() && KESTREL_WITH_CUDA;
  if (limit.limit && child->kind == plan::NodeKind::kSort && references_[child.get()] <= 1) {
    // ORDER BY ... LIMIT: a top-N keeps only the rows that can make it past the limit.
    Open top = build_sort(child->as<plan::LogicalSort>(), *limit.limit + limit.offset, 0);
    if (!gpu) top = to_host(std::move(top));
    const bool on_device = top.on_device;
    auto collector = std::make_shared<BatchCollector>(schema_of(*child));
    size_t index = finish(std::move(top), collector);
    return Open{std::make_shared<LimitSource>(collector, limit.limit, limit.offset), {}, {index}, on_device};
  }
  if (gpu && references_[child.get()] <= 1 && !materialized_.count(child.get())) {
    auto collector = std::make_shared<BatchCollector>(schema_of(*child));
    size_t index = finish(input(child, true), collector);
    return Open{std::make_shared<LimitSource>(collector, limit.limit, limit.offset), {}, {index}, true};
  }
  const Materialized& m = materialize(child);
  return Open{std::make_shared<LimitSource>(m.collector, limit.limit, limit.offset), {}, {m.index}, m.on_device};
}

}  // namespace kestrel::exec
