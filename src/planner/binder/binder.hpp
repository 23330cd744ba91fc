#pragma once
/// The binder: turns a parsed query (AST) into a typed logical plan. It resolves names against the catalog and
/// the FROM clause, types every expression (inserting casts, parser/functions rules), plans aggregation, ordering
/// and set operations, and reports mistakes as BinderError with the position of the offending SQL.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "catalog/system_tables.hpp"
#include "parser/ast/ast.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel::plan {

/// One column visible to expressions: which FROM item it comes from and where it is in the input.
struct ScopeColumn {
  std::string table;  ///< alias or table name, lower case ("" for unnamed sub-queries)
  std::string name;
  LogicalType type;
  size_t index = 0;   ///< position in the input of the node the expression is evaluated on
  bool hidden = false;  ///< not expanded by `*` (e.g. a USING column's right copy)
  /// Set for a column of the source that Kestrel cannot read: why (using it is a NotImplemented error).
  std::string unreadable;
};

/// The columns an expression may reference.
struct Scope {
  std::vector<ScopeColumn> columns;
};

struct AggregateBinding;

/// The correlation of a sub-query with its enclosing query, filled while binding the sub-query: its WHERE
/// conjuncts that read outer columns are taken out of the sub-query and returned here, to become the condition of
/// the join that replaces the sub-query (decorrelation: no per-row re-execution).
struct Correlation {
  /// The enclosing query's columns.
  const Scope* outer = nullptr;
  /// The correlated conjuncts over the sub-query's output (outer_depth 0) and the outer columns (outer_depth 1).
  std::vector<ExprPtr> conjuncts;
  /// Set by the binder: the sub-query aggregates (then its correlation needs the domain form below).
  bool aggregated = false;
  /// Domain form, for aggregating sub-queries: `domain` holds the distinct values of the outer columns the
  /// sub-query reads (outer index -> domain column in `domain_index`); it is cross-joined into the sub-query's
  /// FROM, outer references read its columns, and the sub-query groups by them.
  LogicalPtr domain;
  std::map<size_t, size_t> domain_index;
  /// Filled by bind_select in domain form: outer column index -> column of the sub-query's FROM scope.
  std::map<size_t, size_t> outer_to_local;
  /// Set by the binder: a set operation's branch reads outer columns (then the sub-query needs the domain form,
  /// and its join back on the domain treats NULL as equal to NULL, since a branch that reads no outer column has
  /// rows for a NULL outer value too).
  bool set_operation = false;
  /// Found while binding (first binding only): conjuncts of set-operation branches and derived tables that read
  /// outer columns. They only tell which outer columns the domain needs (their other columns index plans that the
  /// domain form binds anew).
  std::vector<ExprPtr> discovered;
  /// A branch of a set operation or a derived table inside the sub-query (not its top SELECT).
  bool nested = false;
  /// The select list, HAVING, GROUP BY or an aggregate's argument reads outer columns: the domain form joins back
  /// on NULL-safe keys (an outer row with a NULL there still gets its value).
  bool null_safe_keys = false;
  /// Set by EXISTS, IN and ANY/ALL before the domain form: an aggregation without GROUP BY gives its row for
  /// every domain value, also one whose rows are none, as SQL gives one row per outer row. A scalar sub-query
  /// leaves it unset and puts the empty group's value in at the join back (ExprBinder::bind_aggregating_subquery);
  /// bind_select fills in empty groups all the same under HAVING and in nested SELECTs, where that cannot work.
  bool fill_empty_groups = false;
  /// Set by bind_select when it filled in empty groups: the domain's NULL value has a row too, so the join back
  /// must be NULL-safe.
  bool filled_empty_groups = false;
};

/// The value aggregate `call` gives over no rows: 0 for count, count(*) and entropy; NULL for the others.
Value empty_aggregate_value(const AggregateCall& call);

/// For an aggregation without GROUP BY in domain form (`aggregation`, grouped by domain columns only: domain column
/// d is local column `domain_start + d`): the domain left-joined with its groups (NULL matching NULL), the missing
/// groups taking the aggregates' values over no rows. The output has the aggregation's layout.
LogicalPtr fill_empty_groups(const LogicalPtr& aggregation, const LogicalPtr& domain, size_t domain_start);

/// Appends to `out` the conditions that `a` and `b` (one type) are equal or both NULL, as equalities a join hashes
/// ((a IS NULL) = (b IS NULL) and COALESCE(a, z) = COALESCE(b, z)); IS NOT DISTINCT FROM for types without a z.
void null_safe_equalities(const ExprPtr& a, const ExprPtr& b, std::vector<ExprPtr>& out);

/// Whether the sub-query whose first binding filled `c` must be bound again in domain form.
inline bool needs_domain(const Correlation& c) {
  return !c.discovered.empty() || (c.aggregated && !c.conjuncts.empty());
}

/// A correlated sub-query bound in domain form over the host plan: its plan ([visible columns..., domain
/// columns...]) and the equalities of the host's outer columns with its domain columns (over host ++ sub-query).
struct DomainSubquery {
  LogicalPtr plan;
  std::vector<ExprPtr> keys;
  /// The host's outer columns, in domain order (the plan's domain column k is equal to outer_columns[k]).
  std::vector<size_t> outer_columns;
  /// Some key matches a NULL outer value with a NULL domain value (the sub-query may have rows for it).
  bool null_safe = false;
};

/// A cross join of two plans (output: left columns, then right columns).
LogicalPtr make_cross_join(LogicalPtr left, LogicalPtr right);

/// Binds statements of one query against a catalog. Not thread-safe; one per statement.
class Binder {
 public:
  /// The join that replaces a sub-query: `left` joined with the sub-query's plan `right` on `condition` (over left
  /// columns ++ right columns) plus the correlation's conjuncts.
  static LogicalPtr make_subquery_join(LogicalPtr left, LogicalPtr right, JoinType type, ExprPtr condition,
                                       const Correlation& correlation, bool null_aware);

 public:
  explicit Binder(const catalog::Catalog& catalog, catalog::TypeNames type_names = catalog::TypeNames::kSqlStandard)
      : catalog_(catalog), type_names_(type_names) {}

  /// The plan of a query; its output fields carry the result column names.
  LogicalPtr bind_query(const ast::Query& query, Correlation* correlation = nullptr);

  /// A constant expression with no column references (VALUES of INSERT, LIMIT), typed.
  ExprPtr bind_constant(const ast::Expr& expr);

  /// Casts `expr` to `target`, failing with a BinderError at `pos` when no cast exists.
  static ExprPtr cast_to(ExprPtr expr, const LogicalType& target, std::optional<SourcePosition> pos);

  /// The columns of a stored view (its SQL bound again now); no fields when the view no longer binds. System
  /// tables listing views, DESCRIBE and SHOW COLUMNS use it.
  std::vector<Field> view_fields(const catalog::View& view) const;

  /// The time (UTC microseconds since 1970, whole milliseconds) of the statement's first current_date,
  /// current_timestamp or now(): every such call of the statement reads this one value.
  int64_t statement_time();

  /// The session's time zone (a common/time_zone.hpp key) for the statements bound on this thread while one lives:
  /// casts to TIMESTAMP WITH TIME ZONE, literals without a zone, current_timestamp and current_timezone() read
  /// it. UTC when none lives.
  class SessionTimeZone {
   public:
    explicit SessionTimeZone(int32_t zone);
    ~SessionTimeZone();
    SessionTimeZone(const SessionTimeZone&) = delete;
    SessionTimeZone& operator=(const SessionTimeZone&) = delete;
    /// The zone of the innermost live guard of this thread.
    static int32_t current();

   private:
    int32_t previous_;
  };

  /// While one lives (on this thread), `cast_to` leaves a constant cast that fails as a cast node instead of
  /// raising its error at bind time: inside try() and try_cast the failure gives NULL when the row is evaluated.
  class DeferredCastErrors {
   public:
    DeferredCastErrors();
    ~DeferredCastErrors();
    DeferredCastErrors(const DeferredCastErrors&) = delete;
    DeferredCastErrors& operator=(const DeferredCastErrors&) = delete;
  };

 private:
  friend class ExprBinder;

  struct Cte {
    const ast::CommonTableExpr* definition;
    LogicalPtr plan;  ///< bound once, shared by every reference (a CTE used twice is computed from one plan)
  };

  LogicalPtr bind_body(const ast::QueryBody& body, std::vector<std::string>* names,
                       Correlation* correlation = nullptr);
  /// Binds `query` again in domain form over `host`, for a correlated sub-query that aggregates or is a set
  /// operation (`first`: the correlation its first binding found).
  DomainSubquery bind_in_domain(const ast::Query& query, const Correlation& first, const LogicalPtr& host);
  LogicalPtr bind_select(const ast::Select& select, const ast::Query* query, std::vector<std::string>* names,
                         Correlation* correlation = nullptr);
  /// Binds the WHERE clause of a SELECT over `plan`: sub-query conjuncts become semi/anti joins, other sub-queries
  /// joins that add columns; correlated conjuncts go to `correlation`.
  LogicalPtr bind_where(const ast::Expr& where, LogicalPtr plan, const Scope& scope, Correlation* correlation);
  LogicalPtr bind_values(const ast::Values& values);
  LogicalPtr bind_set_operation(const ast::SetOperation& op, Correlation* correlation = nullptr);
  LogicalPtr bind_from(const std::vector<ast::TableRefPtr>& from, Scope& scope);
  LogicalPtr bind_table_ref(const ast::TableRef& ref, Scope& scope);
  LogicalPtr bind_base_table(const ast::BaseTableRef& ref, Scope& scope);
  LogicalPtr bind_table_function(const ast::TableFunctionRef& ref, Scope& scope);
  /// UNNEST(a, ...) [WITH ORDINALITY] [AS u(x, ...)] over `input` (whose columns its arguments may read: CROSS JOIN
  /// UNNEST(t.a)); a LogicalUnnest whose scope is `input_scope` and the new columns (bind_unnest.cpp). Without an
  /// input, over the one empty row.
  LogicalPtr bind_unnest(const ast::TableFunctionRef& ref, LogicalPtr input, const Scope& input_scope, Scope& scope);
  LogicalPtr bind_join(const ast::JoinRef& join, Scope& scope);
  /// The system table a name denotes (catalog/system_tables.hpp), built now: `information_schema.X` or
  /// `pg_catalog.X` (a BinderError when that schema has no X), or an unqualified pg_catalog name (nullptr when
  /// there is none). nullptr for other qualified names.
  catalog::TablePtr system_table(const ast::QualifiedName& name) const;
  LogicalPtr apply_order_limit(LogicalPtr plan, const ast::Query& query, const std::vector<std::string>& names);

  const catalog::Catalog& catalog_;
  /// The correlation of the SELECT whose FROM is being bound (derived tables there may read its outer query).
  Correlation* from_correlation_ = nullptr;
  std::vector<std::map<std::string, Cte>> cte_scopes_;
  /// Set in the binder that computes view columns for a system table, so a view over information_schema does not
  /// bind itself again without end (it lists views without columns).
  bool listing_views_ = false;
  /// How information_schema.columns spells types (the session's type_names setting).
  catalog::TypeNames type_names_ = catalog::TypeNames::kSqlStandard;
  std::optional<int64_t> statement_time_;
};

/// Adds column refs for all of `plan`'s output to a fresh scope labelled `table`.
Scope scope_of(const LogicalNode& plan, const std::string& table);

/// Builds a projection of `exprs` named `names` over `child`.
LogicalPtr make_project(LogicalPtr child, std::vector<ExprPtr> exprs, const std::vector<std::string>& names);

}  // namespace kestrel::plan
