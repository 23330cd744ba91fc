#pragma once
/// Deep copies of AST trees (positions included), for rewrites that need a part twice: an alias expanded in GROUP
/// BY, a view body bound once per use.

#include "parser/ast/expr.hpp"
#include "parser/ast/query.hpp"
#include "parser/ast/table_ref.hpp"

namespace kestrel::ast {

ExprPtr clone(const Expr& expr);
QueryPtr clone(const Query& query);
QueryBodyPtr clone(const QueryBody& body);
TableRefPtr clone(const TableRef& table);

}  // namespace kestrel::ast
