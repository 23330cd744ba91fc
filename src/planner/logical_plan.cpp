#include "planner/logical_plan.hpp"

#include <map>

namespace kestrel::plan {

namespace {

std::string join_exprs(const std::vector<ExprPtr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) out += (i ? ", " : "") + exprs[i]->to_string();
  return out;
}

void explain_into(const LogicalNode& node, int depth, std::string& out) {
  out += std::string(depth * 2, ' ') + node.label();
  if (node.estimated_rows > 0) out += "  ~" + std::to_string(static_cast<uint64_t>(node.estimated_rows)) + " rows";
  out += '\n';
  for (const auto& child : node.children) explain_into(*child, depth + 1, out);
}

}  // namespace

const char* aggregate_function_name(AggregateFunction f) {
  switch (f) {
    case AggregateFunction::kCountStar: return "count_star";
    case AggregateFunction::kCount: return "count";
    case AggregateFunction::kSum: return "sum";
    case AggregateFunction::kAvg: return "avg";
    case AggregateFunction::kMin: return "min";
    case AggregateFunction::kMax: return "max";
    case AggregateFunction::kAnyValue: return "any_value";
    case AggregateFunction::kVarSamp: return "var_samp";
    case AggregateFunction::kVarPop: return "var_pop";
    case AggregateFunction::kSkewness: return "skewness";
    case AggregateFunction::kKurtosis: return "kurtosis";
    case AggregateFunction::kEntropy: return "entropy";
    case AggregateFunction::kBitwiseAndAgg: return "bitwise_and_agg";
    case AggregateFunction::kBitwiseOrAgg: return "bitwise_or_agg";
    case AggregateFunction::kBitwiseXorAgg: return "bitwise_xor_agg";
    case AggregateFunction::kStddevSamp: return "stddev_samp";
    case AggregateFunction::kStddevPop: return "stddev_pop";
    case AggregateFunction::kMaxBy: return "max_by";
    case AggregateFunction::kMinBy: return "min_by";
    case AggregateFunction::kStringAgg: return "string_agg";
    case AggregateFunction::kPercentileCont: return "percentile_cont";
    case AggregateFunction::kPercentileDisc: return "percentile_disc";
    case AggregateFunction::kChecksum: return "checksum";
    case AggregateFunction::kArrayAgg: return "array_agg";
    case AggregateFunction::kMapAgg: return "map_agg";
    case AggregateFunction::kSetAgg: return "set_agg";
    case AggregateFunction::kSetUnion: return "set_union";
    case AggregateFunction::kHistogram: return "histogram";
    case AggregateFunction::kMapUnion: return "map_union";
    case AggregateFunction::kMapUnionSum: return "map_union_sum";
    case AggregateFunction::kMultimapAgg: return "multimap_agg";
    case AggregateFunction::kNumericHistogram: return "numeric_histogram";
    case AggregateFunction::kClassificationMissRate: return "classification_miss_rate";
    case AggregateFunction::kClassificationFallOut: return "classification_fall_out";
    case AggregateFunction::kClassificationPrecision: return "classification_precision";
    case AggregateFunction::kClassificationRecall: return "classification_recall";
    case AggregateFunction::kClassificationThresholds: return "classification_thresholds";
    case AggregateFunction::kDifferentialEntropy: return "differential_entropy";
    case AggregateFunction::kApproxMostFrequent: return "approx_most_frequent";
    case AggregateFunction::kReservoirSample: return "reservoir_sample";
  }
  return "?";
}

const char* join_type_name(JoinType t) {
  switch (t) {
    case JoinType::kInner: return "INNER";
    case JoinType::kLeft: return "LEFT";
    case JoinType::kRight: return "RIGHT";
    case JoinType::kFull: return "FULL";
    case JoinType::kCross: return "CROSS";
    case JoinType::kSemi: return "SEMI";
    case JoinType::kAnti: return "ANTI";
    case JoinType::kMark: return "MARK";
    case JoinType::kSingle: return "SINGLE";
  }
  return "?";
}

std::string AggregateCall::to_string() const {
  if (function == AggregateFunction::kCountStar) return "count(*)";
  std::string out = std::string(aggregate_function_name(function)) + "(" + (distinct ? "DISTINCT " : "") +
                    (argument ? argument->to_string() : "");
  // max_by's direction follows from its name; a percentile's key is its argument.
  if (function == AggregateFunction::kMaxBy || function == AggregateFunction::kMinBy) {
    return out + ", " + order.at(0).expr->to_string() + ")";
  }
  if (function == AggregateFunction::kPercentileCont || function == AggregateFunction::kPercentileDisc) {
    return out + (order.at(0).descending ? " DESC, " : ", ") + parameter.to_string() + ")";
  }
  if (parameter.type().id() == TypeId::kVarchar && !parameter.is_null()) {
    out += ", '" + parameter.as_string() + "'";
  } else if (parameter.type().id() != TypeId::kNull) {
    out += ", " + parameter.to_string();
  }
  for (size_t i = 0; i < order.size(); ++i) {
    out += (i ? ", " : " ORDER BY ") + order[i].expr->to_string() + (order[i].descending ? " DESC" : "") +
           (order[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  out += ")";
  if (filter) out += " FILTER (WHERE " + filter->to_string() + ")";
  return out;
}

std::string LogicalGet::label() const {
  std::string out = "Get " + table->name() + " [";
  const std::vector<Field>& fields = scan_fields();
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? ", " : "") + fields[i].name;
  out += "]";
  if (!filters.empty()) out += " filters: " + join_exprs(filters);
  if (!projection.empty()) {
    out += " output: [";
    for (size_t i = 0; i < output.size(); ++i) out += (i ? ", " : "") + output[i].name;
    out += "]";
  }
  if (!spec.predicates.empty()) out += " prune: " + std::to_string(spec.predicates.size());
  return out;
}

std::string LogicalValues::label() const {
  return "Values " + std::to_string(rows.size()) + (rows.size() == 1 ? " row" : " rows");
}

std::string LogicalFilter::label() const { return "Filter " + predicate->to_string(); }
std::string LogicalProject::label() const { return "Project " + join_exprs(exprs); }

std::string LogicalAggregate::label() const {
  std::string out = "Aggregate";
  if (!groups.empty()) out += " group by " + join_exprs(groups);
  if (!aggregates.empty()) {
    out += groups.empty() ? " " : "; ";
    for (size_t i = 0; i < aggregates.size(); ++i) out += (i ? ", " : "") + aggregates[i].to_string();
  }
  return out;
}

std::string LogicalJoin::label() const {
  std::string out = std::string(join_type_name(join_type)) + " Join";
  for (size_t i = 0; i < left_keys.size(); ++i) {
    out += (i ? " AND " : " ") + left_keys[i]->to_string() + " = " + right_keys[i]->to_string();
  }
  if (condition) out += (left_keys.empty() ? " " : " AND ") + condition->to_string();
  return out;
}

std::string LogicalSort::label() const {
  std::string out = "Sort";
  for (size_t i = 0; i < keys.size(); ++i) {
    out += (i ? ", " : " ") + keys[i].expr->to_string() + (keys[i].descending ? " DESC" : "") +
           (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

std::string LogicalLimit::label() const {
  std::string out = "Limit";
  if (limit) out += " " + std::to_string(*limit);
  if (offset) out += " offset " + std::to_string(offset);
  return out;
}

std::string LogicalSetOp::label() const {
  const char* names[] = {"Union", "Intersect", "Except"};
  return std::string(names[static_cast<int>(op)]) + (all ? " All" : "");
}

std::string WindowCall::to_string() const {
  static const char* const kNames[] = {"row_number", "rank", "dense_rank", "", "percent_rank", "cume_dist",
                                       "ntile", "lag", "lead", "first_value", "last_value",
                                       "nth_value"};
  std::string out;
  if (kind == Kind::kAggregate) {
    out = aggregate.to_string();
  } else {
    out = std::string(kNames[static_cast<int>(kind)]) + "(";
    if (value) out += value->to_string();
    if (kind == Kind::kNtile) out += std::to_string(offset);
    if (kind == Kind::kLag || kind == Kind::kLead || kind == Kind::kNthValue) out += ", " + std::to_string(offset);
    if (fallback) out += ", " + fallback->to_string();
    out += ")";
  }
  out += " OVER (";
  std::string sep;
  if (!partition.empty()) {
    out += "PARTITION BY";
    for (size_t i = 0; i < partition.size(); ++i) out += (i ? ", " : " ") + partition[i]->to_string();
    sep = " ";
  }
  if (!order.empty()) {
    out += sep + "ORDER BY";
    for (size_t i = 0; i < order.size(); ++i) {
      out += (i ? ", " : " ") + order[i].expr->to_string() + (order[i].descending ? " DESC" : "") +
             (order[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
    }
    sep = " ";
  }
  const bool framed = kind == Kind::kAggregate || kind == Kind::kLastValue || kind == Kind::kNthValue;
  if (framed && frame == Frame::kToCurrentRow) out += sep + "ROWS UNBOUNDED PRECEDING";
  if (framed && frame == Frame::kPartition && !order.empty()) {
    out += sep + "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
  }
  return out + ")";
}

std::string LogicalWindow::label() const {
  std::string out = "Window";
  for (size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : " ") + calls[i].to_string();
  return out;
}

std::string LogicalUnnest::label() const {
  std::string out = "Unnest";
  for (size_t i = 0; i < arrays.size(); ++i) out += (i ? ", " : " ") + arrays[i]->to_string();
  return out + (ordinality ? " WITH ORDINALITY" : "");
}

std::string explain_logical(const LogicalNode& root) {
  std::string out;
  explain_into(root, 0, out);
  return out;
}

}  // namespace kestrel::plan

namespace kestrel::plan {

void for_each_expression(LogicalNode& node, const std::function<void(ExprPtr&)>& visit) {
  switch (node.kind) {
    case NodeKind::kGet:
      for (auto& e : node.as<LogicalGet>().filters) visit(e);
      break;
    case NodeKind::kValues:
      for (auto& row : node.as<LogicalValues>().rows) {
        for (auto& e : row) visit(e);
      }
      break;
    case NodeKind::kFilter: visit(node.as<LogicalFilter>().predicate); break;
    case NodeKind::kProject:
      for (auto& e : node.as<LogicalProject>().exprs) visit(e);
      break;
    case NodeKind::kAggregate: {
      auto& agg = node.as<LogicalAggregate>();
      for (auto& e : agg.groups) visit(e);
      for (auto& a : agg.aggregates) {
        if (a.argument) visit(a.argument);
        for (auto& k : a.order) visit(k.expr);
        if (a.filter) visit(a.filter);
      }
      break;
    }
    case NodeKind::kJoin: {
      auto& join = node.as<LogicalJoin>();
      for (auto& e : join.left_keys) visit(e);
      for (auto& e : join.right_keys) visit(e);
      if (join.condition) visit(join.condition);
      break;
    }
    case NodeKind::kSort:
      for (auto& k : node.as<LogicalSort>().keys) visit(k.expr);
      break;
    case NodeKind::kWindow:
      for (auto& call : node.as<LogicalWindow>().calls) {
        if (call.aggregate.argument) visit(call.aggregate.argument);
        if (call.value) visit(call.value);
        if (call.fallback) visit(call.fallback);
        for (auto& e : call.partition) visit(e);
        for (auto& k : call.order) visit(k.expr);
      }
      break;
    case NodeKind::kUnnest:
      for (auto& e : node.as<LogicalUnnest>().arrays) visit(e);
      break;
    case NodeKind::kLimit:
    case NodeKind::kSetOp: break;
  }
}

}  // namespace kestrel::plan

namespace kestrel::plan {

namespace {

LogicalPtr copy_node(const LogicalNode& node) {
  switch (node.kind) {
    case NodeKind::kGet: return std::make_shared<LogicalGet>(node.as<LogicalGet>());
    case NodeKind::kValues: return std::make_shared<LogicalValues>(node.as<LogicalValues>());
    case NodeKind::kFilter: return std::make_shared<LogicalFilter>(node.as<LogicalFilter>());
    case NodeKind::kProject: return std::make_shared<LogicalProject>(node.as<LogicalProject>());
    case NodeKind::kAggregate: return std::make_shared<LogicalAggregate>(node.as<LogicalAggregate>());
    case NodeKind::kJoin: return std::make_shared<LogicalJoin>(node.as<LogicalJoin>());
    case NodeKind::kSort: return std::make_shared<LogicalSort>(node.as<LogicalSort>());
    case NodeKind::kLimit: return std::make_shared<LogicalLimit>(node.as<LogicalLimit>());
    case NodeKind::kSetOp: return std::make_shared<LogicalSetOp>(node.as<LogicalSetOp>());
    case NodeKind::kWindow: return std::make_shared<LogicalWindow>(node.as<LogicalWindow>());
    case NodeKind::kUnnest: return std::make_shared<LogicalUnnest>(node.as<LogicalUnnest>());
  }
  return nullptr;
}

LogicalPtr clone_into(const LogicalPtr& node, std::map<const LogicalNode*, LogicalPtr>& done) {
  auto it = done.find(node.get());
  if (it != done.end()) return it->second;
  LogicalPtr copy = copy_node(*node);
  for (auto& child : copy->children) child = clone_into(child, done);
  done[node.get()] = copy;
  return copy;
}

}  // namespace

LogicalPtr clone_plan(const LogicalPtr& plan) {
  std::map<const LogicalNode*, LogicalPtr> done;
  return clone_into(plan, done);
}

}  // namespace kestrel::plan
