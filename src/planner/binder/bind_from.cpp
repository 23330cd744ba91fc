#include "catalog/loaded_table.hpp"
#include "parser/parser.hpp"
#include "common/check.hpp"
#include "planner/binder/binder.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/expression_utils.hpp"

namespace kestrel::plan {

namespace {

/// Applies `AS alias (c1, c2)` to the columns of a FROM item.
void apply_alias(const std::optional<ast::TableAlias>& alias, const std::string& default_table, LogicalNode& plan,
                 Scope& item_scope) {
  std::string table = alias ? alias->name : default_table;
  if (alias && alias->columns.size() > plan.output.size()) {
    throw BinderError("table '" + table + "' has " + std::to_string(plan.output.size()) + " columns but " +
                          std::to_string(alias->columns.size()) + " were named",
                      alias->position, "42P10");
  }
  item_scope = Scope{};
  for (size_t i = 0; i < plan.output.size(); ++i) {
    std::string name = alias && i < alias->columns.size() ? alias->columns[i] : plan.output[i].name;
    item_scope.columns.push_back({table, name, plan.output[i].type, i, false});
  }
}

bool is_unnest(const ast::TableRef& ref) {
  return ref.is<ast::TableFunctionRef>() && ref.as<ast::TableFunctionRef>().name == "unnest";
}

/// Appends `right` to `left` with its indices shifted by `offset`.
void append_scope(Scope& left, const Scope& right, size_t offset) {
  for (auto c : right.columns) {
    c.index += offset;
    left.columns.push_back(c);
  }
}

/// Lists the columns of `table` that cannot be read, so that naming them gives the reason.
void add_unreadable_columns(const catalog::Table& table, Scope& scope) {
  std::string alias = scope.columns.empty() ? table.name() : scope.columns.front().table;
  for (const auto& [name, reason] : table.unreadable_columns()) {
    ScopeColumn c{alias, name, TypeId::kNull, 0, true};
    c.unreadable = "column '" + name + "' of table '" + table.name() + "': " + reason;
    scope.columns.push_back(c);
  }
}

/// A scan of every column of `table`, labelled `name` (or the alias) in `scope`.
LogicalPtr scan_table(const catalog::TablePtr& table, const std::optional<ast::TableAlias>& alias,
                      const std::string& name, Scope& scope) {
  auto get = std::make_shared<LogicalGet>();
  get->table = table;
  for (size_t i = 0; i < table->schema()->size(); ++i) {
    get->spec.columns.push_back(i);
    get->output.push_back(table->schema()->field(i));
  }
  apply_alias(alias, name, *get, scope);
  add_unreadable_columns(*table, scope);
  return get;
}

}  // namespace

LogicalPtr make_cross_join(LogicalPtr left, LogicalPtr right) {
  auto join = std::make_shared<LogicalJoin>();
  join->join_type = JoinType::kCross;
  join->output = left->output;
  join->output.insert(join->output.end(), right->output.begin(), right->output.end());
  join->children = {std::move(left), std::move(right)};
  return join;
}

namespace {
LogicalPtr make_cross(LogicalPtr left, LogicalPtr right) { return make_cross_join(std::move(left), std::move(right)); }
}  // namespace

LogicalPtr Binder::bind_from(const std::vector<ast::TableRefPtr>& from, Scope& scope) {
  LogicalPtr plan;
  for (const auto& ref : from) {
    if (plan && is_unnest(*ref)) {
      // FROM t, UNNEST(t.a): the UNNEST reads the items before it.
      Scope input = scope;
      plan = bind_unnest(ref->as<ast::TableFunctionRef>(), plan, input, scope);
      continue;
    }
    Scope item;
    LogicalPtr next = bind_table_ref(*ref, item);
    if (!plan) {
      plan = next;
      scope = item;
      continue;
    }
    size_t offset = plan->output.size();
    plan = make_cross(plan, next);
    append_scope(scope, item, offset);
  }
  return plan;
}

LogicalPtr Binder::bind_table_ref(const ast::TableRef& ref, Scope& scope) {
  switch (ref.kind) {
    case ast::TableRefKind::kBaseTable: return bind_base_table(ref.as<ast::BaseTableRef>(), scope);
    case ast::TableRefKind::kSubquery: {
      const auto& sub = ref.as<ast::SubqueryRef>();
      if (sub.lateral) throw NotImplemented("LATERAL sub-queries are not supported yet", sub.position);
      Correlation* enclosing = from_correlation_;
      if (enclosing == nullptr) {
        LogicalPtr plan = bind_query(*sub.query);
        apply_alias(sub.alias, "", *plan, scope);
        return plan;
      }
      // A derived table of a sub-query may read the outer query. First binding: report the outer columns it reads
      // (the enclosing sub-query is then bound again in domain form). Domain form: it reads them from its own copy
      // of the domain and outputs them last, as hidden columns "#derived_domain<d>" that the enclosing SELECT
      // equates with its domain.
      if (enclosing->domain) {
        // Domain form: a derived table that reads no outer column is bound as it is.
        Correlation probe{enclosing->outer, {}};
        from_correlation_ = nullptr;
        bind_query(*sub.query, &probe);
        from_correlation_ = enclosing;
        if (probe.conjuncts.empty() && probe.discovered.empty()) {
          LogicalPtr plan = bind_query(*sub.query);
          apply_alias(sub.alias, "", *plan, scope);
          return plan;
        }
      }
      Correlation own{enclosing->outer, {}};
      own.domain = enclosing->domain;
      own.domain_index = enclosing->domain_index;
      own.nested = true;
      from_correlation_ = nullptr;
      LogicalPtr plan = bind_query(*sub.query, &own);
      from_correlation_ = enclosing;
      if (!enclosing->domain) {
        if (!own.conjuncts.empty() || !own.discovered.empty()) {
          for (const auto* list : {&own.conjuncts, &own.discovered}) {
            enclosing->discovered.insert(enclosing->discovered.end(), list->begin(), list->end());
          }
          enclosing->null_safe_keys |= own.null_safe_keys;
        }
        apply_alias(sub.alias, "", *plan, scope);
        return plan;
      }
      apply_alias(sub.alias, "", *plan, scope);
      const size_t domain_columns = own.domain_index.size();
      KESTREL_CHECK_GE(scope.columns.size(), domain_columns);
      for (size_t d = 0; d < domain_columns; ++d) {
        ScopeColumn& c = scope.columns[scope.columns.size() - domain_columns + d];
        c.name = "#derived_domain" + std::to_string(d);
        c.hidden = true;
      }
      return plan;
    }
    case ast::TableRefKind::kTableFunction:
      if (is_unnest(ref)) return bind_unnest(ref.as<ast::TableFunctionRef>(), nullptr, Scope{}, scope);
      return bind_table_function(ref.as<ast::TableFunctionRef>(), scope);
    case ast::TableRefKind::kJoin: return bind_join(ref.as<ast::JoinRef>(), scope);
  }
  throw InternalError("unhandled FROM item");
}

LogicalPtr Binder::bind_table_function(const ast::TableFunctionRef& ref, Scope& scope) {
  // Arguments are constants given as text: the path first, then named options.
  auto text_of = [&](const ast::Expr& e) {
    Value v = evaluate_constant_expr(*bind_constant(e));
    if (v.is_null()) throw BinderError("table function arguments cannot be NULL", e.position, "22004");
    return v.to_string();
  };
  if (ref.args.size() != 1) {
    throw BinderError(ref.name + " takes one path argument (a file, folder or glob) and named options", ref.position,
                      "42883");
  }
  std::string path = text_of(*ref.args[0]);
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& named : ref.named_args) options.emplace_back(named.name, text_of(*named.value));
  catalog_.file_access().check_read(path, ref.args[0]->position);
  catalog::TablePtr table;
  try {
    table = catalog::open_table_function(ref.name, path, options);
  } catch (const BinderError& e) {
    throw BinderError(e.message(), ref.position, e.code());
  }
  return scan_table(table, ref.alias, ref.name, scope);
}

LogicalPtr Binder::bind_base_table(const ast::BaseTableRef& ref, Scope& scope) {
  const std::string& name = ref.name.name();
  if (ref.name.parts.size() == 1) {
    for (auto it = cte_scopes_.rbegin(); it != cte_scopes_.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end()) {
        apply_alias(ref.alias, name, *found->second.plan, scope);
        return found->second.plan;
      }
    }
  }
  if (ref.name.parts.size() >= 2) {
    // information_schema.X and pg_catalog.X; other qualifiers name the one user schema.
    if (catalog::TablePtr system = system_table(ref.name)) return scan_table(system, ref.alias, name, scope);
  }
  if (auto view = catalog_.find_view(name)) {
    auto statement = parse_statement(view->sql);
    if (!statement->is<ast::QueryStatement>()) throw InternalError("view '" + name + "' is not a query");
    LogicalPtr plan = bind_query(*statement->as<ast::QueryStatement>().query);
    for (size_t i = 0; i < view->column_names.size() && i < plan->output.size(); ++i) {
      plan->output[i].name = view->column_names[i];
    }
    apply_alias(ref.alias, name, *plan, scope);
    return plan;
  }
  catalog::TablePtr table = catalog_.find_table(name);
  // An unqualified pg_class, pg_attribute, ... reads pg_catalog's when no user table has the name.
  if (!table && ref.name.parts.size() == 1) table = system_table(ref.name);
  if (!table) throw BinderError("table '" + ref.name.to_string() + "' does not exist", ref.position, "42P01");
  return scan_table(table, ref.alias, name, scope);
}

LogicalPtr Binder::bind_join(const ast::JoinRef& join, Scope& scope) {
  Scope left_scope, right_scope;
  LogicalPtr left = bind_table_ref(*join.left, left_scope);
  if (is_unnest(*join.right)) {
    // t CROSS JOIN UNNEST(t.a) (or JOIN UNNEST(t.a) ON true): one row per element of each row's arrays.
    const bool on_true = join.join_type == ast::JoinType::kInner && join.condition && join.using_columns.empty() &&
                         join.condition->is<ast::Literal>() &&
                         join.condition->as<ast::Literal>().literal_kind == ast::LiteralKind::kBoolean &&
                         join.condition->as<ast::Literal>().boolean_value();
    if (join.join_type != ast::JoinType::kCross && !on_true) {
      throw NotImplemented("only CROSS JOIN UNNEST (or JOIN UNNEST ... ON true) is supported", join.join_position);
    }
    return bind_unnest(join.right->as<ast::TableFunctionRef>(), left, left_scope, scope);
  }
  LogicalPtr right = bind_table_ref(*join.right, right_scope);
  size_t offset = left->output.size();
  LogicalPtr plan = make_cross(left, right);
  auto& node = plan->as<LogicalJoin>();
  scope = left_scope;
  append_scope(scope, right_scope, offset);

  switch (join.join_type) {
    case ast::JoinType::kInner: node.join_type = JoinType::kInner; break;
    case ast::JoinType::kLeft: node.join_type = JoinType::kLeft; break;
    case ast::JoinType::kRight: node.join_type = JoinType::kRight; break;
    case ast::JoinType::kFull: node.join_type = JoinType::kFull; break;
    case ast::JoinType::kCross: node.join_type = JoinType::kCross; break;
  }
  std::vector<std::string> using_columns = join.using_columns;
  if (join.natural) {
    for (const auto& l : left_scope.columns) {
      if (l.hidden) continue;
      for (const auto& r : right_scope.columns) {
        if (!r.hidden && r.name == l.name) using_columns.push_back(l.name);
      }
    }
    if (node.join_type == JoinType::kCross) node.join_type = JoinType::kInner;
  }
  std::vector<ExprPtr> conjuncts;
  ExprBinder eb(*this);
  for (const auto& column : using_columns) {
    const ScopeColumn* l = nullptr;
    const ScopeColumn* r = nullptr;
    for (const auto& c : left_scope.columns) {
      if (c.name == column && !c.hidden) l = &c;
    }
    for (const auto& c : right_scope.columns) {
      if (c.name == column && !c.hidden) r = &c;
    }
    if (l == nullptr || r == nullptr) {
      throw BinderError("column '" + column + "' named in USING is not on both sides of the join", join.join_position,
                        "42703");
    }
    ExprPtr le = make_column_ref(l->index, l->type, l->name);
    ExprPtr re = make_column_ref(r->index + offset, r->type, r->name);
    eb.unify_for_comparison(le, re, join.join_position, nullptr, nullptr);
    conjuncts.push_back(make_function(ScalarFunction::kEqual, TypeId::kBoolean, {le, re}));
    // The right copy of a USING column is reachable only qualified; `*` shows the column once.
    for (auto& c : scope.columns) {
      if (c.index == r->index + offset) c.hidden = true;
    }
  }
  if (join.condition) {
    auto cond = eb.bind_predicate(*join.condition, ExprBindContext{&scope, "JOIN ON", nullptr});
    for (auto& c : split_conjuncts(cond)) conjuncts.push_back(c);
  }
  node.condition = make_conjunction(conjuncts);
  if (join.alias) {
    Scope renamed;
    for (const auto& c : scope.columns) {
      ScopeColumn copy = c;
      copy.table = join.alias->name;
      renamed.columns.push_back(copy);
    }
    scope = renamed;
  }
  return plan;
}

}  // namespace kestrel::plan
