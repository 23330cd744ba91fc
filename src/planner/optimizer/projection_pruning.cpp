#include <algorithm>
#include <functional>
#include <set>

#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

/// Old output index -> new output index of a rewritten node (absent = dropped).
using Mapping = std::map<size_t, size_t>;

ExprPtr remap(const ExprPtr& e, const Mapping& m) {
  return remap_columns(e, [&](size_t i) { return m.at(i); });
}

void add_columns(std::set<size_t>& set, const ExprPtr& e) {
  if (!e) return;
  for (size_t c : referenced_columns(*e)) set.insert(c);
}

Mapping identity(size_t n) {
  Mapping m;
  for (size_t i = 0; i < n; ++i) m[i] = i;
  return m;
}

class ProjectionPruning {
 public:
  explicit ProjectionPruning(std::map<const LogicalNode*, int> parents) : parents_(std::move(parents)) {}

  /// Rewrites `node` so that it produces at least the `required` outputs; returns where each old output went.
  Mapping prune(LogicalPtr& node, std::set<size_t> required) {
    if (parents_[node.get()] > 1) {
      // Shared sub-plans keep their outputs; prune inside them once.
      if (done_shared_.insert(node.get()).second) prune_all_children(*node);
      return identity(node->output.size());
    }
    switch (node->kind) {
      case NodeKind::kGet: return prune_get(node->as<LogicalGet>(), required);
      case NodeKind::kFilter: {
        auto& f = node->as<LogicalFilter>();
        add_columns(required, f.predicate);
        Mapping m = prune(node->children[0], required);
        f.predicate = remap(f.predicate, m);
        f.output = node->children[0]->output;
        return m;
      }
      case NodeKind::kProject: return prune_project(node->as<LogicalProject>(), required);
      case NodeKind::kAggregate: return prune_aggregate(node->as<LogicalAggregate>(), required);
      case NodeKind::kJoin: return prune_join(node->as<LogicalJoin>(), required);
      case NodeKind::kSort: {
        auto& s = node->as<LogicalSort>();
        for (auto& k : s.keys) add_columns(required, k.expr);
        Mapping m = prune(node->children[0], required);
        for (auto& k : s.keys) k.expr = remap(k.expr, m);
        s.output = node->children[0]->output;
        return m;
      }
      case NodeKind::kLimit: {
        Mapping m = prune(node->children[0], required);
        node->output = node->children[0]->output;
        return m;
      }
      default:
        prune_all_children(*node);
        return identity(node->output.size());
    }
  }

 private:
  void prune_all_children(LogicalNode& node) {
    for (auto& c : node.children) {
      std::set<size_t> all;
      for (size_t i = 0; i < c->output.size(); ++i) all.insert(i);
      prune(c, all);
    }
  }

  Mapping prune_get(LogicalGet& get, std::set<size_t> required) {
    for (const auto& f : get.filters) add_columns(required, f);
    if (required.empty() && !get.output.empty()) required.insert(0);  // keep one column for the row count
    Mapping m;
    std::vector<size_t> columns;
    std::vector<Field> output;
    for (size_t i : required) {
      m[i] = columns.size();
      columns.push_back(get.spec.columns[i]);
      output.push_back(get.output[i]);
    }
    for (auto& f : get.filters) f = remap(f, m);
    get.spec.columns = columns;
    get.output = output;
    return m;
  }

  Mapping prune_project(LogicalProject& p, const std::set<size_t>& required) {
    std::set<size_t> child_required;
    std::vector<size_t> kept(required.begin(), required.end());
    if (kept.empty() && !p.exprs.empty()) kept.push_back(0);
    for (size_t i : kept) add_columns(child_required, p.exprs[i]);
    Mapping cm = prune(p.children[0], child_required);
    Mapping m;
    std::vector<ExprPtr> exprs;
    std::vector<Field> output;
    for (size_t i : kept) {
      m[i] = exprs.size();
      exprs.push_back(remap(p.exprs[i], cm));
      output.push_back(p.output[i]);
    }
    p.exprs = exprs;
    p.output = output;
    return m;
  }

  Mapping prune_aggregate(LogicalAggregate& a, const std::set<size_t>& required) {
    size_t groups = a.groups.size();
    std::set<size_t> child_required;
    for (const auto& g : a.groups) add_columns(child_required, g);
    std::vector<size_t> kept_aggs;
    for (size_t j = 0; j < a.aggregates.size(); ++j) {
      // An ungrouped aggregation keeps at least one aggregate so it still yields its one row.
      if (required.count(groups + j) || (groups == 0 && j == 0)) kept_aggs.push_back(j);
    }
    for (size_t j : kept_aggs) add_columns(child_required, a.aggregates[j].argument);
    Mapping cm = prune(a.children[0], child_required);
    for (auto& g : a.groups) g = remap(g, cm);
    Mapping m = identity(groups);
    std::vector<AggregateCall> aggs;
    std::vector<Field> output(a.output.begin(), a.output.begin() + static_cast<long>(groups));
    for (size_t j : kept_aggs) {
      AggregateCall call = a.aggregates[j];
      if (call.argument) call.argument = remap(call.argument, cm);
      m[groups + j] = groups + aggs.size();
      aggs.push_back(call);
      output.push_back(a.output[groups + j]);
    }
    a.aggregates = aggs;
    a.output = output;
    return m;
  }

  Mapping prune_join(LogicalJoin& j, const std::set<size_t>& required) {
    size_t left_width = j.children[0]->output.size();
    std::set<size_t> left_req, right_req;
    auto split = [&](size_t c) { c < left_width ? left_req.insert(c) : right_req.insert(c - left_width); };
    bool has_right_output = j.join_type != JoinType::kSemi && j.join_type != JoinType::kAnti &&
                            j.join_type != JoinType::kMark;
    for (size_t c : required) {
      if (c < left_width || has_right_output) split(c);
    }
    for (const auto& k : j.left_keys) add_columns(left_req, k);
    for (const auto& k : j.right_keys) add_columns(right_req, k);
    if (j.condition) {
      for (size_t c : referenced_columns(*j.condition)) split(c);
    }
    Mapping lm = prune(j.children[0], left_req);
    Mapping rm = prune(j.children[1], right_req);
    size_t new_left = j.children[0]->output.size();
    Mapping both;
    for (auto [o, n] : lm) both[o] = n;
    for (auto [o, n] : rm) both[o + left_width] = n + new_left;
    for (auto& k : j.left_keys) k = remap(k, lm);
    for (auto& k : j.right_keys) k = remap(k, rm);
    if (j.condition) j.condition = remap(j.condition, both);
    std::vector<Field> output = j.children[0]->output;
    Mapping m = lm;
    if (has_right_output) {
      output.insert(output.end(), j.children[1]->output.begin(), j.children[1]->output.end());
      for (auto [o, n] : rm) m[o + left_width] = n + new_left;
    } else if (j.join_type == JoinType::kMark) {
      m[left_width] = new_left;
      output.push_back(j.output.back());
    }
    j.output = output;
    return m;
  }

  std::map<const LogicalNode*, int> parents_;
  std::set<const LogicalNode*> done_shared_;
};

}  // namespace

LogicalPtr prune_projections(LogicalPtr plan) {
  ProjectionPruning rule(parent_counts(*plan));
  std::set<size_t> all;
  for (size_t i = 0; i < plan->output.size(); ++i) all.insert(i);
  rule.prune(plan, all);
  return plan;
}

}  // namespace kestrel::plan
