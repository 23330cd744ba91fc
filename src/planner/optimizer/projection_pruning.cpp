#include <algorithm>
#include <functional>
#include <set>

#include "common/check.hpp"
#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

/// Old output index -> new output index of a rewritten node (absent = dropped).
using Mapping = std::map<size_t, size_t>;
using Columns = std::set<size_t>;

ExprPtr remap(const ExprPtr& e, const Mapping& m) {
  return remap_columns(e, [&](size_t i) { return m.at(i); });
}

void add_columns(Columns& set, const ExprPtr& e) {
  if (!e) return;
  for (size_t c : referenced_columns(*e)) set.insert(c);
}

Columns all_columns(const LogicalNode& n) {
  Columns all;
  for (size_t i = 0; i < n.output.size(); ++i) all.insert(i);
  return all;
}

bool has_right_output(JoinType t) { return t != JoinType::kSemi && t != JoinType::kAnti && t != JoinType::kMark; }

/// Two passes over the plan DAG: first every node's required outputs are gathered from all its parents (parents
/// before children, so a sub-plan shared by several parents, such as a CTE, gets the union of what they read);
/// then nodes are rewritten children first, each exactly once, and parents remap through their children's mappings.
class ProjectionPruning {
 public:
  LogicalPtr run(LogicalPtr root) {
    std::vector<LogicalNode*> post;
    std::set<LogicalNode*> seen;
    std::function<void(LogicalNode*)> dfs = [&](LogicalNode* n) {
      if (!seen.insert(n).second) return;
      for (auto& c : n->children) dfs(c.get());
      post.push_back(n);
    };
    dfs(root.get());
    required_[root.get()] = all_columns(*root);
    for (auto it = post.rbegin(); it != post.rend(); ++it) gather(**it);
    for (LogicalNode* n : post) mappings_[n] = apply(*n, required_[n]);
    return root;
  }

 private:
  /// Adds what `node` needs from each child, given what its parents need from it.
  void gather(LogicalNode& node) {
    Columns req = required_[&node];
    auto need = [&](size_t child, const Columns& cols) { required_[node.children[child].get()].insert(cols.begin(), cols.end()); };
    switch (node.kind) {
      case NodeKind::kFilter: add_columns(req, node.as<LogicalFilter>().predicate); need(0, req); break;
      case NodeKind::kSort:
        for (const auto& k : node.as<LogicalSort>().keys) add_columns(req, k.expr);
        need(0, req);
        break;
      case NodeKind::kLimit: need(0, req); break;
      case NodeKind::kProject: {
        const auto& p = node.as<LogicalProject>();
        Columns child;
        for (size_t i : kept_projections(p, req)) add_columns(child, p.exprs[i]);
        need(0, child);
        break;
      }
      case NodeKind::kAggregate: {
        const auto& a = node.as<LogicalAggregate>();
        Columns child;
        for (const auto& g : a.groups) add_columns(child, g);
        for (size_t j : kept_aggregates(a, req)) {
          const AggregateCall& call = a.aggregates[j];
          add_columns(child, call.argument);
          for (const auto& k : call.order) add_columns(child, k.expr);
          add_columns(child, call.filter);
        }
        need(0, child);
        break;
      }
      case NodeKind::kJoin: {
        const auto& j = node.as<LogicalJoin>();
        size_t lw = node.children[0]->output.size();
        Columns left, right;
        auto split = [&](size_t c) { c < lw ? left.insert(c) : right.insert(c - lw); };
        for (size_t c : req) {
          if (c < lw || has_right_output(j.join_type)) split(c);
        }
        for (const auto& k : j.left_keys) add_columns(left, k);
        for (const auto& k : j.right_keys) add_columns(right, k);
        if (j.condition) {
          for (size_t c : referenced_columns(*j.condition)) split(c);
        }
        need(0, left);
        need(1, right);
        break;
      }
      case NodeKind::kWindow: {
        // The passed columns read above, and every column the calls read (all calls are kept).
        const size_t width = node.children[0]->output.size();
        Columns child;
        for (size_t c : req) {
          if (c < width) child.insert(c);
        }
        for (const auto& call : node.as<LogicalWindow>().calls) {
          add_columns(child, call.aggregate.argument);
          add_columns(child, call.value);
          add_columns(child, call.fallback);
          for (const auto& p : call.partition) add_columns(child, p);
          for (const auto& k : call.order) add_columns(child, k.expr);
        }
        need(0, child);
        break;
      }
      case NodeKind::kGet:
      case NodeKind::kValues: break;
      default:
        for (size_t c = 0; c < node.children.size(); ++c) need(c, all_columns(*node.children[c]));
        break;
    }
  }

  static std::vector<size_t> kept_projections(const LogicalProject& p, const Columns& req) {
    std::vector<size_t> kept(req.begin(), req.end());
    if (kept.empty() && !p.exprs.empty()) kept.push_back(0);
    return kept;
  }

  static std::vector<size_t> kept_aggregates(const LogicalAggregate& a, const Columns& req) {
    std::vector<size_t> kept;
    size_t groups = a.groups.size();
    for (size_t j = 0; j < a.aggregates.size(); ++j) {
      // An ungrouped aggregation keeps at least one aggregate so it still yields its one row.
      if (req.count(groups + j) || (groups == 0 && j == 0)) kept.push_back(j);
    }
    return kept;
  }

  Mapping child_map(LogicalNode& node, size_t c) { return mappings_.at(node.children[c].get()); }

  /// Rewrites `node` (its children are rewritten already) to produce the `req` outputs.
  Mapping apply(LogicalNode& node, const Columns& req) {
    switch (node.kind) {
      case NodeKind::kGet: return apply_get(node.as<LogicalGet>(), req);
      case NodeKind::kFilter: {
        Mapping m = child_map(node, 0);
        auto& f = node.as<LogicalFilter>();
        f.predicate = remap(f.predicate, m);
        f.output = node.children[0]->output;
        return m;
      }
      case NodeKind::kSort: {
        Mapping m = child_map(node, 0);
        for (auto& k : node.as<LogicalSort>().keys) k.expr = remap(k.expr, m);
        node.output = node.children[0]->output;
        return m;
      }
      case NodeKind::kLimit: {
        node.output = node.children[0]->output;
        return child_map(node, 0);
      }
      case NodeKind::kProject: {
        auto& p = node.as<LogicalProject>();
        Mapping cm = child_map(node, 0), m;
        std::vector<ExprPtr> exprs;
        std::vector<Field> output;
        for (size_t i : kept_projections(p, req)) {
          m[i] = exprs.size();
          exprs.push_back(remap(p.exprs[i], cm));
          output.push_back(p.output[i]);
        }
        p.exprs = exprs;
        p.output = output;
        return m;
      }
      case NodeKind::kAggregate: return apply_aggregate(node.as<LogicalAggregate>(), req);
      case NodeKind::kWindow: return apply_window(node.as<LogicalWindow>());
      case NodeKind::kJoin: return apply_join(node.as<LogicalJoin>());
      default: {
        // Children were asked for all their columns; keep them in place.
        Mapping m;
        for (size_t i = 0; i < node.output.size(); ++i) m[i] = i;
        return m;
      }
    }
  }

  Mapping apply_get(LogicalGet& get, Columns req) {
    KESTREL_CHECK(get.projection.empty());  // each node is rewritten once
    Columns scanned = req;
    for (const auto& f : get.filters) add_columns(scanned, f);
    if (scanned.empty() && !get.output.empty()) scanned.insert(0);  // keep one column for the row count
    // Columns only the filters read are scanned and dropped after them (unless nothing else is read: the output
    // then keeps them for the row count).
    const bool project = !req.empty() && req.size() < scanned.size();
    Mapping position;  // old index -> position among the scanned columns
    std::vector<size_t> columns;
    std::vector<Field> fields;
    for (size_t i : scanned) {
      position[i] = columns.size();
      columns.push_back(get.spec.columns[i]);
      fields.push_back(get.output[i]);
    }
    for (auto& f : get.filters) f = remap(f, position);
    get.spec.columns = columns;
    if (!project) {
      get.output = fields;
      return position;
    }
    Mapping m;
    std::vector<Field> output;
    for (size_t i : req) {
      m[i] = output.size();
      get.projection.push_back(position.at(i));
      output.push_back(get.output[i]);
    }
    get.scanned = fields;
    get.output = output;
    return m;
  }

  Mapping apply_aggregate(LogicalAggregate& a, const Columns& req) {
    Mapping cm = child_map(a, 0);
    size_t groups = a.groups.size();
    for (auto& g : a.groups) g = remap(g, cm);
    Mapping m;
    for (size_t i = 0; i < groups; ++i) m[i] = i;
    std::vector<AggregateCall> aggs;
    std::vector<Field> output(a.output.begin(), a.output.begin() + static_cast<long>(groups));
    for (size_t j : kept_aggregates(a, req)) {
      AggregateCall call = a.aggregates[j];
      if (call.argument) call.argument = remap(call.argument, cm);
      for (auto& k : call.order) k.expr = remap(k.expr, cm);
      if (call.filter) call.filter = remap(call.filter, cm);
      m[groups + j] = groups + aggs.size();
      aggs.push_back(call);
      output.push_back(a.output[groups + j]);
    }
    a.aggregates = aggs;
    a.output = output;
    return m;
  }

  Mapping apply_window(LogicalWindow& w) {
    Mapping cm = child_map(w, 0);
    for (auto& call : w.calls) {
      if (call.aggregate.argument) call.aggregate.argument = remap(call.aggregate.argument, cm);
      if (call.value) call.value = remap(call.value, cm);
      if (call.fallback) call.fallback = remap(call.fallback, cm);
      for (auto& p : call.partition) p = remap(p, cm);
      for (auto& k : call.order) k.expr = remap(k.expr, cm);
    }
    const size_t old_width = original_width_.at(w.children[0].get());
    const size_t new_width = w.children[0]->output.size();
    Mapping m;
    for (auto [o, n] : cm) {
      if (o < old_width) m[o] = n;
    }
    std::vector<Field> output = w.children[0]->output;
    for (size_t k = 0; k < w.calls.size(); ++k) {
      m[old_width + k] = new_width + k;
      output.push_back(w.output[old_width + k]);
    }
    w.output = output;
    return m;
  }

  Mapping apply_join(LogicalJoin& j) {
    size_t left_width = original_width_.at(j.children[0].get());  // the left input's width before its rewrite
    Mapping lm = child_map(j, 0), rm = child_map(j, 1);
    size_t new_left = j.children[0]->output.size();
    Mapping both;
    for (auto [o, n] : lm) both[o] = n;
    for (auto [o, n] : rm) both[o + left_width] = n + new_left;
    for (auto& k : j.left_keys) k = remap(k, lm);
    for (auto& k : j.right_keys) k = remap(k, rm);
    if (j.condition) j.condition = remap(j.condition, both);
    std::vector<Field> output = j.children[0]->output;
    Mapping m = lm;
    if (has_right_output(j.join_type)) {
      output.insert(output.end(), j.children[1]->output.begin(), j.children[1]->output.end());
      for (auto [o, n] : rm) m[o + left_width] = n + new_left;
    } else if (j.join_type == JoinType::kMark) {
      m[left_width] = new_left;
      output.push_back(j.output.back());
    }
    j.output = output;
    return m;
  }

 public:
  /// Output widths before any rewrite (joins need their inputs' old widths to split old column numbers).
  void remember_widths(const LogicalPtr& root) {
    std::function<void(LogicalNode*)> visit = [&](LogicalNode* n) {
      if (!original_width_.emplace(n, n->output.size()).second) return;
      for (auto& c : n->children) visit(c.get());
    };
    visit(root.get());
  }

 private:
  std::map<const LogicalNode*, Columns> required_;
  std::map<const LogicalNode*, Mapping> mappings_;
  std::map<const LogicalNode*, size_t> original_width_;
};

}  // namespace

LogicalPtr prune_projections(LogicalPtr plan) {
  ProjectionPruning rule;
  rule.remember_widths(plan);
  return rule.run(std::move(plan));
}

}  // namespace kestrel::plan
