#include "exec/expr/evaluate.hpp"
#include "exec/ops/hash_join/hash_join.hpp"
#include "exec/ops/nested_loop_join/nested_loop_join.hpp"
#include "exec/ops/project/project.hpp"
#include "exec/ops/set_ops/set_op.hpp"
#include "exec/plan_builder.hpp"
#include "planner/expression_utils.hpp"

namespace kestrel::exec {

namespace {

/// A side of a join with its key expressions turned into columns: `columns` are the side's own columns followed
/// by computed keys; `keys` index them.
struct JoinSide {
  std::vector<plan::ExprPtr> columns;
  std::vector<size_t> keys;
  size_t width = 0;  ///< the side's own columns
  bool computed = false;
};

JoinSide key_columns(const std::vector<Field>& fields, const std::vector<plan::ExprPtr>& key_exprs) {
  JoinSide side;
  side.width = fields.size();
  for (size_t i = 0; i < fields.size(); ++i) side.columns.push_back(plan::make_column_ref(i, fields[i].type, ""));
  for (const auto& k : key_exprs) {
    if (k->kind == plan::ExprKind::kColumnRef) {
      side.keys.push_back(k->column_index);
    } else {
      side.keys.push_back(side.columns.size());
      side.columns.push_back(k);
      side.computed = true;
    }
  }
  return side;
}

}  // namespace

PlanBuilder::Open PlanBuilder::build_join(const plan::LogicalJoin& join) {
  const auto& left_plan = join.children[0];
  const auto& right_plan = join.children[1];
  JoinSide left = key_columns(left_plan->output, join.left_keys);
  JoinSide right = key_columns(right_plan->output, join.right_keys);
  size_t extra_left = left.columns.size() - left.width;

  JoinSpec spec;
  spec.type = join.join_type == plan::JoinType::kCross ? plan::JoinType::kInner : join.join_type;
  spec.null_aware = join.null_aware;
  if (join.condition) {
    // The condition reads [left ++ right]; computed left keys sit between the two sides.
    plan::ExprPtr condition = plan::remap_columns(join.condition, [&](size_t i) {
      return i < left.width ? i : i + extra_left;
    });
    spec.condition = [condition](const Batch& joined, ExecContext& ctx) {
      EvalContext eval;
      eval.mr = ctx.host_mr;
      return evaluate(*condition, joined, eval);
    };
  }

  Open build_open = build(right_plan);
  SchemaPtr build_schema = right.computed ? schema_of_exprs(right.columns) : schema_of(*right_plan);
  if (right.computed) build_open.operators.push_back(std::make_shared<ProjectCpu>(right.columns, build_schema));
  Open probe_open = build(left_plan);
  SchemaPtr probe_schema = left.computed ? schema_of_exprs(left.columns) : schema_of(*left_plan);
  if (left.computed) probe_open.operators.push_back(std::make_shared<ProjectCpu>(left.columns, probe_schema));

  std::shared_ptr<StreamOperator> probe;
  std::shared_ptr<Source> unmatched;
  size_t build_index;
  if (!join.left_keys.empty()) {
    auto sink = std::make_shared<HashJoinBuild>(build_schema, right.keys);
    build_index = finish(std::move(build_open), sink);
    auto p = std::make_shared<HashJoinProbe>(sink, probe_schema, left.keys, spec);
    if (emits_unmatched_build(spec.type)) unmatched = std::make_shared<HashJoinUnmatchedSource>(p);
    probe = p;
  } else {
    auto collector = std::make_shared<BatchCollector>(build_schema);
    build_index = finish(std::move(build_open), collector);
    auto p = std::make_shared<NestedLoopJoinProbe>(collector, probe_schema, spec);
    if (emits_unmatched_build(spec.type)) unmatched = std::make_shared<NestedLoopJoinUnmatchedSource>(p);
    probe = p;
  }
  probe_open.operators.push_back(probe);
  probe_open.dependencies.push_back(build_index);

  // Drop computed key columns so the output is exactly the plan's columns.
  std::vector<plan::ExprPtr> output;
  bool reshape = left.computed || right.computed;
  if (reshape) {
    size_t probe_width = left.columns.size();
    for (size_t i = 0; i < left.width; ++i) output.push_back(plan::make_column_ref(i, left_plan->output[i].type, ""));
    if (spec.type == plan::JoinType::kMark) {
      output.push_back(plan::make_column_ref(probe_width, TypeId::kBoolean, ""));
    } else if (spec.type != plan::JoinType::kSemi && spec.type != plan::JoinType::kAnti) {
      for (size_t i = 0; i < right.width; ++i) {
        output.push_back(plan::make_column_ref(probe_width + i, right_plan->output[i].type, ""));
      }
    }
  }
  auto add_reshape = [&](Open& open) {
    if (reshape) open.operators.push_back(std::make_shared<ProjectCpu>(output, schema_of(join)));
  };
  if (!unmatched) {
    add_reshape(probe_open);
    return probe_open;
  }
  // Right and full joins: the probe pipeline and then the unmatched build rows feed one collector.
  auto collector = std::make_shared<BatchCollector>(schema_of(join));
  add_reshape(probe_open);
  size_t probe_index = finish(std::move(probe_open), collector);
  Open rest{unmatched, {}, {probe_index}};
  add_reshape(rest);
  size_t rest_index = finish(std::move(rest), collector);
  return Open{collector, {}, {rest_index}};
}

PlanBuilder::Open PlanBuilder::build_set_op(const plan::LogicalSetOp& op) {
  if (op.op != plan::SetOpKind::kUnion) {
    // INTERSECT / EXCEPT [ALL]: both inputs count their rows into one state, read when both have finished.
    auto state = std::make_shared<SetOpState>(schema_of(op), op.op, op.all);
    size_t left = finish(build(op.children[0]), std::make_shared<SetOpSink>(state, 0));
    size_t right = finish(build(op.children[1]), std::make_shared<SetOpSink>(state, 1));
    return Open{std::make_shared<SetOpSource>(state), {}, {left, right}};
  }
  // UNION ALL: both inputs feed one collector; UNION then removes duplicates with a grouping on every column.
  auto collector = std::make_shared<BatchCollector>(schema_of(op));
  size_t first = finish(build(op.children[0]), collector);
  Open second = build(op.children[1]);
  second.dependencies.push_back(first);
  size_t index = finish(std::move(second), collector);
  Open all{collector, {}, {index}};
  if (op.all) return all;
  plan::LogicalAggregate distinct;
  for (size_t i = 0; i < op.output.size(); ++i) {
    distinct.groups.push_back(plan::make_column_ref(i, op.output[i].type, op.output[i].name));
  }
  distinct.output = op.output;
  return build_distinct(std::move(all), distinct);
}

}  // namespace kestrel::exec
