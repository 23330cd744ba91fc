#pragma once
/// SHOW: settings (`SHOW name`, `SHOW ALL`) and the catalog listings Trino clients send (`SHOW TABLES`, `SHOW SCHEMAS`,
/// `SHOW CATALOGS`, `SHOW COLUMNS FROM t`), answered with Trino's column names from the same catalog state that
/// information_schema shows (catalog/system_tables.hpp).

#include <string>
#include <vector>

#include "main/database_state.hpp"
#include "parser/ast/ast.hpp"

namespace kestrel {

/// A result of VARCHAR columns `names` holding `rows` (SHOW, EXPLAIN, DESCRIBE).
QueryResult text_result(const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows);

/// Runs a SHOW statement: a result of text columns. Throws BinderError for an unknown schema, catalog or table.
QueryResult run_show(SessionState& state, const ast::ShowStatement& statement);

}  // namespace kestrel
