#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <string_view>

#include "planner/expression_utils.hpp"
#include "planner/optimizer/optimizer.hpp"

namespace kestrel::plan {

namespace {

/// Fraction of rows a filter conjunct keeps (rough, by shape).
double selectivity(const Expr& e) {
  if (e.kind == ExprKind::kFunction) {
    switch (e.function) {
      case ScalarFunction::kEqual: return 0.1;
      case ScalarFunction::kLike: return 0.1;
      case ScalarFunction::kNotEqual:
      case ScalarFunction::kNotLike: return 0.9;
      default: return 0.4;
    }
  }
  if (e.kind == ExprKind::kInList) return 0.2;
  if (e.kind == ExprKind::kAnd) {
    double s = 1;
    for (const auto& c : e.children) s *= selectivity(*c);
    return s;
  }
  return 0.5;
}

/// A left join is turned around when its right input is estimated at this many times its left's rows.
constexpr double kOuterSwapRatio = 4;
/// In a region of inner joins, an input estimated at this many times the rows joined so far is the probe side of its
/// hash join, and the rows joined so far its build side (a hash table over a few thousand rows probed by a large
/// input, instead of a table over the large input probed by those few rows).
constexpr double kProbeSwapRatio = 8;

/// KESTREL_PROBE_SWAP=0 turns that off (benchmarks compare plans with and without it).
bool probe_swap_enabled() {
  static const bool on = [] {
    const char* env = std::getenv("KESTREL_PROBE_SWAP");
    return env == nullptr || std::string_view(env) != "0";
  }();
  return on;
}

bool is_region_join(const LogicalNode& n) {
  if (n.kind != NodeKind::kJoin) return false;
  auto t = n.as<LogicalJoin>().join_type;
  return (t == JoinType::kInner || t == JoinType::kCross) && n.as<LogicalJoin>().left_keys.empty();
}

class JoinOrder {
 public:
  explicit JoinOrder(std::map<const LogicalNode*, int> parents) : parents_(std::move(parents)) {}

  /// Estimated rows of a node's output, and the fraction its filters keep of the base table (scans only).
  double estimate(const LogicalNode& n) {
    auto it = estimates_.find(&n);
    if (it != estimates_.end()) return it->second;
    double rows = 1000;
    switch (n.kind) {
      case NodeKind::kGet: {
        const auto& get = n.as<LogicalGet>();
        auto stats = get.table->statistics();
        rows = stats.row_count ? static_cast<double>(*stats.row_count) : 1e6;
        for (const auto& f : get.filters) rows *= selectivity(*f);
        break;
      }
      case NodeKind::kValues: rows = static_cast<double>(n.as<LogicalValues>().rows.size()); break;
      case NodeKind::kFilter: rows = estimate(*n.children[0]) * selectivity(*n.as<LogicalFilter>().predicate); break;
      case NodeKind::kAggregate:
        rows = n.as<LogicalAggregate>().groups.empty() ? 1 : estimate(*n.children[0]) * 0.5;
        break;
      case NodeKind::kJoin: {
        const auto& j = n.as<LogicalJoin>();
        double l = estimate(*n.children[0]), r = estimate(*n.children[1]);
        if (j.join_type == JoinType::kCross && !j.condition) {
          rows = l * r;
        } else if (j.join_type == JoinType::kSemi || j.join_type == JoinType::kAnti ||
                   j.join_type == JoinType::kMark || j.join_type == JoinType::kSingle) {
          rows = l;
        } else {
          rows = std::max(l, r);
        }
        break;
      }
      case NodeKind::kLimit: {
        const auto& lim = n.as<LogicalLimit>();
        rows = std::min(estimate(*n.children[0]), lim.limit ? static_cast<double>(*lim.limit) : 1e18);
        break;
      }
      default: rows = n.children.empty() ? 1000 : estimate(*n.children[0]); break;
    }
    rows = std::max(rows, 1.0);
    estimates_[&n] = rows;
    return rows;
  }

  /// The base rows of a scan (before its filters); the estimate for anything else.
  double base_rows(const LogicalNode& n) {
    if (n.kind == NodeKind::kGet) {
      auto stats = n.as<LogicalGet>().table->statistics();
      return stats.row_count ? std::max(1.0, static_cast<double>(*stats.row_count)) : 1e6;
    }
    return estimate(n);
  }

  LogicalPtr rewrite(LogicalPtr node) {
    if (parents_[node.get()] > 1) {
      auto it = shared_.find(node.get());
      if (it != shared_.end()) return it->second;
      LogicalPtr done = rewrite_unshared(node);
      shared_[node.get()] = done;
      return done;
    }
    return rewrite_unshared(node);
  }

 private:
  struct Leaf {
    LogicalPtr plan;
    size_t offset;  ///< first column in the region's original column order
    double rows;
    double selectivity;
  };

  LogicalPtr rewrite_unshared(LogicalPtr node) {
    if (LogicalPtr pushed = push_semi_join(node)) return rewrite(pushed);
    if (!is_region_join(*node)) {
      for (auto& c : node->children) c = rewrite(c);
      return swap_outer_join(node);
    }
    std::vector<Leaf> leaves;
    std::vector<ExprPtr> conjuncts;
    collect(node, 0, leaves, conjuncts);
    if (leaves.size() < 2) {
      for (auto& c : node->children) c = rewrite(c);
      return node;
    }
    for (auto& leaf : leaves) {
      leaf.plan = rewrite(leaf.plan);
      leaf.rows = estimate(*leaf.plan);
      leaf.selectivity = std::min(1.0, leaf.rows / base_rows(*leaf.plan));
    }
    return reorder(node, leaves, conjuncts);
  }

  /// A semi or anti join over a region of inner joins whose condition reads only one input of the region is moved
  /// onto that input, so it filters before the other joins (`o_orderkey IN (...)` above customer x orders x
  /// lineitem filters orders). The region's columns are unchanged, so nothing above needs rewriting.
  LogicalPtr push_semi_join(const LogicalPtr& node) {
    if (node->kind != NodeKind::kJoin) return nullptr;
    auto& semi = node->as<LogicalJoin>();
    if ((semi.join_type != JoinType::kSemi && semi.join_type != JoinType::kAnti) || !semi.condition ||
        !semi.left_keys.empty()) {
      return nullptr;
    }
    LogicalPtr region = node->children[0];
    if (!is_region_join(*region) || parents_[region.get()] > 1) return nullptr;
    size_t width = region->output.size();
    // Only pure key lookups move down: a residual condition (EXISTS ... AND a.x <> b.x) is evaluated per matching
    // pair, which is cheaper after the region's other joins have cut the rows down.
    for (const auto& c : split_conjuncts(semi.condition)) {
      if (c->kind != ExprKind::kFunction || c->function != ScalarFunction::kEqual) return nullptr;
      auto a = referenced_columns(*c->children[0]);
      auto b = referenced_columns(*c->children[1]);
      bool a_left = !a.empty() && *a.rbegin() < width, b_right = !b.empty() && *b.begin() >= width;
      bool b_left = !b.empty() && *b.rbegin() < width, a_right = !a.empty() && *a.begin() >= width;
      if (!((a_left && b_right) || (b_left && a_right))) return nullptr;
    }
    std::vector<Leaf> leaves;
    std::vector<ExprPtr> conjuncts;
    collect(region, 0, leaves, conjuncts);
    std::set<size_t> used;
    for (size_t c : referenced_columns(*semi.condition)) {
      if (c < width) used.insert(leaf_of(leaves, c));
    }
    if (used.size() != 1) return nullptr;
    size_t target = *used.begin();
    size_t offset = leaves[target].offset;
    size_t leaf_width = leaves[target].plan->output.size();
    // Rebuild the semi join over the chosen input, then put it in that input's place inside the region.
    auto moved = std::make_shared<LogicalJoin>(semi);
    moved->condition = remap_columns(semi.condition, [&](size_t i) { return i < width ? i - offset : i - width + leaf_width; });
    moved->children = {leaves[target].plan, node->children[1]};
    moved->output = leaves[target].plan->output;
    if (!replace_leaf(region, leaves[target].plan, moved)) return nullptr;
    return region;
  }

  /// A left join whose right input is estimated at several times the rows of its left becomes a right join of the
  /// swapped inputs, so the hash table is built over the smaller input (customer LEFT JOIN orders builds customer
  /// and probes orders, each order matching one customer, instead of expanding every customer to its orders); a
  /// projection restores the column order.
  LogicalPtr swap_outer_join(const LogicalPtr& node) {
    if (node->kind != NodeKind::kJoin) return node;
    const auto& join = node->as<LogicalJoin>();
    if (join.join_type != JoinType::kLeft || !join.left_keys.empty()) return node;
    const LogicalPtr& left = node->children[0];
    const LogicalPtr& right = node->children[1];
    if (estimate(*right) < kOuterSwapRatio * estimate(*left)) return node;
    const size_t nl = left->output.size(), nr = right->output.size();
    auto swapped = std::make_shared<LogicalJoin>(join);
    swapped->join_type = JoinType::kRight;
    swapped->children = {right, left};
    if (join.condition) {
      swapped->condition = remap_columns(join.condition, [&](size_t i) { return i < nl ? i + nr : i - nl; });
    }
    swapped->output = right->output;
    swapped->output.insert(swapped->output.end(), left->output.begin(), left->output.end());
    auto project = std::make_shared<LogicalProject>();
    for (size_t c = 0; c < nl + nr; ++c) {
      const size_t from = c < nl ? c + nr : c - nl;
      project->exprs.push_back(make_column_ref(from, swapped->output[from].type, swapped->output[from].name));
    }
    project->output = node->output;
    project->children = {swapped};
    return project;
  }

  /// Replaces the child pointer `from` by `to` somewhere inside the region rooted at `root`.
  bool replace_leaf(const LogicalPtr& root, const LogicalPtr& from, const LogicalPtr& to) {
    for (auto& child : root->children) {
      if (child == from) {
        child = to;
        return true;
      }
      if (is_region_join(*child) && parents_[child.get()] <= 1 && replace_leaf(child, from, to)) return true;
    }
    return false;
  }

  /// Collects the leaves of a region of inner joins (in column order) and its conditions over region columns.
  /// The inputs and conditions of the region of inner joins below `node`. A shared join inside is an input (its
  /// other parents need it whole); the region's own root may be shared (a decorrelated sub-query shares the outer
  /// query's FROM), and is reordered once for all its parents.
  void collect(const LogicalPtr& node, size_t offset, std::vector<Leaf>& leaves, std::vector<ExprPtr>& conjuncts,
               bool root = true) {
    if (!is_region_join(*node) || (!root && parents_[node.get()] > 1)) {
      leaves.push_back({node, offset, 0, 1});
      return;
    }
    const auto& j = node->as<LogicalJoin>();
    if (j.condition) {
      for (auto& c : split_conjuncts(j.condition)) {
        conjuncts.push_back(remap_columns(c, [&](size_t i) { return i + offset; }));
      }
    }
    collect(node->children[0], offset, leaves, conjuncts, false);
    collect(node->children[1], offset + node->children[0]->output.size(), leaves, conjuncts, false);
  }

  /// Which leaf holds region column `c`.
  static size_t leaf_of(const std::vector<Leaf>& leaves, size_t c) {
    for (size_t i = leaves.size(); i-- > 0;) {
      if (c >= leaves[i].offset) return i;
    }
    return 0;
  }

  LogicalPtr reorder(const LogicalPtr& original, const std::vector<Leaf>& leaves, std::vector<ExprPtr> conjuncts) {
    size_t n = leaves.size();
    std::vector<std::set<size_t>> conjunct_leaves;
    std::vector<bool> equi;  // an equality whose sides read different inputs: a hash-join key
    // Keys of integers on both sides: surrogate keys, which join as foreign key to primary key and keep about the
    // probe side's rows. Equalities of strings or other attributes (cd1.marital_status = cd2.marital_status) may
    // have few distinct values and multiply the rows, so they rank below them when the order is chosen.
    std::vector<bool> integer_key;
    for (const auto& c : conjuncts) {
      std::set<size_t> s;
      for (size_t col : referenced_columns(*c)) s.insert(leaf_of(leaves, col));
      conjunct_leaves.push_back(s);
      bool is_equi = false;
      if (c->kind == ExprKind::kFunction && c->function == ScalarFunction::kEqual) {
        std::set<size_t> a, b;
        for (size_t col : referenced_columns(*c->children[0])) a.insert(leaf_of(leaves, col));
        for (size_t col : referenced_columns(*c->children[1])) b.insert(leaf_of(leaves, col));
        is_equi = !a.empty() && !b.empty();
        for (size_t l : a) is_equi &= b.count(l) == 0;
      }
      equi.push_back(is_equi);
      integer_key.push_back(is_equi && c->children[0]->type.is_integral() && c->children[1]->type.is_integral());
    }
    // Start from the largest input; then add, among the inputs connected to what is joined so far, the one that
    // keeps the fewest rows (its filter selectivity), as the build side.
    std::vector<size_t> order;
    std::vector<double> joined_rows;  // estimated rows of the first k inputs joined, per k
    std::vector<bool> used(n, false);
    size_t first = 0;
    for (size_t i = 1; i < n; ++i) {
      if (leaves[i].rows > leaves[first].rows) first = i;
    }
    order.push_back(first);
    used[first] = true;
    double current = leaves[first].rows;
    joined_rows.push_back(current);
    while (order.size() < n) {
      size_t best = n;
      double best_rows = 0;
      int best_connected = 0;
      for (size_t i = 0; i < n; ++i) {
        if (used[i]) continue;
        // 3: joined by an equality of integer keys, 2: by another equality (both hash joins), 1: by another
        // condition, 0: a cross product.
        int connected = 0;
        for (size_t c = 0; c < conjunct_leaves.size(); ++c) {
          const auto& s = conjunct_leaves[c];
          if (!s.count(i) || s.size() < 2) continue;
          bool rest_in = true;
          for (size_t l : s) rest_in &= l == i || used[l];
          if (rest_in) connected = std::max(connected, equi[c] ? (integer_key[c] ? 3 : 2) : 1);
        }
        double rows = connected ? current * leaves[i].selectivity : current * leaves[i].rows;
        bool better = best == n || connected > best_connected ||
                      (connected == best_connected && (rows < best_rows ||
                                                       (rows == best_rows && leaves[i].rows < leaves[best].rows)));
        if (better) {
          best = i;
          best_rows = rows;
          best_connected = connected;
        }
      }
      order.push_back(best);
      used[best] = true;
      current = std::max(1.0, best_rows);
      joined_rows.push_back(current);
    }

    // Build the left-deep tree; each conjunct goes to the first join that has all its inputs.
    std::vector<bool> placed(conjuncts.size(), false);
    std::map<size_t, size_t> position;  // region column -> column of the tree built so far
    LogicalPtr tree = leaves[order[0]].plan;
    auto add_columns = [&](size_t leaf, size_t start) {
      for (size_t c = 0; c < leaves[leaf].plan->output.size(); ++c) position[leaves[leaf].offset + c] = start + c;
    };
    add_columns(order[0], 0);
    std::set<size_t> have{order[0]};
    for (size_t k = 1; k < n; ++k) {
      size_t leaf = order[k];
      auto join = std::make_shared<LogicalJoin>();
      size_t width = tree->output.size();
      add_columns(leaf, width);
      have.insert(leaf);
      std::vector<ExprPtr> here;
      for (size_t c = 0; c < conjuncts.size(); ++c) {
        if (placed[c]) continue;
        bool ready = true;
        for (size_t l : conjunct_leaves[c]) ready &= have.count(l) > 0;
        if (!ready) continue;
        here.push_back(remap_columns(conjuncts[c], [&](size_t i) { return position.at(i); }));
        placed[c] = true;
      }
      const LogicalPtr& input = leaves[leaf].plan;
      // A much larger input probes a hash table over the rows joined so far (an equality is needed to hash on).
      bool has_key = false;
      for (const auto& e : here) has_key |= e->kind == ExprKind::kFunction && e->function == ScalarFunction::kEqual;
      if (has_key && probe_swap_enabled() && leaves[leaf].rows > kProbeSwapRatio * joined_rows[k - 1]) {
        const size_t input_width = input->output.size();
        for (auto& [column, p] : position) p = p < width ? p + input_width : p - width;
        for (auto& e : here) e = remap_columns(e, [&](size_t i) { return i < width ? i + input_width : i - width; });
        join->output = input->output;
        join->output.insert(join->output.end(), tree->output.begin(), tree->output.end());
        join->children = {input, tree};
      } else {
        join->output = tree->output;
        join->output.insert(join->output.end(), input->output.begin(), input->output.end());
        join->children = {tree, input};
      }
      join->condition = make_conjunction(here);
      join->join_type = join->condition ? JoinType::kInner : JoinType::kCross;
      tree = join;
    }
    // Restore the region's original column order.
    auto project = std::make_shared<LogicalProject>();
    for (size_t c = 0; c < original->output.size(); ++c) {
      size_t p = position.at(c);
      project->exprs.push_back(make_column_ref(p, tree->output[p].type, tree->output[p].name));
    }
    project->output = original->output;
    project->children = {tree};
    return project;
  }

  std::map<const LogicalNode*, int> parents_;
  std::map<const LogicalNode*, LogicalPtr> shared_;
  std::map<const LogicalNode*, double> estimates_;
};

}  // namespace

LogicalPtr order_joins(LogicalPtr plan) {
  JoinOrder rule(parent_counts(*plan));
  return rule.rewrite(std::move(plan));
}

}  // namespace kestrel::plan
