#pragma once
/// The public entry points of Kestrel's SQL parser (Presto/PostgreSQL flavour). The result is the AST of
/// parser/ast/ast.hpp; every node carries the SourcePosition of its first token, relative to the given text.

#include <string_view>
#include <vector>

#include "parser/ast/ast.hpp"

namespace kestrel {

/// The deepest nesting the parser accepts (parentheses, sub-queries, operator chains that deepen the tree);
/// deeper input gets a SyntaxError instead of exhausting the stack.
inline constexpr int kMaxParseDepth = 1000;

/// Parses exactly one statement, optionally followed by `;`. Throws SyntaxError (with line:column and what was
/// expected) for malformed text, for empty input and when a second statement follows.
ast::StatementPtr parse_statement(std::string_view sql);

/// Parses a script: statements separated by `;` (empty statements are skipped). Positions are relative to the
/// start of the script; each statement's text is sql.substr(position.offset, end_offset - position.offset).
std::vector<ast::StatementPtr> parse_script(std::string_view sql);

/// Parses a single expression (the whole input), e.g. for settings or tests.
ast::ExprPtr parse_expression(std::string_view sql);

}  // namespace kestrel
