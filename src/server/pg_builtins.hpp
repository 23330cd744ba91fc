#pragma once
/// Statements the PostgreSQL protocol layer answers without the engine: transaction control (Kestrel applies each
/// statement at once, so BEGIN/COMMIT/ROLLBACK only track the state ReadyForQuery reports), SHOW of the parameters
/// reported at startup, and `SELECT version()`, which clients send on connect.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/sql_backend.hpp"

namespace kestrel::server::pg {

/// The first keyword of a statement, lower-cased ("select", "insert", ...), skipping blanks, comments and `(`.
std::string first_keyword(std::string_view sql);

/// BEGIN / START TRANSACTION / COMMIT / END / ROLLBACK / ABORT: updates `transaction` ('I', 'T' or 'E') and
/// returns the command tag; nullopt for any other statement.
std::optional<std::string> transaction_statement(std::string_view sql, char& transaction);

/// `SHOW <reported parameter>` and `SELECT version()`; nullopt for anything else.
std::optional<StatementResult> builtin_query(std::string_view sql,
                                             const std::vector<std::pair<std::string, std::string>>& parameters);

/// A one-row, one-column VARCHAR result.
StatementResult single_text_result(const std::string& column, const std::string& value);

}  // namespace kestrel::server::pg
