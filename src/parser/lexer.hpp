#pragma once
/// The SQL lexer: splits statement text into tokens with exact positions.

#include <string_view>
#include <vector>

#include "parser/token.hpp"

namespace kestrel {

/// Tokenizes `sql` completely; the last token is kEnd, positioned just past the last real token (where "end of
/// input" errors point). Comments (-- and nested /* */) and whitespace are skipped. Unquoted words are folded to
/// lower case (ASCII letters only). Throws SyntaxError with the position for an unterminated string, quoted
/// identifier or comment, an empty quoted identifier, a number followed directly by letters, and characters that
/// start no token. The tokens' `raw` views point into `sql`, which must outlive them.
std::vector<Token> tokenize(std::string_view sql);

}  // namespace kestrel
