#pragma once
/// Runs one parsed statement against a database: queries through the binder and the pipelines, DDL and DML
/// against the catalog, utility statements (EXPLAIN, SET, SHOW, DESCRIBE).

#include <atomic>

#include "main/database_state.hpp"
#include "parser/ast/ast.hpp"
#include "planner/logical_plan.hpp"

namespace kestrel {

/// Runs `statement`. Throws kestrel::Error subclasses. With `device_rows`, a query's rows that a GPU plan produced
/// on the device stay there.
QueryResult run_statement(SessionState& state, const ast::Statement& statement, const std::atomic<bool>& cancel,
                          bool device_rows = false);

/// Runs a bound plan (on the database's device) and returns its rows as host batches; with `profile`, also the
/// optimized plan and per-step statistics. For the statements that run queries as a step (INSERT, UPDATE, ...).
/// With `device_rows`, rows a GPU plan produced on the device stay there (the batches are ready to use on any
/// stream).
QueryResult execute_plan(SessionState& state, plan::LogicalPtr plan, const std::atomic<bool>& cancel,
                         std::string* profile = nullptr, bool device_rows = false);

}  // namespace kestrel
