#pragma once
/// Prints AST nodes back to SQL text. The text is canonical: keywords upper-case, every operator expression in
/// parentheses, names quoted only when they must be, special forms in their call form (substring(x, 1, 2)). It
/// parses back to the same tree, so parse -> print -> parse -> print is stable; tests rely on that and EXPLAIN
/// uses it to show expressions.

#include <string>
#include <string_view>

#include "parser/ast/ast.hpp"

namespace kestrel::ast {

std::string to_sql(const Expr& expr);
std::string to_sql(const Query& query);
std::string to_sql(const QueryBody& body);
std::string to_sql(const TableRef& table);
std::string to_sql(const Statement& statement);
std::string to_sql(const TypeName& type);

/// A name as SQL: bare when it is a lower-case word that is not reserved, else in double quotes ("Name").
std::string quote_identifier(std::string_view name);
/// A string literal: 'it''s'.
std::string quote_string(std::string_view text);

}  // namespace kestrel::ast
