#pragma once
/// SQL text the servers write for their clients' settings (a Trino session property, a PostgreSQL startup
/// parameter): a value as a quoted string literal.

#include <string>
#include <string_view>

namespace kestrel::server {

/// `text` as a SQL string literal: quoted, each quote doubled.
std::string sql_literal(std::string_view text);

}  // namespace kestrel::server
