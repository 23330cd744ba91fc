#include "planner/optimizer/optimizer.hpp"

#include <functional>

namespace kestrel::plan {

std::map<const LogicalNode*, int> parent_counts(const LogicalNode& root) {
  std::map<const LogicalNode*, int> counts;
  std::function<void(const LogicalNode&)> visit = [&](const LogicalNode& n) {
    for (const auto& c : n.children) {
      if (++counts[c.get()] == 1) visit(*c);
    }
  };
  visit(root);
  return counts;
}

LogicalPtr optimize(LogicalPtr plan) {
  fold_constants(*plan);
  plan = push_down_filters(std::move(plan));
  plan = order_joins(std::move(plan));
  extract_join_keys(*plan);
  plan = prune_projections(std::move(plan));
  derive_scan_pruning(*plan);
  return plan;
}

}  // namespace kestrel::plan
