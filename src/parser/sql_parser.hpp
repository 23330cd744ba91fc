#pragma once
/// The recursive-descent parser behind parser.hpp (internal to the parser layer). One SqlParser parses one text;
/// its methods are spread over parse_*.cpp by part of the grammar.

#include <string>
#include <string_view>
#include <vector>

#include "parser/ast/ast.hpp"
#include "parser/lexer.hpp"
#include "parser/parser.hpp"

namespace kestrel {

class SqlParser {
 public:
  explicit SqlParser(std::string_view sql);

  /// Statements up to the end of input (parser.cpp).
  std::vector<ast::StatementPtr> parse_script();
  /// One statement and the end of input.
  ast::StatementPtr parse_single_statement();
  /// One expression and the end of input.
  ast::ExprPtr parse_single_expression();

 private:
  /// Binding powers of infix and prefix operators, lowest first (PostgreSQL's order).
  enum Precedence : int {
    kLowest = 0,
    kOr,
    kAnd,
    kNot,
    kIs,
    kComparison,
    kPredicate,  ///< BETWEEN, IN, LIKE, ILIKE
    kConcat,     ///< || (PostgreSQL's "any other operator")
    kAdditive,
    kMultiplicative,
    kUnary,
    kCast,  ///< ::
  };

  /// Counts nesting while alive; throws SyntaxError past kMaxParseDepth.
  class DepthGuard {
   public:
    explicit DepthGuard(SqlParser& parser);
    ~DepthGuard() { parser_.depth_ -= added_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    /// One more level until the guard ends (an operator chain that deepens the tree).
    void deepen();

   private:
    SqlParser& parser_;
    int added_ = 0;
  };

  // Token cursor and errors (parser.cpp).
  const Token& peek(size_t ahead = 0) const;
  const Token& advance();
  bool at_keyword(std::string_view keyword, size_t ahead = 0) const { return peek(ahead).is_keyword(keyword); }
  bool at_operator(std::string_view symbol, size_t ahead = 0) const { return peek(ahead).is_operator(symbol); }
  bool match_keyword(std::string_view keyword);
  bool match_operator(std::string_view symbol);
  /// Consumes the keyword or fails with "expected KEYWORD <context>, found ...".
  const Token& expect_keyword(std::string_view keyword, std::string_view context);
  const Token& expect_operator(std::string_view symbol, std::string_view context);
  /// "expected <what>, found <current token>" at the current token.
  [[noreturn]] void fail_expected(std::string_view what) const;
  [[noreturn]] void fail_at(const Token& token, const std::string& message) const;
  /// "'FROM'" or "end of input".
  static std::string describe(const Token& token);
  /// A name (unreserved word or quoted identifier); `what` names it in the error ("a column name").
  std::string expect_name(std::string_view what);
  /// Any word including reserved ones, or a quoted identifier (aliases after AS, option names).
  std::string expect_label(std::string_view what);
  ast::QualifiedName parse_qualified_name(std::string_view what);
  /// `(a, b, c)`: names in parentheses.
  std::vector<std::string> parse_name_list(std::string_view what);
  bool at_query_start(size_t ahead = 0) const;
  bool at_statement_end() const;

  // Statements (parse_statement.cpp, parse_utility.cpp).
  ast::StatementPtr parse_statement();
  ast::StatementPtr parse_create();
  ast::StatementPtr parse_create_table(SourcePosition start, bool or_replace, bool temporary);
  ast::ColumnDefinition parse_column_definition();
  ast::StatementPtr parse_create_view(SourcePosition start, bool or_replace, bool temporary);
  ast::StatementPtr parse_create_index(SourcePosition start, bool unique);
  ast::StatementPtr parse_drop();
  ast::StatementPtr parse_insert();
  ast::StatementPtr parse_update();
  ast::StatementPtr parse_delete();
  /// `[AS] alias` after the table of UPDATE or DELETE; a bare word is an alias unless it is `next_keyword`.
  std::optional<ast::TableAlias> parse_target_alias(std::string_view next_keyword);
  ast::StatementPtr parse_copy();
  ast::OptionValue parse_option_value(bool allow_none);
  ast::StatementPtr parse_explain();
  ast::StatementPtr parse_set();
  ast::StatementPtr parse_reset();
  ast::StatementPtr parse_show();
  ast::StatementPtr parse_describe();
  [[noreturn]] void fail_statement_start() const;

  // Queries (parse_query.cpp, parse_select.cpp).
  ast::QueryPtr parse_query();
  void parse_with(ast::Query& query);
  ast::QueryBodyPtr parse_set_expression();
  ast::QueryBodyPtr parse_set_operations(ast::QueryBodyPtr left, int min_level);
  ast::QueryBodyPtr parse_query_primary();
  /// The body of a query in parentheses: unwraps a bare query, keeps one with WITH/ORDER BY/LIMIT.
  static ast::QueryBodyPtr as_body(ast::QueryPtr query);
  void parse_order_and_limit(ast::Query& query);
  /// A query whose first operand, `first`, was already read in parentheses: `(SELECT 1) UNION (SELECT 2)`
  /// reached through an expression or FROM item.
  ast::QueryPtr continue_query(ast::QueryPtr first);
  bool at_query_continuation() const;
  ast::QueryBodyPtr parse_select();
  ast::SelectItem parse_select_item();
  /// The elements of GROUP BY into select.group_by, and its grouping sets when an element is ROLLUP, CUBE,
  /// GROUPING SETS or ().
  void parse_group_by(ast::Select& select);
  /// One GROUP BY element (also one element of GROUPING SETS): its grouping sets as indices into group_by.
  std::vector<std::vector<size_t>> parse_grouping_element(ast::ExprList& group_by, bool* special);
  ast::QueryBodyPtr parse_values();
  std::vector<ast::OrderItem> parse_order_by();

  // FROM items (parse_from.cpp).
  ast::TableRefPtr parse_table_ref();
  ast::TableRefPtr parse_table_primary();
  ast::TableRefPtr parse_parenthesized_table();
  ast::TableRefPtr parse_table_function(ast::QualifiedName name);
  std::optional<ast::TableAlias> parse_table_alias();

  // Expressions (parse_expression.cpp, parse_primary.cpp, parse_special.cpp, parse_type.cpp).
  ast::ExprPtr parse_expr() { return parse_expr(kLowest); }
  ast::ExprPtr parse_expr(int min_precedence);
  ast::ExprList parse_expr_list();
  int infix_precedence() const;
  ast::ExprPtr parse_prefix();
  ast::ExprPtr parse_infix(ast::ExprPtr left, int precedence);
  ast::ExprPtr parse_is(ast::ExprPtr left);
  ast::ExprPtr parse_keyword_predicate(ast::ExprPtr left);
  ast::ExprPtr parse_in(ast::ExprPtr left, const Token& op_token, bool negated);
  ast::ExprPtr parse_comparison(ast::ExprPtr left);
  ast::ExprPtr parse_primary();
  ast::ExprPtr parse_parenthesized();
  ast::ExprPtr parse_name_or_call();
  ast::ExprPtr parse_function_call(std::vector<std::string> names, SourcePosition start);
  /// ROWS | RANGE [BETWEEN] UNBOUNDED PRECEDING [AND CURRENT ROW | UNBOUNDED FOLLOWING] after OVER (... .
  ast::WindowFrame parse_window_frame();
  ast::ExprPtr parse_word_form();
  ast::ExprPtr parse_case();
  ast::ExprPtr parse_cast();
  ast::ExprPtr parse_extract();
  ast::ExprPtr parse_substring();
  ast::ExprPtr parse_trim();
  ast::ExprPtr parse_position();
  ast::ExprPtr parse_exists();
  ast::ExprPtr parse_interval();
  ast::ExprPtr parse_typed_literal();
  ast::QueryPtr parse_parenthesized_query(std::string_view context);
  ast::TypeName parse_type();
  /// `x -> body` or `(x, y) -> body` ahead (lambda arguments of transform, filter, reduce).
  bool at_lambda() const;
  ast::ExprPtr parse_lambda();
  /// Subscripts `x[i]` and field references `(x).f` after a primary expression.
  ast::ExprPtr parse_postfix(ast::ExprPtr base);
  /// ARRAY(T) / ARRAY<T>, MAP(K, V) / MAP<K, V>, ROW(name T, ...) (parse_type.cpp).
  ast::TypeName parse_nested_type();
  bool at_type_literal() const;

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
  int depth_ = 0;
  /// The largest height of the expressions parsed within the innermost parse_expr call (see parse_expr).
  int expr_height_ = 0;
  /// Number of `?` parameters seen so far (they are numbered in order).
  uint32_t positional_parameters_ = 0;
};

}  // namespace kestrel
