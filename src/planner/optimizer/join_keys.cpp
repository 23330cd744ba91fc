#include <functional>
#include <set>

#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

void extract(LogicalJoin& join) {
  if (!join.condition || join.join_type == JoinType::kCross) return;
  size_t left_width = join.children[0]->output.size();
  std::vector<ExprPtr> residual;
  for (auto& c : split_conjuncts(join.condition)) {
    if (c->kind == ExprKind::kFunction && c->function == ScalarFunction::kEqual) {
      auto a = referenced_columns(*c->children[0]);
      auto b = referenced_columns(*c->children[1]);
      auto side = [&](const std::set<size_t>& cols) {
        if (cols.empty()) return 0;
        bool l = true, r = true;
        for (size_t i : cols) {
          l &= i < left_width;
          r &= i >= left_width;
        }
        return l ? 1 : (r ? 2 : 0);
      };
      int sa = side(a), sb = side(b);
      auto shift = [&](size_t i) { return i - left_width; };
      // Nested keys match by their bytes, which equate NULL elements, while `=` is NULL for them: the condition
      // stays as a residual check on the matched pairs.
      const bool nested = c->children[0]->type.is_nested();
      if (sa == 1 && sb == 2) {
        join.left_keys.push_back(c->children[0]);
        join.right_keys.push_back(remap_columns(c->children[1], shift));
        if (nested) residual.push_back(c);
        continue;
      }
      if (sa == 2 && sb == 1) {
        join.left_keys.push_back(c->children[1]);
        join.right_keys.push_back(remap_columns(c->children[0], shift));
        if (nested) residual.push_back(c);
        continue;
      }
    }
    residual.push_back(c);
  }
  join.condition = make_conjunction(residual);
}

}  // namespace

void extract_join_keys(LogicalNode& plan) {
  std::set<const LogicalNode*> seen;
  std::function<void(LogicalNode&)> visit = [&](LogicalNode& n) {
    if (!seen.insert(&n).second) return;
    if (n.kind == NodeKind::kJoin) extract(n.as<LogicalJoin>());
    for (auto& c : n.children) visit(*c);
  };
  visit(plan);
}

}  // namespace kestrel::plan
