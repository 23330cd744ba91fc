#pragma once
/// Positional parameters of an embedded statement (`?`, numbered in order of appearance, and `$n`), given as SQL
/// literal texts by the caller (the Python module renders its values so). They are put in place of the parameter
/// tokens before the statement is parsed: a parameter binds exactly as the literal it stands for would, and an error
/// position in the bound text maps back to the statement as the caller wrote it.

#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace kestrel {

/// A statement with its parameters replaced by literals.
class BoundStatement {
 public:
  /// Replaces parameter n of `sql` by `literals[n - 1]`. Throws the lexer's SyntaxError for text it cannot
  /// tokenize, and BinderError (SQLSTATE 07001) when the number of literals is not the number of parameters.
  static BoundStatement bind(std::string_view sql, const std::vector<std::string>& literals);

  const std::string& sql() const { return sql_; }
  /// The position in the original statement of `bound`, a position in sql(); a position inside a literal maps to
  /// its parameter. Line and column are counted again in the original text.
  SourcePosition original_position(const SourcePosition& bound) const;

 private:
  struct Replacement {
    size_t bound_begin, bound_end;        ///< the literal's bytes in sql_
    size_t original_begin, original_end;  ///< the parameter token's bytes in original_
  };
  std::string original_;
  std::string sql_;
  std::vector<Replacement> replacements_;
};

/// The number of parameters of `sql`: the count of `?` or the highest `$n`, whichever is larger. Throws the lexer's
/// SyntaxError for text it cannot tokenize.
size_t count_parameters(std::string_view sql);

/// The line and column (1-based, columns in UTF-8 characters, as the lexer counts them) of byte `offset` of `text`.
SourcePosition position_of_offset(std::string_view text, size_t offset);

}  // namespace kestrel
