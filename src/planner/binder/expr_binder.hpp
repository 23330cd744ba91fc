#pragma once
/// Binding of AST expressions to typed plan expressions over a scope.

#include <functional>
#include <map>
#include <optional>

#include "planner/binder/binder.hpp"

namespace kestrel::plan {

/// A parameter of a lambda whose body is being bound: its name, type and slot (kLambdaParam's column_index).
struct LambdaParam {
  std::string name;
  LogicalType type;
  size_t slot = 0;
};

/// What an expression is bound for: its scope, the clause (for messages) and, above an aggregation, how group
/// expressions and aggregate calls map to the aggregation's output.
struct ExprBindContext {
  const Scope* scope = nullptr;
  const char* clause = "expression";
  /// Set when binding above an aggregation (select list, HAVING, ORDER BY of a grouped query).
  AggregateBinding* aggregate = nullptr;
  /// The enclosing query's columns, for correlated references (a sub-query's WHERE); null otherwise.
  const Scope* outer = nullptr;
  /// The plan the expression is evaluated over; sub-queries extend it with joins that add columns. Null where
  /// that is not possible (then only uncorrelated scalar sub-queries are allowed).
  LogicalPtr* host = nullptr;
  /// In a sub-query bound in domain form: outer column index -> local column reading the same value.
  const std::map<size_t, size_t>* outer_to_local = nullptr;
  /// Set where window functions are allowed (a SELECT's list and ORDER BY): where their calls are collected.
  struct WindowBinding* window = nullptr;
  /// Inside a lambda's body: the parameters of it and the lambdas around it (innermost last).
  const std::vector<LambdaParam>* lambda = nullptr;
};

/// The window function calls of one SELECT, collected while its select list and ORDER BY are bound. Call k's
/// value reads the placeholder column kPlaceholder + k until the binder puts the window over the query's rows
/// and knows their width.
struct WindowBinding {
  static constexpr size_t kPlaceholder = size_t{1} << 30;
  std::vector<WindowCall> calls;
  std::vector<std::string> keys;  ///< calls[k].to_string(), for sharing equal calls
  ExprPtr ref(size_t k) const { return make_column_ref(kPlaceholder + k, calls[k].result_type, "#window"); }
};

/// The group expressions and aggregate calls of a grouped query, collected while binding above it.
struct AggregateBinding {
  const Scope* input_scope = nullptr;      ///< the FROM scope groups and aggregate arguments are bound in
  std::vector<ExprPtr> groups;             ///< bound over input_scope
  std::vector<std::string> group_keys;     ///< groups[i]->to_string(), for matching
  std::vector<AggregateCall> calls;
  std::vector<std::string> call_keys;
  /// With grouping sets: the synthetic group holding each row's grouping mask (bit k set when group k is not in
  /// the row's grouping set), which GROUPING() reads. Groups before it are the real keys.
  std::optional<size_t> grouping_id;
  /// In a correlated sub-query, the enclosing query's columns and, in domain form, the local columns that read
  /// them (as in ExprBindContext): outer references are allowed in aggregate arguments, GROUP BY and above the
  /// aggregation, where an outer value is one value for all the rows of a group.
  const Scope* outer = nullptr;
  const std::map<size_t, size_t>* outer_to_local = nullptr;
  /// The context of the expressions bound over the aggregation's input (groups, aggregate arguments, FILTER).
  ExprBindContext input(const char* clause) const;
  /// The group that `bound` (bound over input_scope) is, if any: equal text, or the same input column (a domain
  /// column that an outer reference reads in domain form is a group under its domain field's name).
  std::optional<size_t> find_group(const Expr& bound) const;
  /// Output column of group i is i; of call j is groups.size() + j.
  ExprPtr group_ref(size_t i) const;
  ExprPtr call_ref(size_t j) const;
};

/// Binds expressions; one instance per statement (it owns no state besides the binder reference).
class ExprBinder {
 public:
  explicit ExprBinder(Binder& binder) : binder_(binder) {}

  ExprPtr bind(const ast::Expr& expr, const ExprBindContext& ctx);
  /// Binds and checks the result is BOOLEAN (WHERE, HAVING, ON, CASE WHEN).
  ExprPtr bind_predicate(const ast::Expr& expr, const ExprBindContext& ctx);

  /// True when `expr` contains an aggregate call or GROUPING() (not looking into sub-queries).
  static bool contains_aggregate(const ast::Expr& expr);
  /// True when `expr` contains a window function call.
  static bool contains_window(const ast::Expr& expr);
  /// True when `name` is an aggregate function.
  static bool is_aggregate_name(const std::string& name);

  /// Brings `a` and `b` to a common type for comparison, converting a string literal on one side to the other
  /// side's type. Throws BinderError at `pos` when they do not meet.
  void unify_for_comparison(ExprPtr& a, ExprPtr& b, std::optional<SourcePosition> pos, const ast::Expr* a_ast,
                            const ast::Expr* b_ast);

 private:
  ExprPtr bind_node(const ast::Expr& expr, const ExprBindContext& ctx);
  ExprPtr bind_column(const ast::ColumnRef& ref, const ExprBindContext& ctx);
  ExprPtr bind_literal(const ast::Literal& lit);
  ExprPtr bind_typed_literal(const ast::TypedLiteral& lit);
  ExprPtr bind_interval(const ast::IntervalLiteral& lit);
  ExprPtr bind_function(const ast::FunctionCall& call, const ExprBindContext& ctx);
  ExprPtr bind_aggregate(const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// Presto functions bound as other expressions (bind_presto.cpp): year, quarter, month, day/day_of_month,
  /// day_of_week/dow, day_of_year/doy, week/week_of_year, hour, minute, second, millisecond as extract;
  /// if(c, a[, b]) as CASE; pi() and e() as constants; typeof(x) as the constant name of x's type;
  /// current_date, current_timestamp and now() as the constant statement time (Binder::statement_time); try(x)
  /// as kTry. nullptr for any other name.
  ExprPtr bind_presto_rewrite(const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// reduce_agg(x, initial, input_function, combine_function) as reduce(array_agg(x) FILTER (WHERE x IS NOT NULL),
  /// initial, input_function, s -> s): the input function folds the group's values in one pass, so the combine
  /// function is never needed (bind_reduce_agg.cpp).
  ExprPtr bind_reduce_agg(const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// The value of a session function without arguments that clients call on connect: current_schema(),
  /// current_database(), current_catalog (catalog/system_tables.hpp's names); nullopt for other names.
  static std::optional<Value> session_constant(const std::string& name);
  /// `x::regtype` (PostgreSQL clients' type lookups): a type OID becomes the type's name (`23::regtype` is
  /// `integer`), a type name its canonical spelling; a name pg_type does not list is an error.
  ExprPtr regtype_cast(ExprPtr operand, SourcePosition position);
  /// `x::oid` (an integer) and `x::regclass` (a relation OID, or a constant relation name made its OID), as
  /// PostgreSQL clients' catalog queries use them; both are INTEGER here.
  ExprPtr oid_cast(ExprPtr operand, bool regclass, SourcePosition position);
  /// Checks the unit of a bound date_add / date_diff call: a constant that suits its value type.
  void check_date_add_unit(const ast::FunctionCall& call, const Expr& bound);
  /// f(...) OVER (...): a placeholder column of the window (see WindowBinding).
  ExprPtr bind_window(const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// The value of a constant integer argument (`what` names it in the error) that is at least `least`.
  int64_t constant_count(const ast::Expr& expr, const ExprBindContext& ctx, const std::string& what, int64_t least);
  /// GROUPING(a, b, ...): an INTEGER with one bit per argument (the first is the highest), set when the argument
  /// is not grouped in the row's grouping set.
  ExprPtr bind_grouping(const ast::FunctionCall& call, const ExprBindContext& ctx);
  ExprPtr bind_case(const ast::Case& c, const ExprBindContext& ctx);
  ExprPtr bind_subquery(const ast::Expr& expr, const ExprBindContext& ctx);
  /// The value of a sub-query that gives one row (`sub`, bound with `correlation`).
  ExprPtr bind_scalar_subquery(const ast::Expr& expr, const ExprBindContext& ctx, const LogicalPtr& sub,
                               const Correlation& correlation, bool correlated);
  /// EXISTS, IN and ANY/ALL over a sub-query of any number of rows: a mark join.
  ExprPtr bind_list_subquery(const ast::Expr& expr, const ExprBindContext& ctx, LogicalPtr sub,
                             Correlation correlation);
  /// A correlated scalar sub-query that aggregates, bound again in domain form and joined back.
  ExprPtr bind_aggregating_subquery(const ast::Expr& expr, const ExprBindContext& ctx, const Correlation& first);
  ExprPtr make_scalar(ScalarFunction f, std::vector<ExprPtr> args, std::optional<SourcePosition> pos);
  /// The statement's time as the wall clock of the session's time zone (localtimestamp).
  int64_t local_statement_time();
  /// `f` over `args` when an argument is a TIMESTAMP WITH TIME ZONE and `f` is a TIMESTAMP function that reads it
  /// through its wall clock or instant (bind_timestamp_tz.cpp); null when `f` takes the type as it is.
  ExprPtr rewrite_timestamp_tz(ScalarFunction f, std::vector<ExprPtr>& args, std::optional<SourcePosition> pos);
  ExprPtr rewrite_timestamp_tz_arithmetic(ScalarFunction f, std::vector<ExprPtr>& args,
                                          std::optional<SourcePosition> pos);
  /// The nested-value forms and functions (bind_nested.cpp, bind_nested_functions.cpp): ARRAY[...], x[i], (x).f,
  /// row(...), and the array, map and lambda functions; nullptr when `call` is none of them.
  ExprPtr bind_nested_call(const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// The array, map and lambda function `f` of `call`, its arguments bound and typed here.
  ExprPtr bind_nested_function(ScalarFunction f, const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// The array and map functions of issue 15 (bind_array_more.cpp, bind_map_more.cpp, bind_lambda_more.cpp).
  ExprPtr bind_more_nested_function(ScalarFunction f, const ast::FunctionCall& call, const ExprBindContext& ctx);
  ExprPtr bind_array_more(ScalarFunction f, const ast::FunctionCall& call, std::vector<ExprPtr> args);
  ExprPtr bind_map_more(ScalarFunction f, const ast::FunctionCall& call, std::vector<ExprPtr> args);
  ExprPtr bind_lambda_more(ScalarFunction f, const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// x[i] of an ARRAY (1-based BIGINT), MAP (a key) or ROW (a constant field number); with `element_at` the
  /// function element_at(x, i), NULL where the subscript is an error.
  ExprPtr bind_subscript(const ast::FunctionCall& call, const ExprBindContext& ctx, bool element_at);
  /// sequence(start, stop[, step]) over integers (a missing step is 0: one toward stop), DATE (default one day)
  /// or TIMESTAMP (an INTERVAL step).
  ExprPtr bind_sequence(const ast::FunctionCall& call, std::vector<ExprPtr> args);
  /// transform, filter and reduce with their lambdas.
  ExprPtr bind_lambda_function(ScalarFunction f, const ast::FunctionCall& call, const ExprBindContext& ctx);
  /// A lambda argument `(x, y) -> body` whose parameters have `types`: a kLambda node.
  ExprPtr bind_lambda(const ast::Expr& lambda, const std::vector<LogicalType>& types, const ExprBindContext& ctx);
  /// `r.name` path of `names` starting at names[first] over a bound ROW value (field access), or nullptr when
  /// `base` is not a ROW with those fields and `must` is false.
  ExprPtr field_path(ExprPtr base, const std::vector<std::string>& names, size_t first, SourcePosition pos,
                     bool must);
  /// `ref` as a ROW column named by a prefix of its names and fields after it; nullptr when no prefix names a
  /// ROW column with those fields.
  ExprPtr bind_row_path(const ast::ColumnRef& ref, const ExprBindContext& ctx);
  /// concat / || with an ARRAY argument: arrays and elements of one common element type, concatenated.
  ExprPtr array_concat(std::vector<ExprPtr> args, std::optional<SourcePosition> pos);
  /// A lambda parameter named `name` in `ctx`, or nullptr.
  static ExprPtr lambda_param(const std::string& name, const ExprBindContext& ctx);
  ExprPtr bind_comparison(ScalarFunction f, const ast::Expr& left, const ast::Expr& right, const ExprBindContext& ctx,
                          SourcePosition pos);

  Binder& binder_;
};

/// Whether an EXTRACT field is timezone_hour or timezone_minute (any case), the fields of a zone's offset.
bool is_zone_field(std::string_view field);

/// The date_add / date_diff call inside the expression rewrite_timestamp_tz made of it (`e` itself otherwise).
const Expr& unwrap_timestamp_tz_rewrite(const Expr& e);

/// Evaluates a constant expression at bind time (literal conversion, folding); provided by the executor layer
/// through `set_constant_evaluator` because the planner cannot link the evaluator itself.
using ConstantEvaluator = std::function<Value(const Expr&)>;
void set_constant_evaluator(ConstantEvaluator evaluator);
/// The value of a constant expression; throws InternalError when no evaluator was registered.
Value evaluate_constant_expr(const Expr& expr);

}  // namespace kestrel::plan
