#include <functional>
#include <set>

#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

class FilterPushdown {
 public:
  explicit FilterPushdown(std::map<const LogicalNode*, int> parents) : parents_(std::move(parents)) {}

  /// Pushes `preds` (over `node`'s output) into `node`; returns the rewritten node.
  LogicalPtr push(LogicalPtr node, std::vector<ExprPtr> preds) {
    if (parents_[node.get()] > 1) {
      // A shared sub-plan is optimized once, on its own; every parent then reads the rewritten plan, and the
      // parents' predicates stay above it.
      auto it = shared_.find(node.get());
      if (it == shared_.end()) it = shared_.emplace(node.get(), push_unshared(node, {})).first;
      return wrap(it->second, preds);
    }
    return push_unshared(std::move(node), std::move(preds));
  }

 private:
  LogicalPtr push_unshared(LogicalPtr node, std::vector<ExprPtr> preds) {
    switch (node->kind) {
      case NodeKind::kFilter: {
        for (auto& c : split_conjuncts(node->as<LogicalFilter>().predicate)) {
          for (auto& f : split_conjuncts(factor_or(c))) preds.push_back(f);
        }
        return push(node->children[0], preds);
      }
      case NodeKind::kProject: return push_project(node, preds);
      case NodeKind::kJoin: return push_join(node, preds);
      case NodeKind::kAggregate: return push_aggregate(node, preds);
      case NodeKind::kSort: {
        node->children[0] = push(node->children[0], preds);
        return node;
      }
      case NodeKind::kSetOp: {
        // A filter over UNION, INTERSECT or EXCEPT (ALL or not) filters each input alike: the outputs are the
        // inputs' columns, position for position.
        for (auto& c : node->children) c = push(c, preds);
        return node;
      }
      case NodeKind::kWindow: return push_window(node, preds);
      case NodeKind::kGet: {
        auto& get = node->as<LogicalGet>();
        // After projection pruning the filters index the scanned columns, not the output: keep a Filter node.
        if (!get.projection.empty()) return wrap(node, preds);
        for (auto& p : preds) get.filters.push_back(p);
        dedupe(get.filters);
        return node;
      }
      default:
        rewrite_children(*node);
        return wrap(node, preds);
    }
  }

  /// Drops repeated predicates (the same text), keeping the first of each.
  static void dedupe(std::vector<ExprPtr>& preds) {
    std::set<std::string> seen;
    std::vector<ExprPtr> unique;
    for (auto& p : preds) {
      if (seen.insert(p->to_string()).second) unique.push_back(p);
    }
    preds = std::move(unique);
  }

  void rewrite_children(LogicalNode& node) {
    for (auto& c : node.children) c = push(c, {});
  }

  static LogicalPtr wrap(LogicalPtr node, const std::vector<ExprPtr>& preds) {
    if (preds.empty()) return node;
    auto filter = std::make_shared<LogicalFilter>();
    filter->predicate = make_conjunction(preds);
    filter->output = node->output;
    filter->children = {std::move(node)};
    return filter;
  }

  LogicalPtr push_project(LogicalPtr node, const std::vector<ExprPtr>& preds) {
    const auto& exprs = node->as<LogicalProject>().exprs;
    std::vector<ExprPtr> below;
    for (const auto& p : preds) below.push_back(substitute_columns(p, exprs));
    node->children[0] = push(node->children[0], below);
    return node;
  }

  /// A predicate over columns that partition every window call keeps or drops whole partitions: it is
  /// evaluated below the window (fewer rows to sort), the rest stays above.
  LogicalPtr push_window(LogicalPtr node, const std::vector<ExprPtr>& preds) {
    const auto& window = node->as<LogicalWindow>();
    const size_t width = window.children[0]->output.size();
    std::set<size_t> partitioning;
    for (size_t c = 0; c < width; ++c) partitioning.insert(c);
    for (const WindowCall& call : window.calls) {
      std::set<size_t> keys;
      for (const ExprPtr& p : call.partition) {
        if (p->kind == ExprKind::kColumnRef && p->outer_depth == 0) keys.insert(p->column_index);
      }
      std::set<size_t> both;
      for (size_t c : partitioning) {
        if (keys.count(c)) both.insert(c);
      }
      partitioning = std::move(both);
    }
    std::vector<ExprPtr> below, kept;
    for (const auto& p : preds) {
      const auto cols = referenced_columns(*p);
      bool ok = !cols.empty();
      for (size_t c : cols) ok &= partitioning.count(c) > 0;
      (ok ? below : kept).push_back(p);
    }
    node->children[0] = push(node->children[0], below);
    return wrap(node, kept);
  }

  LogicalPtr push_aggregate(LogicalPtr node, const std::vector<ExprPtr>& preds) {
    auto& agg = node->as<LogicalAggregate>();
    std::vector<ExprPtr> below, kept;
    for (const auto& p : preds) {
      bool groups_only = true;
      for (size_t c : referenced_columns(*p)) groups_only &= c < agg.groups.size();
      if (groups_only && !agg.groups.empty()) {
        below.push_back(substitute_columns(p, agg.groups));
      } else {
        kept.push_back(p);
      }
    }
    node->children[0] = push(node->children[0], below);
    return wrap(node, kept);
  }

  LogicalPtr push_join(LogicalPtr node, std::vector<ExprPtr> preds) {
    auto& join = node->as<LogicalJoin>();
    size_t left_width = join.children[0]->output.size();
    bool inner = join.join_type == JoinType::kInner || join.join_type == JoinType::kCross;
    if (inner && join.condition) {
      for (auto& c : split_conjuncts(join.condition)) {
        for (auto& f : split_conjuncts(factor_or(c))) preds.push_back(f);
      }
      join.condition = nullptr;
    }
    std::vector<ExprPtr> left, right, both, kept;
    auto shift = [&](size_t i) { return i - left_width; };
    if (inner) {
      // An OR over both sides implies, for each side, the OR of what each branch says about that side alone:
      // (n1 = 'A' AND n2 = 'B') OR (n1 = 'B' AND n2 = 'A') lets n1 IN ('A', 'B') filter the left input early.
      std::vector<ExprPtr> derived;
      for (const auto& p : preds) {
        if (p->kind != ExprKind::kOr) continue;
        for (int side = 0; side < 2; ++side) {
          std::vector<ExprPtr> branches;
          for (const auto& branch : p->children) {
            std::vector<ExprPtr> mine;
            for (const auto& c : split_conjuncts(branch)) {
              auto cols = referenced_columns(*c);
              bool on_side = !cols.empty();
              for (size_t i : cols) on_side &= side == 0 ? i < left_width : i >= left_width;
              if (on_side) mine.push_back(c);
            }
            if (mine.empty()) break;
            branches.push_back(make_conjunction(mine));
          }
          if (branches.size() == p->children.size()) {
            derived.push_back(make_node(ExprKind::kOr, TypeId::kBoolean, branches));
          }
        }
      }
      for (auto& d : derived) preds.push_back(d);
    }
    dedupe(preds);
    for (const auto& p : preds) {
      auto cols = referenced_columns(*p);
      bool only_left = true, only_right = true;
      for (size_t c : cols) {
        only_left &= c < left_width;
        only_right &= c >= left_width;
      }
      bool left_preserved = join.join_type != JoinType::kRight && join.join_type != JoinType::kFull;
      bool right_preserved_side = inner;  // rows of the right side are filtered only in inner joins
      if (only_left && !cols.empty() && left_preserved) {
        left.push_back(p);
      } else if (only_right && !cols.empty() && right_preserved_side) {
        right.push_back(remap_columns(p, shift));
      } else if (inner) {
        both.push_back(p);
      } else {
        kept.push_back(p);
      }
    }
    // The ON condition of a LEFT (or semi/anti/mark) join may filter the right side before the join; not for
    // null-aware joins (NOT IN / IN), whose result depends on the right rows where the condition is NULL.
    if (!inner && join.condition && !join.null_aware &&
        (join.join_type == JoinType::kLeft || join.join_type == JoinType::kSemi || join.join_type == JoinType::kAnti ||
         join.join_type == JoinType::kMark || join.join_type == JoinType::kSingle)) {
      std::vector<ExprPtr> stay;
      for (auto& c : split_conjuncts(join.condition)) {
        auto cols = referenced_columns(*c);
        bool only_right = !cols.empty();
        for (size_t i : cols) only_right &= i >= left_width;
        if (only_right) {
          right.push_back(remap_columns(c, shift));
        } else {
          stay.push_back(c);
        }
      }
      join.condition = make_conjunction(stay);
    }
    if (inner) {
      join.condition = make_conjunction(both);
      join.join_type = join.condition ? JoinType::kInner : JoinType::kCross;
    }
    join.children[0] = push(join.children[0], left);
    join.children[1] = push(join.children[1], right);
    return wrap(node, kept);
  }

  std::map<const LogicalNode*, int> parents_;
  std::map<const LogicalNode*, LogicalPtr> shared_;
};

}  // namespace

LogicalPtr push_down_filters(LogicalPtr plan) {
  FilterPushdown rule(parent_counts(*plan));
  return rule.push(std::move(plan), {});
}

}  // namespace kestrel::plan
