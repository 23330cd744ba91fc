// CSV reader: dialect handling (quotes, escapes, line endings, delimiters, nulls, headers, skip, batching).
#include <gtest/gtest.h>

#include "csv_test_util.hpp"

namespace kestrel {
namespace {

using csv_test::opts;
using csv_test::read_text;
using csv_test::Rows;
using csv_test::rows_of;
using csv_test::schema_of;

TEST(CsvDialect, HeaderAndPlainFields) {
  CsvTable t = read_text("id,name\n1,ann\n2,bob\n");
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"id BIGINT", "name VARCHAR"}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "ann"}, {"2", "bob"}}));
}

TEST(CsvDialect, QuotedFieldsWithDelimitersQuotesAndNewlines) {
  CsvTable t = read_text("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n\"line1\nline2\",\"\"\n");
  EXPECT_EQ(rows_of(t), (Rows{{"x,y", "say \"hi\""}, {"line1\nline2", ""}}));
}

TEST(CsvDialect, QuotedEmptyStringIsNotNull) {
  CsvTable t = read_text("a,b\n\"\",x\n,y\n", opts({{"types", "a VARCHAR"}, {"nullstr", "NULL"}}));
  Rows rows = rows_of(t);
  EXPECT_EQ(rows, (Rows{{"", "x"}, {"", "y"}}));
  EXPECT_EQ(t.batches[0].column(0)->null_count(), 0u);
}

TEST(CsvDialect, BackslashEscape) {
  CsvTable t = read_text("a,b\n\"x\\\"y\",\"p\\\\q\"\n", opts({{"escape", "\\"}}));
  EXPECT_EQ(rows_of(t), (Rows{{"x\"y", "p\\q"}}));
}

TEST(CsvDialect, CrlfLineEndings) {
  CsvTable t = read_text("a,b\r\n1,\"x\r\ny\"\r\n2,z\r\n");
  EXPECT_EQ(rows_of(t), (Rows{{"1", "x\r\ny"}, {"2", "z"}}));
}

TEST(CsvDialect, NoFinalLineBreak) {
  EXPECT_EQ(rows_of(read_text("a,b\n1,2")), (Rows{{"1", "2"}}));
  EXPECT_EQ(rows_of(read_text("a,b\n1,\"2\"")), (Rows{{"1", "2"}}));
}

TEST(CsvDialect, BlankLinesAreSkipped) {
  EXPECT_EQ(rows_of(read_text("a,b\n\n1,2\n\r\n\n3,4\n\n")), (Rows{{"1", "2"}, {"3", "4"}}));
}

TEST(CsvDialect, TblTrailingDelimiterSniffed) {
  CsvTable t = read_text("1|abc|2.50|\n2|de f|3.25|\n", opts({{"delim", "|"}, {"header", "false"}}));
  EXPECT_EQ(schema_of(t),
            (std::vector<std::string>{"column0 BIGINT", "column1 VARCHAR", "column2 DECIMAL(18,2)"}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "abc", "2.50"}, {"2", "de f", "3.25"}}));
}

TEST(CsvDialect, TblTrailingDelimiterWithExplicitSchema) {
  CsvTable t = read_text("1|abc|\n2|x|\n", opts({{"delim", "|"}, {"header", "false"},
                                                  {"columns", "k INTEGER, s VARCHAR"}}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "abc"}, {"2", "x"}}));
}

TEST(CsvDialect, TrailingDelimiterOffKeepsEmptyColumn) {
  CsvTable t = read_text("1|a|\n2|b|\n", opts({{"delim", "|"}, {"header", "false"}, {"trailing_delimiter", "false"}}));
  EXPECT_EQ(t.schema->size(), 3u);
  // The all-empty third column sniffs as VARCHAR, whose empty fields are empty strings.
  EXPECT_EQ(schema_of(t)[2], "column2 VARCHAR");
  EXPECT_EQ(rows_of(t), (Rows{{"1", "a", ""}, {"2", "b", ""}}));
}

TEST(CsvDialect, TabDelimiter) {
  EXPECT_EQ(rows_of(read_text("a\tb\n1\tx y\n", opts({{"delim", "\\t"}}))), (Rows{{"1", "x y"}}));
}

TEST(CsvDialect, QuotingDisabled) {
  CsvTable t = read_text("a,b\n\"x,y\"\n", opts({{"quote", ""}}));
  EXPECT_EQ(rows_of(t), (Rows{{"\"x", "y\""}}));
}

TEST(CsvDialect, QuoteInsideUnquotedFieldIsLiteral) {
  EXPECT_EQ(rows_of(read_text("a,b\nx\"y,2\n")), (Rows{{"x\"y", "2"}}));
}

TEST(CsvDialect, DefaultNullRules) {
  // Empty fields are NULL in non-string columns and empty strings in VARCHAR columns.
  CsvTable t = read_text("a,b,c\n1,,x\n,,\n", opts({{"types", "b VARCHAR, c VARCHAR"}}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "", "x"}, {"NULL", "", ""}}));
}

TEST(CsvDialect, ExplicitEmptyNullStringAppliesToVarchar) {
  // As DuckDB's COPY TO writes: NULL as an empty field, the empty string as "".
  CsvTable t = read_text("a,b\n1,\n2,\"\"\n,x\n", opts({{"nullstr", ""}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"a BIGINT", "b VARCHAR"}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "NULL"}, {"2", ""}, {"NULL", "x"}}));
}

TEST(CsvDialect, NullString) {
  CsvTable t = read_text("a,b\nNULL,NULL\n1,\"NULL\"\n,x\n", opts({{"nullstr", "NULL"}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"a BIGINT", "b VARCHAR"}));
  EXPECT_EQ(rows_of(t), (Rows{{"NULL", "NULL"}, {"1", "NULL"}, {"NULL", "x"}}));
  // The quoted "NULL" is text.
  EXPECT_TRUE(t.batches[0].column(1)->is_valid(1));
  EXPECT_FALSE(t.batches[0].column(1)->is_valid(0));
}

TEST(CsvDialect, BackslashNNullString) {
  CsvTable t = read_text("a|b\n\\N|x\n3|\\N\n", opts({{"delim", "|"}, {"nullstr", "\\N"}}));
  EXPECT_EQ(rows_of(t), (Rows{{"NULL", "x"}, {"3", "NULL"}}));
}

TEST(CsvDialect, NoNullsMeansNoValidityBitmap) {
  CsvTable t = read_text("a,b\n1,x\n2,y\n");
  EXPECT_EQ(t.batches[0].column(0)->validity(), nullptr);
  EXPECT_EQ(t.batches[0].column(1)->validity(), nullptr);
}

TEST(CsvDialect, NoHeaderNamesColumns) {
  CsvTable t = read_text("1,x\n2,y\n", opts({{"header", "false"}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"column0 BIGINT", "column1 VARCHAR"}));
  EXPECT_EQ(rows_of(t).size(), 2u);
}

TEST(CsvDialect, NamesOptionAndDuplicateHeaderNames) {
  EXPECT_EQ(schema_of(read_text("a,A,,b\n1,2,3,4\n")),
            (std::vector<std::string>{"a BIGINT", "A_1 BIGINT", "column2 BIGINT", "b BIGINT"}));
  EXPECT_EQ(schema_of(read_text("1,2\n", opts({{"header", "false"}, {"names", "x, y"}}))),
            (std::vector<std::string>{"x BIGINT", "y BIGINT"}));
}

TEST(CsvDialect, SkipRows) {
  // The second skipped line opens a quote: skipping counts physical lines without parsing them.
  CsvTable t = read_text("garbage line\nmore, \"garbage\nid,v\n1,2\n", opts({{"skip", "2"}}));
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"id BIGINT", "v BIGINT"}));
  EXPECT_EQ(rows_of(t), (Rows{{"1", "2"}}));
}

TEST(CsvDialect, EmptyFile) {
  CsvTable t = read_text("");
  EXPECT_EQ(t.schema->size(), 0u);
  EXPECT_EQ(t.num_rows(), 0u);
  CsvTable u = read_text("", opts({{"columns", "a INTEGER, b VARCHAR"}}));
  EXPECT_EQ(schema_of(u), (std::vector<std::string>{"a INTEGER", "b VARCHAR"}));
  EXPECT_EQ(u.num_rows(), 0u);
}

TEST(CsvDialect, HeaderOnly) {
  CsvTable t = read_text("a,b,c\n");
  EXPECT_EQ(schema_of(t), (std::vector<std::string>{"a VARCHAR", "b VARCHAR", "c VARCHAR"}));
  EXPECT_EQ(t.num_rows(), 0u);
  EXPECT_TRUE(t.batches.empty());
}

TEST(CsvDialect, BatchSizes) {
  std::string text = "v\n";
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + "\n";
  CsvTable t = read_text(text, opts({{"batch_size", "300"}}));
  ASSERT_EQ(t.batches.size(), 4u);
  EXPECT_EQ(t.batches[0].num_rows(), 300u);
  EXPECT_EQ(t.batches[3].num_rows(), 100u);
  EXPECT_EQ(t.batches[3].column(0)->value_at(99).as_int64(), 999);
}

/// Many small blocks and several threads must give exactly the single-threaded result, also when quoted fields
/// with line breaks straddle the chunk split points.
TEST(CsvDialect, ParallelBlocksMatchSingleThread) {
  std::string text = "id,note,amount\n";
  for (int i = 0; i < 20000; ++i) {
    text += std::to_string(i) + ",";
    if (i % 7 == 0) {
      text += "\"multi\nline, \"\"quoted\"\"\n" + std::to_string(i) + "\"";
    } else {
      text += "plain" + std::to_string(i);
    }
    text += "," + std::to_string(i) + "." + std::to_string(i % 100 / 10) + std::to_string(i % 10) + "\n";
  }
  CsvTable one = read_text(text, opts({{"threads", "1"}, {"block_size", "1048576"}}));
  CsvTable many = read_text(text, opts({{"threads", "4"}, {"block_size", "1048576"}, {"batch_size", "777"}}));
  CsvTable tiny = read_text(text, opts({{"threads", "3"}, {"block_size", "1024"}, {"batch_size", "5000"}}));
  EXPECT_EQ(one.num_rows(), 20000u);
  EXPECT_EQ(rows_of(one), rows_of(many));
  EXPECT_EQ(rows_of(one), rows_of(tiny));
  EXPECT_EQ(rows_of(one)[7][1], "multi\nline, \"quoted\"\n7");
}

TEST(CsvDialect, RecordLongerThanBlock) {
  std::string big(5000, 'x');
  CsvTable t = read_text("a,b\n1," + big + "\n2,\"" + big + "\n" + big + "\"\n", opts({{"block_size", "1024"}}));
  Rows rows = rows_of(t);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][1], big);
  EXPECT_EQ(rows[1][1], big + "\n" + big);
}

TEST(CsvDialect, MultiFileGlobAndFolder) {
  csv_test::TempDir dir;
  dir.write("t/part1.csv", "k,v\n1,a\n2,b\n");
  dir.write("t/part2.csv", "k,v\n3,c\n");
  dir.write("t/_SUCCESS", "");
  dir.write("t/.hidden", "junk");
  CsvTable by_folder = read_csv_file(dir.path() + "/t");
  EXPECT_EQ(rows_of(by_folder), (Rows{{"1", "a"}, {"2", "b"}, {"3", "c"}}));
  CsvTable by_glob = read_csv_file(dir.path() + "/t/part*.csv");
  EXPECT_EQ(rows_of(by_glob), rows_of(by_folder));
  auto reader = CsvReader::open(dir.path() + "/t/*.csv", {});
  EXPECT_EQ(reader->files().size(), 2u);
}

TEST(CsvDialect, MultiFileHeaderMismatchIsAnError) {
  csv_test::TempDir dir;
  dir.write("a.csv", "k,v\n1,a\n");
  dir.write("b.csv", "k,w\n2,b\n");
  try {
    read_csv_file(dir.path() + "/*.csv");
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("b.csv': header (k, w) differs"), std::string::npos) << e.what();
  }
}

TEST(CsvDialect, NoMatchingFiles) {
  csv_test::TempDir dir;
  EXPECT_THROW(read_csv_file(dir.path() + "/*.csv"), InvalidInput);
  EXPECT_THROW(read_csv_file(dir.path() + "/missing.csv"), IoError);
}

TEST(CsvDialect, OptionsSetAndValidate) {
  CsvOptions o;
  o.set("sep", ";");
  EXPECT_EQ(o.delimiter, ';');
  o.set("trailing_delimiter", "true");
  EXPECT_EQ(o.trailing_delimiter, CsvTrailingDelimiter::kYes);
  o.set("columns", "a DECIMAL(15, 2), \"b c\" VARCHAR(10), d DOUBLE PRECISION");
  ASSERT_EQ(o.columns.size(), 3u);
  EXPECT_EQ(o.columns[0].type, LogicalType::decimal(15, 2));
  EXPECT_EQ(o.columns[1].name, "b c");
  EXPECT_EQ(o.columns[2].type, LogicalType(TypeId::kDouble));
  EXPECT_THROW(o.set("no_such_option", "1"), InvalidInput);
  EXPECT_THROW(o.set("header", "maybe"), InvalidInput);
  EXPECT_THROW(o.set("delim", "ab"), InvalidInput);
  EXPECT_THROW(o.set("columns", "a WIDGET"), InvalidInput);
  CsvOptions same;
  same.delimiter = '"';
  EXPECT_THROW(same.validate(), InvalidInput);
}

}  // namespace
}  // namespace kestrel
