#pragma once
/// Runs one parsed statement against a database: queries through the binder and the pipelines, DDL and DML
/// against the catalog, utility statements (EXPLAIN, SET, SHOW, DESCRIBE).

#include <atomic>

#include "main/database_state.hpp"
#include "parser/ast/ast.hpp"

namespace kestrel {

/// Runs `statement` (whose SQL text is `sql`). Throws kestrel::Error subclasses.
QueryResult run_statement(Database::State& state, const ast::Statement& statement, const std::atomic<bool>& cancel);

}  // namespace kestrel
