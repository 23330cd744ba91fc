#include "record_parser.hpp"

#include <gtest/gtest.h>

namespace kestrel::slt {
namespace {

TEST(RecordParser, StatementsQueriesAndComments) {
  const char* text =
      "# name: test/sql/x.test\n"
      "# description: a file\n"
      "\n"
      "statement ok\n"
      "CREATE TABLE t(a INTEGER)\n"
      "\n"
      "statement error\n"
      "SELEC 1\n"
      "\n"
      "query IT rowsort my-label\n"
      "SELECT a,\n"
      "       'x'\n"
      "FROM t\n"
      "----\n"
      "1\tx\n"
      "2\tx\n"
      "\n"
      "query R\n"
      "SELECT 1.5\n"
      "----\n"
      "1.500\n";
  TestFile file = parse_test_file(text, "x.test");
  ASSERT_EQ(file.records.size(), 4u);
  EXPECT_EQ(file.path, "x.test");

  const Record& create = file.records[0];
  EXPECT_EQ(create.kind, RecordKind::kStatement);
  EXPECT_FALSE(create.expect_error);
  EXPECT_EQ(create.sql, "CREATE TABLE t(a INTEGER)");
  EXPECT_EQ(create.line, 4u);

  const Record& bad = file.records[1];
  EXPECT_EQ(bad.kind, RecordKind::kStatement);
  EXPECT_TRUE(bad.expect_error);
  EXPECT_EQ(bad.expected_error, "");
  EXPECT_EQ(bad.line, 7u);

  const Record& query = file.records[2];
  EXPECT_EQ(query.kind, RecordKind::kQuery);
  EXPECT_EQ(query.types, "IT");
  EXPECT_EQ(query.sort_mode, SortMode::kRowSort);
  EXPECT_EQ(query.label, "my-label");
  EXPECT_EQ(query.sql, "SELECT a,\n       'x'\nFROM t");
  EXPECT_EQ(query.expected_lines, (std::vector<std::string>{"1\tx", "2\tx"}));
  EXPECT_EQ(query.line, 10u);

  const Record& real = file.records[3];
  EXPECT_EQ(real.sort_mode, SortMode::kNoSort);
  EXPECT_EQ(real.expected_lines, (std::vector<std::string>{"1.500"}));
  EXPECT_EQ(count_runnable_records(file), 4u);
}

TEST(RecordParser, StatementErrorWithExpectedMessage) {
  TestFile file = parse_test_file(
      "statement error\nSELECT x FROM nowhere\n----\nBinder Error: table 'nowhere'\nsecond line\n", "f");
  ASSERT_EQ(file.records.size(), 1u);
  EXPECT_TRUE(file.records[0].expect_error);
  EXPECT_EQ(file.records[0].sql, "SELECT x FROM nowhere");
  EXPECT_EQ(file.records[0].expected_error, "Binder Error: table 'nowhere'\nsecond line");
}

TEST(RecordParser, StatementErrorWithMessageOnTheHeaderLine) {
  // The rest of the line, spacing inside kept and blanks around it dropped; a `${var}` in it is substituted.
  TestFile file = parse_test_file(
      "statement error   table 'nowhere'  does not exist \nSELECT x FROM nowhere\n\n"
      "statement error\tdivision by zero\nSELECT 1 / 0\n\n"
      "statement error\nSELEC 1\n\n"
      "statement error   \nSELEC 2\n\n"
      "loop i 0 2\nstatement error column 'c${i}' does not exist\nSELECT c${i}\n\nendloop\n",
      "f");
  ASSERT_EQ(file.records.size(), 6u);
  EXPECT_EQ(file.records[0].kind, RecordKind::kStatement);
  EXPECT_TRUE(file.records[0].expect_error);
  EXPECT_EQ(file.records[0].sql, "SELECT x FROM nowhere");
  EXPECT_EQ(file.records[0].expected_error, "table 'nowhere'  does not exist");
  EXPECT_EQ(file.records[1].expected_error, "division by zero");
  // SQLite's form: no text, any error.
  EXPECT_EQ(file.records[2].kind, RecordKind::kStatement);
  EXPECT_EQ(file.records[2].expected_error, "");
  EXPECT_EQ(file.records[3].expected_error, "");
  EXPECT_EQ(file.records[4].expected_error, "column 'c0' does not exist");
  EXPECT_EQ(file.records[5].expected_error, "column 'c1' does not exist");
}

TEST(RecordParser, ExpectedErrorGivenTwiceIsInvalid) {
  TestFile file = parse_test_file("statement error division by zero\nSELECT 1 / 0\n----\ndivision by zero\n", "f");
  ASSERT_EQ(file.records.size(), 1u);
  EXPECT_EQ(file.records[0].kind, RecordKind::kInvalid);
  EXPECT_NE(file.records[0].error.find("given twice"), std::string::npos) << file.records[0].error;
}

TEST(RecordParser, TextAfterStatementOkAndQueryErrorAreInvalid) {
  TestFile file = parse_test_file(
      "statement ok division by zero\nSELECT 1\n\nquery error division by zero\nSELECT 1 / 0\n\n"
      "statement ok\nSELECT 2\n",
      "f");
  ASSERT_EQ(file.records.size(), 3u);
  EXPECT_EQ(file.records[0].kind, RecordKind::kInvalid);
  EXPECT_NE(file.records[0].error.find("'division by zero' after 'statement ok'"), std::string::npos)
      << file.records[0].error;
  EXPECT_EQ(file.records[1].kind, RecordKind::kInvalid);
  EXPECT_EQ(file.records[1].line, 4u);
  EXPECT_NE(file.records[1].error.find("'query error' is not supported"), std::string::npos) << file.records[1].error;
  EXPECT_EQ(file.records[2].kind, RecordKind::kStatement);
  EXPECT_EQ(file.records[2].sql, "SELECT 2");
}

TEST(RecordParser, StatementOkWithResultIsInvalid) {
  TestFile file = parse_test_file("statement ok\nSELECT 1\n----\n1\n", "f");
  ASSERT_EQ(file.records.size(), 1u);
  EXPECT_EQ(file.records[0].kind, RecordKind::kInvalid);
}

TEST(RecordParser, QueryWithoutResultExpectsNoRows) {
  TestFile file = parse_test_file("query I\nSELECT 1 WHERE false\n\nquery I valuesort\nSELECT 1\n----\n", "f");
  ASSERT_EQ(file.records.size(), 2u);
  EXPECT_TRUE(file.records[0].expected_lines.empty());
  EXPECT_EQ(file.records[1].sort_mode, SortMode::kValueSort);
  EXPECT_TRUE(file.records[1].expected_lines.empty());
}

TEST(RecordParser, Conditions) {
  TestFile file = parse_test_file(
      "skipif mysql\nonlyif postgresql\nquery I\nSELECT 1\n----\n1\n\nonlyif sqlite\nstatement ok\nSELECT 2\n", "f");
  ASSERT_EQ(file.records.size(), 2u);
  const Record& first = file.records[0];
  EXPECT_EQ(first.line, 1u);
  ASSERT_EQ(first.conditions.size(), 2u);
  EXPECT_FALSE(first.conditions[0].only_if);
  EXPECT_EQ(first.conditions[0].engine, "mysql");
  EXPECT_TRUE(first.conditions[1].only_if);
  EXPECT_EQ(first.conditions[1].engine, "postgresql");
  EXPECT_EQ(first.kind, RecordKind::kQuery);
  ASSERT_EQ(file.records[1].conditions.size(), 1u);
  EXPECT_EQ(file.records[1].conditions[0].engine, "sqlite");
}

TEST(RecordParser, Directives) {
  TestFile file = parse_test_file(
      "hash-threshold 8\n\nmode skip\nmode unskip\nrequire parquet\n\nhalt\n\nstatement ok\nSELECT 1\n", "f");
  ASSERT_EQ(file.records.size(), 6u);
  EXPECT_EQ(file.records[0].kind, RecordKind::kHashThreshold);
  EXPECT_EQ(file.records[0].hash_threshold, 8);
  EXPECT_EQ(file.records[1].kind, RecordKind::kMode);
  EXPECT_EQ(file.records[1].argument, "skip");
  EXPECT_EQ(file.records[2].kind, RecordKind::kMode);
  EXPECT_EQ(file.records[2].argument, "unskip");
  EXPECT_EQ(file.records[3].kind, RecordKind::kRequire);
  EXPECT_EQ(file.records[3].argument, "parquet");
  EXPECT_EQ(file.records[4].kind, RecordKind::kHalt);
  EXPECT_EQ(file.records[5].kind, RecordKind::kStatement);
  EXPECT_EQ(count_runnable_records(file), 1u);
}

TEST(RecordParser, LoopsAreExpanded) {
  TestFile file = parse_test_file(
      "loop i 0 3\n\nquery I\nSELECT ${i} + 1\n----\n${i}\n\nendloop\n\n"
      "foreach t INTEGER BIGINT\n\nstatement ok\nSELECT CAST(1 AS ${t})\n\nendloop\n",
      "f");
  ASSERT_EQ(file.records.size(), 5u);
  EXPECT_EQ(file.records[0].sql, "SELECT 0 + 1");
  EXPECT_EQ(file.records[0].expected_lines, std::vector<std::string>{"0"});
  EXPECT_EQ(file.records[2].sql, "SELECT 2 + 1");
  EXPECT_EQ(file.records[2].line, 3u);
  EXPECT_EQ(file.records[3].sql, "SELECT CAST(1 AS INTEGER)");
  EXPECT_EQ(file.records[4].sql, "SELECT CAST(1 AS BIGINT)");
}

TEST(RecordParser, NestedLoopsAndUnclosedLoop) {
  TestFile nested = parse_test_file(
      "loop i 0 2\nloop j 0 2\nstatement ok\nSELECT ${i}, ${j}\n\nendloop\nendloop\n", "f");
  ASSERT_EQ(nested.records.size(), 4u);
  EXPECT_EQ(nested.records[3].sql, "SELECT 1, 1");

  TestFile unclosed = parse_test_file("loop i 0 2\nstatement ok\nSELECT ${i}\n", "f");
  ASSERT_EQ(unclosed.records.size(), 3u);
  EXPECT_EQ(unclosed.records[0].kind, RecordKind::kInvalid);
  EXPECT_EQ(unclosed.records[1].sql, "SELECT 0");

  TestFile stray = parse_test_file("endloop\n", "f");
  ASSERT_EQ(stray.records.size(), 1u);
  EXPECT_EQ(stray.records[0].kind, RecordKind::kInvalid);
}

TEST(RecordParser, MalformedRecordsBecomeInvalidAndParsingGoesOn) {
  TestFile file = parse_test_file(
      "frobnicate\nSELECT 1\n\nquery X\nSELECT 1\n----\n1\n\nstatement maybe\nSELECT 1\n\n"
      "hash-threshold x\n\nstatement ok\nSELECT 2\n",
      "f");
  ASSERT_EQ(file.records.size(), 5u);
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(file.records[k].kind, RecordKind::kInvalid) << k;
  EXPECT_NE(file.records[0].error.find("frobnicate"), std::string::npos);
  EXPECT_EQ(file.records[1].line, 4u);
  EXPECT_EQ(file.records[4].kind, RecordKind::kStatement);
  EXPECT_EQ(file.records[4].sql, "SELECT 2");
}

TEST(RecordParser, CarriageReturnsAndMissingFinalNewline) {
  TestFile file = parse_test_file("query T\r\nSELECT 'a'\r\n----\r\na", "f");
  ASSERT_EQ(file.records.size(), 1u);
  EXPECT_EQ(file.records[0].sql, "SELECT 'a'");
  EXPECT_EQ(file.records[0].expected_lines, std::vector<std::string>{"a"});
}

TEST(RecordParser, HashLineIsKeptAsExpectedLine) {
  TestFile file = parse_test_file(
      "hash-threshold 2\n\nquery I valuesort\nSELECT 1\n----\n3 values hashing to c0710d6b4f15dfa88f600b0e6b624077\n",
      "f");
  ASSERT_EQ(file.records.size(), 2u);
  EXPECT_EQ(file.records[1].expected_lines,
            std::vector<std::string>{"3 values hashing to c0710d6b4f15dfa88f600b0e6b624077"});
}

}  // namespace
}  // namespace kestrel::slt
