#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "exec/ops/project/project.hpp"
#include "exec/ops/sort/sort.hpp"
#include "exec/plan_builder.hpp"

namespace kestrel::exec {

namespace {

}  // namespace

PlanBuilder::Open PlanBuilder::build_breaker(const plan::LogicalPtr& node) {
  switch (node->kind) {
    case plan::NodeKind::kAggregate: return build_aggregate(node->as<plan::LogicalAggregate>());
    case plan::NodeKind::kSort: return build_sort(node->as<plan::LogicalSort>(), std::nullopt, 0);
    case plan::NodeKind::kJoin: return build_join(node->as<plan::LogicalJoin>());
    case plan::NodeKind::kSetOp: return build_set_op(node->as<plan::LogicalSetOp>());
    default: break;
  }
  throw NotImplemented(std::string("the CPU operator for '") + node->label() + "' is not wired yet");
}

PlanBuilder::Open PlanBuilder::build_aggregate(const plan::LogicalAggregate& agg) {
  return build_distinct(build(agg.children[0]), agg);
}

PlanBuilder::Open PlanBuilder::build_distinct(Open open, const plan::LogicalAggregate& agg) {
  // The aggregation reads [group keys..., aggregate arguments...] computed by a projection in front of it.
  std::vector<plan::ExprPtr> inputs = agg.groups;
  std::vector<AggregateSpec> specs;
  for (const auto& call : agg.aggregates) {
    AggregateSpec spec;
    spec.function = call.function;
    spec.distinct = call.distinct;
    if (call.argument) {
      spec.argument = inputs.size();
      spec.input_type = call.argument->type;
      inputs.push_back(call.argument);
    }
    specs.push_back(spec);
  }
  SchemaPtr input_schema = schema_of_exprs(inputs);
  open.operators.push_back(std::make_shared<ProjectCpu>(inputs, input_schema));
  std::vector<size_t> group_columns;
  for (size_t i = 0; i < agg.groups.size(); ++i) group_columns.push_back(i);
  auto sink = std::make_shared<HashAggregateSink>(input_schema, group_columns, specs);
  size_t index = finish(std::move(open), sink);
  return Open{std::make_shared<HashAggregateSource>(sink), {}, {index}};
}

PlanBuilder::Open PlanBuilder::build_sort(const plan::LogicalSort& sort, std::optional<uint64_t> limit,
                                          uint64_t offset) {
  Open open = build(sort.children[0]);
  size_t width = sort.output.size();
  // Keys that are not plain columns are computed into extra columns, dropped again after the sort.
  std::vector<plan::ExprPtr> columns;
  for (size_t i = 0; i < width; ++i) columns.push_back(plan::make_column_ref(i, sort.output[i].type, ""));
  std::vector<SortKeySpec> keys;
  for (const auto& k : sort.keys) {
    size_t column;
    if (k.expr->kind == plan::ExprKind::kColumnRef) {
      column = k.expr->column_index;
    } else {
      column = columns.size();
      columns.push_back(k.expr);
    }
    keys.push_back({column, k.descending, k.nulls_first});
  }
  SchemaPtr schema = schema_of(sort);
  SchemaPtr sort_schema = schema;
  if (columns.size() > width) {
    sort_schema = schema_of_exprs(columns);
    open.operators.push_back(std::make_shared<ProjectCpu>(columns, sort_schema));
  }
  std::shared_ptr<SortedOutput> sorted;
  std::shared_ptr<Sink> sink;
  if (limit) {
    auto top = std::make_shared<TopNSink>(sort_schema, keys, *limit, offset);
    sorted = top;
    sink = top;
  } else {
    auto full = std::make_shared<SortSink>(sort_schema, keys);
    sorted = full;
    sink = full;
  }
  size_t index = finish(std::move(open), sink);
  Open out{std::make_shared<SortSource>(sorted), {}, {index}};
  if (columns.size() > width) {
    columns.resize(width);
    out.operators.push_back(std::make_shared<ProjectCpu>(columns, schema));
  }
  return out;
}

}  // namespace kestrel::exec
