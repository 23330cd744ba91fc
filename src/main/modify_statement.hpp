#pragma once
/// UPDATE and DELETE of in-memory tables. Each runs one query over the table that gives every row its new values
/// (UPDATE) or whether it stays (DELETE), then puts the new rows in place at once: an error in any row (a failed
/// cast, a division by zero, a NOT NULL column set to NULL) leaves the table as it was.

#include <atomic>

#include "main/database_state.hpp"
#include "parser/ast/ast.hpp"

namespace kestrel {

/// Runs `UPDATE t SET ... [WHERE ...]`; the result's message is "UPDATE <rows changed>".
QueryResult update_rows(SessionState& state, const ast::UpdateStatement& s, const std::atomic<bool>& cancel);

/// Runs `DELETE FROM t [WHERE ...]`; the result's message is "DELETE <rows removed>".
QueryResult delete_rows(SessionState& state, const ast::DeleteStatement& s, const std::atomic<bool>& cancel);

}  // namespace kestrel
