#include "parser_test_util.hpp"

namespace kestrel {
namespace {

using parser_test::syntax_error;

TEST(ParserError, StatementStart) {
  EXPECT_EQ(syntax_error("SELEC 1"),
            "1:1: unexpected 'SELEC' at the start of a statement; expected SELECT, WITH, VALUES, CREATE, DROP, "
            "INSERT, UPDATE, DELETE, COPY, EXPLAIN, SET, RESET, SHOW or DESCRIBE (did you mean SELECT?)");
  EXPECT_EQ(syntax_error("SELECT 1;\n  MERGE INTO t USING u ON a = b"),
            "2:3: unexpected 'MERGE' at the start of a statement; expected SELECT, WITH, VALUES, CREATE, DROP, "
            "INSERT, UPDATE, DELETE, COPY, EXPLAIN, SET, RESET, SHOW or DESCRIBE");
  EXPECT_EQ(syntax_error("UPDAT t SET a = 1"),
            "1:1: unexpected 'UPDAT' at the start of a statement; expected SELECT, WITH, VALUES, CREATE, DROP, "
            "INSERT, UPDATE, DELETE, COPY, EXPLAIN, SET, RESET, SHOW or DESCRIBE (did you mean UPDATE?)");
}

TEST(ParserError, UpdateAndDelete) {
  EXPECT_EQ(syntax_error("UPDATE t a = 1"), "1:12: expected SET after the UPDATE target, found '='");
  EXPECT_EQ(syntax_error("UPDATE t SET a 1"), "1:16: expected '=' after the column name in SET, found '1'");
  EXPECT_EQ(syntax_error("UPDATE t SET t.a = 1"), "1:15: a SET target is a column name without a table name");
  EXPECT_EQ(syntax_error("UPDATE t SET a = 1,\nWHERE b"),
            "2:1: expected a column name, found reserved keyword 'WHERE' (quote it to use it as a name)");
  EXPECT_EQ(syntax_error("UPDATE t SET a = 1 WHERE"), "1:25: expected an expression, found end of input");
  EXPECT_EQ(syntax_error("DELETE t"), "1:8: expected FROM after DELETE, found 't'");
  EXPECT_EQ(syntax_error("DELETE FROM t WHERE a = 1 b"),
            "1:27: expected ';' or the end of input after the statement, found 'b'");
}

TEST(ParserError, ExpectedTokens) {
  EXPECT_EQ(syntax_error("SELECT sum(a FROM t"), "1:14: expected ')' after the argument list, found 'FROM'");
  EXPECT_EQ(syntax_error("SELECT a FROM t WHERE"), "1:22: expected an expression, found end of input");
  EXPECT_EQ(syntax_error("SELECT a\nFROM t\nWHERE b = = 1"), "3:11: expected an expression, found '='");
  EXPECT_EQ(syntax_error("SELECT a FROM t JOIN u"), "1:23: expected ON or USING after the joined table, found end of input");
  EXPECT_EQ(syntax_error("SELECT CASE WHEN a THEN 1"), "1:26: expected END to close CASE, found end of input");
  EXPECT_EQ(syntax_error("SELECT CAST(a INT)"), "1:15: expected AS in CAST (expected CAST(value AS type)), found 'INT'");
  EXPECT_EQ(syntax_error("SELECT (1 + 2"), "1:14: expected ')' to close the parenthesis opened at 1:8, found end of input");
  EXPECT_EQ(syntax_error("SELECT a FROM t ORDER a"), "1:23: expected BY after ORDER, found 'a'");
  EXPECT_EQ(syntax_error("SELECT a b c FROM t"), "1:12: expected ';' or the end of input after the statement, found 'c'");
  EXPECT_EQ(syntax_error("SELECT 1 IN ()"), "1:14: expected a value in the IN list, found ')' (an IN list cannot be empty)");
  EXPECT_EQ(syntax_error("SELECT * FROM select"),
            "1:15: expected a table name, found reserved keyword 'select' (quote it to use it as a name)");
  EXPECT_EQ(syntax_error("SELECT FROM t"), "1:8: expected a select list after SELECT, found 'FROM'");
  EXPECT_EQ(syntax_error("SELECT a IS 5"), "1:13: expected NULL, NOT, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS, found '5'");
  EXPECT_EQ(syntax_error("CREATE TABLE t (a DECIMAL(39, 2))"), "1:19: DECIMAL precision 39 is out of range (1 to 38)");
  EXPECT_EQ(syntax_error("CREATE TABLE t (a DECIMAL(5, 6))"), "1:19: DECIMAL scale 6 is larger than its precision 5");
  EXPECT_EQ(syntax_error("VALUES (1, 2), (3)"), "1:16: VALUES lists must all be the same length (the first has 2 values, this one 1)");
  EXPECT_EQ(syntax_error("SELECT 1 UNION"), "1:15: expected SELECT, VALUES or '(' to start a query, found end of input");
  EXPECT_EQ(syntax_error("SELECT 'abc"), "1:8: unterminated quoted string");
  EXPECT_EQ(syntax_error("SELECT 1 /* open"), "1:10: unterminated /* comment");
}

TEST(ParserError, SingleStatement) {
  auto error_of = [](std::string_view sql) {
    try {
      parse_statement(sql);
    } catch (const SyntaxError& error) {
      return std::to_string(error.position()->column) + ": " + error.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("SELECT 1; SELECT 2"), "11: expected one statement, found a second one starting at 'SELECT'");
  EXPECT_EQ(error_of("SELECT a b c"), "12: expected the end of the statement, found 'c'");
  EXPECT_EQ(error_of("SELECT 1;;"), "no error");
  EXPECT_EQ(error_of("  "), "1: expected a statement, found end of input");
}

TEST(ParserError, Unsupported) {
  EXPECT_EQ(syntax_error("WITH RECURSIVE t AS (SELECT 1) SELECT * FROM t"), "1:6: WITH RECURSIVE is not supported");
  EXPECT_EQ(syntax_error("SELECT rank() OVER w FROM t"), "1:20: named windows (OVER name) are not supported");
  EXPECT_EQ(syntax_error("SELECT sum(a) OVER (ORDER BY a ROWS 1 PRECEDING) FROM t"),
            "1:37: window frames with offsets (n PRECEDING or n FOLLOWING) are not supported");
  EXPECT_EQ(syntax_error("SELECT sum(a) OVER (GROUPS UNBOUNDED PRECEDING) FROM t"),
            "1:21: GROUPS window frames are not supported");
  EXPECT_EQ(syntax_error("SELECT (1, 2)"), "1:10: row constructors like (a, b) are not supported");
  EXPECT_EQ(syntax_error("SELECT listagg(s ORDER BY s) WITHIN GROUP (ORDER BY s) FROM t"),
            "1:30: ORDER BY is given both inside the call and in WITHIN GROUP");
  EXPECT_EQ(syntax_error("SELECT listagg(s) WITHIN GROUP (s) FROM t"),
            "1:33: expected ORDER in WITHIN GROUP (, found 's'");
}

TEST(ParserError, DepthIsBounded) {
  std::string deep(5000, '(');
  deep = "SELECT " + deep + "1" + std::string(5000, ')');
  std::string message = syntax_error(deep);
  EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message;
  std::string subqueries;
  for (int i = 0; i < 2000; ++i) subqueries += "SELECT * FROM (";
  subqueries += "SELECT 1";
  for (int i = 0; i < 2000; ++i) subqueries += ") AS t";
  message = syntax_error(subqueries);
  EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message;
  std::string chain = "SELECT 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  message = syntax_error(chain);
  EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message;
  // Nesting and chains multiply: ((1 + 1 + ...) + 1 + ...) is as deep as it is long.
  std::string nested = "1";
  for (int level = 0; level < 100; ++level) {
    nested = "(" + nested + ")";
    for (int i = 0; i < 100; ++i) nested += " + 1";
  }
  message = syntax_error("SELECT " + nested);
  EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message;
  std::string nots = "SELECT ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  message = syntax_error(nots + "TRUE");
  EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message;
  // Long flat lists are not nesting.
  std::string ors = "SELECT * FROM t WHERE a = 0";
  for (int i = 1; i < 5000; ++i) ors += " OR a = " + std::to_string(i);
  EXPECT_EQ(syntax_error(ors), "no error");
  std::string in_list = "SELECT 1 IN (0";
  for (int i = 1; i < 20000; ++i) in_list += ", " + std::to_string(i);
  EXPECT_EQ(syntax_error(in_list + ")"), "no error");
  std::string moderate = "SELECT " + std::string(200, '(') + "1" + std::string(200, ')');
  EXPECT_EQ(syntax_error(moderate), "no error");
}

TEST(ParserError, ErrorsAreSyntaxErrorsWithCode) {
  try {
    parse_statement("SELECT * FORM t");
    FAIL();
  } catch (const SyntaxError& error) {
    EXPECT_EQ(error.code(), "42601");
    EXPECT_EQ(error.category(), ErrorCategory::kSyntax);
    ASSERT_TRUE(error.position());
    EXPECT_EQ(error.position()->offset, 9u);
  }
}

}  // namespace
}  // namespace kestrel
