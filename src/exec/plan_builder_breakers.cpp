#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "exec/ops/sort/sort.hpp"
#include "exec/ops/unnest/unnest.hpp"
#include "exec/ops/window/window.hpp"
#include "exec/plan_builder.hpp"
#if KESTREL_WITH_CUDA
#include "exec/ops/hash_aggregate/hash_aggregate_gpu_op.hpp"
#include "exec/ops/sort/sort_gpu.hpp"
#include "exec/ops/window/window_gpu.hpp"
#endif

namespace kestrel::exec {

PlanBuilder::Open PlanBuilder::build_breaker(const plan::LogicalPtr& node) {
  switch (node->kind) {
    case plan::NodeKind::kAggregate: return build_aggregate(node->as<plan::LogicalAggregate>());
    case plan::NodeKind::kSort: return build_sort(node->as<plan::LogicalSort>(), std::nullopt, 0);
    case plan::NodeKind::kJoin: return build_join(node->as<plan::LogicalJoin>());
    case plan::NodeKind::kSetOp: return build_set_op(node->as<plan::LogicalSetOp>());
    case plan::NodeKind::kWindow: return build_window(node->as<plan::LogicalWindow>());
    case plan::NodeKind::kUnnest: {
      // CPU only: the plan runs on the CPU as a whole (build_result).
      const auto& unnest = node->as<plan::LogicalUnnest>();
      note_cpu(*node);
      Open open = build(node->children[0]);
      open.operators.push_back(std::make_shared<UnnestCpu>(unnest.arrays, unnest.ordinality,
                                                           std::make_shared<Schema>(unnest.output)));
      return open;
    }
    default: break;
  }
  throw NotImplemented(std::string("the operator for '") + node->label() + "' is not wired yet");
}

namespace {

/// The aggregation's input columns [group keys..., aggregate arguments...] and its aggregates over them.
struct AggregateInputs {
  std::vector<plan::ExprPtr> inputs;
  std::vector<AggregateSpec> specs;
  std::vector<size_t> group_columns;
};

AggregateInputs aggregate_inputs(const plan::LogicalAggregate& agg) {
  AggregateInputs a;
  a.inputs = agg.groups;
  for (const auto& call : agg.aggregates) {
    AggregateSpec spec;
    spec.function = call.function;
    spec.distinct = call.distinct;
    if (call.argument) {
      spec.argument = a.inputs.size();
      spec.input_type = call.argument->type;
      a.inputs.push_back(call.argument);
    }
    for (const plan::SortKey& key : call.order) {
      // A key that is the argument reads the argument's column (with DISTINCT every key is).
      size_t column = a.inputs.size();
      if (call.argument && key.expr->to_string() == call.argument->to_string()) {
        column = *spec.argument;
      } else {
        a.inputs.push_back(key.expr);
      }
      spec.order.push_back({column, key.expr->type, {key.descending, key.nulls_first}});
    }
    spec.parameter = call.parameter;
    if (call.filter) {
      spec.filter = a.inputs.size();
      a.inputs.push_back(call.filter);
    }
    a.specs.push_back(spec);
  }
  for (size_t i = 0; i < agg.groups.size(); ++i) a.group_columns.push_back(i);
  return a;
}

/// The sink of a sort (a top-N with `limit`) and the source reading its result, on one device's operators.
template <typename Sorted, typename FullSink, typename TopSink, typename SourceT>
std::pair<std::shared_ptr<Sink>, std::shared_ptr<Source>> sort_operators(const SchemaPtr& schema,
                                                                         const std::vector<SortKeySpec>& keys,
                                                                         std::optional<uint64_t> limit,
                                                                         uint64_t offset) {
  std::shared_ptr<Sorted> sorted;
  std::shared_ptr<Sink> sink;
  if (limit) {
    auto top = std::make_shared<TopSink>(schema, keys, *limit, offset);
    sorted = top;
    sink = top;
  } else {
    auto full = std::make_shared<FullSink>(schema, keys);
    sorted = full;
    sink = full;
  }
  return {sink, std::make_shared<SourceT>(sorted)};
}

}  // namespace

bool PlanBuilder::gpu_aggregate(const plan::LogicalAggregate& agg) const {
#if KESTREL_WITH_CUDA
  AggregateInputs a = aggregate_inputs(agg);
  return gpu_exprs(a.inputs) && HashAggregateSinkGpu::supports(*schema_of_exprs(a.inputs), a.group_columns, a.specs);
#else
  (void)agg;
  return false;
#endif
}

PlanBuilder::Open PlanBuilder::build_aggregate(const plan::LogicalAggregate& agg) {
  const bool gpu = gpu_aggregate(agg);
  if (!gpu) note_cpu(agg);
  return build_distinct(input(agg.children[0], gpu), agg, gpu);
}

PlanBuilder::Open PlanBuilder::build_distinct(Open open, const plan::LogicalAggregate& agg, bool gpu) {
  // The aggregation reads [group keys..., aggregate arguments...] computed by a projection in front of it.
  AggregateInputs a = aggregate_inputs(agg);
  SchemaPtr input_schema = schema_of_exprs(a.inputs);
  open.operators.push_back(project(gpu, a.inputs, input_schema));
#if KESTREL_WITH_CUDA
  if (gpu) {
    auto sink = std::make_shared<HashAggregateSinkGpu>(input_schema, a.group_columns, a.specs);
    size_t index = finish(std::move(open), sink);
    return Open{std::make_shared<HashAggregateSourceGpu>(sink), {}, {index}, true};
  }
#endif
  auto sink = std::make_shared<HashAggregateSink>(input_schema, a.group_columns, a.specs);
  size_t index = finish(std::move(open), sink);
  return Open{std::make_shared<HashAggregateSource>(sink), {}, {index}};
}

PlanBuilder::Open PlanBuilder::build_window(const plan::LogicalWindow& window) {
  const plan::LogicalNode& child = *window.children[0];
  const size_t width = child.output.size();
  // The sink reads [child columns..., each call's partition keys, order keys and argument] as columns.
  std::vector<plan::ExprPtr> columns;
  for (size_t i = 0; i < width; ++i) columns.push_back(plan::make_column_ref(i, child.output[i].type, ""));
  auto column_of = [&](const plan::ExprPtr& e) {
    if (e->kind == plan::ExprKind::kColumnRef && e->outer_depth == 0 && e->column_index < width) return e->column_index;
    columns.push_back(e);
    return columns.size() - 1;
  };
  std::vector<WindowFunctionSpec> functions;
  for (const plan::WindowCall& call : window.calls) {
    WindowFunctionSpec f;
    f.kind = call.kind;
    f.frame = call.frame;
    for (const auto& p : call.partition) f.partition.push_back(column_of(p));
    for (const auto& k : call.order) f.order.push_back({column_of(k.expr), k.descending, k.nulls_first});
    f.offset = call.offset;
    if (call.value) {
      f.value = column_of(call.value);
      f.value_type = call.value->type;
    }
    if (call.fallback) f.fallback = column_of(call.fallback);
    if (call.kind == plan::WindowCall::Kind::kAggregate) {
      f.aggregate.function = call.aggregate.function;
      f.aggregate.distinct = call.aggregate.distinct;
      if (call.aggregate.argument) {
        f.aggregate.argument = column_of(call.aggregate.argument);
        f.aggregate.input_type = call.aggregate.argument->type;
      }
    }
    functions.push_back(std::move(f));
  }
  SchemaPtr input_schema = schema_of_exprs(columns);
  bool gpu = gpu_exprs(columns);
#if KESTREL_WITH_CUDA
  gpu = gpu && WindowSinkGpu::supports(*input_schema, functions);
#endif
  if (!gpu) note_cpu(window);
  Open open = input(window.children[0], gpu);
  if (columns.size() > width) open.operators.push_back(project(gpu, columns, input_schema));
#if KESTREL_WITH_CUDA
  if (gpu) {
    auto sink = std::make_shared<WindowSinkGpu>(input_schema, width, std::move(functions));
    size_t index = finish(std::move(open), sink);
    return Open{std::make_shared<SortSourceGpu>(sink), {}, {index}, true};
  }
#endif
  auto sink = std::make_shared<WindowSink>(input_schema, width, std::move(functions));
  size_t index = finish(std::move(open), sink);
  return Open{std::make_shared<SortSource>(sink), {}, {index}};
}

PlanBuilder::Open PlanBuilder::build_sort(const plan::LogicalSort& sort, std::optional<uint64_t> limit,
                                          uint64_t offset) {
  size_t width = sort.output.size();
  // Keys that are not plain columns are computed into extra columns, dropped again after the sort.
  std::vector<plan::ExprPtr> columns;
  for (size_t i = 0; i < width; ++i) columns.push_back(plan::make_column_ref(i, sort.output[i].type, ""));
  std::vector<SortKeySpec> keys;
  std::vector<plan::ExprPtr> key_exprs;
  for (const auto& k : sort.keys) {
    size_t column;
    key_exprs.push_back(k.expr);
    if (k.expr->kind == plan::ExprKind::kColumnRef) {
      column = k.expr->column_index;
    } else {
      column = columns.size();
      columns.push_back(k.expr);
    }
    keys.push_back({column, k.descending, k.nulls_first});
  }
  SchemaPtr schema = schema_of(sort);
  SchemaPtr sort_schema = columns.size() > width ? schema_of_exprs(columns) : schema;
  bool gpu = gpu_exprs(key_exprs);
#if KESTREL_WITH_CUDA
  gpu = gpu && (limit ? TopNSinkGpu::supports(*sort_schema, keys) : SortSinkGpu::supports(*sort_schema, keys));
#endif
  if (!gpu) note_cpu(sort);
  Open open = input(sort.children[0], gpu);
  if (columns.size() > width) open.operators.push_back(project(gpu, columns, sort_schema));
  Open out;
#if KESTREL_WITH_CUDA
  if (gpu) {
    auto [sink, source] = sort_operators<SortedOutputGpu, SortSinkGpu, TopNSinkGpu, SortSourceGpu>(sort_schema, keys,
                                                                                                 limit, offset);
    out = Open{source, {}, {finish(std::move(open), sink)}, true};
  }
#endif
  if (!gpu) {
    auto [sink, source] = sort_operators<SortedOutput, SortSink, TopNSink, SortSource>(sort_schema, keys, limit, offset);
    out = Open{source, {}, {finish(std::move(open), sink)}};
  }
  if (columns.size() > width) {
    columns.resize(width);
    out.operators.push_back(project(gpu, columns, schema));
  }
  return out;
}

}  // namespace kestrel::exec
