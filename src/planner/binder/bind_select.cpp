#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "planner/binder/binder.hpp"
#include "planner/expression_utils.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {

namespace {

/// Whether `e` reads a column of an enclosing query.
bool reads_outer_column(const Expr& e) {
  if (e.kind == ExprKind::kColumnRef && e.outer_depth > 0) return true;
  for (const auto& c : e.children) {
    if (reads_outer_column(*c)) return true;
  }
  return false;
}

/// The output name of a select item without an alias (PostgreSQL's rules).
std::string default_name(const ast::Expr& e) {
  if (e.is<ast::ColumnRef>()) return e.as<ast::ColumnRef>().column();
  if (e.is<ast::FunctionCall>()) {
    // ARRAY[...] is `array`, x[i] is x's name and (r).f is f, as in PostgreSQL.
    const auto& call = e.as<ast::FunctionCall>();
    if (call.name == ast::kArrayConstructorName) return "array";
    if (call.name == ast::kSubscriptName && !call.args.empty()) return default_name(*call.args[0]);
    if (call.name == ast::kFieldName && call.args.size() == 2) return call.args[1]->as<ast::Literal>().text;
    return call.name;
  }
  if (e.is<ast::Cast>()) return default_name(*e.as<ast::Cast>().operand);
  if (e.is<ast::Extract>()) return "extract";
  if (e.is<ast::Case>()) return "case";
  return "?column?";
}

/// A select-list position from an ORDER BY / GROUP BY integer literal, or nullopt.
std::optional<size_t> ordinal(const ast::Expr& e, size_t count, const char* clause) {
  if (!e.is<ast::Literal>() || e.as<ast::Literal>().literal_kind != ast::LiteralKind::kInteger) return std::nullopt;
  long long n = std::stoll(e.as<ast::Literal>().text);
  if (n < 1 || static_cast<size_t>(n) > count) {
    throw BinderError(std::string(clause) + " position " + std::to_string(n) + " is not in the select list",
                      e.position, "42P10");
  }
  return static_cast<size_t>(n - 1);
}

/// Index of the select item whose alias is the bare name `e`, or nullopt.
std::optional<size_t> alias_match(const ast::Expr& e, const std::vector<std::string>& names,
                                  const std::vector<bool>& aliased) {
  if (!e.is<ast::ColumnRef>() || !e.as<ast::ColumnRef>().is_unqualified()) return std::nullopt;
  for (size_t i = 0; i < names.size(); ++i) {
    if (aliased[i] && names[i] == e.as<ast::ColumnRef>().column()) return i;
  }
  return std::nullopt;
}

/// The scope column at input index `index`.
const ScopeColumn& column_at(const Scope& scope, size_t index) {
  for (const auto& c : scope.columns) {
    if (c.index == index) return c;
  }
  throw InternalError("no scope column at index " + std::to_string(index));
}

}  // namespace

namespace {

/// GROUP BY with grouping sets: a UNION ALL of one aggregation per set over the shared input (which the plan
/// builder materializes once). Each branch outputs every key (NULL where its set lacks it), then the synthetic key
/// agg.grouping_id holding the set's mask (bit k set when key k is absent), then the aggregates: the layout of one
/// aggregation over all the keys, so the rest of the query binds as for a plain GROUP BY.
LogicalPtr expand_grouping_sets(const LogicalPtr& input, const AggregateBinding& agg,
                                const std::vector<std::vector<size_t>>& sets) {
  const size_t grouping_id = *agg.grouping_id;
  auto name_of = [](const ExprPtr& g) { return g->kind == ExprKind::kColumnRef ? g->name : std::string(); };
  LogicalPtr result;
  for (const auto& set : sets) {
    auto node = std::make_shared<LogicalAggregate>();
    for (size_t k : set) {
      node->groups.push_back(agg.groups[k]);
      node->output.push_back({name_of(agg.groups[k]), agg.groups[k]->type});
    }
    node->aggregates = agg.calls;
    for (const auto& c : agg.calls) node->output.push_back({c.to_string(), c.result_type});
    node->children = {input};
    std::vector<ExprPtr> exprs;
    std::vector<std::string> names;
    int32_t mask = 0;
    for (size_t k = 0; k < agg.groups.size(); ++k) {
      const ExprPtr& g = agg.groups[k];
      names.push_back(k == grouping_id ? "#grouping_set" : name_of(g));
      auto at = std::find(set.begin(), set.end(), k);
      if (k == grouping_id) {
        exprs.push_back(nullptr);
      } else if (at != set.end()) {
        exprs.push_back(make_column_ref(static_cast<size_t>(at - set.begin()), g->type, names.back()));
      } else {
        exprs.push_back(make_constant(Value::null(g->type)));
        mask |= int32_t{1} << k;
      }
    }
    exprs[grouping_id] = make_constant(Value::integer(mask));
    for (size_t j = 0; j < agg.calls.size(); ++j) {
      exprs.push_back(make_column_ref(set.size() + j, agg.calls[j].result_type, agg.calls[j].to_string()));
      names.push_back(agg.calls[j].to_string());
    }
    LogicalPtr branch = make_project(node, exprs, names);
    if (!result) {
      result = branch;
      continue;
    }
    auto both = std::make_shared<LogicalSetOp>();
    both->op = SetOpKind::kUnion;
    both->all = true;
    both->output = result->output;
    both->children = {result, branch};
    result = both;
  }
  return result;
}

/// The window over `plan` computing `windows`' calls; the placeholder columns in `exprs` and `hidden` then read
/// the window's result columns.
LogicalPtr add_window(const LogicalPtr& plan, const WindowBinding& windows, std::vector<ExprPtr>& exprs,
                      std::vector<ExprPtr>& hidden) {
  auto node = std::make_shared<LogicalWindow>();
  node->calls = windows.calls;
  node->output = plan->output;
  for (const WindowCall& call : windows.calls) node->output.push_back({call.to_string(), call.result_type});
  node->children = {plan};
  const size_t width = plan->output.size();
  std::function<ExprPtr(const ExprPtr&)> remap = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kColumnRef && e->outer_depth == 0 && e->column_index >= WindowBinding::kPlaceholder) {
      auto copy = std::make_shared<Expr>(*e);
      copy->column_index = width + (e->column_index - WindowBinding::kPlaceholder);
      return copy;
    }
    if (e->children.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (auto& child : copy->children) child = remap(child);
    return copy;
  };
  for (auto& e : exprs) e = remap(e);
  for (auto& e : hidden) e = remap(e);
  return node;
}

}  // namespace

LogicalPtr Binder::bind_select(const ast::Select& select, const ast::Query* query, std::vector<std::string>* names,
                               Correlation* correlation) {
  ExprBinder eb(*this);
  Scope scope;
  LogicalPtr plan;
  if (select.from.empty()) {
    auto values = std::make_shared<LogicalValues>();
    values->rows.emplace_back();
    plan = values;
  } else {
    Correlation* saved = from_correlation_;
    from_correlation_ = correlation;
    try {
      plan = bind_from(select.from, scope);
    } catch (...) {
      from_correlation_ = saved;
      throw;
    }
    from_correlation_ = saved;
  }
  // Domain form: the outer values the sub-query reads come from a cross-joined domain of distinct values, whose
  // column d is local column domain_start + d.
  size_t domain_start = 0;
  if (correlation != nullptr && correlation->domain) {
    const size_t from_width = plan->output.size();
    domain_start = from_width;
    plan = make_cross_join(plan, correlation->domain);
    for (auto [outer_index, d] : correlation->domain_index) {
      correlation->outer_to_local[outer_index] = from_width + d;
      const Field& f = correlation->domain->output[d];
      scope.columns.push_back({"#domain", f.name, f.type, from_width + d, true});
    }
    // Derived tables of the FROM read the outer values from their own copy of the domain: the same values.
    std::vector<ExprPtr> same;
    for (const ScopeColumn& c : scope.columns) {
      if (c.name.rfind("#derived_domain", 0) != 0) continue;
      const size_t d = std::stoul(c.name.substr(15));
      const size_t mine = from_width + d;
      null_safe_equalities(make_column_ref(c.index, c.type, ""), make_column_ref(mine, plan->output[mine].type, ""),
                           same);
    }
    if (!same.empty()) {
      auto filter = std::make_shared<LogicalFilter>();
      filter->predicate = make_conjunction(same);
      filter->output = plan->output;
      filter->children = {plan};
      plan = filter;
    }
  }
  if (select.where) {
    if (ExprBinder::contains_aggregate(*select.where)) {
      throw BinderError("aggregate functions are not allowed in WHERE", select.where->position, "42803");
    }
    plan = bind_where(*select.where, plan, scope, correlation);
  }
  // Columns of this query that correlated conjuncts read: exposed as extra outputs (and group keys when the
  // sub-query aggregates) so the join that replaces the sub-query can evaluate them.
  std::vector<size_t> correlated_columns;
  bool correlated = correlation != nullptr && (!correlation->conjuncts.empty() || correlation->domain);
  if (correlated) {
    std::set<size_t> cols;
    for (const auto& c : correlation->conjuncts) {
      std::function<void(const Expr&)> visit = [&](const Expr& e) {
        if (e.kind == ExprKind::kColumnRef && e.outer_depth == 0) cols.insert(e.column_index);
        for (const auto& child : e.children) visit(*child);
      };
      visit(*c);
    }
    for (const auto& [outer_index, local] : correlation->outer_to_local) cols.insert(local);
    correlated_columns.assign(cols.begin(), cols.end());
    if (select.distinct || (query != nullptr && (query->limit || query->offset || !query->order_by.empty()))) {
      throw NotImplemented("correlated sub-queries with DISTINCT, ORDER BY or LIMIT are not supported yet",
                           select.position);
    }
  }

  // Expand stars and collect the select items.
  std::vector<const ast::Expr*> item_exprs;
  std::vector<ExprPtr> star_exprs;  // pre-bound star columns (null for ordinary items)
  std::vector<std::string> item_names;
  std::vector<bool> aliased;
  for (const auto& item : select.items) {
    if (item.expr->is<ast::Star>()) {
      const auto& star = item.expr->as<ast::Star>();
      std::string table = star.qualifier.empty() ? "" : star.qualifier.back();
      bool any = false;
      for (const auto& c : scope.columns) {
        if (!c.unreadable.empty() && (table.empty() || c.table == table)) {
          throw NotImplemented(c.unreadable + " (select the readable columns by name)", star.position);
        }
        if (c.hidden || (!table.empty() && c.table != table)) continue;
        item_exprs.push_back(nullptr);
        star_exprs.push_back(make_column_ref(c.index, c.type, c.name));
        item_names.push_back(c.name);
        aliased.push_back(false);
        any = true;
      }
      if (!any && !table.empty()) throw BinderError("table '" + table + "' is not in FROM", star.position, "42P01");
      if (!any && select.from.empty()) throw BinderError("SELECT * with no tables specified", star.position, "42601");
      continue;
    }
    item_exprs.push_back(item.expr.get());
    star_exprs.push_back(nullptr);
    item_names.push_back(item.alias ? *item.alias : default_name(*item.expr));
    aliased.push_back(item.alias.has_value());
  }

  const bool grouping_sets = !select.grouping_sets.empty();
  bool aggregated = !select.group_by.empty() || grouping_sets || (select.having != nullptr);
  for (const auto* e : item_exprs) aggregated |= e != nullptr && ExprBinder::contains_aggregate(*e);
  if (query != nullptr) {
    for (const auto& o : query->order_by) aggregated |= ExprBinder::contains_aggregate(*o.expr);
  }

  ExprBindContext input_ctx{&scope, "SELECT", nullptr, nullptr, &plan};
  // A correlated sub-query's select list may read outer columns: the first binding records them as discovered (so
  // the sub-query is bound again in domain form), and in domain form they read the domain's local columns.
  if (correlation != nullptr && correlation->outer != nullptr) {
    input_ctx.outer = correlation->outer;
    if (correlation->domain) input_ctx.outer_to_local = &correlation->outer_to_local;
  }
  AggregateBinding agg;
  agg.input_scope = &scope;
  agg.outer = input_ctx.outer;
  agg.outer_to_local = input_ctx.outer_to_local;
  ExprBindContext ctx = input_ctx;
  // With grouping sets, each GROUP BY expression's group (equal expressions share one).
  std::vector<size_t> group_of;
  auto add_group = [&](ExprPtr bound) {
    std::string key = bound->to_string();
    if (grouping_sets) {
      auto it = std::find(agg.group_keys.begin(), agg.group_keys.end(), key);
      if (it != agg.group_keys.end()) {
        group_of.push_back(static_cast<size_t>(it - agg.group_keys.begin()));
        return;
      }
    }
    group_of.push_back(agg.groups.size());
    agg.groups.push_back(std::move(bound));
    agg.group_keys.push_back(std::move(key));
  };
  if (aggregated) {
    for (const auto& g : select.group_by) {
      const ast::Expr* source = g.get();
      if (auto pos = ordinal(*g, item_exprs.size(), "GROUP BY")) {
        if (item_exprs[*pos] == nullptr) {
          add_group(star_exprs[*pos]);
          continue;
        }
        source = item_exprs[*pos];
      } else if (g->is<ast::ColumnRef>()) {
        // A bare name that is not an input column may name a select alias.
        bool is_input = false;
        for (const auto& c : scope.columns) is_input |= c.name == g->as<ast::ColumnRef>().column();
        if (!is_input) {
          if (auto a = alias_match(*g, item_names, aliased)) source = item_exprs[*a];
        }
      }
      if (source == nullptr || ExprBinder::contains_aggregate(*source)) {
        throw BinderError("aggregate functions are not allowed in GROUP BY", g->position, "42803");
      }
      add_group(eb.bind(*source, agg.input("GROUP BY")));
    }
    if (grouping_sets) {
      if (correlated) throw NotImplemented("grouping sets in a correlated sub-query", select.position);
      if (agg.groups.size() > 31) throw NotImplemented("grouping sets over more than 31 keys", select.position);
      // The synthetic group of the grouping masks (its expression is never evaluated: see expand_grouping_sets).
      agg.grouping_id = agg.groups.size();
      agg.groups.push_back(make_constant(Value::integer(0)));
      agg.group_keys.push_back("#grouping_set");
    }
    for (size_t c : correlated_columns) {
      const ScopeColumn& col = column_at(scope, c);
      agg.groups.push_back(make_column_ref(col.index, col.type, col.name));
      agg.group_keys.push_back(agg.groups.back()->to_string());
    }
    ctx = ExprBindContext{nullptr, "SELECT", &agg};
  }
  // Window functions may appear in the select list and ORDER BY.
  WindowBinding windows;
  ctx.window = &windows;
  input_ctx.window = &windows;

  if (correlation != nullptr) correlation->aggregated = aggregated;
  std::vector<ExprPtr> exprs;
  for (size_t i = 0; i < item_exprs.size(); ++i) {
    if (item_exprs[i] == nullptr) {
      if (aggregated) {
        std::string key = star_exprs[i]->to_string();
        auto it = std::find(agg.group_keys.begin(), agg.group_keys.end(), key);
        if (it == agg.group_keys.end()) {
          throw BinderError("column '" + item_names[i] +
                                "' must appear in the GROUP BY clause or be used in an aggregate function",
                            select.position, "42803");
        }
        exprs.push_back(agg.group_ref(static_cast<size_t>(it - agg.group_keys.begin())));
      } else {
        exprs.push_back(star_exprs[i]);
      }
      continue;
    }
    exprs.push_back(eb.bind(*item_exprs[i], ctx));
    if (correlation != nullptr && !correlation->domain && reads_outer_column(*exprs.back())) {
      correlation->discovered.push_back(exprs.back());
      correlation->null_safe_keys = true;
    }
  }
  ExprPtr having;
  if (select.having) having = eb.bind_predicate(*select.having, ExprBindContext{nullptr, "HAVING", &agg});
  if (correlation != nullptr && !correlation->domain && aggregated) {
    // Outer columns read below the aggregation (its groups, aggregate arguments) or in HAVING: like those of the
    // select list, they make the sub-query bind again in domain form, where they read domain columns that the
    // aggregation groups by.
    std::vector<ExprPtr> reads = agg.groups;
    for (const AggregateCall& call : agg.calls) {
      reads.push_back(call.argument);
      reads.push_back(call.filter);
      for (const SortKey& key : call.order) reads.push_back(key.expr);
    }
    reads.push_back(having);
    for (const ExprPtr& e : reads) {
      if (e == nullptr || !reads_outer_column(*e)) continue;
      correlation->discovered.push_back(e);
      correlation->null_safe_keys = true;
    }
  }

  // ORDER BY keys: select outputs where possible, else hidden extra columns.
  std::vector<SortKey> keys;
  std::vector<ExprPtr> hidden;
  if (query != nullptr) {
    for (const auto& o : query->order_by) {
      SortKey key;
      key.descending = o.direction == ast::SortDirection::kDescending;
      key.nulls_first = o.nulls == ast::NullOrder::kDefault ? key.descending : o.nulls == ast::NullOrder::kNullsFirst;
      std::optional<size_t> out;
      if (auto pos = ordinal(*o.expr, exprs.size(), "ORDER BY")) {
        out = *pos;
      } else if (o.expr->is<ast::ColumnRef>() && o.expr->as<ast::ColumnRef>().is_unqualified()) {
        for (size_t i = 0; i < item_names.size(); ++i) {
          if (item_names[i] == o.expr->as<ast::ColumnRef>().column()) {
            out = i;
            break;
          }
        }
      }
      if (!out) {
        ExprPtr bound = eb.bind(*o.expr, aggregated ? ctx : input_ctx);
        std::string k = bound->to_string();
        for (size_t i = 0; i < exprs.size() && !out; ++i) {
          if (exprs[i]->to_string() == k) out = i;
        }
        if (!out) {
          if (select.distinct) {
            throw BinderError("for SELECT DISTINCT, ORDER BY expressions must appear in the select list",
                              o.expr->position, "42P10");
          }
          hidden.push_back(bound);
          out = exprs.size() + hidden.size() - 1;
        }
      }
      key.expr = make_column_ref(*out, *out < exprs.size() ? exprs[*out]->type : hidden[*out - exprs.size()]->type,
                                 *out < item_names.size() ? item_names[*out] : "");
      require_orderable(key.expr->type, "ORDER BY", o.expr->position);
      keys.push_back(key);
    }
  }

  if (aggregated) {
    if (grouping_sets) {
      std::vector<std::vector<size_t>> sets;
      for (const auto& written : select.grouping_sets) {
        std::vector<size_t> set;
        for (size_t index : written) {
          if (std::find(set.begin(), set.end(), group_of[index]) == set.end()) set.push_back(group_of[index]);
        }
        sets.push_back(std::move(set));
      }
      plan = expand_grouping_sets(plan, agg, sets);
    } else {
      auto node = std::make_shared<LogicalAggregate>();
      node->groups = agg.groups;
      node->aggregates = agg.calls;
      for (const auto& g : agg.groups) node->output.push_back({g->kind == ExprKind::kColumnRef ? g->name : "", g->type});
      for (const auto& c : agg.calls) node->output.push_back({c.to_string(), c.result_type});
      node->children = {plan};
      plan = node;
      // Where the join back cannot put in the empty groups' values (EXISTS, IN; HAVING, which may remove a group;
      // a set operation's branch or a derived table), the aggregation gives their rows itself.
      if (correlated && correlation->domain && select.group_by.empty() &&
          (correlation->fill_empty_groups || having || correlation->nested)) {
        plan = fill_empty_groups(plan, correlation->domain, domain_start);
        correlation->filled_empty_groups = true;
      }
    }
    if (having) {
      auto filter = std::make_shared<LogicalFilter>();
      filter->predicate = having;
      filter->output = plan->output;
      filter->children = {plan};
      plan = filter;
    }
  }
  if (correlated) {
    // Extra outputs carrying the correlated columns; the conjuncts are rewritten to read them.
    std::map<size_t, size_t> output_of;
    for (size_t k = 0; k < correlated_columns.size(); ++k) {
      size_t c = correlated_columns[k];
      const ScopeColumn& col = column_at(scope, c);
      ExprPtr e;
      if (aggregated) {
        for (size_t g = agg.groups.size(); g-- > 0 && !e;) {
          if (agg.groups[g]->kind == ExprKind::kColumnRef && agg.groups[g]->column_index == c) e = agg.group_ref(g);
        }
      } else {
        e = make_column_ref(c, col.type, col.name);
      }
      output_of[c] = exprs.size() + hidden.size();
      hidden.push_back(e);
    }
    for (auto& conjunct : correlation->conjuncts) {
      std::function<ExprPtr(const ExprPtr&)> remap = [&](const ExprPtr& e) -> ExprPtr {
        if (e->kind == ExprKind::kColumnRef) {
          if (e->outer_depth > 0) return e;
          auto copy = std::make_shared<Expr>(*e);
          copy->column_index = output_of.at(e->column_index);
          return copy;
        }
        if (e->children.empty()) return e;
        auto copy = std::make_shared<Expr>(*e);
        for (auto& child : copy->children) child = remap(child);
        return copy;
      };
      conjunct = remap(conjunct);
    }
  }
  if (!windows.calls.empty()) {
    if (correlated) throw NotImplemented("window functions in a correlated sub-query", select.position);
    plan = add_window(plan, windows, exprs, hidden);
  }
  std::vector<ExprPtr> all = exprs;
  std::vector<std::string> all_names = item_names;
  for (size_t i = 0; i < hidden.size(); ++i) {
    all.push_back(hidden[i]);
    all_names.push_back((correlated ? "#corr" : "#hidden") + std::to_string(i));
  }
  plan = make_project(plan, all, all_names);
  if (select.distinct) {
    if (!select.distinct_on.empty()) throw NotImplemented("DISTINCT ON is not supported yet", select.position);
    auto node = std::make_shared<LogicalAggregate>();
    for (size_t i = 0; i < plan->output.size(); ++i) {
      node->groups.push_back(make_column_ref(i, plan->output[i].type, plan->output[i].name));
    }
    node->output = plan->output;
    node->children = {plan};
    plan = node;
  }
  if (!keys.empty()) {
    auto sort = std::make_shared<LogicalSort>();
    sort->keys = keys;
    sort->output = plan->output;
    sort->children = {plan};
    plan = sort;
  }
  if (query != nullptr && (query->limit || query->offset)) plan = apply_order_limit(plan, *query, {});
  if (!hidden.empty() && !correlated) {
    std::vector<ExprPtr> visible;
    for (size_t i = 0; i < exprs.size(); ++i) visible.push_back(make_column_ref(i, exprs[i]->type, item_names[i]));
    plan = make_project(plan, visible, item_names);
  }
  *names = item_names;
  return plan;
}

LogicalPtr Binder::apply_order_limit(LogicalPtr plan, const ast::Query& query, const std::vector<std::string>& names) {
  if (!names.empty() && !query.order_by.empty()) {
    auto sort = std::make_shared<LogicalSort>();
    for (const auto& o : query.order_by) {
      SortKey key;
      key.descending = o.direction == ast::SortDirection::kDescending;
      key.nulls_first = o.nulls == ast::NullOrder::kDefault ? key.descending : o.nulls == ast::NullOrder::kNullsFirst;
      std::optional<size_t> out = ordinal(*o.expr, names.size(), "ORDER BY");
      if (!out && o.expr->is<ast::ColumnRef>()) {
        for (size_t i = 0; i < names.size(); ++i) {
          if (names[i] == o.expr->as<ast::ColumnRef>().column()) out = i;
        }
      }
      if (!out) {
        throw BinderError("ORDER BY of a set operation or VALUES must name an output column", o.expr->position,
                          "42P10");
      }
      key.expr = make_column_ref(*out, plan->output[*out].type, names[*out]);
      require_orderable(key.expr->type, "ORDER BY", o.expr->position);
      sort->keys.push_back(key);
    }
    sort->output = plan->output;
    sort->children = {plan};
    plan = sort;
  }
  if (query.limit || query.offset) {
    auto limit = std::make_shared<LogicalLimit>();
    auto constant_count = [&](const ast::Expr& e, const char* what) -> uint64_t {
      ExprPtr b = bind_constant(e);
      Value v = evaluate_constant_expr(*b);
      if (v.is_null()) return UINT64_MAX;
      if (!v.type().is_integral() || v.as_int64() < 0) {
        throw BinderError(std::string(what) + " must be a non-negative integer", e.position, "22023");
      }
      return static_cast<uint64_t>(v.as_int64());
    };
    if (query.limit) {
      uint64_t n = constant_count(*query.limit, "LIMIT");
      if (n != UINT64_MAX) limit->limit = n;
    }
    if (query.offset) limit->offset = constant_count(*query.offset, "OFFSET");
    limit->output = plan->output;
    limit->children = {plan};
    plan = limit;
  }
  return plan;
}

}  // namespace kestrel::plan
