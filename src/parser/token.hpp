#pragma once
/// Tokens of Kestrel's SQL lexer.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.hpp"

namespace kestrel {

/// The lexical class of a token. Keywords are not a class of their own: an unquoted word is a kWord whose
/// lower-case text the parser compares with the keywords it expects there, and `reserved` says whether the word
/// may also serve as a name.
enum class TokenType : uint8_t {
  kWord,              ///< an unquoted identifier or keyword, folded to lower case
  kQuotedIdentifier,  ///< "Name", kept exactly ("" unescaped to ")
  kInteger,           ///< 42
  kDecimal,           ///< 1.5, .5, 3.
  kFloat,             ///< 1e10, 2.5E-3
  kString,            ///< 'text' or E'text', unescaped
  kBinaryString,      ///< X'00ff': the bytes the hex digits spell
  kParameter,         ///< $1 (text "1") or ? (text empty)
  kOperator,          ///< + - * / % || = <> != < <= > >= :: => ( ) , . ;
  kEnd,               ///< end of input
};

/// One token with its position.
struct Token {
  TokenType type = TokenType::kEnd;
  /// kWord: lower-case; kQuotedIdentifier and kString: unescaped value; kBinaryString: the bytes; numbers: as written; kOperator: the
  /// operator ("<>" for both <> and !=); kParameter: the digits after $ or empty for ?.
  std::string text;
  /// The token's exact source text, for messages ("unexpected 'SELEC'"); points into the parsed string.
  std::string_view raw;
  /// Position of the first character.
  SourcePosition position;
  /// Byte offset just past the token.
  uint32_t end_offset = 0;
  /// kWord only: a reserved keyword (SELECT, FROM, WHERE, ...) that cannot be used as a name without quotes.
  bool reserved = false;

  /// An unquoted word equal to `keyword` (given in lower case).
  bool is_keyword(std::string_view keyword) const { return type == TokenType::kWord && text == keyword; }
  /// An operator token equal to `symbol`.
  bool is_operator(std::string_view symbol) const { return type == TokenType::kOperator && text == symbol; }
  /// A token usable as a name: an unreserved word or a quoted identifier.
  bool is_name() const {
    return (type == TokenType::kWord && !reserved) || type == TokenType::kQuotedIdentifier;
  }
};

/// True when `word` (lower case) is a reserved keyword of Kestrel's SQL.
bool is_reserved_keyword(std::string_view word);

}  // namespace kestrel
