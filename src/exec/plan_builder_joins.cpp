#include "exec/expr/evaluate.hpp"
#include "exec/ops/common/join_condition.hpp"
#include "exec/ops/hash_join/hash_join.hpp"
#include "exec/ops/nested_loop_join/nested_loop_join.hpp"
#include "exec/ops/project/project.hpp"
#include "exec/ops/set_ops/set_op.hpp"
#include "exec/plan_builder.hpp"
#include "planner/expression_utils.hpp"
#if KESTREL_WITH_CUDA
#include "exec/expr/evaluate_gpu.hpp"
#include "exec/ops/hash_join/hash_join_gpu.hpp"
#include "exec/ops/nested_loop_join/nested_loop_join_gpu.hpp"
#include "exec/ops/set_ops/set_op_gpu.hpp"
#endif

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
  plan::ExprPtr condition;
  if (join.condition) {
    // The condition reads [left ++ right]; computed left keys sit between the two sides.
    condition = plan::remap_columns(join.condition, [&](size_t i) { return i < left.width ? i : i + extra_left; });
  }
  std::vector<plan::ExprPtr> gpu_checked = left.columns;
  gpu_checked.insert(gpu_checked.end(), right.columns.begin(), right.columns.end());
  if (condition) gpu_checked.push_back(condition);
  bool gpu = gpu_exprs(gpu_checked) && join.left_keys.size() <= 16;
  for (size_t k = 0; gpu && k < join.left_keys.size(); ++k) {
    // The GPU hash join compares keys of one physical type (plain and dictionary strings mix).
    const LogicalType& lt = join.left_keys[k]->type;
    const LogicalType& rt = join.right_keys[k]->type;
    gpu = lt.id() == rt.id() && lt.physical_width() == rt.physical_width();
  }
  if (!gpu) note_cpu(join);
  if (condition) {
#if KESTREL_WITH_CUDA
    if (gpu) set_gpu_join_condition(spec, condition);
#endif
    if (!gpu) {
      spec.condition = [condition](const Batch& joined, ExecContext& ctx) {
        EvalContext eval;
        eval.mr = ctx.host_mr;
        return evaluate(*condition, joined, eval);
      };
    }
  }

  Open build_open = input(right_plan, gpu);
  SchemaPtr build_schema = right.computed ? schema_of_exprs(right.columns) : schema_of(*right_plan);
  if (right.computed) build_open.operators.push_back(project(gpu, right.columns, build_schema));
  Open probe_open = input(left_plan, gpu);
  SchemaPtr probe_schema = left.computed ? schema_of_exprs(left.columns) : schema_of(*left_plan);
  if (left.computed) probe_open.operators.push_back(project(gpu, left.columns, probe_schema));

  std::shared_ptr<StreamOperator> probe;
  std::shared_ptr<Source> unmatched;
  size_t build_index;
  if (gpu) {
#if KESTREL_WITH_CUDA
    if (!join.left_keys.empty()) {
      auto sink = std::make_shared<HashJoinBuildGpu>(build_schema, right.keys);
      build_index = finish(std::move(build_open), sink);
      auto p = std::make_shared<HashJoinProbeGpu>(sink, probe_schema, left.keys, spec);
      if (emits_unmatched_build(spec.type)) unmatched = std::make_shared<HashJoinUnmatchedSourceGpu>(p);
      probe = p;
    } else {
      auto collector = std::make_shared<BatchCollector>(build_schema);
      build_index = finish(std::move(build_open), collector);
      auto p = std::make_shared<NestedLoopJoinProbeGpu>(collector, probe_schema, spec);
      if (emits_unmatched_build(spec.type)) unmatched = std::make_shared<NestedLoopJoinUnmatchedSourceGpu>(p);
      probe = p;
    }
#endif
  } else if (!join.left_keys.empty()) {
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
    if (reshape) open.operators.push_back(project(gpu, output, schema_of(join)));
  };
  if (!unmatched) {
    add_reshape(probe_open);
    return probe_open;
  }
  // Right and full joins: the probe pipeline and then the unmatched build rows feed one collector.
  auto collector = std::make_shared<BatchCollector>(schema_of(join));
  add_reshape(probe_open);
  size_t probe_index = finish(std::move(probe_open), collector);
  Open rest{unmatched, {}, {probe_index}, gpu};
  add_reshape(rest);
  size_t rest_index = finish(std::move(rest), collector);
  return Open{collector, {}, {rest_index}, gpu};
}

PlanBuilder::Open PlanBuilder::build_set_op(const plan::LogicalSetOp& op) {
  if (op.op != plan::SetOpKind::kUnion) {
    // INTERSECT / EXCEPT [ALL]: both inputs feed one state, read when both have finished.
#if KESTREL_WITH_CUDA
    if (gpu_placement() && SetOpStateGpu::supports(*schema_of(op))) {
      auto state = std::make_shared<SetOpStateGpu>(schema_of(op), op.op, op.all);
      size_t left = finish(input(op.children[0], true), std::make_shared<SetOpSinkGpu>(state, 0));
      size_t right = finish(input(op.children[1], true), std::make_shared<SetOpSinkGpu>(state, 1));
      return Open{std::make_shared<SetOpSourceGpu>(state), {}, {left, right}, true};
    }
#endif
    note_cpu(op);
    auto state = std::make_shared<SetOpState>(schema_of(op), op.op, op.all);
    size_t left = finish(build(op.children[0]), std::make_shared<SetOpSink>(state, 0));
    size_t right = finish(build(op.children[1]), std::make_shared<SetOpSink>(state, 1));
    return Open{std::make_shared<SetOpSource>(state), {}, {left, right}};
  }
  // UNION ALL: both inputs feed one collector; UNION then removes duplicates with a grouping on every column.
  plan::LogicalAggregate distinct;
  for (size_t i = 0; i < op.output.size(); ++i) {
    distinct.groups.push_back(plan::make_column_ref(i, op.output[i].type, op.output[i].name));
  }
  distinct.output = op.output;
  const bool gpu = gpu_placement() && (op.all || gpu_aggregate(distinct));
  if (!gpu) note_cpu(op);
  auto collector = std::make_shared<BatchCollector>(schema_of(op));
  size_t first = finish(input(op.children[0], gpu), collector);
  Open second = input(op.children[1], gpu);
  second.dependencies.push_back(first);
  size_t index = finish(std::move(second), collector);
  Open all{collector, {}, {index}, gpu};
  if (op.all) return all;
  return build_distinct(std::move(all), distinct, gpu);
}

}  // namespace kestrel::exec
