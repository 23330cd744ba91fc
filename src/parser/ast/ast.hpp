#pragma once
/// Every node of the Kestrel SQL AST. Include this to walk a parsed statement.
///
/// The tree, top down: a Statement (statement.hpp and friends) holds Query objects (query.hpp); a Query holds a
/// QueryBody (Select, SetOperation, Values, ParenthesizedQuery); a Select holds SelectItems, TableRefs
/// (table_ref.hpp) and expressions (Expr, expr.hpp). Each polymorphic family has a `kind` and `as<T>()`.
/// ast::for_each_child (walk.hpp) visits an expression's direct child expressions; ast::clone (clone.hpp) copies
/// trees; ast::to_sql (parser/ast_printer.hpp) prints them back.

#include "parser/ast/clone.hpp"
#include "parser/ast/column_ref.hpp"
#include "parser/ast/ddl_statement.hpp"
#include "parser/ast/expr.hpp"
#include "parser/ast/function_call.hpp"
#include "parser/ast/literal.hpp"
#include "parser/ast/operator_expr.hpp"
#include "parser/ast/predicate.hpp"
#include "parser/ast/query.hpp"
#include "parser/ast/statement.hpp"
#include "parser/ast/subquery_expr.hpp"
#include "parser/ast/table_ref.hpp"
#include "parser/ast/type_name.hpp"
#include "parser/ast/utility_statement.hpp"
#include "parser/ast/walk.hpp"
