// Positional parameters as SQL literals (main/statement_parameters.hpp): substitution outside strings and comments,
// the count check, and error positions mapped back to the statement as written.

#include <gtest/gtest.h>

#include "main/statement_parameters.hpp"

namespace kestrel {
namespace {

TEST(StatementParameters, ReplacesQuestionMarksAndNumbers) {
  // The second ? is parameter 2, as $2 is.
  auto bound = BoundStatement::bind("SELECT ?, '?', $2 -- ?\n, ?", {"1", "'x'"});
  EXPECT_EQ(bound.sql(), "SELECT  1 , '?',  'x'  -- ?\n,  'x' ");
  EXPECT_EQ(count_parameters("SELECT $3, ?"), 3u);
  EXPECT_EQ(count_parameters("SELECT '$1' /* ? */"), 0u);
}

TEST(StatementParameters, CountMustMatch) {
  try {
    BoundStatement::bind("SELECT ?, ?", {"1"});
    FAIL();
  } catch (const BinderError& e) {
    EXPECT_EQ(e.code(), "07001");
    EXPECT_EQ(e.message(), "the statement has 2 parameters but 1 value was given");
  }
  EXPECT_THROW(BoundStatement::bind("SELECT 1", {"1"}), BinderError);
  EXPECT_THROW(BoundStatement::bind("SELECT 'unterminated", {}), SyntaxError);
}

TEST(StatementParameters, PositionsMapBack) {
  const std::string sql = "SELECT ?,\n  ?, nope";
  auto bound = BoundStatement::bind(sql, {"'a long literal'", "42"});
  const size_t nope = bound.sql().find("nope");
  SourcePosition p = bound.original_position(SourcePosition{0, 0, static_cast<uint32_t>(nope)});
  EXPECT_EQ(p.offset, sql.find("nope"));
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.column, 6u);
  // A position inside a literal is its parameter's.
  p = bound.original_position(SourcePosition{0, 0, static_cast<uint32_t>(bound.sql().find("long"))});
  EXPECT_EQ(p.offset, 7u);
  EXPECT_EQ(p.column, 8u);
  // Before any parameter nothing moves; columns count characters, not bytes.
  EXPECT_EQ(position_of_offset("SELECT 'é', x", 12).column, 12u);
}

}  // namespace
}  // namespace kestrel
