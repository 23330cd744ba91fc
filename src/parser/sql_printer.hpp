#pragma once
/// The printer behind ast_printer.hpp (internal to the parser layer): appends SQL text for nodes to one string.
/// Its methods are spread over print_expression.cpp, print_query.cpp and print_statement.cpp.

#include <string>
#include <vector>

#include "parser/ast/ast.hpp"

namespace kestrel::ast {

class SqlPrinter {
 public:
  /// The text printed so far.
  std::string take() { return std::move(out_); }

  void print(const Expr& expr);
  void print(const Query& query);
  void print(const QueryBody& body);
  void print(const TableRef& table);
  void print(const Statement& statement);
  void print(const TypeName& type);

 private:
  void print_list(const ExprList& list);
  void print_names(const std::vector<std::string>& names, const char* separator);
  void print_call(const FunctionCall& call);
  /// ORDER BY items (without the keywords).
  void print_order_items(const std::vector<OrderItem>& items);
  void print_case(const Case& node);
  void print_select(const Select& select);
  void print_set_operand(const QueryBody& body);
  void print_alias(const std::optional<TableAlias>& alias);
  void print_join(const JoinRef& join);
  void print_option_value(const OptionValue& value);
  void print_create_table(const CreateTableStatement& statement);
  void print_copy(const CopyStatement& statement);

  std::string out_;
};

}  // namespace kestrel::ast
